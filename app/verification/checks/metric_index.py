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

A change sentence states levels too: in "Scope 1 emissions fell 25% to 1.5 Mt in 2023, from 1.8 Mt in
2022" the figure after "to" is the new level and the one after "from" the old one. Each is kept only
with a year of its own: the "from" level needs "in <year>" right after it; the "to" level takes the
year after it or, failing that, the one year of the sentence that belongs to no other figure and no
"from", "since" or "compared with" (so "In 2023, Scope 1 emissions fell 25% to 1.5 Mt, from 1.8 Mt in
2022" gives 2023 to 1.5 Mt and 2022 to 1.8 Mt).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from app.language.figures import Figure, close, parse_figures
from app.language.intentions import FUTURE_LEVEL
from app.language.sentences import statements
from app.language.years import YEAR_RIGHT_AFTER, parse_years, stated_year, year_right_after
from app.verification.checks.check_result import CheckResult
from app.verification.reading.figures import attributed_elsewhere

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
# A restated, rebased or adjusted figure differs from the one first reported by design.
_NOT_AS_REPORTED = re.compile(
    r"\b(?:restat\w*|previously reported|re-?based\w*|recalculat\w*|pro[- ]forma|like[- ]for[- ]like|"
    r"adjusted|excluding|excl\.)",
    _I,
)
MAX_GAP = 90
# "fell 25% to" / "decreased from 1.8 Mt in 2022 to" before a new level; "rose 4% to 2.1 Mt, from" before
# an old one. The amount of change may be absent; no other words may sit between verb and figure.
_CHANGE_VERB = (
    r"(?:fell|dropped|declined|decreased|reduced|lowered|rose|increased|grew|climbed|"
    r"(?:was|were|has been|have been) (?:reduced|cut|lowered|increased))"
)
_CHANGE_AMOUNT = (
    r"(?: by)?(?: (?:about|around|almost|nearly|some|over|more than))? ?[-\u2212\u2013]?\d[\d,.]*"
    r" ?(?:%|per ?cent|percent|percentage points?|pp)"
)
_TO_LEVEL = re.compile(rf"\b{_CHANGE_VERB}(?:{_CHANGE_AMOUNT})?(?: from [^;]{{1,60}}?)?,? to$", _I)
_FROM_LEVEL = re.compile(rf"\b{_CHANGE_VERB}(?:{_CHANGE_AMOUNT})?(?: to [^;]{{1,60}}?)?,? from$", _I)
# A year after these words is a comparison's, never the year of the new level.
_EARLIER_YEAR = re.compile(
    r"\b(?:from|since|compared (?:with|to)|versus|vs\.?|than|against|relative to|baseline|base year)"
    r"(?:[^,;\d]|\d(?!\d{3}\b)){0,30}$",
    _I,
)


@dataclass(frozen=True)
class Mention:
    """One figure stated for one metric and year on one page."""

    key: str
    year: int
    figure: Figure
    page: int
    snippet: str
    boundary: str | None = None


def _gap_role(gap: str) -> str | None:
    """How a figure relates to the metric named before it, from the words between them: "level"
    ("were", "in 2023"), "to" (a change's new level) or "from" (its old level); None for anything else."""
    if all(_GAP_WORDS.fullmatch(word) for word in gap.split()):
        return "level"
    stripped = gap.strip()
    for role, pattern in (("to", _TO_LEVEL), ("from", _FROM_LEVEL)):
        change = pattern.search(stripped)
        if change and all(_GAP_WORDS.fullmatch(word) for word in stripped[: change.start()].split()):
            return role
    return None


def _new_level_year(sentence: str, figure: Figure, figures: list[Figure]) -> int | None:
    """The year of a change's new level: the year right after it, else the sentence's one year that
    is neither another figure's (of `figures`, the sentence's: "from 1.8 Mt in 2022") nor a
    comparison's ("since 2019")."""
    own = year_right_after(sentence[figure.end :])
    if own is not None:
        return own
    taken = {
        other.end + after.start(1)
        for other in figures
        if other.start != figure.start and (after := YEAR_RIGHT_AFTER.match(sentence[other.end :]))
    }
    candidates = {
        year
        for year, at in parse_years(sentence)
        if at not in taken and not _EARLIER_YEAR.search(sentence[:at])
    }
    return candidates.pop() if len(candidates) == 1 else None


def page_year(text: str) -> int | None:
    """The one year a page reports on, if it names exactly one outside targets and comparisons
    ("Highlights of 2023"); None when it names none or several."""
    years: set[int] = set()
    for sentence in statements(text):
        if not FUTURE_LEVEL.search(sentence):
            years |= {year for year, at in parse_years(sentence) if not _EARLIER_YEAR.search(sentence[:at])}
    return years.pop() if len(years) == 1 else None


def _year_of(
    sentence: str, figures: list[Figure], figure: Figure, role: str, fallback: int | None
) -> int | None:
    if role == "to":
        # An undated "fell 25% to 1.5 Mt" on a page about one year states that year's level; nothing
        # else is dated from the page, since a level sentence without a year may be any year's.
        own = _new_level_year(sentence, figure, figures)
        return own if own is not None or parse_years(sentence) else fallback
    if role == "from":
        return year_right_after(sentence[figure.end :])
    return stated_year(sentence, figure)


def _metric_key(sentence: str, figure: Figure) -> tuple[str, str | None, str] | None:
    """The metric named just before `figure` in `sentence`, if the mention is unambiguous, the
    organisational boundary (equity, operational control, ...) stated with it and the figure's role
    (see `_gap_role`)."""
    best: tuple[int, str, str] | None = None
    for key, dimension, pattern in METRICS:
        for match in pattern.finditer(sentence, 0, figure.start):
            if best is None or match.end() > best[0]:
                best = (match.end(), key, dimension)
    if best is None or best[2] != figure.dimension or figure.start - best[0] > MAX_GAP:
        return None
    gap = sentence[best[0] : figure.start]
    role = _gap_role(gap)
    if role is None:
        return None
    if _NOT_A_LEVEL_AFTER.search(sentence[figure.end :]):
        return None
    around = gap + sentence[figure.end : figure.end + 30]
    basis = _BASIS.search(around) if "_2" in best[1] else None
    boundary = _BOUNDARY.search(around) if best[1].startswith("scope") else None
    key = f"{best[1]}_{basis.group(1).lower()}" if basis else best[1]
    return key, " ".join(boundary.group(1).lower().split()) if boundary else None, role


def mentions_in(
    text: str, page: int, fallback_year: int | None = None, *, date_levels: bool = False
) -> list[Mention]:
    """Unambiguous metric mentions in one page's (or one claim's) text; `fallback_year` (the page's
    year) dates a change's new level when its sentence names no year at all, and with `date_levels`
    any level whose sentence names none (for parts and totals on one page, never across pages)."""
    found: list[Mention] = []
    for sentence in statements(text):
        if FUTURE_LEVEL.search(sentence) or _NOT_AS_REPORTED.search(sentence):
            continue
        figures = parse_figures(sentence)
        undated = fallback_year if date_levels and not parse_years(sentence) else None
        for figure in figures:
            metric = _metric_key(sentence, figure)
            year = _year_of(sentence, figures, figure, metric[2], fallback_year) if metric else None
            year = year or (undated if metric else None)
            if metric and year and not attributed_elsewhere(sentence, figure.start):
                key, boundary, _ = metric
                found.append(Mention(key, year, figure, page, " ".join(sentence.split())[:240], boundary))
    return found


class MetricIndex:
    """Every unambiguous metric mention in the report, by (metric, year)."""

    def __init__(self, pages: list[tuple[int, str]]) -> None:
        self.by_key: dict[tuple[str, int], list[Mention]] = defaultdict(list)
        self.page_years: dict[int, int | None] = {number: page_year(text) for number, text in pages}
        self.page_texts: dict[int, str] = dict(pages)
        for number, text in pages:
            for mention in mentions_in(text, number, self.page_years[number]):
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
    for mention in mentions_in(claim_text, page, index.page_years.get(page)):
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
