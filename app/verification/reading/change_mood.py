"""Whether a text reports a change or only intends one, and which way a reported change goes.

A commitment, aim, plan or forecast ("committed to cutting emissions", "a 39% reduction by 2035") is
an intention; a direction word outside one ("emissions fell 8%") reports a change. The rule reader
of sources (`app.verification.reading.contradictions`) never compares an intended figure with a reported one,
and compares directions of change only when both are reported. A negated direction word ("did not
cut", "no reduction", `denials`) reports no change; it denies one (`denied_change`). Phrases such as
"made up 64%", "up to 30%" or "broken down by scope" report none either. A figure's own direction
(`figure_direction`: "rose 30%", "a 30% rise") tells "reduced by 30%" from "rose 30%".
"""

from __future__ import annotations

import datetime as dt
import re

from app.language.figures import parse_figures
from app.language.intentions import INTENTION
from app.verification.reading.denials import FELL_SHORT_OF, denied_direction, negated_word

_I = re.IGNORECASE
#: What was done, right before "12% less": a verb of using, emitting, making or buying in the past
#: ("applied 12% less", "used about 9% more"); "new trucks use 20% less diesel" compares models, and
#: "reported 35% more inspections" says nothing of the claim's quantity.
_USED = r"used|consumed|emitted|burned|burnt|withdrew|generated|produced"
_DID = (
    rf"(?:{_USED}|drew|applied|spent|bought|purchased|sold|shipped|sent|landfilled|recycled)\s"
    r"(?:about\s|around\s|some\s|nearly\s|almost\s)?\d+(?:\.\d+)?\s?"
)
#: After "12% less": not "than" something other than an earlier time ("than in 2021", "than a year
#: earlier" keep it a change).
_NOT_AGAINST_OTHERS = (
    r"(?!(?:\s[\w-]+){0,4}?\sthan\s(?!in\b|a\syear|the\s(?:previous|prior|year)|last\syear|"
    r"(?:FY\s?)?(?:19|20)\d\d))"
)
DECREASE = re.compile(
    r"\b(?:decreas\w*|reduc\w*|fell|fall(?:s|ing)?|cut(?:s|ting)?|lower\w*|declin\w*|dropp?\w*|down|"
    r"slipp(?:ed|ing)|slid|dipp(?:ed|ing)|sank|plung\w*|tumbl\w*|"
    rf"(?:{_USED})\s(?:[\w-]+\s){{0,3}}?(?:less|fewer)|"
    # "applied 12% less fertiliser": a share less of something is a decrease, whatever the verb; less
    # than something else ("20% less than the industry average") is a comparison, not a change
    rf"{_DID}(?:%|per\scent|percent)\s(?:less|fewer){_NOT_AGAINST_OTHERS})\b",
    _I,
)
INCREASE = re.compile(
    r"\b(?:increas\w*|rose|rise[sn]?|rising|grew|grow(?:s|n|ing)?|higher(?!\seducation)|up|climb\w*|jump\w*|"
    rf"surg\w*|(?:{_USED})\s(?:[\w-]+\s){{0,3}}?more|"
    rf"{_DID}(?:%|per\scent|percent)\smore{_NOT_AGAINST_OTHERS})\b",
    _I,
)
# After a change, a target word or a deadline still to come ("a 39% reduction by 2035") makes it one.
_INTENDED_AFTER = re.compile(
    r"\b(?:target\w*|goals?|ambition|commitment|pledge)\b|\bby\s(?:FY\s?)?(20\d\d)\b", _I
)
# Right after a figure and the words of what it is, that it is still to be done: "1.9 GW of wind
# capacity waiting to be connected" ("… in 2023 that are awaiting recycling" says it of the things).
_STILL_TO_BE_DONE_AFTER = re.compile(
    r"(?:\s(?!(?:in|that|which|with|and|while|after|for|to|from|at|on)\b)[\w'’-]+){0,5}?\s"
    r"(?:(?:waiting|yet|still|due|scheduled)\sto\sbe|awaiting|pending)\b",
    _I,
)
# Right before a figure, a deed done with it: "installed", "retired 3 coal units".
_DONE_BEFORE = re.compile(
    r"\b(?!(?:planned|scheduled|expected|proposed|delayed)\b)[a-z]{3,}ed\s"
    r"(?:(?:about|around|some|roughly|nearly|almost|over|just)\s)?$",
    _I,
)
# An obligation is an intention too: "must cut leakage to 212 Ml/d by 2025".
_OBLIGED = re.compile(r"\b(?:must|(?:is|are)\s(?:required|obliged)\sto|ha(?:s|ve)\sto)\b", _I)
# "pressure to cut", "plans to reduce": an infinitive reports no change.
_INFINITIVE = re.compile(r"\bto\s$", _I)
# A verb of its own in a clause ("which were 2.3 Mt"): the clause says something of its own.
_OWN_VERB = re.compile(
    r"\b(?:was|were|is|are|has|have|had|made|came|stood|held|ran|drew|sold|bought|paid|spent|built|took|"
    r"[a-z]{3,}ed)\b",
    _I,
)
# Phrases with a direction word that report no change: "made up 64%", "up to 30%", "broken down".
_NOT_A_CHANGE = re.compile(
    r"\b(?:(?:made|make|makes|making|set|sets|taken?|takes|took|picked|ended|add(?:s|ed)?|back(?:ed)?|"
    r"summ?ed|line[sd]?)\sup\b|\bup\sto\b|\b(?:broken?|breaks?|breaking|wind|wound|step(?:s|ped)?|"
    r"hand(?:s|ed)?|turn(?:s|ed)?)\sdown\b)",
    _I,
)
_DECREASE_AFTER = re.compile(
    r"^\s?(?:[a-z]+\s)?(?:lower|less|fewer|down|below|(?:reduction|decrease|decline|cut|drop|fall)s?)\b", _I
)
_INCREASE_AFTER = re.compile(
    r"^\s?(?:[a-z]+\s)?(?:higher|more|up|above|(?:increase|rise|growth|jump)s?)\b", _I
)
# A target named as what something is measured against is no intention of the figure, and a change
# word in its name is no change: "20% of the CEO's bonus is linked to emissions-reduction targets",
# "climate targets accounted for 15% of its incentive plan".
_MEASURED_AGAINST_TARGETS = re.compile(
    r"\b(?:linked|tied|pegged|dependent|depend(?:s|ed|ing)?|based|conditional|contingent)\s"
    # only a share of what is tied may lie between ("tied 15% of its bonus to climate targets"), and no
    # figure before the targets ("tied to an 11% cut … to meet IMO targets" is a condition)
    r"(?:[\d.]+\s?(?:%|per\scent|percent|pc)\sof\s(?:[\w'’-]+\s){0,7}?)?(?:to|on|upon)\s"
    r"(?:(?![\w'’-]*\d)(?!(?:meet|reach|hit|satisfy|achieve)\b)[\w'’-]+\s){0,4}?(?:targets?|goals?|metrics?|KPIs?)\b"
    # a target followed by what it is ("a goal of cutting …", "targets to cut …") stays an intention
    r"(?!\s(?:of|to|for|such\sas|including|like|that|which|set)\b)|"
    r"\b(?:targets?|goals?)\s(?:accounted\sfor|made\sup|determined)\b",
    _I,
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


def targets_measured_against(text: str) -> list[tuple[int, int]]:
    """Where `text` names targets something is measured against ("linked to emissions-reduction
    targets"): no intention of a figure, and no change reported."""
    return [phrase.span() for phrase in _MEASURED_AGAINST_TARGETS.finditer(text)]


def within(position: int, spans: list[tuple[int, int]]) -> bool:
    """Whether `position` lies inside one of `spans`."""
    return any(start <= position < end for start, end in spans)


def _naming_no_change(text: str) -> list[tuple[int, int]]:
    """Where `text` has a direction word that reports no change: a phrase naming none ("made up 64%",
    "up to 30%") or targets something is measured against."""
    return [phrase.span() for phrase in _NOT_A_CHANGE.finditer(text)] + targets_measured_against(text)


def mood(text: str, start: int, end: int) -> str:
    """How a figure at `start:end` is stated: "intended" (a commitment, aim, plan or forecast),
    "reported" (a change that happened: a direction word in its clause), else "stated"."""
    if intended(text, start, end):
        return "intended"
    begin, stop = _clause(text, start, end)
    clause = text[begin:stop]
    named = _naming_no_change(clause)
    changes = [
        match
        for match in (*DECREASE.finditer(clause), *INCREASE.finditer(clause))
        if not within(match.start(), named)
    ]
    if any(not intended(text, begin + m.start(), begin + m.end()) for m in changes):
        return "reported"
    if not _OWN_VERB.search(clause):
        # A figure phrase without a verb of its own continues what the sentence says before it: an
        # intention ("aims to cut emissions by 12 per cent by 2025, to 2.3 million tonnes") or a
        # reported change ("reduced emissions by 12% in 2022, to 2.3 Mt").
        return _inherited_mood(text[:begin])
    return "stated"


def _inherited_mood(before: str) -> str:
    """The mood of the nearest intention or reported change in `before`, else "stated"."""
    intentions = _intentions(before)
    changes = [
        match.start() for pattern in (DECREASE, INCREASE) for match in _direction_words(before, pattern)
    ]
    if not intentions and not changes:
        return "stated"
    return "intended" if max(intentions, default=-1) > max(changes, default=-1) else "reported"


def _intends(text: str) -> bool:
    return bool(_intentions(text))


def _intentions(text: str) -> list[int]:
    """Where `text` states an intention, leaving out a target missed ("missed its leakage target,
    losing 171 Ml a day" reports an outcome)."""
    targets = targets_measured_against(text)
    return [
        match.start()
        for match in (*INTENTION.finditer(text), *_OBLIGED.finditer(text))
        if not _MISSED_BEFORE.search(text, 0, match.start()) and not within(match.start(), targets)
    ]


#: Words that report a target not met: what follows them is an outcome, not an intention.
_MISSED_BEFORE = re.compile(
    rf"\b(?:miss(?:ed|es|ing)?|{FELL_SHORT_OF}|fail(?:ed|s)?\sto\s(?:meet|reach|hit))\s"
    r"(?:[\w'’-]+\s){0,3}$",
    _I,
)


def same_mood(first: str, second: str) -> bool:
    """An intention is never compared with a reported change; a plain statement with either."""
    return {first, second} != {"intended", "reported"}


def intended(text: str, start: int, end: int) -> bool:
    """Whether the words at `start:end` state an intention (a commitment, aim, plan or forecast)
    rather than a reported change: an intention word before them in their clause, or a target word
    or a deadline still to come after them ("a 39% reduction by 2035")."""
    begin, stop = _clause(text, start, end)
    if _intends(text[begin:start]):
        return True
    following = text[end:stop]
    phrase_end = _NEXT_PHRASE.search(following)
    following = following[: phrase_end.start()] if phrase_end else following
    # a target word after the next figure is that figure's ("61% …, short of the 72% it had targeted")
    figures = parse_figures(following)
    following = following[: figures[0].start] if figures else following
    if _STILL_TO_BE_DONE_AFTER.match(text, end) and not _DONE_BEFORE.search(text, begin, start):
        return True  # "installed 1.9 GW pending connection" installed it
    this_year = dt.date.today().year
    measured = targets_measured_against(text)
    return any(
        (match.group(1) is None or int(match.group(1)) >= this_year)
        and not within(end + match.start(), measured)
        for match in _INTENDED_AFTER.finditer(following)
    )


def _direction_words(text: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """The direction words of `pattern` in `text` that report a change: not an intention, not
    negated ("did not cut", `denials.negated_word`), and not part of a phrase that names no change
    ("made up 64%", "up to 30%", "broken down by scope")."""
    phrases = _naming_no_change(text)
    return [
        match
        for match in pattern.finditer(text)
        if not within(match.start(), phrases)
        and not intended(text, match.start(), match.end())
        and not negated_word(text, match.start())
        and not _INFINITIVE.search(text[max(0, match.start() - 4) : match.start()])
    ]


def reported_direction(text: str) -> str | None:
    """The direction of change `text` reports; intentions ("committed to cutting") and negated
    changes ("did not cut") do not count."""
    down = bool(_direction_words(text, DECREASE))
    up = bool(_direction_words(text, INCREASE))
    if down == up:
        return None
    return "decrease" if down else "increase"


def denied_change(text: str) -> str | None:
    """The direction of change `text` denies ("did not cut", "no reduction"), if exactly one."""
    return denied_direction(text, DECREASE, INCREASE)


def figure_direction(text: str, start: int, end: int) -> str | None:
    """The direction of the change a figure at `start:end` belongs to: the last direction word
    before it in its clause ("rose 30%", "reduced … by 30%", "fell 12% to 2.3 Mt"), else one right
    after it ("a 30% rise", "30% lower"); None when its clause reports none."""
    begin, stop = _clause(text, start, end)
    before = [
        (match.start(), name)
        for name, pattern in (("decrease", DECREASE), ("increase", INCREASE))
        for match in _direction_words(text[begin:start], pattern)
    ]
    if before:
        return max(before)[1]
    after = text[end:stop]
    for name, pattern in (("decrease", _DECREASE_AFTER), ("increase", _INCREASE_AFTER)):
        if pattern.match(after):
            return name
    return None
