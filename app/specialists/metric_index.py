"""An index of where the report states each metric for each year, for cross-page consistency.

A report repeats its headline numbers (highlights, narrative, data tables); when two pages give
different values for the same metric and year, at least one of them is wrong. The index is built
once per investigation from every page, so looking a claim up is a dictionary access even on a
160-page report.

A mention is kept only when it is unambiguous: a known metric phrase precedes the figure in the
same sentence with no site, segment or qualifier in between, the figure is a level (not a change
"by 0.2 Mt" or an intensity "per tonne"), a single year can be attached to it, the figure is the
company's own (not a scenario's, the world's or a sector's) and as first reported (not restated or
adjusted). Scope 2 market-based and location-based are different metrics; figures stated on different
organisational boundaries (equity, operational control) are never called inconsistent.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from app.specialists.figures import Figure, attributed_elsewhere, close, parse_figures, stated_year
from app.specialists.metric_checks import CheckResult

_I = re.IGNORECASE
# Order matters: combined scopes before single ones.
METRICS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "scope_1_2_3",
        "mass",
        re.compile(r"scope\s?1\s?,\s?(?:scope\s?)?2,?\s?(?:and|&)\s?(?:scope\s?)?3\b", _I),
    ),
    ("scope_1_2", "mass", re.compile(r"scope\s?1\s?(?:and|&|\+|/)\s?(?:scope\s?)?2\b", _I)),
    ("scope_1", "mass", re.compile(r"scope\s?1\b(?!\s?(?:and|&|\+|,|/))", _I)),
    ("scope_2", "mass", re.compile(r"scope\s?2\b(?!\s?(?:and|&|\+|,|/))", _I)),
    ("scope_3", "mass", re.compile(r"scope\s?3\b", _I)),
    ("water_withdrawal", "volume", re.compile(r"\bwater withdra\w+", _I)),
    ("water_consumption", "volume", re.compile(r"\bwater consum\w+", _I)),
    ("energy_consumption", "energy", re.compile(r"\b(?:total )?energy (?:consum\w+|use)\b", _I)),
    ("renewable_electricity_share", "percent", re.compile(r"\brenewable (?:electricity|power)\b", _I)),
    ("renewable_energy_share", "percent", re.compile(r"\brenewable energy\b", _I)),
    ("waste_generated", "mass", re.compile(r"\b(?:total )?waste generat\w+|\btotal waste\b", _I)),
)
_SENTENCE = re.compile(r"(?:[^.;!?]|[.;!?](?!\s))+(?:[.;!?]|$)")
# Between the metric phrase and the figure only these words may appear: anything else (a site,
# a segment, a source such as "from procurement", a table's other cells) makes the mention
# something other than the group-wide metric.
_GAP_WORDS = re.compile(
    r"\(?(?:emissions?|ghg|greenhouse|gas|gases|were|was|are|is|of|totall?ed|amounted|to|at|reached|"
    r"stood|came|our|total|gross|absolute|equity|basis|operational|control|market-based|location-based|"
    r"market|location|based|in|fy|fiscal|year|20\d\d|co2e?|tco2e|was|withdrawals?|consumption|share|"
    r"electricity|energy|power|generated|a|the|:|-|–)\)?,?:?",
    _I,
)
_BASIS = re.compile(r"\b(market|location)[- ]?\s?based\b", _I)
# The organisational boundary a scope figure is stated on; another boundary is another number.
_BOUNDARY = re.compile(r"\b(equity|operational control|financial control|managed)\b", _I)
_NOT_A_LEVEL_AFTER = re.compile(
    r"^\s?(?:/|per\b|reduction|decrease|increase|less|more|lower|higher|avoided)", _I
)
_FORWARD = re.compile(r"\b(?:target\w*|aims?|goal|commit\w*|plans?|will|ambition|forecast|expected)\b", _I)
# A restated, rebased or adjusted figure differs from the one first reported by design.
_NOT_AS_REPORTED = re.compile(
    r"\b(?:restat\w*|previously reported|re-?based\w*|recalculat\w*|pro[- ]forma|like[- ]for[- ]like|"
    r"adjusted|excluding|excl\.)",
    _I,
)
MAX_GAP = 90


@dataclass(frozen=True)
class Mention:
    """One figure stated for one metric and year on one page."""

    key: str
    year: int
    figure: Figure
    page: int
    snippet: str
    boundary: str | None = None


def _metric_key(sentence: str, figure: Figure) -> tuple[str, str | None] | None:
    """The metric named just before `figure` in `sentence`, if the mention is unambiguous, and the
    organisational boundary (equity, operational control, ...) stated with it."""
    best: tuple[int, str, str] | None = None
    for key, dimension, pattern in METRICS:
        for match in pattern.finditer(sentence, 0, figure.start):
            if best is None or match.end() > best[0]:
                best = (match.end(), key, dimension)
    if best is None or best[2] != figure.dimension or figure.start - best[0] > MAX_GAP:
        return None
    gap = sentence[best[0] : figure.start]
    if any(not _GAP_WORDS.fullmatch(word) for word in gap.split()):
        return None
    if _NOT_A_LEVEL_AFTER.search(sentence[figure.end :]):
        return None
    around = gap + sentence[figure.end : figure.end + 30]
    basis = _BASIS.search(around) if "_2" in best[1] else None
    boundary = _BOUNDARY.search(around) if best[1].startswith("scope") else None
    key = f"{best[1]}_{basis.group(1).lower()}" if basis else best[1]
    return key, " ".join(boundary.group(1).lower().split()) if boundary else None


def mentions_in(text: str, page: int) -> list[Mention]:
    """Unambiguous metric mentions in one page's (or one claim's) text."""
    found: list[Mention] = []
    for match in _SENTENCE.finditer(" ".join(text.split())):
        sentence = match.group(0)
        if _FORWARD.search(sentence) or _NOT_AS_REPORTED.search(sentence):
            continue
        for figure in parse_figures(sentence):
            metric = _metric_key(sentence, figure)
            year = stated_year(sentence, figure) if metric else None
            if metric and year and not attributed_elsewhere(sentence, figure.start):
                key, boundary = metric
                found.append(Mention(key, year, figure, page, " ".join(sentence.split())[:240], boundary))
    return found


class MetricIndex:
    """Every unambiguous metric mention in the report, by (metric, year)."""

    def __init__(self, pages: list[tuple[int, str]]) -> None:
        self.by_key: dict[tuple[str, int], list[Mention]] = defaultdict(list)
        for number, text in pages:
            for mention in mentions_in(text, number):
                self.by_key[(mention.key, mention.year)].append(mention)

    @property
    def size(self) -> int:
        return sum(len(items) for items in self.by_key.values())

    def others(self, mention: Mention) -> list[Mention]:
        """Mentions of the same metric and year on other pages."""
        return [
            other for other in self.by_key.get((mention.key, mention.year), []) if other.page != mention.page
        ]


def _agree(a: Figure, b: Figure) -> bool:
    return close(a.base, b.base, a.base_half_unit + b.base_half_unit)


def _comparable(a: Figure, b: Figure) -> bool:
    """A unit of two readings ("MT") is compared only with the same unit as written."""
    return not (a.ambiguous or b.ambiguous) or a.unit == b.unit


def check_cross_page(claim_text: str, page: int, index: MetricIndex) -> CheckResult | None:
    """Compare each metric the claim states with what other pages state for the same year.

    Equal figures agree whatever boundary each page states; different ones conflict only on the
    same stated boundary (or none on both), since equity and operational control differ by design.
    """
    compared = 0
    for mention in mentions_in(claim_text, page):
        others = [other for other in index.others(mention) if _comparable(mention.figure, other.figure)]
        agreeing = [other for other in others if _agree(mention.figure, other.figure)]
        conflicts = [
            other for other in others if other not in agreeing and other.boundary == mention.boundary
        ]
        compared += len(agreeing) + len(conflicts)
        if conflicts:
            return _conflict(mention, conflicts)
    if not compared:
        return None
    details = {"check": "cross_page", "compared_mentions": compared, "consistent": True}
    summary = (
        f"The claim's figures agree with {compared} statement(s) of the same metric and year "
        "elsewhere in the report."
    )
    return CheckResult("cross_page", "calculation", None, 0.5, summary, details)


def _conflict(mention: Mention, conflicts: list[Mention]) -> CheckResult:
    first = conflicts[0]
    details = {
        "check": "cross_page",
        "metric": mention.key,
        "year": mention.year,
        "claim_value": mention.figure.as_dict(mention.page),
        "other_values": [other.figure.as_dict(other.page) for other in conflicts[:5]],
        "formula": "|a - b| <= rounding(a) + rounding(b) after unit conversion",
        "difference_in_base": round(abs(mention.figure.base - first.figure.base), 6),
        "tolerance_in_base": mention.figure.base_half_unit + first.figure.base_half_unit,
        "consistent": False,
        "sources": [{"report_page": mention.page, "snippet": mention.snippet}]
        + [{"report_page": other.page, "snippet": other.snippet} for other in conflicts[:5]],
    }
    pages = ", ".join(str(other.page) for other in conflicts[:5])
    summary = (
        f"{mention.key.replace('_', ' ').capitalize()} for {mention.year} is {mention.figure.text} on page "
        f"{mention.page} but {first.figure.text} on page(s) {pages}."
    )
    return CheckResult("cross_page", "inconsistency", False, 0.85, summary, details)
