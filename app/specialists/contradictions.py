"""Rule-based reading of one source against one claim (FRD-08 Appendix D), the path taken without
an LLM or when the LLM fails.

The source is read sentence by sentence. A sentence counts only when it shares the claim's topic
(at least two content words, or the same emissions scope). A contradiction also needs the source to
be about the company (named in the sentence or the title), since news about another firm
contradicts nothing. A sentence about another period (both state years, none shared) says nothing
about the claim's figures or direction of change: last year's emissions do not contradict this
year's. Figures are compared only within one kind of quantity (the same dimension and currency),
one stated year and one metric (the same scope group; a site's figure only with that site's).
Signals, strongest first: a different figure for the same kind of quantity (direct, 0.9), the
opposite direction of change (direct, 0.85), a delayed or missed deadline (timeline, 0.8),
enforcement or litigation (omission, 0.75), and criticism (contextual, 0.7). The same figure (0.6)
or the same direction (0.5) counts as support. The sentence relied on is kept as the quote, so the
quote check can confirm it is in the source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.claims.sentences import split_sentences
from app.knowledge.keywords import tokens
from app.specialists.figures import Figure, parse_figures, parse_years, stated_year
from app.specialists.search_queries import SCOPE, STOPWORDS

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
COMMON_NAME_WORDS = frozenset(
    """general international american national united global first royal standard british
    european energy power public digital national pacific atlantic northern southern eastern
    western central""".split()
)
_TARGET_YEAR = re.compile(r"\b(?:by|in|to|until)\s+((?:19|20)\d{2})\b", _I)
# "Scope 1 and 2" is one metric, "Scope 1" another: figures are compared only within the same one.
_SCOPE_GROUP = re.compile(r"\bscopes?\s?[123](?:\s?(?:,|and|&|\+|/)\s?(?:scope\s?)?[123](?![\d.]))*", _I)
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


def mentions(text: str, company: str) -> bool:
    """Whether `company` (its search name, or a distinctive first word of it) appears in `text`."""
    if not company:
        return False
    if re.search(rf"(?<!\w){re.escape(company)}(?!\w)", text, _I):
        return True
    first = company.split()[0]
    # A distinctive first word ("Costco", "Siemens") as written, never a common one ("General").
    distinctive = len(first) >= 5 and first.lower() not in COMMON_NAME_WORDS
    return distinctive and re.search(rf"(?<!\w){re.escape(first)}(?!\w)", text) is not None


def assess_by_rules(claim_text: str, company: str, title: str, source_text: str) -> SourceAssessment:
    """The strongest signal among the source's on-topic sentences (see the module docstring)."""
    claim_words = content_words(claim_text)
    claim_scopes = set(SCOPE.findall(claim_text))
    about_company = mentions(title, company)
    best: SourceAssessment | None = None
    on_topic = False
    for sentence in [title, *(s.text for s in split_sentences(1, source_text))]:
        shared = claim_words & content_words(sentence)
        scopes = set(SCOPE.findall(sentence))
        if claim_scopes and scopes and not claim_scopes & scopes:
            continue  # another scope's figures say nothing about this one
        if len(shared) < MIN_SHARED_WORDS and not (claim_scopes & scopes):
            continue
        on_topic = True
        named = bool(company) and (about_company or mentions(sentence, company))
        found = _signal(claim_text, sentence, named)
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


def _rank(assessment: SourceAssessment) -> tuple[int, float]:
    return (1 if assessment.stance == "contradicts" else 0, assessment.confidence)


def _signal(claim: str, sentence: str, named: bool) -> SourceAssessment | None:
    quote = sentence.strip()
    same_period = _same_period(claim, sentence)
    figures = _compare_figures(claim, sentence) if same_period else None
    claim_direction, sentence_direction = (
        (_direction(claim), _direction(sentence)) if same_period else (None, None)
    )
    if named and figures == "mismatch":
        return SourceAssessment(
            "contradicts",
            "direct",
            0.9,
            "The source states a different figure for the same kind of quantity than the claim.",
            quote,
            "numeric_mismatch",
        )
    if named and claim_direction and sentence_direction and claim_direction != sentence_direction:
        return SourceAssessment(
            "contradicts",
            "direct",
            0.85,
            f"The claim reports a {claim_direction}; the source reports a {sentence_direction}.",
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
            "supports", None, 0.5, f"The source also reports a {claim_direction}.", quote, "same_direction"
        )
    return None


def _direction(text: str) -> str | None:
    down, up = bool(DECREASE.search(text)), bool(INCREASE.search(text))
    if down == up:
        return None
    return "decrease" if down else "increase"


def _same_period(claim: str, sentence: str) -> bool:
    """False when the claim and the sentence both state years and share none."""
    claim_years = {year for year, _ in parse_years(claim)}
    sentence_years = {year for year, _ in parse_years(sentence)}
    return not claim_years or not sentence_years or bool(claim_years & sentence_years)


def _compare_figures(claim: str, sentence: str) -> str | None:
    """ "match" if the source repeats a claim figure, "mismatch" if it states the same kind of
    quantity for the same year only with other values, None when no figure is comparable.

    A match may be a paraphrase ("16.2 million tonnes" for "16.2 Mt CO2e"); a mismatch must be
    certain: the same currency, both or neither labelled CO2e, no unit of two readings, and the
    source names the site or segment the claim's figure is for.
    """
    if _scope_groups(claim) and _scope_groups(sentence) and _scope_groups(claim) != _scope_groups(sentence):
        return None
    comparable = [
        (mine, theirs)
        for mine in parse_figures(claim)
        for theirs in parse_figures(sentence)
        if mine.same_kind(theirs) and _same_year(stated_year(claim, mine), stated_year(sentence, theirs))
    ]
    if any(_same(mine, theirs) for mine, theirs in comparable):
        return "match"
    if _same_site(claim, sentence) and any(
        _certainly_comparable(mine, theirs) for mine, theirs in comparable
    ):
        return "mismatch"
    return None


def _scope_groups(text: str) -> set[frozenset[str]]:
    return {frozenset(re.findall(r"[123]", match.group(0))) for match in _SCOPE_GROUP.finditer(text)}


def _same_site(claim: str, sentence: str) -> bool:
    sites = {match.group(1).lower() for match in _SITE.finditer(claim)}
    return all(re.search(rf"\b{site}", sentence, _I) for site in sites)


def _same_year(mine: int | None, theirs: int | None) -> bool:
    return mine is None or theirs is None or mine == theirs


def _certainly_comparable(mine: Figure, theirs: Figure) -> bool:
    return mine.co2e == theirs.co2e and not (mine.ambiguous or theirs.ambiguous)


def _same(mine: Figure, theirs: Figure) -> bool:
    tolerance = max(mine.base_half_unit, theirs.base_half_unit, abs(mine.base) * RELATIVE_TOLERANCE)
    return abs(abs(mine.base) - abs(theirs.base)) <= tolerance
