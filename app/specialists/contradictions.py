"""Rule-based reading of one source against one claim (FRD-08 Appendix D), the path taken without
an LLM or when the LLM fails.

The source is read sentence by sentence (`web_evidence` has already set aside sources that never
name the report's company). A sentence counts only when it shares the claim's topic (at
least two content words, or an overlapping emissions scope). A contradiction or support also needs
the company named in the sentence or the title. A sentence about another period (both state years,
none shared) says nothing about the claim's figures or direction of change. Figures (and counts,
"167 warehouses") are compared only for the same quantity: the same dimension and currency, one
stated year, the same emissions quantity (Scope 1, Scope 1+2, Scope 3 and the total of all three
scopes are four different ones; a source figure that names none is taken as the claim's, its
sentence sharing the claim's topic; a site's figure only with that site's), and a comparable mood:
a commitment, aim, plan or forecast ("committed to cutting", "a 39% reduction by 2035") is an
intention, and an intention is never compared with a reported change. Directions of change are
compared only when both are reported and the sentence names no other quantity than the claim. A
source rejecting the claim's figure ("60 sites, not 167") states a different figure. A different
figure, and any direction of change, also needs the two sentences to measure alike
(`figure_subjects`): a shared word beyond units and periods, the same qualifiers (avoided, saved,
supplier, commuting ...), and for figures the same role (a change amount is never a level).
Signals, strongest first: a different figure for the same quantity (direct, 0.9), the opposite
direction of change (direct, 0.85), a delayed or missed deadline (timeline, 0.8), enforcement or
litigation (omission, 0.75), and criticism (contextual, 0.7). The same figure (0.6) or the same
reported direction (0.5) counts as support. The sentence relied on is kept as the quote, so the
quote check can confirm it is in the source.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from app.claims.sentences import split_sentences
from app.knowledge.keywords import tokens
from app.specialists.company_names import names_company
from app.specialists.figure_subjects import measure_alike, role, same_role, subject_words
from app.specialists.figures import (
    Figure,
    covered_scopes,
    denied,
    denied_numbers,
    parse_counts,
    parse_figures,
    parse_years,
    quantities,
    quantity_at,
    stated_year,
)
from app.specialists.search_queries import STOPWORDS

RELATIVE_TOLERANCE = 0.01
MIN_SHARED_WORDS = 2

_I = re.IGNORECASE
DECREASE = re.compile(
    r"\b(?:decreas\w*|reduc\w*|fell|fall(?:s|ing)?|cut(?:s|ting)?|lower\w*|declin\w*|dropp?\w*|down)\b", _I
)
INCREASE = re.compile(
    r"\b(?:increas\w*|rose|rise[sn]?|rising|grew|grow(?:s|n|ing)?|higher|up|climb\w*|jump\w*|surg\w*)\b", _I
)
DELAY = re.compile(
    r"\b(?:delay\w*|postpon\w*|push(?:ed|es)? back|abandon\w*|scrap\w*|dropp(?:ed|ing) (?:its|the) target|"
    r"missed|miss(?:es)? (?:its|the)|will not (?:meet|reach|achieve)|behind schedule|watered down|"
    r"backtrack\w*|retreat\w*)\b",
    _I,
)
ENFORCEMENT = re.compile(
    r"\b(?:fined|fines|(?:a|the) fine|penalt\w*|lawsuits?|sued|su(?:es|ing)|charged|indict\w*|enforcement|"
    r"violat\w*|investigat\w*|probe[sd]?|prosecut\w*|settle(?:d|ment)|court|sanction\w*|"
    r"greenwash\w*|misleading|breach\w*)\b",
    _I,
)
CRITICISM = re.compile(
    r"\b(?:criticis\w*|criticiz\w*|accus\w*|controvers\w*|fail(?:ed|s|ure)|but still|"
    r"still relies|questionable|doubts?|undermin\w*|offsets? rather|certificates rather|overstat\w*)\b",
    _I,
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
_TARGET_YEAR = re.compile(r"\b(?:by|in|to|until)\s+((?:19|20)\d{2})\b", _I)
# A figure for one site or segment ("at the Kitimat smelter") is not the group's figure.
_SITE = re.compile(
    r"\b(?:at|from|in|for)\s(?:the|our|its|one|a)?\s?(?:[A-Z][\w-]*\s){0,3}"
    r"(smelter|refinery|plant|site|mine|facility|factory|division|segment)\b",
    _I,
)


@dataclass(frozen=True)
class SourceAssessment:
    """How one source bears on a claim.

    `stance` is "contradicts", "supports", "neutral" (on topic, no signal) or "irrelevant".
    `signal` names the rule that fired; `quote` is the source sentence relied on.
    """

    stance: str
    contradiction_type: str | None
    confidence: float
    explanation: str
    quote: str | None
    signal: str | None
    method: str = "rules"


def content_words(text: str) -> set[str]:
    """Lower-case content words, crudely singularised, without stopwords and numbers."""
    words = set()
    for token in tokens(text):
        if token.isdigit() or token in STOPWORDS or len(token) < 3:
            continue
        words.add(token[:-1] if token.endswith("s") and len(token) > 4 else token)
    return words


def assess_by_rules(claim_text: str, company: str, title: str, source_text: str) -> SourceAssessment:
    """The strongest signal among the source's on-topic sentences (see the module docstring)."""
    sentences = [title, *(s.text for s in split_sentences(1, source_text))]
    claim_words = content_words(claim_text)
    claim_scopes = covered_scopes(claim_text)
    about_company = names_company(title, company)
    best: SourceAssessment | None = None
    on_topic = False
    for sentence in sentences:
        shared = claim_words & content_words(sentence)
        scopes = covered_scopes(sentence)
        if claim_scopes and scopes and not claim_scopes & scopes:
            continue  # another scope's figures say nothing about this one
        if len(shared) < MIN_SHARED_WORDS and not (claim_scopes & scopes):
            continue
        on_topic = True
        named = bool(company) and (about_company or names_company(sentence, company))
        found = _signal(claim_text, sentence, named, _context_words(shared, company))
        if found is not None and (best is None or _rank(found) > _rank(best)):
            best = found
    if best is not None:
        return best
    if on_topic:
        return SourceAssessment(
            "neutral",
            None,
            0.5,
            "The source discusses the claim's topic but neither confirms nor contradicts it.",
            None,
            None,
        )
    return SourceAssessment(
        "irrelevant", None, 0.0, "The source does not discuss the claim's topic.", None, None
    )


