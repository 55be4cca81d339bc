"""A stated emissions total against its scopes stated elsewhere on the same page.

"Total Scope 1 and 2 emissions were 2.9 Mt CO2e in 2023" is checked against "Scope 1 ... 2.3 Mt"
and "Scope 2 ... 410 kt" in other sentences of that page (converted to one unit), not only against
parts written in the same sentence. Only unambiguous mentions take part (`metric_index`): the
same year, the same organisational boundary, a group-wide metric (no site or segment) and a level
rather than a change. A level written without a year (a table-like run "Scope 1 emissions 2.3 Mt
CO2e") counts as the page's year only when the page names exactly one year (`page_year`); that
dating is used here, within one page, and never for the cross-page comparison. When the page gives
a part more than one way (Scope 2 market- and location-based, or two values), the total passes if
any combination adds up: a mismatch is reported only when none does. The finding is a
`scope_total` doubt, like the in-sentence check.
"""

from __future__ import annotations

from itertools import product

from app.language.figures import close
from app.verification.checks.check_result import CheckResult
from app.verification.checks.metric_index import Mention, MetricIndex, mentions_in

# Which metric keys make up each total key (Scope 2 by the basis the total names, else any basis).
_SCOPE_2 = ("scope_2", "scope_2_market", "scope_2_location")
_PARTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "scope_1_2": (("scope_1",), _SCOPE_2),
    "scope_1_2_market": (("scope_1",), ("scope_2_market",)),
    "scope_1_2_location": (("scope_1",), ("scope_2_location",)),
    "scope_1_2_3": (("scope_1",), _SCOPE_2, ("scope_3",)),
}


def _part_options(total: Mention, on_page: list[Mention]) -> list[list[Mention]] | None:
    """For each part of `total`, every mention of it on the total's page for the same year and
    boundary; None when a part is not stated there."""
    options: list[list[Mention]] = []
    for keys in _PARTS[total.key]:
        found = [
            mention
            for mention in on_page
            if mention.key in keys
            and mention.year == total.year
            and mention.boundary == total.boundary
            and mention.snippet != total.snippet
        ]
        if not found:
            return None
        options.append(found)
    return options


def check_page_total(claim_text: str, page: int, index: MetricIndex) -> CheckResult | None:
    """Compare a total the claim states with the sum of its scopes stated elsewhere on its page."""
    year = index.page_years.get(page)
    # A table-like run ("Scope 1 emissions 2.3 Mt CO2e") names no year: on a page about one year,
    # its levels are that year's, as is an undated total on the same page.
    totals = [item for item in mentions_in(claim_text, page, year, date_levels=True) if item.key in _PARTS]
    on_page = mentions_in(index.page_texts.get(page, ""), page, year, date_levels=True) if totals else []
    for total in totals:
        options = _part_options(total, on_page)
        if options is None:
            continue
        combos = [list(combo) for combo in product(*options)][:64]
        sums = [_sum(total, combo) for combo in combos]
        match = next((item for item in sums if item[3]), None)
        return _result(total, match or sums[0], matched=match is not None, tried=len(combos))
    return None


def _sum(total: Mention, parts: list[Mention]) -> tuple[list[Mention], float, float, bool]:
    computed = sum(part.figure.base for part in parts)
    tolerance = total.figure.base_half_unit + sum(part.figure.base_half_unit for part in parts)
    return parts, computed, tolerance, close(total.figure.base, computed, tolerance)


def _result(
    total: Mention, outcome: tuple[list[Mention], float, float, bool], *, matched: bool, tried: int
) -> CheckResult:
    parts, computed, tolerance, _ = outcome
    factor = total.figure.base / total.figure.value if total.figure.value else 1.0
    unit = total.figure.unit
    details = {
        "check": "scope_total",
        "scope": "page",
        "metric": total.key,
        "year": total.year,
        "total": total.figure.as_dict(total.page),
        "parts": [{**part.figure.as_dict(part.page), "metric": part.key} for part in parts],
        "formula": "sum(parts) == total, after unit conversion",
        "computed_sum": round(computed / factor, 6),
        "computed_sum_unit": unit,
        "tolerance": round(tolerance / factor, 6),
        "tolerance_basis": "half a unit of the last written digit of the total and of each part",
        "combinations_tried": tried,
        "consistent": matched,
        "sources": [{"report_page": total.page, "snippet": total.snippet}]
        + [{"report_page": part.page, "snippet": part.snippet} for part in parts],
    }
    written = " + ".join(part.figure.text for part in parts)
    verb = "equals" if matched else "does not equal"
    summary = (
        f"The {total.year} parts stated on page {total.page} ({written}) sum to {computed / factor:.4g} "
        f"{unit}, which {verb} the stated total {total.figure.text} "
        f"(tolerance ±{tolerance / factor:.3g} {unit})."
    )
    return CheckResult("scope_total", "calculation", matched, 0.75 if matched else 0.85, summary, details)
