"""Pure arithmetic checks of a report's own numbers, one sentence (or short passage) at a time.

Each check either does not apply (returns nothing) or returns a `CheckResult` whose details state
exactly what was computed: the inputs as written, the formula, the result and the rounding
tolerance. Tolerances come from the stated precision (half a unit of the last written digit),
so a check never calls a correctly rounded figure wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from app.specialists.figures import (
    BARE_NUMBER,
    Figure,
    attributed_elsewhere,
    close,
    parse_figures,
    parse_number,
    parse_years,
)

_I = re.IGNORECASE

DECREASE = re.compile(r"\b(?:fell|fall\w*|decreas\w*|reduc\w*|declin\w*|down|lower\w*|cut|drop\w*)\b", _I)
INCREASE = re.compile(r"\b(?:rose|ris(?:e|es|ing)|increas\w*|gr[eo]w\w*|growth|up|higher)\b", _I)
_FROM = re.compile(r"\bfrom\b", _I)
_TO = re.compile(r"\bto\b", _I)
_RANGE_GAP = re.compile(r"\s*(?:to|-|\u2013)\s*", _I)
# "emissions from the refineries were 5.8 Mt": a "from" that names a source, not an earlier level.
_NOT_A_LEVEL_GAP = re.compile(r"\b(?:were|was|is|are|been|amounted|totall?(?:ed|ing)|reached|stood)\b", _I)
# "5.8 Mt or 18% of the Group's emissions": a share, not a change.
_SHARE_AFTER = re.compile(r"^\s?(?:of\b|share\b)", _I)
# A percentage that may measure something other than the change between the two stated levels.
_OTHER_RATE = re.compile(
    r"\b(?:year[- ]on[- ]year|y-o-y|yoy|per (?:year|annum)|a year|annual\w*|on average|CAGR|compound\w*|"
    r"intensity|like[- ]for[- ]like)\b",
    _I,
)
# Two renderings of one quantity: "2.3 Mt (2,300 kt)", "2.3 Mt or 2,300 kt", "1 MWh = 3.6 GJ".
_RENDERING_GAP = re.compile(r"\s*(?P<open>[(\[])\s*|\s*(?:or|=)\s*", _I)
_RENDERING_END = re.compile(r"^\s*[)\]]")
_RATE_AFTER = re.compile(r"^\s?(?:/|per\b)", _I)
_IS_YEAR = re.compile(r"(?:19[89]|20[0-6])\d")
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
_TARGET_PCT = re.compile(
    r"\b(?:reduc\w*|cut\w*|lower\w*|decreas\w*)\b[^.]{0,80}?\bby\s(?P<pct>\d+(?:\.\d+)?)\s?(?:%|per\s?cent)"
    r"|(?P<pct2>\d+(?:\.\d+)?)\s?(?:%|per\s?cent)\s(?:absolute\s)?(?:reduction|cut|decrease)",
    _I,
)
_TARGET_YEAR = re.compile(r"\bby\s(?:the end of\s)?(?:FY\s?)?(?P<year>20[2-6]\d)\b", _I)
_BASE_YEAR = re.compile(
    r"(?:baseline|base year|from|against|vs\.?|versus|compared (?:to|with)|relative to)\s(?:a\s|the\s|our\s)?"
    r"(?:FY\s?)?(?P<year>(?:19[89]|20[0-2])\d)\b"
    r"|\b(?P<year2>(?:19[89]|20[0-2])\d)\s(?:baseline|base year|levels?)",
    _I,
)
_ACHIEVED = re.compile(
    r"\b(?:achieved|so far|to date|already|reduced|down|decrease|reduction|cut|lowered|progress)\b", _I
)


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check on one claim, ready to become a finding."""

    check: str
    evidence_type: str
    supports_claim: bool | None
    confidence: float | None
    summary: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Quantity:
    """A number in running text, with the unit of the figure it belongs to if one was written."""

    value: float
    half: float
    start: int
    end: int
    figure: Figure | None

    @property
    def dimension(self) -> str | None:
        return self.figure.dimension if self.figure else None


def quantities(text: str) -> list[Quantity]:
    """Every number in `text` that is not a year, attached to its unit when it has one."""
    figures = {figure.start: figure for figure in parse_figures(text)}
    found: list[Quantity] = []
    for match in BARE_NUMBER.finditer(text):
        start = match.start()
        figure = figures.get(start) or figures.get(start - 1)  # a currency symbol precedes the number
        if figure is None and (_IS_YEAR.fullmatch(match["num"]) or text[max(0, start - 2) : start] == "FY"):
            continue
        value, half = parse_number(match["num"])
        if figure is not None:
            found.append(Quantity(figure.value, figure.half_unit, figure.start, figure.end, figure))
        else:
            found.append(Quantity(-value if match["sign"] else value, half, start, match.end(), None))
    return found