def _context_words(shared: set[str], company: str) -> set[str]:
    """The shared content words that are not the company's name."""
    return shared - content_words(company)


def _rank(assessment: SourceAssessment) -> tuple[int, float]:
    return (1 if assessment.stance == "contradicts" else 0, assessment.confidence)


def _signal(claim: str, sentence: str, named: bool, shared: set[str]) -> SourceAssessment | None:
    quote = sentence.strip()
    same_period = _same_period(claim, sentence)
    alike = measure_alike(claim, sentence, subject_words(shared))
    figures = _compare_all(claim, sentence, shared, alike) if same_period else None
    claim_direction, sentence_direction = (
        (_direction(claim), _direction(sentence))
        if same_period and alike and (not quantities(sentence) or quantities(claim) == quantities(sentence))
        else (None, None)
    )
    if named and figures == "mismatch":
        return SourceAssessment(
            "contradicts",
            "direct",
            0.9,
            "The source states a different figure for the same quantity than the claim.",
            quote,
            "numeric_mismatch",
        )
    if named and claim_direction and sentence_direction and claim_direction != sentence_direction:
        return SourceAssessment(
            "contradicts",
            "direct",
            0.85,
            f"The claim reports {_a(claim_direction)}; the source reports {_a(sentence_direction)}.",
            quote,
            "opposite_direction",
        )
    if (
        named
        and DELAY.search(sentence)
        and (_TARGET_YEAR.search(claim) or re.search(r"target|goal|commit", claim, _I))
    ):
        return SourceAssessment(
            "contradicts",
            "timeline",
            0.8,
            "The source reports the target or deadline as delayed, missed or abandoned.",
            quote,
            "timeline",
        )
    if named and ENFORCEMENT.search(sentence):
        return SourceAssessment(
            "contradicts",
            "omission",
            0.75,
            "The source reports enforcement, litigation or an investigation on this topic that the claim "
            "does not mention.",
            quote,
            "enforcement",
        )
    if named and CRITICISM.search(sentence) and figures != "match":
        return SourceAssessment(
            "contradicts",
            "contextual",
            0.7,
            "The source gives critical context that undermines the claim.",
            quote,
            "negative_context",
        )
    if named and figures == "match":
        return SourceAssessment(
            "supports", None, 0.6, "The source states the same figure as the claim.", quote, "same_figure"
        )
    if named and claim_direction and claim_direction == sentence_direction:
        return SourceAssessment(
            "supports", None, 0.5, f"The source also reports {_a(claim_direction)}.", quote, "same_direction"
        )
    return None


