"""Pure arithmetic checks of a report's own numbers, one sentence (or short passage) at a time.

Each check either does not apply (returns nothing) or returns a `CheckResult` whose details state
exactly what was computed: the inputs as written, the formula, the result and the rounding
tolerance. Tolerances come from the stated precision (half a unit of the last written digit),
so a check never calls a correctly rounded figure wrong.
"""

from __future__ import annotations

import re

from app.language.figures import Figure, close, parse_figures
from app.verification.checks.check_result import CheckResult
from app.verification.checks.percent_change import check_percent_change
from app.verification.checks.targets import check_target

# Re-exported: callers import the checks (and `CheckResult`) from this module, wherever each is defined.
__all__ = [
    "CheckResult",
    "check_of_which",
    "check_percent_change",
    "check_sanity",
    "check_scope_totals",
    "check_target",
]

_I = re.IGNORECASE

# Two renderings of one quantity: "2.3 Mt (2,300 kt)", "2.3 Mt or 2,300 kt", "1 MWh = 3.6 GJ".
_RENDERING_GAP = re.compile(r"\s*(?P<open>[(\[])\s*|\s*(?:or|=)\s*", _I)
_RENDERING_END = re.compile(r"^\s*[)\]]")
_RATE_AFTER = re.compile(r"^\s?(?:/|per\b)", _I)
_SCOPES = re.compile(r"scope\s?([123])((?:\s?(?:,|and|&|\+|/)\s?(?:scope\s?)?[123])*)", _I)
_TOTAL = re.compile(r"\b(?:total\w*|in total|combined|overall|aggregate)\b", _I)
_OF_WHICH = re.compile(r"\bof which\b", _I)
_SHARE = re.compile(
    r"\b(?:share|proportion|renewable|of (?:our|total|the|all)|coverage|covered|sourced)\b", _I
)
_CHANGE_BEFORE = re.compile(r"(?:\bby|\bup|increas\w*|growth|rose|grew|higher|more than)\s*$", _I)
_NEGATIVE_OK = re.compile(
    r"\b(?:net|removal\w*|sequest\w*|offset\w*|change|reduc\w*|decreas\w*|avoid\w*)\b", _I
)
_EMISSION_WORD = re.compile(r"\b(?:emission\w*|scope\s?[123]|GHG|CO2e?)\b", _I)


def _scope_label(text: str, figure: Figure) -> tuple[str, frozenset[int]] | None:
    """The scope or total label written just before `figure` (no other figure in between)."""
    window_start = max(0, figure.start - 70)
    window = text[window_start : figure.start]
    if parse_figures(window):
        window = window[parse_figures(window)[-1].end :]
    scopes = list(_SCOPES.finditer(window))
    totals = list(_TOTAL.finditer(window))
    if scopes:
        last = scopes[-1]
        numbers = frozenset(int(n) for n in re.findall(r"[123]", last.group(0)))
        kind = "total" if len(numbers) > 1 or totals else "part"
        return kind, numbers
    if totals:
        return "total", frozenset()
    return None


def check_scope_totals(text: str, page: int) -> CheckResult | None:
    """Compare a stated total of emissions with the sum of the stated Scope 1/2/3 figures."""
    parts: dict[int, Figure] = {}
    totals: list[tuple[Figure, frozenset[int]]] = []
    for figure in parse_figures(text):
        label = _scope_label(text, figure) if figure.dimension == "mass" else None
        if label is None:
            continue
        kind, scopes = label
        if kind == "part":
            parts.setdefault(next(iter(scopes)), figure)
        else:
            totals.append((figure, scopes))
    if not totals or len(parts) < 2:
        return None
    total, scopes = totals[0]
    candidates = [frozenset(scopes)] if scopes else [frozenset(parts), frozenset({1, 2})]
    candidates = [c for c in candidates if c and c <= set(parts)]
    if not candidates:
        return None
    return _sum_result("scope_total", total, [[parts[n] for n in sorted(c)] for c in candidates], text, page)


