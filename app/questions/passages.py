"""What goes into a report's question index: page text as overlapping sentence windows, claims, and
the latest run's findings and verdicts, each as text worth searching plus the attributes answers quote.

Findings and verdicts repeat their claim's text, so "the net-zero claim" finds the verdict on it, and
they carry the claim's page, so every citation can point at a page.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import distinct_on
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AnalysisRun, Claim, Finding, Verdict
from app.db.report_pages import load_report_pages
from app.questions.navigation import contents_windows
from app.questions.types import PassageKind
from app.questions.windows import page_sentences, sentence_windows
from app.verification.contract import source_address

#: Longest verdict reasoning or finding summary kept in a passage.
DETAIL_CHARS = 1500


@dataclass(frozen=True)
class PassageDraft:
    """A passage before it is embedded and stored."""

    kind: PassageKind
    text: str
    page_number: int | None
    claim_id: uuid.UUID | None = None
    analysis_run_id: uuid.UUID | None = None
    attributes: dict[str, Any] = field(default_factory=dict)


async def build_drafts(
    session: AsyncSession, report_id: uuid.UUID, run: AnalysisRun | None
) -> list[PassageDraft]:
    """Every passage of the report's index, pages first, in reading order."""
    pages = await load_report_pages(session, report_id)
    claims = list(
        await session.scalars(
            select(Claim).where(Claim.report_id == report_id).order_by(Claim.source_page, Claim.id)
        )
    )
    drafts = [draft for number, page_text in pages for draft in page_drafts(number, page_text)]
    drafts += [claim_draft(claim) for claim in claims]
    if run is not None:
        by_id = {claim.id: claim for claim in claims}
        drafts += [
            verdict_draft(verdict, by_id[verdict.claim_id])
            for verdict in await latest_verdicts(session, run.id)
            if verdict.claim_id in by_id
        ]
        drafts += [
            finding_draft(finding, by_id.get(finding.claim_id) if finding.claim_id else None)
            for finding in await run_findings(session, run.id)
        ]
    return drafts


def page_drafts(number: int, page_text: str) -> list[PassageDraft]:
    """A page's text as overlapping sentence windows (`windows`), each remembering which of the
    page's sentences it spans, so an answer can quote the exact sentences and their page; windows
    of a table of contents are marked `contents` (`navigation`), so answers never cite them."""
    windows = sentence_windows(page_sentences(number, page_text))
    contents = contents_windows(page_text, [window.text for window in windows])
    return [
        PassageDraft(
            kind="page",
            text=window.text,
            page_number=number,
            attributes={
                "sentences": [window.first, window.last],
                **({"contents": True} if index in contents else {}),
            },
        )
        for index, window in enumerate(windows)
    ]


def claim_draft(claim: Claim) -> PassageDraft:
    """A claim as the report states it, with its type, priority and IFRS paragraphs."""
    return PassageDraft(
        kind="claim",
        text=claim.text,
        page_number=claim.source_page,
        claim_id=claim.id,
        analysis_run_id=claim.analysis_run_id,
        attributes={
            "claim_type": claim.claim_type,
            "priority": claim.priority,
            "ifrs": _paragraph_ids(claim.ifrs_paragraphs),
        },
    )


def verdict_draft(verdict: Verdict, claim: Claim) -> PassageDraft:
    """The judge's latest verdict on a claim: label, confidence and reasoning."""
    reasoning = _clip(verdict.reasoning)
    label = verdict.verdict.replace("_", " ")
    return PassageDraft(
        kind="verdict",
        text=f'Verdict {label.upper()} on the claim "{claim.text}". {reasoning}',
        page_number=claim.source_page,
        claim_id=claim.id,
        analysis_run_id=verdict.analysis_run_id,
        attributes={
            "label": verdict.verdict,
            "confidence": verdict.confidence,
            "confidence_level": (verdict.details or {}).get("confidence_level"),
            "iteration": verdict.iteration,
            "is_final": verdict.is_final,
            "method": verdict.method,
            "ifrs": _paragraph_ids(verdict.ifrs_mapping),
            "claim_text": claim.text,
            "reasoning": reasoning,
        },
    )


def finding_draft(finding: Finding, claim: Claim | None) -> PassageDraft:
    """One specialist's finding, with whether it supports the claim and its source, if any."""
    stance = {True: "supports the claim", False: "contradicts the claim", None: "is inconclusive"}
    about = f' on the claim "{claim.text}"' if claim is not None else ""
    summary = _clip(finding.summary)
    details = finding.details or {}
    source = source_address(details)
    return PassageDraft(
        kind="finding",
        text=f"Finding by {finding.agent}{about} "
        f"({finding.evidence_type}; {stance[finding.supports_claim]}): {summary}",
        page_number=claim.source_page if claim is not None else None,
        claim_id=finding.claim_id,
        analysis_run_id=finding.analysis_run_id,
        attributes={
            "agent": finding.agent,
            "evidence_type": finding.evidence_type,
            "supports_claim": finding.supports_claim,
            "confidence": finding.confidence,
            "iteration": finding.iteration,
            "summary": summary,
            "source_url": source if isinstance(source, str) else None,
            "claim_text": claim.text if claim is not None else None,
        },
    )


async def latest_verdicts(session: AsyncSession, run_id: uuid.UUID) -> list[Verdict]:
    """Each claim's verdict from the run's latest pass so far (the final one once it completed)."""
    statement = (
        select(Verdict)
        .where(Verdict.analysis_run_id == run_id)
        .ext(distinct_on(Verdict.claim_id))
        .order_by(Verdict.claim_id, Verdict.is_final.desc(), Verdict.iteration.desc())
    )
    return list(await session.scalars(statement))


async def run_findings(session: AsyncSession, run_id: uuid.UUID) -> list[Finding]:
    """The run's findings, errors left out: "the search failed" is nothing to answer from."""
    statement = (
        select(Finding)
        .where(Finding.analysis_run_id == run_id, Finding.evidence_type != "error")
        .order_by(Finding.iteration, Finding.agent, Finding.id)
    )
    return list(await session.scalars(statement))


def _paragraph_ids(mappings: list[dict[str, Any]] | None) -> list[str]:
    return [
        str(item["paragraph_id"])
        for item in mappings or []
        if isinstance(item, dict) and item.get("paragraph_id")
    ]


def _clip(value: str, limit: int = DETAIL_CHARS) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1].rstrip() + "…"
