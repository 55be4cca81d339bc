"""A cancel that lands while the last pass is judged stands: the compile node, which would mark the
run and report COMPLETED, leaves a CANCELLED run as it is."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.runtime import Runtime
from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun, Event, Report, ReportStatus
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.knowledge.search import KnowledgeSearch
from app.organisations import LOCAL_ORGANISATION_ID
from app.pipeline.compile import compile_report
from app.pipeline.runtime import PipelineDeps
from app.services.analysis import open_analysis_run
from app.services.run_control import cancel_analysis
from tests.support.pipeline import investigators, seed_report

pytestmark = pytest.mark.usefixtures("clean_db")


def _runtime(settings: Settings, session_factory: SessionFactory, event_log: EventLog) -> Runtime[Any]:
    embedder = create_embedder(settings)
    deps = PipelineDeps(
        settings=settings,
        session_factory=session_factory,
        event_log=event_log,
        llm=None,
        investigators=investigators(),
        embedder=embedder,
        knowledge=KnowledgeSearch(session_factory, embedder),
    )
    return Runtime(context=deps)


async def test_compile_leaves_a_cancelled_run_cancelled(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    run_id = started.run.id
    await cancel_analysis(event_log, seeded.report_id, LOCAL_ORGANISATION_ID)
    state: dict[str, Any] = {
        "report_id": str(seeded.report_id),
        "run_id": str(run_id),
        "iteration_count": 0,
        "claims": [],
        "findings": [],
        "verdicts": [],
    }

    await compile_report(state, _runtime(settings, session_factory, event_log))  # type: ignore[arg-type]

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
        report = await session.get(Report, seeded.report_id)
        events = list(await session.scalars(select(Event.event_type).where(Event.analysis_run_id == run_id)))
    assert run is not None and report is not None
    assert run.status == "CANCELLED"
    assert report.status == ReportStatus.CANCELLED
    assert "pipeline_completed" not in events
