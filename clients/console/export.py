"""A report's verdicts as Markdown or JSON: the one renderer behind `sibyl analyze --markdown/--json`
and the API's `Report.export` field, so a file saved from the dashboard and the CLI's output are
byte for byte the same.

It renders the client's models (`clients.sibyl.models`), built from the public API's JSON. The
server builds the same models from the same documents (`clients.sibyl.documents`) executed in the
caller's context (`schema.types.report_export`); clients import nothing from `app`, the server may import
the client.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from clients.sibyl.models import (
    Analysis,
    AnalysisWarning,
    Claim,
    IfrsMapping,
    RegistryRecord,
    Report,
    VerdictSource,
)

NO_VERDICT = "NO_VERDICT"
VERDICT_LABELS = ("VERIFIED", "UNVERIFIED", "CONTRADICTED", "INSUFFICIENT_EVIDENCE")
NO_CLAIMS = "No verifiable claims were found in the report."
NO_CLAIMS_YET = "No claims: the analysis has not completed."


C = TypeVar("C", bound=Claim)


def shorten(text: str, width: int) -> str:
    """`text` on one line, cut to `width` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def by_page(claims: Sequence[C]) -> list[C]:
    """Claims by page; within a page in the order given (the API's `orderBy: PAGE` order), since the
    claim's text says nothing about where on the page it stands."""
    return sorted(claims, key=lambda claim: claim.source_page)


def verdict_counts(claims: Sequence[Claim]) -> dict[str, int]:
    """Claims per verdict label, every label present (0 if none); unjudged claims under NO_VERDICT."""
    counted = Counter(claim.verdict.verdict if claim.verdict else NO_VERDICT for claim in claims)
    counts = {label: counted.pop(label, 0) for label in VERDICT_LABELS}
    counts.update(sorted(counted.items()))
    return counts


def warnings_of(report: Report) -> Sequence[AnalysisWarning]:
    """What degraded in the report's latest analysis (none without one)."""
    return report.analysis.warnings if report.analysis else ()


def no_claims_sentence(report: Report) -> str:
    """What an empty claim list means: nothing verifiable in a completed run, else a run not done."""
    return NO_CLAIMS if report.status == "COMPLETED" else NO_CLAIMS_YET


def title(report: Report) -> str:
    return report.company_name or report.filename or report.id


def claim_row(claim: Claim, width: int | None) -> list[str]:
    """Page, type, priority, verdict, confidence and the text on one line (cut to `width` if given),
    as table cells."""
    verdict = claim.verdict
    confidence = "-" if verdict is None or verdict.confidence is None else f"{verdict.confidence:.2f}"
    return [
        str(claim.source_page),
        claim.claim_type,
        claim.priority,
        verdict.verdict if verdict else "-",
        confidence,
        shorten(claim.text, width) if width is not None else " ".join(claim.text.split()),
    ]


def _markdown_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def _markdown_text(text: str) -> str:
    """Free text on one line, with the characters that would start Markdown markup escaped."""
    flat = " ".join(text.split())
    for char in "\\`*_[]<>":
        flat = flat.replace(char, "\\" + char)
    return flat


_BLOCK_MARK = re.compile(r"[#+=-]")
_ORDERED_MARK = re.compile(r"(\d+)([.)])")


def _markdown_line(text: str) -> str:
    """`_markdown_text`, also escaping what would make the line a heading or a list item."""
    line = _markdown_text(text)
    ordered = _ORDERED_MARK.match(line)
    if ordered:
        return f"{ordered[1]}\\{ordered[2]}{line[ordered.end() :]}"
    return "\\" + line if _BLOCK_MARK.match(line) else line


def _markdown_reasoning(reasoning: str) -> list[str]:
    """The judge's reasoning as Markdown blocks, keeping its lines: a "- " line stays a list item
    (consecutive ones one list), every other line is a paragraph of its own; the first is led by
    "**Reasoning.**"."""
    lines: list[str] = []
    previous_item = False
    for raw in (line.strip() for line in reasoning.splitlines()):
        if not raw:
            continue
        item = raw.startswith("- ")
        text = "- " + _markdown_line(raw[2:]) if item else _markdown_line(raw)
        if lines and not (item and previous_item):
            lines.append("")
        lines.append(text if lines else f"**Reasoning.** {text}")
        previous_item = item
    return [*lines, ""] if lines else []


