"""Recomputing a stated percentage change from the two levels it is stated between.

The tolerance is the stated precision, not a fixed margin: a percentage written as a whole number
may be off by half a point of rounding, and each level may be off by half a unit of its last written
digit. The check recomputes the change at the extremes of the levels' rounding (the change is
monotonic in each level), so "2.3 Mt from 2.6 Mt" allows -15.1% to -7.8% (two significant figures
say little), while "410 kt from 450 kt" allows only -9.1% to -8.7%: a stated 5% fall is then wrong
by any rounding. The finding reports both intervals so a reader can redo the arithmetic.
"""

from __future__ import annotations

import re

from app.language.figures import Figure, close
from app.verification.checks.change_statements import ChangeStatement, Quantity, read_change
from app.verification.checks.check_result import CheckResult

_I = re.IGNORECASE
# A percentage that may measure something other than the change between the two stated levels.
_OTHER_RATE = re.compile(
    r"\b(?:year[- ]on[- ]year|y-o-y|yoy|per (?:year|annum)|a year|annual\w*|on average|CAGR|compound\w*|"
    r"intensity|like[- ]for[- ]like)\b",
    _I,
)


def _base(quantity: Quantity, other: Quantity) -> tuple[float, float]:
    """Value and half-unit in a common base; a unitless number borrows its partner's unit."""
    unit_of = quantity.figure or other.figure
    factor = unit_of.base / unit_of.value if unit_of is not None and unit_of.value else 1.0
    if quantity.figure is None and other.figure is not None:
        # "from 2.45 to 2.30 Mt": the bare number is written in the same unit as its partner.
        factor = other.figure.base / other.figure.value if other.figure.value else 1.0
    return quantity.value * factor, quantity.half * abs(factor)


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] + 1e-9 and b[0] <= a[1] + 1e-9


def _magnitudes(low: float, high: float) -> tuple[float, float]:
    """The range of |x| for x in [low, high]."""
    if low >= 0:
        return low, high
    if high <= 0:
        return -high, -low
    return 0.0, max(-low, high)


def check_percent_change(text: str, page: int) -> CheckResult | None:
    """Recompute a stated % change between two stated levels, in any word order (see
    `change_statements`), within the rounding the written digits allow."""
    change = read_change(text)
    if change is None:
        return None
    (old, old_half), (new, new_half) = _base(change.old, change.new), _base(change.new, change.old)
    if old - old_half <= 0 or new - new_half < 0:
        return None  # a zero or negative level (net removals): a percentage change means little
    computed = (new - old) / old * 100
    low = ((new - new_half) / (old + old_half) - 1) * 100
    high = ((new + new_half) / (old - old_half) - 1) * 100
    stated, half, direction = change.percent, change.percent.half_unit, change.direction
    if direction == 0:
        consistent = _overlap((abs(stated.value) - half, abs(stated.value) + half), _magnitudes(low, high))
    else:
        signed = -abs(stated.value) if direction < 0 else abs(stated.value)
        consistent = _overlap((signed - half, signed + half), (low, high))
    if not consistent and _doubtful(text, change, computed, (high - low) / 2):
        return None
    return _result(text, page, change, consistent, computed, (low, high))


def _doubtful(text: str, change: ChangeStatement, computed: float, slack: float) -> bool:
    """Whether a mismatch may only mean the stated percentage measures something else: a yearly
    rate, an intensity, or not this change (another percentage in the text matches it)."""
    if _OTHER_RATE.search(text):
        return True
    others = (figure for figure in change.percents if figure is not change.percent)
    return any(close(abs(figure.value), abs(computed), figure.half_unit + slack) for figure in others)


def _unit(change: ChangeStatement) -> str:
    figure: Figure | None = change.new.figure or change.old.figure
    return figure.unit if figure is not None else ""


def _result(
    text: str,
    page: int,
    change: ChangeStatement,
    consistent: bool,
    computed: float,
    bounds: tuple[float, float],
) -> CheckResult:
    stated, half, direction = change.percent, change.percent.half_unit, change.direction
    unit = _unit(change)
    tolerance = half + (bounds[1] - bounds[0]) / 2
    details = {
        "check": "percent_change",
        "stated_percent": -abs(stated.value) if direction < 0 else abs(stated.value),
        "stated_direction": {-1: "decrease", 1: "increase", 0: "unstated"}[direction],
        "stated_rounding_pp": half,
        "from": {"value": change.old.value, "unit": unit, "page": page},
        "to": {"value": change.new.value, "unit": unit, "page": page},
        "years": {"from": change.old_year, "to": change.new_year},
        "word_order": change.order,
        "formula": "(to - from) / from * 100",
        "computed_percent": round(computed, 2),
        "computed_range_percent": [round(bounds[0], 2), round(bounds[1], 2)],
        "tolerance_pp": round(tolerance, 3),
        "tolerance_basis": "half a unit of the last written digit of the percentage and of each level",
        "consistent": consistent,
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    verb = "matches" if consistent else "does not match"
    summary = (
        f"Stated change of {details['stated_percent']:g}% (±{half:g} pp as written) {verb} the recomputed "
        f"change {computed:+.2f}% from {change.old.value:g} to {change.new.value:g} {unit}; the levels' "
        f"rounding allows {bounds[0]:+.2f}% to {bounds[1]:+.2f}% (tolerance ±{tolerance:.2f} pp)."
    )
    return CheckResult(
        "percent_change", "calculation", consistent, 0.8 if consistent else 0.9, summary, details
    )