def _sum_result(
    check: str, total: Figure, options: list[list[Figure]], text: str, page: int, *, exhaustive: bool = True
) -> CheckResult:
    """Whether `total` equals the sum of the parts of any option (within the rounding of all)."""
    results = []
    for parts in options:
        computed = sum(p.base for p in parts)
        tolerance = total.base_half_unit + sum(p.base_half_unit for p in parts)
        results.append((parts, computed, tolerance, close(total.base, computed, tolerance)))
    parts, computed, tolerance, consistent = next((r for r in results if r[3]), results[0])
    over = computed > total.base + tolerance
    supports: bool | None = consistent if exhaustive else (False if over else (True if consistent else None))
    factor = total.base / total.value if total.value else 1.0
    details = {
        "check": check,
        "total": total.as_dict(page),
        "parts": [p.as_dict(page) for p in parts],
        "formula": "sum(parts) == total" if exhaustive else "sum(parts) <= total",
        "computed_sum": round(computed / factor, 6),
        "computed_sum_unit": total.unit,
        "tolerance": round(tolerance / factor, 6),
        "consistent": consistent,
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    if supports is None:
        summary = (
            f"The stated parts sum to {computed / factor:g} {total.unit}, below the total {total.text}; "
            "they may not be exhaustive."
        )
        return CheckResult(check, "calculation", None, 0.4, summary, details)
    verb = "equals" if consistent else "does not equal"
    summary = (
        f"The stated parts sum to {computed / factor:g} {total.unit}, which {verb} the total {total.text}."
    )
    return CheckResult(check, "calculation", supports, 0.85 if supports is False else 0.75, summary, details)


def check_of_which(text: str, page: int) -> CheckResult | None:
    """ "Total X of which A and B": the parts must not exceed the total (and equal it if they add up)."""
    marker = _OF_WHICH.search(text)
    if marker is None:
        return None
    before = [f for f in parse_figures(text[: marker.start()]) if f.dimension not in {"percent", "pp"}]
    if not before:
        return None
    total = before[-1]
    rest = parse_figures(text[marker.end() :])
    parts = [f for f in rest if f.same_kind(total)]
    if len(parts) < 2 and not (parts and parts[0].base > total.base):
        return None
    return _sum_result("of_which_sum", total, [parts], text, page, exhaustive=False)


def check_sanity(text: str, page: int) -> list[CheckResult]:
    """Impossible values (a share above 100%, negative absolute emissions) and unit conversions."""
    results: list[CheckResult] = []
    figures = parse_figures(text)
    for figure in figures:
        around = text[max(0, figure.start - 60) : figure.end + 40]
        if figure.dimension == "percent" and figure.value > 100 and _SHARE.search(around):
            if not _CHANGE_BEFORE.search(text[max(0, figure.start - 25) : figure.start]):
                results.append(_impossible(figure, page, text, "a share cannot exceed 100%"))
        if figure.dimension == "mass" and figure.value < 0 and _EMISSION_WORD.search(around):
            if not _NEGATIVE_OK.search(around):
                results.append(_impossible(figure, page, text, "absolute emissions cannot be negative"))
    for first, second in zip(figures, figures[1:], strict=False):
        if _renderings(text, first, second):
            results.append(_conversion(first, second, page, text))
    return results


def _renderings(text: str, first: Figure, second: Figure) -> bool:
    """Whether two adjacent figures are certainly one quantity written twice ("2.3 Mt (2,300 kt)").

    Never across currencies (exchange rates are not constants), with a unit of two readings, with
    the same unit twice ("2.3 Mt (2.5 Mt)" is another year or site) or with a rate ("2.3 Mt or 0.5 t
    per employee"); a bracket must close right after the figure ("2.3 Mt (2.5 Mt in 2022)" compares).
    """
    if not first.same_kind(second) or first.dimension in {"percent", "pp"}:
        return False
    if first.ambiguous or second.ambiguous or _plain_unit(first) == _plain_unit(second):
        return False
    gap = _RENDERING_GAP.fullmatch(text[first.end : second.start])
    if gap is None or _RATE_AFTER.match(text[second.end :]) or _RATE_AFTER.match(text[first.end :]):
        return False
    return not gap["open"] or _RENDERING_END.match(text[second.end :]) is not None


def _plain_unit(figure: Figure) -> str:
    return figure.unit.removesuffix(" CO2e")


def _impossible(figure: Figure, page: int, text: str, reason: str) -> CheckResult:
    details = {
        "check": "impossible_value",
        "figure": figure.as_dict(page),
        "reason": reason,
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    return CheckResult("impossible_value", "calculation", False, 0.85, f"{figure.text}: {reason}.", details)


def _conversion(first: Figure, second: Figure, page: int, text: str) -> CheckResult:
    """Two renderings of one quantity ("2.3 Mt (2,300 kt)") must convert into each other."""
    tolerance = first.base_half_unit + second.base_half_unit
    consistent = close(first.base, second.base, tolerance)
    details = {
        "check": "unit_conversion",
        "first": first.as_dict(page),
        "second": second.as_dict(page),
        "first_in_base": first.base,
        "second_in_base": second.base,
        "tolerance_in_base": tolerance,
        "consistent": consistent,
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    verb = "agree" if consistent else "do not agree"
    summary = f"{first.text} and {second.text} {verb} after unit conversion."
    return CheckResult(
        "unit_conversion",
        "calculation",
        None if consistent else False,
        0.5 if consistent else 0.85,
        summary,
        details,
    )
