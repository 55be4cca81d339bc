"""The report checked against itself: what one data/metrics check says of one claim."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.verification.contract.values import text

#: The check of two pages stating the same metric and year with different values.
CROSS_PAGE_CHECK = "cross_page"


@dataclass(frozen=True)
class StatedValue:
    """A value as the report states it, and the page it is on (None when not known)."""

    text: str
    page: int | None

    @classmethod
    def from_details(cls, stored: object) -> StatedValue | None:
        if not isinstance(stored, dict) or not stored.get("text"):
            return None
        page = stored.get("page")
        return cls(str(stored["text"]), page if isinstance(page, int) else None)


@dataclass(frozen=True)
class CheckFinding:
    """One data/metrics check of a claim against the report itself.

    Filled by the checks in `app.verification.checks` (a `CheckResult`'s details: `check` names the
    check, and each check adds the figures it compared); read by the judge: which checks are certain
    enough to contradict alone, whether a check found the claim consistent, and the sentence that
    names a cross-page clash's values.
    """

    #: Which check ran (percent_change, cross_page, scope_total, target_arithmetic, …).
    check: str | None
    #: True when the check found the claim consistent with the report (stored only by some checks).
    consistent: bool
    #: For a cross-page clash: the metric and year, the claim's own value and the other pages' values.
    metric: str | None = None
    year: int | str | None = None
    claim_value: StatedValue | None = None
    other_values: list[StatedValue] = field(default_factory=list)

    @classmethod
    def from_details(cls, details: dict[str, Any]) -> CheckFinding:
        year = details.get("year")
        return cls(
            check=text(details.get("check")),
            consistent=details.get("consistent") is True,
            metric=text(details.get("metric")),
            year=year if isinstance(year, int | str) and not isinstance(year, bool) else None,
            claim_value=StatedValue.from_details(details.get("claim_value")),
            other_values=[
                value
                for value in map(StatedValue.from_details, details.get("other_values") or [])
                if value is not None
            ],
        )
