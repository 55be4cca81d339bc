"""The report contradicting itself: the same metric and year stated with two values on two pages.

Such a clash is certain (the report cannot be right twice), but on its own it does not say which
page is wrong. So the verdict's first line says what was found ("The report states two values for
…") rather than "not accurate as stated", and when independent evidence that reaches the
corroboration bar backs this claim's value, the clash alone does not make the claim CONTRADICTED:
it becomes INSUFFICIENT_EVIDENCE (the figure is backed, the report does not state it consistently),
while the other page's claim stays CONTRADICTED.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.verification.contract import CROSS_PAGE_CHECK, CheckFinding, StatedValue
from app.verification.records import Finding

if TYPE_CHECKING:
    from app.verification.judge.grounding import Grounding

CLASH_CHECK = CROSS_PAGE_CHECK


def _at(value: StatedValue) -> str:
    return f"{value.text} on page {value.page}" if value.page is not None else value.text


def clash_sentence(finding: Finding) -> str | None:
    """The sentence "The report states two values for <metric> <year>: X on page a, Y on page b" for a
    cross-page clash finding (None for any other finding, or one stored without its values)."""
    check = CheckFinding.from_details(finding["details"])
    if check.check != CLASH_CHECK or finding["supports_claim"] is not False:
        return None
    own, others = check.claim_value, check.other_values
    if own is None or not others:
        return None
    metric = (check.metric or "this metric").replace("_", " ")
    subject = f"{metric} {check.year}" if check.year else metric
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
