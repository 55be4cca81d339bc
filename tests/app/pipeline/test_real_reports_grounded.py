"""The whole offline pipeline on the real reports beside the project (skipped without them), with an
empty evidence library and no web search: nothing independent exists, so nothing may be VERIFIED,
and every claim must still have been searched for independent evidence."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Claim, Finding, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline.routing import SEARCHING_AGENTS
from tests.support.pipeline import analyse_offline, seed_parsed_pages
from tests.support.reports import report_pages, shared_report_paths

REPORTS = shared_report_paths()


@pytest.mark.skipif(not REPORTS, reason="../shared/data/sustainability-reports is not present")
@pytest.mark.parametrize("path", REPORTS, ids=[path.stem for path in REPORTS])
@pytest.mark.timeout(600)
async def test_no_verdict_is_verified_without_independent_evidence(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None, path: Path
) -> None:
    report_id = await seed_parsed_pages(session_factory, [text for _, text in report_pages(path)])
    await analyse_offline(settings, session_factory, event_log, report_id)

    async with session_factory() as session:
        claims = set(await session.scalars(select(Claim.id).where(Claim.report_id == report_id)))
        final = list(await session.scalars(select(Verdict).where(Verdict.is_final.is_(True))))
        findings = list(await session.scalars(select(Finding)))
    labels = Counter(verdict.verdict for verdict in final)
    assert claims and {verdict.claim_id for verdict in final} == claims
    assert labels["verified"] == 0, labels
    assert not [f for f in findings if f.evidence_kind == "independent" and f.supports_claim is not None]
    searched = {f.claim_id for f in findings if f.agent in SEARCHING_AGENTS and f.evidence_kind != "error"}
    assert searched == claims  # every claim met the (empty) evidence library
    assert all("corroborate" not in verdict.reasoning for verdict in final)
