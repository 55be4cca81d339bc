"""A report's verdicts as Markdown or JSON: the one renderer behind `sibyl analyze --markdown/--json`
and the API's `Report.export` field, so a file saved from the dashboard and the CLI's output are
byte for byte the same.

It renders the client's models (`clients.sibyl.models`), built from the public API's JSON. The
server builds the same models from the same documents (`clients.sibyl.documents`) executed in the
caller's context (`schema.report_export`); clients import nothing from `app`, the server may import
the client.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from clients.sibyl.models import Analysis, AnalysisWarning, Claim, Report

NO_VERDICT = "NO_VERDICT"
VERDICT_LABELS = ("VERIFIED", "UNVERIFIED", "CONTRADICTED", "INSUFFICIENT_EVIDENCE")
MARKDOWN_TEXT_WIDTH = 120


C = TypeVar("C", bound=Claim)


def shorten(text: str, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def by_page(claims: Sequence[C]) -> list[C]:
    return sorted(claims, key=lambda claim: (claim.source_page, claim.text))


def verdict_counts(claims: Sequence[Claim]) -> dict[str, int]:
    """Claims per verdict label, every label present (0 if none); unjudged claims under NO_VERDICT."""
    counted = Counter(claim.verdict.verdict if claim.verdict else NO_VERDICT for claim in claims)
    counts = {label: counted.pop(label, 0) for label in VERDICT_LABELS}
    counts.update(sorted(counted.items()))
    return counts


def warnings_of(report: Report) -> Sequence[AnalysisWarning]:
    """What degraded in the report's latest analysis (none without one)."""
    return report.analysis.warnings if report.analysis else ()


def title(report: Report) -> str:
    return report.company_name or report.filename or report.id


def claim_row(claim: Claim, width: int) -> list[str]:
    """Page, type, priority, verdict, confidence and the shortened text, as table cells."""
    verdict = claim.verdict
    confidence = "-" if verdict is None or verdict.confidence is None else f"{verdict.confidence:.2f}"
    return [
        str(claim.source_page),
        claim.claim_type,
        claim.priority,
        verdict.verdict if verdict else "-",
        confidence,
        shorten(claim.text, width),
    ]


def _markdown_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def render_markdown(report: Report, claims: Sequence[Claim]) -> str:
    """A markdown report: heading, summary counts and a claims table."""
    lines = [
        f"# Sibyl analysis: {_markdown_cell(title(report))}",
        "",
        f"- Report: `{report.id}` ({_markdown_cell(report.filename or '?')})",
        f"- Pages: {report.page_count or '?'}",
        f"- Status: {report.status}",
        f"- Claims: {len(claims)}",
        "",
        "## Summary",
        "",
        "| Verdict | Claims |",
        "| --- | ---: |",
    ]
    lines += [f"| {label} | {count} |" for label, count in verdict_counts(claims).items()]
    lines += ["", "## Claims", "", "| Page | Type | Priority | Verdict | Confidence | Claim |"]
    lines.append("| ---: | --- | --- | --- | ---: | --- |")
    for claim in by_page(claims):
        cells = claim_row(claim, MARKDOWN_TEXT_WIDTH)
        lines.append("| " + " | ".join(_markdown_cell(cell) for cell in cells) + " |")
    warnings = warnings_of(report)
    if warnings:
        lines += ["", "## Warnings", ""]
        lines += [f"- **{warning.code}** ({warning.stage}): {warning.message}" for warning in warnings]
    return "\n".join(lines) + "\n"


def _analysis_json(analysis: Analysis | None) -> dict[str, Any] | None:
    if analysis is None:
        return None
    return {
        "id": analysis.id,
        "status": analysis.status,
        "pipelineStage": analysis.pipeline_stage,
        "progressPercent": analysis.progress_percent,
        "iterationCount": analysis.iteration_count,
        "claimsCount": analysis.claims_count,
        "findingsCount": analysis.findings_count,
        "verdictsCount": analysis.verdicts_count,
        "errorMessage": analysis.error_message,
        "warnings": [
            {
                "code": warning.code,
                "stage": warning.stage,
                "message": warning.message,
                "count": warning.count,
                "total": warning.total,
                "iteration": warning.iteration,
            }
            for warning in analysis.warnings
        ],
    }


def _claim_json(claim: Claim) -> dict[str, Any]:
    verdict = claim.verdict
    return {
        "id": claim.id,
        "sourcePage": claim.source_page,
        "claimType": claim.claim_type,
        "priority": claim.priority,
        "text": claim.text,
        "verdict": None
        if verdict is None
        else {"verdict": verdict.verdict, "confidence": verdict.confidence, "reasoning": verdict.reasoning},
    }


def render_json(report: Report, claims: Sequence[Claim]) -> str:
    """One JSON document (camelCase keys, as in the API): report, analysis, counts and claims."""
    document = {
        "report": {
            "id": report.id,
            "filename": report.filename,
            "companyName": report.company_name,
            "status": report.status,
            "pageCount": report.page_count,
            "errorMessage": report.error_message,
        },
        "analysis": _analysis_json(report.analysis),
        "verdictCounts": verdict_counts(claims),
        "claims": [_claim_json(claim) for claim in by_page(claims)],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
