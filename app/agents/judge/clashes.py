"""The report contradicting itself: the same metric and year stated with two values on two pages.

Such a clash is certain (the report cannot be right twice), but on its own it does not say which
page is wrong. So the verdict's first line says what was found ("The report states two values for
…") rather than "not accurate as stated", and when independent evidence that reaches the
corroboration bar backs this claim's value, the clash alone does not make the claim CONTRADICTED:
it becomes INSUFFICIENT_EVIDENCE (the figure is backed, the report does not state it consistently),
while the other page's claim stays CONTRADICTED.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.agents.state import Finding

if TYPE_CHECKING:
    from app.agents.judge.grounding import Grounding

CLASH_CHECK = "cross_page"


def _value(figure: Any) -> tuple[str, int | None] | None:
    if not isinstance(figure, dict) or not figure.get("text"):
        return None
    page = figure.get("page")
    return str(figure["text"]), page if isinstance(page, int) else None


def _at(value: tuple[str, int | None]) -> str:
    text, page = value
    return f"{text} on page {page}" if page is not None else text


def clash_sentence(finding: Finding) -> str | None:
    """The sentence "The report states two values for <metric> <year>: X on page a, Y on page b" for a
    cross-page clash finding (None for any other finding, or one stored without its values)."""
    details = finding["details"]
    if details.get("check") != CLASH_CHECK or finding["supports_claim"] is not False:
        return None
    own = _value(details.get("claim_value"))
    others = [value for value in map(_value, details.get("other_values") or []) if value is not None]
    if own is None or not others:
        return None
    metric = str(details.get("metric") or "this metric").replace("_", " ")
    year = details.get("year")
    subject = f"{metric} {year}" if year else metric
    count = "two values" if len(others) == 1 else f"{len(others) + 1} values"
    stated = ", ".join(_at(value) for value in [own, *others])
    return f"The report states {count} for {subject}: {stated}"


def only_clashes(grounding: Grounding) -> bool:
    """Whether the only contradictions are the report stating the same metric and year with two
    values on two pages (no independent contradiction, no arithmetic one)."""
    internal = grounding["internal_contradictions"]
    return (
        bool(internal)
        and not grounding["contradicting"]
        and all(source.get("check") == CLASH_CHECK for source in internal)
    )


def clash_outweighed(grounding: Grounding) -> bool:
    """Whether independent evidence that reaches the corroboration bar backs this claim's value
    against the report's own other value: the clash alone then does not make the claim false."""
    return only_clashes(grounding) and grounding["corroborated"]