SIDE_WORDS = {
    "SUPPORTS": "supports",
    "WEAKLY_SUPPORTS": "weakly supports",
    "CONTRADICTS": "contradicts",
    "WEAKLY_CONTRADICTS": "weakly contradicts",
}
TIER_BASIS_WORDS = {
    "DOMAIN": "from the domain table",
    "COMPANY_SITE": "as the company's own site",
    "PRESS_RELEASE": "as a press release",
    "REGISTRY": "as a registry of record",
    "MODEL": "guessed by a model",
    "DEFAULT": "by default (unlisted source)",
}
METHOD_WORDS = {"rules": "read by the rule reader", "llm": "read by a model"}
QUOTE_CHECK = {
    True: "quote found in the source",
    False: "quote NOT found in the source",
    None: "quote not checked",
}


def _source_facts(source: VerdictSource) -> str:
    """What kind of source, its tier and how it was decided, date, pages and who read it."""
    tier = ""
    if source.tier is not None:
        basis = source.tier_basis
        tier = f"tier {source.tier}" + (f" {TIER_BASIS_WORDS.get(basis, f'({basis})')}" if basis else "")
    facts = [
        "internal check" if source.evidence_kind == "INTERNAL" else "",
        tier,
        source.published_date or "",
    ]
    if source.pages:
        facts.append(("page " if len(source.pages) == 1 else "pages ") + ", ".join(map(str, source.pages)))
    if source.method:
        facts.append(METHOD_WORDS.get(source.method, f"read by {source.method}"))
    return ", ".join(fact for fact in facts if fact)


def _registry_words(record: RegistryRecord) -> str:
    """Whose registry records a source rests on, and how the company was matched to them."""
    if not record.entity_names:
        return "registry: no entry for the company"
    coverage = f", {record.coverage} coverage" if record.coverage else ""
    return f"registry: {', '.join(record.entity_names)}, matched by {record.match_basis}{coverage}"


def _source_line(source: VerdictSource) -> str:
    """One deciding source: its side, publisher, title, facts, address, then its quote and whether
    the quote was found, or (a check of the report against itself) what the check found."""
    side = SIDE_WORDS.get(source.side, source.side.lower().replace("_", " "))
    line = "- " + (f"**{side}** — " if side else "") + _markdown_text(source.publisher)
    line += f": {_markdown_text(source.title)}" if source.title else ""
    facts = _source_facts(source)
    line += f" ({facts})" if facts else ""
    line += f" <{source.url}>" if source.url else ""
    line += f" [{_registry_words(source.registry)}]" if source.registry else ""
    if source.quote:
        return line + f" — “{_markdown_text(source.quote)}” ({QUOTE_CHECK[source.quote_verified]})"
    return line + (f": {_markdown_text(source.summary)}" if source.summary else "")


def _mapping_line(mapping: IfrsMapping) -> str:
    origin = ", ".join(part for part in (mapping.source, mapping.status or "") if part)
    line = f"- {_markdown_text(mapping.paragraph_id)}" + (f" ({origin})" if origin else "")
    return line + (f": {_markdown_text(mapping.relationship)}" if mapping.relationship else "")


def _claim_details(number: int, claim: Claim) -> list[str]:
    """The evidence behind one claim's verdict: reasoning, deciding sources, IFRS mapping and risk
    flags."""
    verdict = claim.verdict
    label = "no verdict" if verdict is None else verdict.verdict
    if verdict is not None and verdict.confidence is not None:
        label += f" ({verdict.confidence:.2f})"
    lines = [f"### {number}. Page {claim.source_page} — {label}", ""]
    if verdict is not None:
        lines += _markdown_reasoning(verdict.reasoning)
    if verdict is not None and verdict.deciding_sources:
        lines += ["**Deciding sources:**", ""]
        lines += [_source_line(source) for source in verdict.deciding_sources] + [""]
    if verdict is not None and verdict.ifrs_mapping:
        lines += ["**IFRS mapping:**", ""]
        lines += [_mapping_line(mapping) for mapping in verdict.ifrs_mapping] + [""]
    if claim.risk_flags:
        lines += ["**Risk flags:**", ""]
        lines += [
            f"- {flag.kind} (“{_markdown_text(flag.phrase)}”): {_markdown_text(flag.explanation)}"
            for flag in claim.risk_flags
        ] + [""]
    return lines