def _first_after(items: list[Quantity], offset: int, window: int, text: str | None = None) -> Quantity | None:
    """The first quantity within `window` characters after `offset` (with `text`: not after a verb)."""
    for item in items:
        if offset <= item.start <= offset + window:
            if text is not None and _NOT_A_LEVEL_GAP.search(text[offset : item.start]):
                return None
            return item
    return None


def _from_to(text: str, values: list[Quantity]) -> tuple[Quantity, Quantity] | None:
    """The "from A ... to B" (or "to B ... from A") pair of levels in `text`, if any."""
    for origin in _FROM.finditer(text):
        first = _first_after(values, origin.end(), 40, text)
        if first is None:
            continue
        targets = [_first_after(values, to.end(), 30) for to in _TO.finditer(text)]
        second = next((item for item in targets if item is not None and item is not first), None)
        if second is not None and _compatible(first, second) and _units_written(text, first, second):
            return first, second
    return None


def _units_written(text: str, first: Quantity, second: Quantity) -> bool:
    """The later level has a unit, and a bare earlier one is written right before it ("2.45 to 2.30 Mt")."""
    if second.figure is None:
        return False
    return first.figure is not None or bool(_RANGE_GAP.fullmatch(text[first.end : second.start]))


def _compatible(a: Quantity, b: Quantity) -> bool:
    if a.figure is None or b.figure is None:
        return True
    return a.figure.same_kind(b.figure)


def _base(quantity: Quantity, other: Quantity) -> tuple[float, float]:
    """Value and half-unit in a common base; a unitless number borrows its partner's unit."""
    unit_of = quantity.figure or other.figure
    factor = unit_of.base / unit_of.value if unit_of is not None and unit_of.value else 1.0
    if quantity.figure is None and other.figure is not None:
        # "from 2.45 to 2.30 Mt": the bare number is written in the same unit as its partner.
        factor = other.figure.base / other.figure.value if other.figure.value else 1.0
    return quantity.value * factor, quantity.half * abs(factor)


def _direction(text: str, percent: Figure) -> int:
    """-1 for a stated fall, +1 for a rise, 0 when the text does not say."""
    if percent.value < 0:
        return -1
    down = [match.start() for match in DECREASE.finditer(text)]
    up = [match.start() for match in INCREASE.finditer(text)]
    if down and not up:
        return -1
    if up and not down:
        return 1
    if not down and not up:
        return 0
    nearest = min(down + up, key=lambda offset: abs(offset - percent.start))
    return -1 if nearest in down else 1


