"""Whether a text reports a change or only intends one, and which way a reported change goes.

A commitment, aim, plan or forecast ("committed to cutting emissions", "a 39% reduction by 2035") is
an intention; a direction word outside one ("emissions fell 8%") reports a change. The rule reader
of sources (`app.specialists.contradictions`) never compares an intended figure with a reported one,
and compares directions of change only when both are reported.
"""

from __future__ import annotations

import datetime as dt
import re

_I = re.IGNORECASE
DECREASE = re.compile(
    r"\b(?:decreas\w*|reduc\w*|fell|fall(?:s|ing)?|cut(?:s|ting)?|lower\w*|declin\w*|dropp?\w*|down)\b", _I
)
INCREASE = re.compile(
    r"\b(?:increas\w*|rose|rise[sn]?|rising|grew|grow(?:s|n|ing)?|higher|up|climb\w*|jump\w*|surg\w*)\b", _I
)
# What a text says will or should happen (a commitment, an aim, a plan, a forecast), as opposed to a
# change it reports: "committed to cutting emissions" is not a reported decrease.
INTENTION = re.compile(
    r"\b(?:commit\w*|pledg\w*|aim(?:s|ed|ing)?|plan(?:s|ned|ning)? to|intend\w*|intention\w*|target\w*|"
    r"goals?|ambitio\w*|aspir\w*|seek(?:s|ing)? to|striv\w*|will|shall|would|going to|expect\w* to|"
    r"wants? to|promis\w*|vow\w*|work(?:s|ing)? (?:to|toward\w*)|hop(?:e|es|ing) to|on track to|"
    r"set to|in order to)\b",
    _I,
)
# After a change, a target word or a deadline still to come ("a 39% reduction by 2035") makes it one.
_INTENDED_AFTER = re.compile(
    r"\b(?:target\w*|goals?|ambition|commitment|pledge)\b|\bby\s(?:FY\s?)?(20\d\d)\b", _I
)
_CLAUSE_END = re.compile(r"[;:—–()]|,\s|\s-\s|\.\s")
# A new verb phrase ("… to 2.3 Mt and remains committed to net zero by 2040") ends what follows a change.
_NEXT_PHRASE = re.compile(r"\s(?:and|but|while|whereas|as|although)\s(?!(?:scopes?\s?)?\d)", _I)


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the clause holding `start:end`."""
    begin, stop = 0, len(text)
    for cut in _CLAUSE_END.finditer(text):
        if cut.end() <= start:
            begin = cut.end()
        elif cut.start() >= end:
            stop = cut.start()
            break
    return begin, stop


def mood(text: str, start: int, end: int) -> str:
    """How a figure at `start:end` is stated: "intended" (a commitment, aim, plan or forecast),
    "reported" (a change that happened: a direction word in its clause), else "stated"."""
    if intended(text, start, end):
        return "intended"
    begin, stop = _clause(text, start, end)
    clause = text[begin:stop]
    changes = [*DECREASE.finditer(clause), *INCREASE.finditer(clause)]
    if any(not intended(text, begin + m.start(), begin + m.end()) for m in changes):
        return "reported"
    return "stated"


def same_mood(first: str, second: str) -> bool:
    """An intention is never compared with a reported change; a plain statement with either."""
    return {first, second} != {"intended", "reported"}


def intended(text: str, start: int, end: int) -> bool:
    """Whether the words at `start:end` state an intention (a commitment, aim, plan or forecast)
    rather than a reported change: an intention word before them in their clause, or a target word
    or a deadline still to come after them ("a 39% reduction by 2035")."""
    begin, stop = _clause(text, start, end)
    if INTENTION.search(text[begin:start]):
        return True
    following = text[end:stop]
    phrase_end = _NEXT_PHRASE.search(following)
    following = following[: phrase_end.start()] if phrase_end else following
    this_year = dt.date.today().year
    return any(
        match.group(1) is None or int(match.group(1)) >= this_year
        for match in _INTENDED_AFTER.finditer(following)
    )


def reported_direction(text: str) -> str | None:
    """The direction of change `text` reports; intentions ("committed to cutting") do not count."""
    down = any(not intended(text, m.start(), m.end()) for m in DECREASE.finditer(text))
    up = any(not intended(text, m.start(), m.end()) for m in INCREASE.finditer(text))
    if down == up:
        return None
    return "decrease" if down else "increase"