def _a(noun: str) -> str:
    """The noun with its indefinite article ("an increase", "a decrease")."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


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


def _same_mood(first: str, second: str) -> bool:
    """An intention is never compared with a reported change; a plain statement with either."""
    return {first, second} != {"intended", "reported"}


def _same_quantity(claim_quantity: str | None, source_quantity: str | None) -> bool:
    """The same emissions quantity, or a source figure that does not say which (its sentence shares
    the claim's topic). A figure the source labels (Scope 1, the total) is compared only with a claim
    figure of that label."""
    return source_quantity is None or claim_quantity == source_quantity


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


def _direction(text: str) -> str | None:
    """The direction of change `text` reports; intentions ("committed to cutting") do not count."""
    down = any(not intended(text, m.start(), m.end()) for m in DECREASE.finditer(text))
    up = any(not intended(text, m.start(), m.end()) for m in INCREASE.finditer(text))
    if down == up:
        return None
    return "decrease" if down else "increase"


def _same_period(claim: str, sentence: str) -> bool:
    """False when the claim and the sentence both state years and share none."""
    claim_years = {year for year, _ in parse_years(claim)}
    sentence_years = {year for year, _ in parse_years(sentence)}
    return not claim_years or not sentence_years or bool(claim_years & sentence_years)


def _compare_all(claim: str, sentence: str, shared: set[str], alike: bool) -> str | None:
    """Figures with units first, then counts; a rejected claim figure is a mismatch either way.
    Figures of sentences that do not measure alike (`figure_subjects.measure_alike`) can match but
    never mismatch."""
    figures = _compare_figures(claim, sentence, alike)
    counts = _compare_counts(claim, sentence, shared)
    if counts == "denied":
        return "mismatch"
    return figures or counts


def _same_measure(claim: str, mine: tuple[int, int], sentence: str, theirs: tuple[int, int]) -> bool:
    """Whether two figures measure the same emissions quantity in a comparable mood."""
    return _same_quantity(quantity_at(claim, mine[0]), quantity_at(sentence, theirs[0])) and _same_mood(
        mood(claim, *mine), mood(sentence, *theirs)
    )


def _compare_figures(claim: str, sentence: str, alike: bool) -> str | None:
    """ "match" if the source repeats a claim figure, "mismatch" if it states the same quantity for
    the same year only with other values (or rejects the claim's value), None when no figure is
    comparable.

    A match may be a paraphrase ("16.2 million tonnes" for "16.2 Mt CO2e"); a mismatch must be
    certain: the same currency, both or neither labelled CO2e, no unit of two readings, and the
    source names the site or segment the claim's figure is for, and both figures measure the same
    thing (`alike`, and the same role: a change amount or a level, `figure_subjects.role`).
    """
    comparable = [
        (mine, theirs)
        for mine in parse_figures(claim)
        for theirs in parse_figures(sentence)
        if mine.same_kind(theirs)
        and _same_year(stated_year(claim, mine), stated_year(sentence, theirs))
        and _same_measure(claim, (mine.start, mine.end), sentence, (theirs.start, theirs.end))
    ]
    same = [(mine, theirs) for mine, theirs in comparable if same_value(mine, theirs)]
    if any(not denied(sentence, theirs.start) for _, theirs in same):
        return "match"
    if same:
        return "mismatch"
    if (
        alike
        and _same_site(claim, sentence)
        and any(
            _certainly_comparable(mine, theirs)
            and same_role(role(claim, mine.start, mine.end), role(sentence, theirs.start, theirs.end))
            for mine, theirs in comparable
        )
    ):
        return "mismatch"
    return None


def _compare_counts(claim: str, sentence: str, shared: set[str]) -> str | None:
    """Counts of the same things ("167 warehouses"): "denied" when the source rejects the claim's
    count ("60 warehouses, not 167"), "match" when it repeats it, "mismatch" when it gives another
    count of the same things in a sentence sharing at least two other content words with the claim."""
    theirs = parse_counts(sentence)
    rejected = {value for value, _ in denied_numbers(sentence)}
    result: str | None = None
    for mine in parse_counts(claim):
        mine_mood = mood(claim, mine.start, mine.end)
        if mine.value in rejected:
            return "denied"
        same_things = [
            count
            for count in theirs
            if count.noun == mine.noun and _same_mood(mine_mood, mood(sentence, count.start, count.end))
        ]
        if any(count.value == mine.value for count in same_things):
            result = "match"
        elif same_things and len(shared - {mine.noun}) >= MIN_SHARED_WORDS and result is None:
            result = "mismatch"
    return result


def _same_site(claim: str, sentence: str) -> bool:
    sites = {match.group(1).lower() for match in _SITE.finditer(claim)}
    return all(re.search(rf"\b{site}", sentence, _I) for site in sites)


def _same_year(mine: int | None, theirs: int | None) -> bool:
    return mine is None or theirs is None or mine == theirs


def _certainly_comparable(mine: Figure, theirs: Figure) -> bool:
    return mine.co2e == theirs.co2e and not (mine.ambiguous or theirs.ambiguous)


def same_value(mine: Figure, theirs: Figure) -> bool:
    """The same value, within the rounding of either figure or 1 %."""
    tolerance = max(mine.base_half_unit, theirs.base_half_unit, abs(mine.base) * RELATIVE_TOLERANCE)
    return abs(abs(mine.base) - abs(theirs.base)) <= tolerance
