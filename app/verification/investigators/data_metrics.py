"""The data/metrics specialist: deterministic checks of the report's own numbers.

No LLM and no outside source: it recomputes stated percentage changes, totals and unit
conversions, flags impossible values, assesses target arithmetic and compares each figure a claim
states with the same metric and year elsewhere in the report. Every finding says exactly what was
computed, so a reader can redo the arithmetic; a claim no check applies to gets an honest "none",
which says so when the claim states a change the checks could not read.

Modules: `change_statements` reads a change in any common word order, `percent_change` recomputes
it within the written digits' rounding, `page_totals` adds up scopes stated across a page's
sentences, `targets` tells a target from an achievement, `metric_checks` holds the in-sentence
totals and sanity checks and `metric_index` the cross-page comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from app.verification.checks.change_statements import stated_change
from app.verification.checks.check_result import CheckResult
from app.verification.checks.metric_checks import check_of_which, check_sanity, check_scope_totals
from app.verification.checks.metric_index import MetricIndex, check_cross_page
from app.verification.checks.page_totals import check_page_total
from app.verification.checks.percent_change import check_percent_change
from app.verification.checks.targets import check_target
from app.verification.contract.investigator import InvestigationTools
from app.verification.records import ClaimState, FindingDraft, InvestigationOutcome, SpecialistTask

CHECKS_TRIED = (
    "percent_change",
    "scope_total",
    "page_scope_total",
    "of_which_sum",
    "sanity",
    "target_arithmetic",
    "cross_page",
)


def _texts(claim: ClaimState) -> list[str]:
    """The claim's sentence first, then its surrounding context (which may hold the other values)."""
    context = claim.get("source_context") or ""
    return [claim["text"]] + ([context] if context and context.strip() != claim["text"].strip() else [])


def _first(
    texts: Iterable[str], page: int, check: Callable[[str, int], CheckResult | None]
) -> CheckResult | None:
    for text in texts:
        result = check(text, page)
        if result is not None:
            return result
    return None


def check_claim(claim: ClaimState, index: MetricIndex) -> list[CheckResult]:
    """Every check that applies to one claim (an empty list when none does)."""
    page, texts, text = claim["source_page"], _texts(claim), claim["text"]
    # A stated change and a target are the claim's own words; totals may be spelt out around it.
    results = [result for result in (check_percent_change(text, page),) if result is not None]
    results += [
        result
        for check in (check_scope_totals, check_of_which)
        if (result := _first(texts, page, check)) is not None
    ]
    if not any(result.check == "scope_total" for result in results):
        # The parts of a total may be stated in other sentences of the page.
        total = check_page_total(text, page, index)
        results += [total] if total is not None else []
    target = check_target(text, page, texts[-1])
    results += [target] if target is not None else []
    results += check_sanity(text, page)
    cross = check_cross_page(claim["text"], page, index)
    if cross is not None:
        results.append(cross)
    return results


def run_checks(claims: Iterable[ClaimState], pages: list[tuple[int, str]]) -> dict[str, list[CheckResult]]:
    """The pure layer: results per claim id, with the metric index built once for all claims."""
    index = MetricIndex(pages)
    return {claim["claim_id"]: check_claim(claim, index) for claim in claims}


#: The checks depend on the report alone, so a re-investigation cannot change them: the judge does
#: not send a claim back to this agent (see `reinvestigation.determine_target_agents`).
SETTLED = {"settled": True}


def _draft(claim_id: str, result: CheckResult) -> FindingDraft:
    return FindingDraft(
        claim_id=claim_id,
        evidence_type=result.evidence_type,
        summary=result.summary,
        supports_claim=result.supports_claim,
        confidence=result.confidence,
        method="rules",
        details={**result.details, **SETTLED},
    )


NOTHING_ELSE = (
    "no total with its parts, no target with a baseline, no impossible value and no metric that "
    "another page states for the same year."
)


def nothing_applied_summary(text: str) -> tuple[str, str | None]:
    """What to say when no check applied, and the change the claim states if it states one.

    A claim that states a change ("down 5%") is never told it states none: either only one level
    is given, or the check could not read the levels in this wording; both are said as such.
    """
    change = stated_change(text)
    if change is None:
        return "No arithmetic check applied: the claim states no percentage change between two values, " + (
            NOTHING_ELSE
        ), None
    return (
        f'No arithmetic check applied: the claim states a change ("{change}") that the arithmetic check '
        "could not read against two stated levels (only one level may be given, or the wording is one "
        "the rule reader does not parse), and " + NOTHING_ELSE,
        change,
    )


def _nothing_applied(claim_id: str, text: str) -> FindingDraft:
    summary, change = nothing_applied_summary(text)
    return FindingDraft(
        claim_id=claim_id,
        evidence_type="none",
        summary=summary,
        supports_claim=None,
        confidence=None,
        method="rules",
        details={
            "checks_tried": list(CHECKS_TRIED),
            "source_available": True,
            "stated_change": change,
            **SETTLED,
        },
    )


def summarise(results: dict[str, list[CheckResult]]) -> Counter[str]:
    """Checks made per kind, plus how many contradicted their claim."""
    counts: Counter[str] = Counter()
    for items in results.values():
        for result in items:
            counts[result.check] += 1
            counts["contradictions"] += result.supports_claim is False
    return counts


async def investigate_data_metrics(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Run every applicable check on the task's claims against the whole report's pages."""
    pages = await tools.report_pages()
    results = run_checks(task["claims"], pages)
    findings: list[FindingDraft] = []
    for claim in task["claims"]:
        items = results[claim["claim_id"]]
        findings += [_draft(claim["claim_id"], item) for item in items] or [
            _nothing_applied(claim["claim_id"], claim["text"])
        ]
    counts = summarise(results)
    made = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()) if kind != "contradictions")
    await tools.think(
        f"Checked {len(task['claims'])} claims against {len(pages)} pages: {made or 'no check applied'}; "
        f"{counts['contradictions']} contradiction(s).",
        checks=dict(counts),
    )
    return InvestigationOutcome(findings=findings)