def check_percent_change(text: str, page: int) -> CheckResult | None:
    """Recompute a stated % change between two stated levels ("fell 6.1% to 2.30 Mt from 2.45 Mt")."""
    values = [item for item in quantities(text) if item.dimension not in {"percent", "pp"}]
    pair = _from_to(text, values)
    percents = [
        f for f in parse_figures(text) if f.dimension == "percent" and not _SHARE_AFTER.match(text[f.end :])
    ]
    if pair is None or not percents:
        return None
    before, after = pair
    (old, old_half), (new, new_half) = _base(before, after), _base(after, before)
    if old == 0:
        return None
    stated = min(percents, key=lambda f: min(abs(f.start - before.start), abs(f.start - after.start)))
    if attributed_elsewhere(text, stated.start, weak=False):
        return None  # a scenario's or another organisation's change, not the company's
    computed = (new - old) / old * 100
    tolerance = stated.half_unit + 100 * (new_half / abs(old) + abs(new) * old_half / old**2)
    direction = _direction(text, stated)
    magnitude_ok = close(abs(stated.value), abs(computed), tolerance)
    direction_ok = direction == 0 or computed == 0 or (direction < 0) == (computed < 0)
    consistent = magnitude_ok and direction_ok
    if not consistent and _doubtful(text, percents, stated, computed, tolerance - stated.half_unit):
        return None
    unit_of = after.figure or before.figure
    unit = unit_of.unit if unit_of is not None else ""
    details = {
        "check": "percent_change",
        "stated_percent": -abs(stated.value) if direction < 0 else abs(stated.value),
        "stated_direction": {-1: "decrease", 1: "increase", 0: "unstated"}[direction],
        "from": {"value": before.value, "unit": unit, "page": page},
        "to": {"value": after.value, "unit": unit, "page": page},
        "formula": "(to - from) / from * 100",
        "computed_percent": round(computed, 2),
        "tolerance_pp": round(tolerance, 3),
        "consistent": consistent,
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    verb = "matches" if consistent else "does not match"
    summary = (
        f"Stated change of {details['stated_percent']}% {verb} the recomputed change "
        f"{computed:+.2f}% from {before.value:g} to {after.value:g} {unit} (tolerance ±{tolerance:.2f} pp)."
    )
    return CheckResult(
        "percent_change", "calculation", consistent, 0.8 if consistent else 0.9, summary, details
    )


def _doubtful(text: str, percents: list[Figure], stated: Figure, computed: float, slack: float) -> bool:
    """Whether a mismatch may only mean the stated percentage measures something else: a yearly
    rate, an intensity, or not this change (another percentage in the text matches it)."""
    if _OTHER_RATE.search(text):
        return True
    others = (figure for figure in percents if figure is not stated)
    return any(close(abs(figure.value), abs(computed), figure.half_unit + slack) for figure in others)


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


def check_target(text: str, page: int, context: str = "") -> CheckResult | None:
    """A reduction target ("cut 42% by 2030 vs 2019") against the reduction achieved so far.

    The target must be in `text` (the claim); the achieved reduction may also come from `context`.
    """
    target_year = _TARGET_YEAR.search(text)
    base = _BASE_YEAR.search(text)
    # "Global emissions would fall 70% by 2050" or a scenario's pathway is not the company's target.
    targets = [
        match
        for match in _TARGET_PCT.finditer(text)
        if not attributed_elsewhere(text, match.start("pct") if match["pct"] else match.start("pct2"))
    ]
    if not targets or target_year is None or base is None:
        return None
    target = min(targets, key=lambda match: abs(match.end() - target_year.start()))
    goal = float(target["pct"] or target["pct2"])
    end, start = int(target_year["year"]), int(base["year"] or base["year2"])
    if end <= start:
        return None
    details: dict[str, Any] = {
        "check": "target_arithmetic",
        "target_percent": goal,
        "baseline_year": start,
        "target_year": end,
        "required_annual_pp": round(goal / (end - start), 3),
        "required_annual_compound_percent": round((1 - (1 - goal / 100) ** (1 / (end - start))) * 100, 3),
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    achieved = _achieved(text, target.start(), goal, {start, end})
    if achieved is None and context and context != text:
        achieved = _achieved(context, -10, goal, {start, end})
    if achieved is None:
        details["status"] = "no progress figure stated"
        summary = (
            f"Target of {goal:g}% by {end} from {start} needs {details['required_annual_pp']} pp a year; "
            "no progress figure was stated."
        )
        return CheckResult("target_arithmetic", "calculation", None, 0.3, summary, details)
    done, year = achieved
    expected = goal * (year - start) / (end - start)
    on_track = done + 0.5 >= expected
    details |= {
        "achieved_percent": done,
        "achieved_year": year,
        "achieved_annual_pp": round(done / (year - start), 3) if year > start else None,
        "linear_expected_percent_by_achieved_year": round(expected, 2),
        "remaining_annual_pp": round((goal - done) / (end - year), 3) if end > year else None,
        "formula": "on track if achieved >= target * (year - baseline) / (target_year - baseline)",
        "status": "on track" if on_track else "behind",
    }
    summary = (
        f"{done:g}% achieved by {year} against {expected:.1f}% expected on a straight line to "
        f"{goal:g}% by {end} (baseline {start}): {details['status']}."
    )
    return CheckResult("target_arithmetic", "calculation", None, 0.5, summary, details)


def _achieved(text: str, target_at: int, goal: float, skip_years: set[int]) -> tuple[float, int] | None:
    """The reduction achieved so far and the year it was achieved by, if the text states both."""
    for figure in parse_figures(text):
        if figure.dimension != "percent" or abs(figure.start - target_at) < 3 or figure.value == goal:
            continue
        if not _ACHIEVED.search(text[max(0, figure.start - 60) : figure.end + 40]):
            continue
        years = [y for y, _ in parse_years(text) if y not in skip_years and y < max(skip_years)]
        if years:
            nearest = min(
                parse_years(text), key=lambda item: abs(item[1] - figure.start) if item[0] in years else 10**6
            )
            return abs(figure.value), nearest[0]
    return None
