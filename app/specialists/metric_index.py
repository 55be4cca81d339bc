"""An index of where the report states each metric for each year, for cross-page consistency.

A report repeats its headline numbers (highlights, narrative, data tables); when two pages give
different values for the same metric and year, at least one of them is wrong. The index is built
once per investigation from every page, so looking a claim up is a dictionary access even on a
160-page report.

A mention is kept only when it is unambiguous: a known metric phrase precedes the figure in the
same sentence with no site, segment or qualifier in between, the figure is a level (not a change
"by 0.2 Mt" or an intensity "per tonne"), and a single year can be attached to it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from app.specialists.figures import Figure, close, parse_figures, parse_years
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
    ("renewable_share", "percent", re.compile(r"\brenewable (?:electricity|energy|power)\b", _I)),
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
_YEAR_LABEL = re.compile(r"\b(?:FY\s?)?(20\d\d)\s?:\s*$")
_YEAR_AFTER = re.compile(r"^\s*,?\s*(?:in|for|during)\s(?:FY\s?|fiscal\s(?:year\s)?)?(20\d\d)\b", _I)
_BASIS = re.compile(r"\b(market|location)[- ]?\s?based\b", _I)
_NOT_A_LEVEL_AFTER = re.compile(
    r"^\s?(?:/|per\b|reduction|decrease|increase|less|more|lower|higher|avoided)", _I
)
_FORWARD = re.compile(r"\b(?:target\w*|aims?|goal|commit\w*|plans?|will|ambition|forecast|expected)\b", _I)
MAX_GAP = 90


@dataclass(frozen=True)
class Mention:
    """One figure stated for one metric and year on one page."""

    key: str
    year: int
    figure: Figure
    page: int
    snippet: str


def _metric_key(sentence: str, figure: Figure) -> str | None:
    """The metric named just before `figure` in `sentence`, if the mention is unambiguous."""
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
    basis = (
        _BASIS.search(gap + sentence[figure.end : figure.end + 30])
        if "scope_2" in best[1] or "_2" in best[1]
        else None
    )
    return f"{best[1]}_{basis.group(1).lower()}" if basis else best[1]


def _year(sentence: str, figure: Figure) -> int | None:
    """The year a figure is stated for: "2022: 2.4 Mt", "2.3 Mt in 2023", else the only year."""
    label = _YEAR_LABEL.search(sentence[: figure.start])
    if label:
        return int(label.group(1))
    after = _YEAR_AFTER.search(sentence[figure.end :])
    if after:
        return int(after.group(1))
    if re.search(r"\b20\d\d\s?:", sentence):
        return None  # a table-like "2022: ..." sentence: the year of an unlabelled figure is unclear
    distinct = {year for year, _ in parse_years(sentence)}
    return distinct.pop() if len(distinct) == 1 else None


def mentions_in(text: str, page: int) -> list[Mention]:
    """Unambiguous metric mentions in one page's (or one claim's) text."""
    found: list[Mention] = []
    for match in _SENTENCE.finditer(" ".join(text.split())):
        sentence = match.group(0)
        if _FORWARD.search(sentence):
            continue
        for figure in parse_figures(sentence):
            key = _metric_key(sentence, figure)
            year = _year(sentence, figure) if key else None
            if key and year:
                found.append(Mention(key, year, figure, page, " ".join(sentence.split())[:240]))
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


def check_cross_page(claim_text: str, page: int, index: MetricIndex) -> CheckResult | None:
    """Compare each metric the claim states with what other pages state for the same year."""
    compared = 0
    for mention in mentions_in(claim_text, page):
        others = index.others(mention)
        compared += len(others)
        conflicts = [other for other in others if not _agree(mention.figure, other.figure)]
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
