"""Operator controls over GraphQL (and the CLI): `cancelAnalysis`, `deleteReport`, and the earlier
COMPLETED analysis that stays reachable (`Report.analyses`, the exports' fallback) when a re-run
fails."""

from __future__ import annotations

import json
import uuid
from typing import Any

from sqlalchemy import func, select, text, update
from strawberry import relay

from app.config import Settings
from app.db.models import (
    AnalysisRun,
    Claim,
    Event,
    EvidenceDocument,
    Finding,
    Report,
    ReportFile,
    ReportPage,
    ReportStatus,
    RoutingAssignment,
    Verdict,
)
from app.db.session import SessionFactory
from app.events import EventLog
from app.organisations import LOCAL_ORGANISATION_ID
from app.services.analysis import open_analysis_run
from tests.clients.cli_runner import run_cli
from tests.conftest import new_api_key
from tests.support.graphql import GraphQLClient
from tests.support.pipeline import analyse_offline, seed_report

CANCEL = """
mutation Cancel($id: ID!) {
  cancelAnalysis(reportId: $id) {
    __typename
    ... on CancelAnalysisSuccess { report { status } analysis { id status errorMessage } }
    ... on CancelAnalysisError { code message field }
  }
}
"""
DELETE = """
mutation Delete($id: ID!) {
  deleteReport(reportId: $id) {
    __typename
    ... on DeleteReportSuccess { deletedId deletedAnalyses report { filename } }
    ... on DeleteReportError { code message field }
  }
}
"""
ANALYSES = """
query Analyses($id: ID!) {
  report(id: $id) {
    status
    analysis { id status }
    analyses { id status completedAt }
    completed: analyses(status: [COMPLETED], first: 1) { id verdicts { verdict claim { id } } }
    markdown: export(format: MARKDOWN)
    json: export(format: JSON)
  }
}
"""


def global_id(report_id: uuid.UUID) -> str:
    return str(relay.GlobalID("Report", str(report_id)))


def run_global_id(run_id: uuid.UUID) -> str:
    return str(relay.GlobalID("Analysis", str(run_id)))


async def rows_of(
    session_factory: SessionFactory, report_id: uuid.UUID, run_ids: list[uuid.UUID]
) -> dict[str, int]:
    """How many rows of each kind the report (and its runs) has, checkpoints included."""
    counts: dict[str, int] = {}
    async with session_factory() as session:
        for model in (Report, ReportFile, ReportPage, Claim, AnalysisRun, Event):
            column = model.id if model is Report else model.report_id  # type: ignore[attr-defined]
            counts[model.__tablename__] = int(
                await session.scalar(select(func.count()).select_from(model).where(column == report_id)) or 0
            )
        for model in (Finding, Verdict, RoutingAssignment):  # type: ignore[assignment]
            counts[model.__tablename__] = int(
                await session.scalar(
                    select(func.count()).select_from(model).where(model.analysis_run_id.in_(run_ids))  # type: ignore[attr-defined]
                )
                or 0
            )
        counts["checkpoints"] = int(
            await session.scalar(
                text("SELECT count(*) FROM checkpoints WHERE thread_id = ANY(:ids)"),
                {"ids": [str(run_id) for run_id in run_ids]},
            )
            or 0
        )
    return counts


