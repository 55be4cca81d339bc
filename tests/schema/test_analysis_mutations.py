"""startAnalysis / resumeAnalysis over GraphQL: an uploaded report analysed end to end by the
worker, followed live through `analysisEvents`, and every refusal as a typed error."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import update

from app.db.models import Report, ReportStatus
from app.db.session import SessionFactory
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient
from tests.support.pipeline import seed_report
from tests.support.reports import wait_for_status

START = """
mutation Start($id: ID!, $skip: Boolean!, $passes: Int) {
  startAnalysis(reportId: $id, skipClaimsExtraction: $skip, maxIterations: $passes) {
    __typename
    ... on StartAnalysisSuccess { report { status } analysis { id status pipelineStage maxIterations } }
    ... on StartAnalysisError { code message field }
  }
}
"""
RESUME = """
mutation Resume($id: ID!) {
  resumeAnalysis(reportId: $id) {
    __typename
    ... on ResumeAnalysisError { code message field }
  }
}
"""
ANALYSIS = """
query Analysis($id: ID!) {
  report(id: $id) {
    status
    analysis {
      status pipelineStage iterationCount progressPercent activeAgents claimsCount findingsCount
      verdictsCount usage compliance agentStatuses { agentName status claimsAssigned }
    }
  }
}
"""
EVENTS = """
subscription Events($id: ID!) { analysisEvents(reportId: $id) { id sequence eventType agentName data } }
"""


async def start(client: GraphQLClient, report_id: str, skip: bool = False, passes: int | None = None) -> Any:
    return (await client.data(START, id=report_id, skip=skip, passes=passes))["startAnalysis"]


async def test_uploaded_report_is_analysed_end_to_end_with_live_events(
    client: GraphQLClient, worker: object
) -> None:
    result = await client.upload_result(pdfs.synthetic_report().pdf, company_name="Northwind Minerals plc")
    report_id = result["report"]["id"]
    await wait_for_status(client, report_id, "PARSED")

    async with client.subscribe(EVENTS, id=report_id) as subscription:
        started = await start(client, report_id)
        assert started["__typename"] == "StartAnalysisSuccess", started
        assert started["report"]["status"] == "ANALYZING"
        assert started["analysis"]["status"] == "PENDING" and started["analysis"]["maxIterations"] == 3

        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + 60
        while not seen or seen[-1]["eventType"] != "pipeline_completed":
            assert time.monotonic() < deadline, [event["eventType"] for event in seen]
            seen.append((await subscription.next())["analysisEvents"])
    sequences = [event["sequence"] for event in seen]
    assert sequences == list(range(sequences[0], sequences[0] + len(sequences)))
    assert len({event["id"] for event in seen}) == len(seen)
    types = [event["eventType"] for event in seen]
    for expected in ("agent_started", "claim_routed", "evidence_found", "verdict_issued", "agent_completed"):
        assert expected in types, expected
    assert types.index("claim_routed") < types.index("evidence_found") < types.index("verdict_issued")
    completed = seen[-1]["data"]
    assert completed["total_claims"] > 0 and completed["total_verdicts"] == completed["total_claims"]

    report = (await client.data(ANALYSIS, id=report_id))["report"]
    analysis = report["analysis"]
    assert report["status"] == "COMPLETED"
    assert analysis["status"] == "COMPLETED" and analysis["pipelineStage"] == "completed"
    assert analysis["progressPercent"] == 100.0 and analysis["activeAgents"] == []
    assert analysis["claimsCount"] == completed["total_claims"] == analysis["verdictsCount"]
    assert analysis["findingsCount"] == completed["total_findings"]
    assert analysis["usage"] == {}  # no LLM configured
    assert {state["status"] for state in analysis["agentStatuses"]} == {"completed"}

    again = await start(client, report_id, skip=True, passes=1)
    assert again["__typename"] == "StartAnalysisSuccess", again
    await wait_for_status(client, report_id, "COMPLETED", "ERROR")
    resumed = (await client.data(RESUME, id=report_id))["resumeAnalysis"]
    assert resumed == {
        "__typename": "ResumeAnalysisError",
        "code": "ALREADY_COMPLETED",
        "message": "The latest analysis already completed; use startAnalysis to analyse again.",
        "field": "reportId",
    }


async def test_refusals_are_typed_errors(
    client: GraphQLClient, session_factory: SessionFactory, worker: object
) -> None:
    missing = await start(client, "00000000-0000-0000-0000-000000000000")
    assert missing["code"] == "REPORT_NOT_FOUND" and missing["field"] == "reportId"
    assert (await start(client, "not-an-id"))["code"] == "REPORT_NOT_FOUND"

    result = await client.upload_result(pdfs.synthetic_report(page_count=3).pdf)
    report_id = result["report"]["id"]
    parsed = await wait_for_status(client, report_id, "PARSED")
    assert parsed["status"] == "PARSED"
    no_claims = await start(client, report_id, skip=True)
    assert no_claims["code"] == "NO_CLAIMS" and no_claims["field"] == "skipClaimsExtraction"
    bad_passes = await start(client, report_id, passes=0)
    assert bad_passes["code"] == "INVALID_INPUT" and bad_passes["field"] == "maxIterations"
    never = (await client.data(RESUME, id=report_id))["resumeAnalysis"]
    assert never["code"] == "NO_ANALYSIS"

    seeded = await seed_report(session_factory)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(Report).where(Report.id == seeded.report_id).values(status=ReportStatus.ANALYZING)
        )
    busy = await start(client, str(seeded.report_id), skip=True)
    assert busy["code"] == "ALREADY_RUNNING"
    assert busy["message"] == "An analysis of this report is already running."
