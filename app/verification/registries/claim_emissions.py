"""The emission levels a claim states: scope, tonnes CO2e, precision, period and boundary.

Only a level the company states for itself can be held against a registry, so the reader drops
what looks like one but is not: a change ("cut by 0.3 Mt"), a reference level ("down from 2.6 Mt"),
a target, an intensity, a hedged or net figure, a "respectively" list whose figures are not each
its scopes' total, someone else's number, and a figure whose period is unclear. The boundary says
which jurisdiction the figure covers: a registry's own ("UK operations": `proof.PROOFS`), another
part of the company ("other": a site, a division, another country), or the whole company (None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.claims.signals import PLACE
from app.language.figures import Figure, parse_figures
from app.language.intentions import TARGET
from app.verification.checks.change_statements import read_change
from app.verification.reading.figures import attributed_elsewhere, quantity_at
from app.verification.registries.periods import Period, period_at
from app.verification.registries.proof import EMISSION_KINDS, PROOFS

_I = re.IGNORECASE
#: Scope labels (`figures.quantity_at`) a registry can bound, as scope sets.
_SCOPES = {"scope 1": frozenset("1"), "scope 2": frozenset("2"), "scope 1+2": frozenset("12")}
_NOT_A_LEVEL = re.compile(
    r"\b(?:respectively|intensity|equity[- ](?:share|basis)|offsets?|after (?:carbon )?credits|removals|"
    r"avoided|biogenic)\b|\bnet\b(?![- ]zero)",
    _I,
)
_HEDGE_BEFORE = re.compile(
    r"\b(?:about|around|approximately|approx\.?|roughly|some|nearly|almost|over|more than|less than|"
    r"under|below|above|up to|at least|at most|circa|c\.|~|<|>|≈)\s?$",
    _I,
)
_CHANGE_BEFORE = re.compile(
    r"(?:\bby|\b(?:reduction|decrease|increase|cut|fall|drop|rise|saving|savings|change)s?\s(?:of\s)?|"
    r"\b(?:avoided|saved|offset|captured|abated|removed|sequestered|reduced|cut|lowered)\s(?:\w+\s){0,3}"
    r"|\b(?:from|than|compared (?:with|to)|versus|vs\.?|against|relative to|on)\s(?:the\s)?)\s*$",
    _I,
)
_PER_AFTER = re.compile(r"^\s?(?:per\b|/)", _I)
_OTHER_PART = re.compile(
    r"(?i:\b(?:site|plant|mine|facility|refinery|smelter|installation|terminal|mill|fleet|division|segment|"
    r"business unit|subsidiar(?:y|ies)|joint ventures?|region|suppliers?|customers?|portfolio|"
    r"products?|vessels?)\b"
    r"|\bemissions?\s(?:from|at|of)\s(?!\d|the (?:group|company|year|period)\b|our (?:operations|business)\b|"
    r"operations\b|all\b))"
    r"|\b(?!(?:Our|The|All|Its|Group|Global|Total|Company|Combined|These|Worldwide)\b)[A-Z][a-z]+\s"
    r"(?:operations|sites|business(?:es)?|facilities|divisions?|segments?|regions?)\b",
)
_LOCATION_BASED = re.compile(r"\blocation[- ]based\b", _I)
_MARKET_BASED = re.compile(r"\bmarket[- ]based\b", _I)


@dataclass(frozen=True)
class ClaimedEmission:
    """One emission level a claim states.

    Attributes:
        text: The figure as written ("7.1 million tonnes CO2-e").
        tonnes: Its value in t CO2e.
        half_tonnes: Half a unit of its last written digit, in t ("2.3 Mt": 50,000 t).
        scopes: The scopes it is the total of ({"1"}, {"2"} or {"1", "2"}).
        period: The twelve months it is stated for, None when the claim does not say clearly.
        boundary: The registry kind whose jurisdiction it covers ("nger" for "Australian
            operations"), "other" for another part of the company, None for the whole company.
        location_based: Whether the claim says its Scope 2 is location-based (as NGER's is).
    """

    text: str
    tonnes: float
    half_tonnes: float
    scopes: frozenset[str]
    period: Period | None
    boundary: str | None
    location_based: bool


def claimed_emissions(text: str) -> list[ClaimedEmission]:
    """Every Scope 1, Scope 2 or Scope 1+2 level `text` states as the company's own."""
    if TARGET.search(text) or _NOT_A_LEVEL.search(text):
        return []
    boundary = claim_boundary(text)
    reference = _reference_starts(text)
    found = []
    for figure in parse_figures(text):
        scopes = _SCOPES.get(quantity_at(text, figure.start) or "")
        if scopes is None or not _is_level(text, figure) or figure.start in reference:
            continue
        found.append(
            ClaimedEmission(
                text=figure.text,
                tonnes=figure.base,
                half_tonnes=figure.base_half_unit,
                scopes=scopes,
                period=period_at(text, figure.start, figure.end),
                boundary=boundary,
                location_based=bool(_LOCATION_BASED.search(text)) and not _MARKET_BASED.search(text),
            )
        )
    return found


def _is_level(text: str, figure: Figure) -> bool:
    """A mass the company states as its own level, written exactly."""
    if figure.dimension != "mass" or figure.ambiguous or figure.value <= 0:
        return False
    before = text[max(0, figure.start - 40) : figure.start]
    if _HEDGE_BEFORE.search(before) or _CHANGE_BEFORE.search(before):
        return False
    if _PER_AFTER.match(text[figure.end :]):
        return False
    return not attributed_elsewhere(text, figure.start)


def _reference_starts(text: str) -> set[int]:
    """Where the earlier level of a stated change starts ("down 12% from 2.6 Mt")."""
    change = read_change(text)
    return {change.old.start} if change is not None else set()


def claim_boundary(text: str) -> str | None:
    """The registry kind whose jurisdiction is the claim's whole boundary, "other" for a part of
    the company or another country, None for the whole company."""
    named = [
        kind for kind in EMISSION_KINDS if (pattern := PROOFS[kind].full_boundary) and pattern.search(text)
    ]
    if len(named) > 1:
        return "other"
    rest = text
    for kind in named:
        pattern = PROOFS[kind].full_boundary
        assert pattern is not None
        rest = pattern.sub("operations", rest)  # the registry's boundary is the whole of what is left
    if _OTHER_PART.search(rest) or PLACE.search(rest):
        return "other"
    return named[0] if named else None