async def analysed_report(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> tuple[uuid.UUID, uuid.UUID]:
    seeded = await seed_report(session_factory)
    async with session_factory() as session, session.begin():
        session.add(ReportFile(report_id=seeded.report_id, content=b"%PDF-1.7 confidential bytes"))
    run_id = await analyse_offline(
        settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True
    )
    return seeded.report_id, run_id


async def test_delete_report_removes_every_row_and_byte(
    client: GraphQLClient, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    # given an analysed report with its PDF bytes, another report, and an evidence document
    report_id, run_id = await analysed_report(settings, session_factory, event_log)
    other = await seed_report(session_factory)
    async with session_factory() as session, session.begin():
        session.add(
            EvidenceDocument(
                organisation_id=LOCAL_ORGANISATION_ID,
                title="Library note",
                media_type="text/plain",
                text="kept",
                sha256="e" * 64,
                char_count=4,
                chunk_count=1,
            )
        )
    before = await rows_of(session_factory, report_id, [run_id])
    assert all(
        before[kind] > 0
        for kind in ("reports", "report_files", "report_pages", "claims", "verdicts", "events", "checkpoints")
    ), before
    # when it is deleted
    result = (await client.data(DELETE, id=global_id(report_id)))["deleteReport"]
    # then every row and byte of it is gone, and nothing else
    assert result["__typename"] == "DeleteReportSuccess", result
    assert result["deletedId"] == global_id(report_id)
    assert result["deletedAnalyses"] == 1
    assert result["report"]["filename"] == "known-claims.pdf"
    after = await rows_of(session_factory, report_id, [run_id])
    assert set(after.values()) == {0}, after
    async with session_factory() as session:
        assert await session.get(Report, other.report_id) is not None
        assert await session.scalar(select(func.count()).select_from(EvidenceDocument)) == 1
    again = (await client.data(DELETE, id=global_id(report_id)))["deleteReport"]
    assert (again["__typename"], again["code"]) == ("DeleteReportError", "NOT_FOUND")


async def test_delete_refused_while_running_and_cancel_over_graphql(
    client: GraphQLClient, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    seeded = await seed_report(session_factory)
    report = global_id(seeded.report_id)
    never = (await client.data(CANCEL, id=report))["cancelAnalysis"]
    assert (never["__typename"], never["code"], never["field"]) == (
        "CancelAnalysisError",
        "NOT_RUNNING",
        "reportId",
    )
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    refused = (await client.data(DELETE, id=report))["deleteReport"]
    assert (refused["__typename"], refused["code"]) == ("DeleteReportError", "ANALYSIS_RUNNING")
    assert "cancel" in refused["message"].lower()
    cancelled = (await client.data(CANCEL, id=report))["cancelAnalysis"]
    assert cancelled["__typename"] == "CancelAnalysisSuccess", cancelled
    assert cancelled["report"]["status"] == "CANCELLED"
    assert cancelled["analysis"]["status"] == "CANCELLED"
    assert cancelled["analysis"]["id"] == run_global_id(started.run.id)
    deleted = (await client.data(DELETE, id=report))["deleteReport"]
    assert deleted["__typename"] == "DeleteReportSuccess", deleted
    unknown = (await client.data(CANCEL, id="not-an-id"))["cancelAnalysis"]
    assert unknown["code"] == "NOT_FOUND"


async def test_another_organisation_can_neither_cancel_nor_delete(
    api_url: str,
    client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
) -> None:
    seeded = await seed_report(session_factory)
    await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    outsider = GraphQLClient(api_url, await new_api_key(session_factory, "another-org"))
    try:
        cancel = (await outsider.data(CANCEL, id=global_id(seeded.report_id)))["cancelAnalysis"]
        delete = (await outsider.data(DELETE, id=global_id(seeded.report_id)))["deleteReport"]
    finally:
        await outsider.aclose()
    assert (cancel["__typename"], cancel["code"]) == ("CancelAnalysisError", "NOT_FOUND")
    assert (delete["__typename"], delete["code"]) == ("DeleteReportError", "NOT_FOUND")
    async with session_factory() as session:
        report = await session.get(Report, seeded.report_id)
        assert report is not None and report.status is ReportStatus.ANALYZING


async def fail_rerun(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, report_id: uuid.UUID
) -> uuid.UUID:
    """A second analysis of the report that failed before judging anything."""
    started = await open_analysis_run(event_log, settings, report_id, skip_claims_extraction=True)
    message = "Analysis failed: OperationalError: server closed the connection."
    async with session_factory() as session, session.begin():
        await session.execute(
            update(AnalysisRun)
            .where(AnalysisRun.id == started.run.id)
            .values(status="ERROR", error_message=message)
        )
        await session.execute(
            update(Report)
            .where(Report.id == report_id)
            .values(status=ReportStatus.ERROR, error_message=message)
        )
    return started.run.id


async def test_failed_rerun_keeps_the_completed_analysis_reachable(
    api_url: str,
    api_key: str,
    client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
) -> None:
    # given a completed analysis, then a re-run that failed
    report_id, completed_id = await analysed_report(settings, session_factory, event_log)
    failed_id = await fail_rerun(settings, session_factory, event_log, report_id)
    # when the report is read
    report = (await client.data(ANALYSES, id=global_id(report_id)))["report"]
    # then `analysis` is still the latest (failed) run, and `analyses` reaches the completed one
    assert report["analysis"] == {"id": run_global_id(failed_id), "status": "ERROR"}
    assert [(run["id"], run["status"]) for run in report["analyses"]] == [
        (run_global_id(failed_id), "ERROR"),
        (run_global_id(completed_id), "COMPLETED"),
    ]
    assert report["analyses"][1]["completedAt"]
    assert [run["id"] for run in report["completed"]] == [run_global_id(completed_id)]
    verdicts = report["completed"][0]["verdicts"]
    assert len(verdicts) == 6 and all(verdict["verdict"] for verdict in verdicts)
    # and the exports show the completed run's verdicts, saying so in one line
    markdown: str = report["markdown"]
    note_lines = [line for line in markdown.splitlines() if line.startswith("> Note:")]
    assert len(note_lines) == 1
    assert "the latest analysis failed (Analysis failed: OperationalError" in note_lines[0]
    assert "showing the analysis completed on" in note_lines[0]
    assert "NO_VERDICT" not in markdown  # every claim shows its verdict of the completed run
    document: dict[str, Any] = json.loads(report["json"])
    assert document["note"] == note_lines[0].removeprefix("> Note: ")
    assert document["latestAnalysis"]["status"] == "ERROR"
    assert document["analysis"]["status"] == "COMPLETED"
    assert document["report"]["status"] == "ERROR"
    assert all(claim["verdict"] is not None for claim in document["claims"])
    # and so does `sibyl export` (table)
    table = await run_cli("export", global_id(report_id), "--server", api_url, "--api-key", api_key)
    assert table.code == 0, table.stderr
    assert "NOTE: the latest analysis failed" in table.stdout
    assert "NO_VERDICT" not in table.stdout


def test_the_new_documents_cost_what_the_limit_allows(settings: Settings) -> None:
    from graphql import parse

    from clients.sibyl import documents
    from schema import schema
    from schema.limits.cost import query_cost

    def cost(document: str) -> int:
        return query_cost(parse(document), schema._schema, {"first": 200, "offset": 0})

    # the fallback's page of 200 verdicts with their deciding sources, as the claims page selects them
    assert cost(documents.COMPLETED_ANALYSIS) == 65_715
    assert (cost(documents.CANCEL_ANALYSIS), cost(documents.DELETE_REPORT)) == (636, 11)
    assert cost(documents.COMPLETED_ANALYSIS) < settings.max_query_cost