def _markdown_claims(report: Report, claims: Sequence[Claim]) -> list[str]:
    """The claims table (full text, numbered), then each claim's evidence under its number."""
    if not claims:
        return ["## Claims", "", no_claims_sentence(report)]
    ordered = by_page(claims)
    lines = ["## Claims", "", "| # | Page | Type | Priority | Verdict | Confidence | Claim |"]
    lines.append("| ---: | ---: | --- | --- | --- | ---: | --- |")
    for number, claim in enumerate(ordered, 1):
        cells = [str(number), *claim_row(claim, None)]
        lines.append("| " + " | ".join(_markdown_cell(cell) for cell in cells) + " |")
    details = [_claim_details(number, claim) for number, claim in enumerate(ordered, 1)]
    lines += ["", "## Evidence", ""]
    for block in details:
        lines += block
    return lines[:-1] if lines[-1] == "" else lines


def render_markdown(report: Report, claims: Sequence[Claim]) -> str:
    """A markdown report: heading, what degraded, summary counts, the claims and their evidence."""
    lines = [
        f"# Sibyl analysis: {_markdown_cell(title(report))}",
        "",
        f"- Report: `{report.id}` ({_markdown_cell(report.filename or '?')})",
        f"- Pages: {report.page_count or '?'}",
        f"- Status: {report.status}",
        f"- Claims: {len(claims)}",
    ]
    warnings = warnings_of(report)
    if warnings:
        lines += ["", "## Warnings", ""]
        lines += [f"- **{warning.code}** ({warning.stage}): {warning.message}" for warning in warnings]
    lines += ["", "## Summary", "", "| Verdict | Claims |", "| --- | ---: |"]
    lines += [f"| {label} | {count} |" for label, count in verdict_counts(claims).items()]
    lines += ["", *_markdown_claims(report, claims)]
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


def _source_json(source: VerdictSource) -> dict[str, Any]:
    return {
        "findingId": source.finding_id,
        "agent": source.agent,
        "side": source.side,
        "publisher": source.publisher,
        "evidenceKind": source.evidence_kind,
        "title": source.title,
        "url": source.url,
        "publishedDate": source.published_date,
        "tier": source.tier,
        "tierBasis": source.tier_basis,
        "method": source.method,
        "quote": source.quote,
        "quoteVerified": source.quote_verified,
        "pages": list(source.pages),
        "summary": source.summary,
        "registry": _registry_json(source.registry),
    }


def _registry_json(record: RegistryRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "registry": record.registry,
        "entityNames": list(record.entity_names),
        "matchBasis": record.match_basis,
        "coverage": record.coverage,
    }


def _mapping_json(mapping: IfrsMapping) -> dict[str, Any]:
    return {
        "paragraphId": mapping.paragraph_id,
        "source": mapping.source,
        "status": mapping.status,
        "relationship": mapping.relationship,
    }


def _claim_json(claim: Claim) -> dict[str, Any]:
    verdict = claim.verdict
    return {
        "id": claim.id,
        "sourcePage": claim.source_page,
        "claimType": claim.claim_type,
        "priority": claim.priority,
        "text": claim.text,
        "riskFlags": [
            {"kind": flag.kind, "phrase": flag.phrase, "explanation": flag.explanation}
            for flag in claim.risk_flags
        ],
        "verdict": None
        if verdict is None
        else {
            "verdict": verdict.verdict,
            "confidence": verdict.confidence,
            "reasoning": verdict.reasoning,
            "decidingSources": [_source_json(source) for source in verdict.deciding_sources],
            "ifrsMapping": [_mapping_json(mapping) for mapping in verdict.ifrs_mapping],
        },
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
