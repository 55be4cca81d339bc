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
intention, and an intention is never compared with a reported change (`change_mood`). Directions of
change are compared only when both are reported and the sentence names no other quantity than the
claim. A source rejecting the claim's figure ("60 sites, not 167") states a different figure. A
different figure, and any direction of change, also needs the two sentences to measure alike
(`figure_subjects`): a shared word beyond units and periods, the same qualifiers (avoided, saved,
supplier, commuting ...), and for figures the same role (a change amount is never a level).
Signals, strongest first: a different figure for the same quantity (direct, 0.9), the opposite
direction of change (direct, 0.85), a delayed or missed deadline (timeline, 0.8), enforcement or
litigation (omission, 0.75), and criticism (contextual, 0.7). The same figure (0.6) or the same
reported direction (0.5) counts as support. The sentence relied on is kept as the quote, so the
quote check can confirm it is in the source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.claims.sentences import split_sentences
from app.knowledge.keywords import tokens
from app.specialists.change_mood import mood, reported_direction, same_mood
from app.specialists.company_names import names_company
from app.specialists.figure_subjects import measure_alike, role, same_role, subject_words
from app.specialists.figures import (
    Count,
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


@dataclass(frozen=True)
class _ClaimFigure:
    """A claim figure with what it is compared by: its year, emissions quantity, mood and role."""

    figure: Figure
    year: int | None
    quantity: str | None
    mood: str
    role: str | None


@dataclass(frozen=True)
class _Claim:
    """What the rules read from the claim: read once per source, then held against each sentence."""

    text: str
    words: set[str]
    scopes: frozenset[str]
    years: set[int]
    quantities: frozenset[str]
    direction: str | None
    figures: tuple[_ClaimFigure, ...]
    counts: tuple[tuple[Count, str], ...]  # with each count's mood
    sites: set[str]
    has_deadline: bool  # a target year, or a target, goal or commitment

    @classmethod
    def read(cls, text: str) -> _Claim:
        figures = tuple(
            _ClaimFigure(
                figure,
                stated_year(text, figure),
                quantity_at(text, figure.start),
                mood(text, figure.start, figure.end),
                role(text, figure.start, figure.end),
            )
            for figure in parse_figures(text)
        )
        return cls(
            text=text,
            words=content_words(text),
            scopes=covered_scopes(text),
            years={year for year, _ in parse_years(text)},
            quantities=quantities(text),
            direction=reported_direction(text),
            figures=figures,
            counts=tuple((count, mood(text, count.start, count.end)) for count in parse_counts(text)),
            sites={match.group(1).lower() for match in _SITE.finditer(text)},
            has_deadline=bool(_TARGET_YEAR.search(text) or re.search(r"target|goal|commit", text, _I)),
        )


def assess_by_rules(claim_text: str, company: str, title: str, source_text: str) -> SourceAssessment:
    """The strongest signal among the source's on-topic sentences (see the module docstring)."""
    sentences = [title, *(s.text for s in split_sentences(1, source_text))]
    claim = _Claim.read(claim_text)
    about_company = names_company(title, company)
    best: SourceAssessment | None = None
    on_topic = False
    for sentence in sentences:
        shared = claim.words & content_words(sentence)
        scopes = covered_scopes(sentence)
        if claim.scopes and scopes and not claim.scopes & scopes:
            continue  # another scope's figures say nothing about this one
        if len(shared) < MIN_SHARED_WORDS and not (claim.scopes & scopes):
            continue
        on_topic = True
        named = bool(company) and (about_company or names_company(sentence, company))
        found = _signal(claim, sentence, named, _context_words(shared, company))
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


def _signal(claim: _Claim, sentence: str, named: bool, shared: set[str]) -> SourceAssessment | None:
    quote = sentence.strip()
    same_period = _same_period(claim, sentence)
    alike = measure_alike(claim.text, sentence, subject_words(shared))
    figures = _compare_all(claim, sentence, shared, alike) if same_period else None
    claim_direction, sentence_direction = (
        (claim.direction, reported_direction(sentence))
        if same_period and alike and (not quantities(sentence) or claim.quantities == quantities(sentence))
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
    if named and DELAY.search(sentence) and claim.has_deadline:
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


def _same_quantity(claim_quantity: str | None, source_quantity: str | None) -> bool:
    """The same emissions quantity, or a source figure that does not say which (its sentence shares
    the claim's topic). A figure the source labels (Scope 1, the total) is compared only with a claim
    figure of that label."""
    return source_quantity is None or claim_quantity == source_quantity


def _same_period(claim: _Claim, sentence: str) -> bool:
    """False when the claim and the sentence both state years and share none."""
    sentence_years = {year for year, _ in parse_years(sentence)}
    return not claim.years or not sentence_years or bool(claim.years & sentence_years)


def _compare_all(claim: _Claim, sentence: str, shared: set[str], alike: bool) -> str | None:
    """Figures with units first, then counts; a rejected claim figure is a mismatch either way.
    Figures of sentences that do not measure alike (`figure_subjects.measure_alike`) can match but
    never mismatch."""
    figures = _compare_figures(claim, sentence, alike)
    counts = _compare_counts(claim, sentence, shared)
    if counts == "denied":
        return "mismatch"
    return figures or counts


def _same_measure(mine: _ClaimFigure, sentence: str, theirs: Figure) -> bool:
    """Whether two figures measure the same emissions quantity in a comparable mood."""
    return _same_quantity(mine.quantity, quantity_at(sentence, theirs.start)) and same_mood(
        mine.mood, mood(sentence, theirs.start, theirs.end)
    )


def _compare_figures(claim: _Claim, sentence: str, alike: bool) -> str | None:
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
        for mine in claim.figures
        for theirs in parse_figures(sentence)
        if mine.figure.same_kind(theirs)
        and _same_year(mine.year, stated_year(sentence, theirs))
        and _same_measure(mine, sentence, theirs)
    ]
    same = [(mine, theirs) for mine, theirs in comparable if same_value(mine.figure, theirs)]
    if any(not denied(sentence, theirs.start) for _, theirs in same):
        return "match"
    if same:
        return "mismatch"
    if (
        alike
        and _same_site(claim, sentence)
        and any(
            _certainly_comparable(mine.figure, theirs)
            and same_role(mine.role, role(sentence, theirs.start, theirs.end))
            for mine, theirs in comparable
        )
    ):
        return "mismatch"
    return None


def _compare_counts(claim: _Claim, sentence: str, shared: set[str]) -> str | None:
    """Counts of the same things ("167 warehouses"): "denied" when the source rejects the claim's
    count ("60 warehouses, not 167"), "match" when it repeats it, "mismatch" when it gives another
    count of the same things in a sentence sharing at least two other content words with the claim."""
    theirs = parse_counts(sentence)
    rejected = {value for value, _ in denied_numbers(sentence)}
    result: str | None = None
    for mine, mine_mood in claim.counts:
        if mine.value in rejected:
            return "denied"
        same_things = [
            count
            for count in theirs
            if count.noun == mine.noun and same_mood(mine_mood, mood(sentence, count.start, count.end))
        ]
        if any(count.value == mine.value for count in same_things):
            result = "match"
        elif same_things and len(shared - {mine.noun}) >= MIN_SHARED_WORDS and result is None:
            result = "mismatch"
    return result


def _same_site(claim: _Claim, sentence: str) -> bool:
    return all(re.search(rf"\b{site}", sentence, _I) for site in claim.sites)


def _same_year(mine: int | None, theirs: int | None) -> bool:
    return mine is None or theirs is None or mine == theirs


def _certainly_comparable(mine: Figure, theirs: Figure) -> bool:
    return mine.co2e == theirs.co2e and not (mine.ambiguous or theirs.ambiguous)


def same_value(mine: Figure, theirs: Figure) -> bool:
    """The same value, within the rounding of either figure or 1 %."""
    tolerance = max(mine.base_half_unit, theirs.base_half_unit, abs(mine.base) * RELATIVE_TOLERANCE)
    return abs(abs(mine.base) - abs(theirs.base)) <= tolerance
