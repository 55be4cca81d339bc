"""Trial s22's API edges: a negative `afterSequence` on `Report.events`, request bodies Strawberry cannot
read, `resumeAnalysis` on a run a worker still holds, and control characters in page text."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from unittest.mock import ANY

import pymupdf
from redis.asyncio import Redis
from sqlalchemy import update

from app.db.models import AnalysisRun, Report, ReportStatus
from app.db.session import SessionFactory
from app.services.lease import current_process
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient
from tests.support.reports import wait_for_status

EVENTS = "query Events($id: ID!, $after: Int!) { report(id: $id) { events(afterSequence: $after) { id } } }"
RESUME = """
mutation Resume($id: ID!) {
  resumeAnalysis(reportId: $id) {
    __typename
    ... on ResumeAnalysisError { code message field }
  }
}
"""
PAGES = "query Pages($id: ID!) { report(id: $id) { pages(first: 5) { number text } } }"


async def test_a_negative_after_sequence_on_report_events_is_an_invalid_argument(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)
    report_id = str(seeded.report_id)

    refused = await client.execute(EVENTS, id=report_id, after=-5)
    allowed = await client.execute(EVENTS, id=report_id, after=0)

    assert refused["data"] == {"report": None}
    error = refused["errors"][0]
    assert error["message"] == "`afterSequence` must be 0 or more."
    assert error["extensions"] == {"code": "INVALID_ARGUMENT", "argument": "afterSequence", "requestId": ANY}
    assert "errors" not in allowed


async def test_bodies_that_are_not_json_get_a_json_error_with_a_code(client: GraphQLClient) -> None:
    json_type = {"Content-Type": "application/json"}
    not_json = await client.http.post("/graphql", content=b"{ reports { totalCount } }", headers=json_type)
    empty = await client.http.post("/graphql", content=b"", headers=json_type)
    no_query = await client.http.post("/graphql", json={"variables": {}})
    plain_text = await client.http.post("/graphql", content=b"{ reports { totalCount } }")
    mutation_over_get = await client.http.get(
        "/graphql", params={"query": 'mutation { resumeAnalysis(reportId: "x") { __typename } }'}
    )

    for response in (not_json, empty, no_query, plain_text, mutation_over_get):
        assert response.status_code == 400
        assert response.headers["content-type"].startswith("application/json")
        assert response.json()["errors"][0]["extensions"] == {"code": "BAD_REQUEST", "requestId": ANY}
    assert not_json.json()["errors"][0]["message"] == "Unable to parse request body as JSON"


async def _set_run(session_factory: SessionFactory, run_id: uuid.UUID, **values: object) -> None:
    async with session_factory() as session, session.begin():
        await session.execute(update(AnalysisRun).where(AnalysisRun.id == run_id).values(**values))
        await session.execute(
            update(Report)
            .where(Report.id == AnalysisRun.report_id, AnalysisRun.id == run_id)
            .values(status=ReportStatus.ANALYZING)
        )


async def test_resume_is_refused_while_a_worker_holds_the_run_and_allowed_once_it_is_gone(
    client: GraphQLClient, session_factory: SessionFactory, redis: Redis
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)
    report_id, run_id = str(seeded.report_id), seeded.run_id
    now = datetime.now(UTC)

    await _set_run(session_factory, run_id, status="PENDING", lease_owner=None, created_at=now)
    queued = (await client.data(RESUME, id=report_id))["resumeAnalysis"]
    live_owner = current_process().owner("trial")
    await _set_run(session_factory, run_id, status="RUNNING", lease_owner=live_owner,
                   lease_expires_at=now + timedelta(minutes=5))  # fmt: skip
    running = (await client.data(RESUME, id=report_id))["resumeAnalysis"]
    await _set_run(session_factory, run_id, status="RUNNING", lease_owner="elsewhere:1:1:x:y",
                   lease_expires_at=now - timedelta(minutes=5))  # fmt: skip
    try:
        abandoned = (await client.data(RESUME, id=report_id))["resumeAnalysis"]
    finally:
        await redis.flushdb()  # the resume job it queued: no worker runs in this test

    for refused, status in ((queued, "PENDING"), (running, "RUNNING")):
        assert refused["__typename"] == "ResumeAnalysisError"
        assert (refused["code"], refused["field"]) == ("ALREADY_RUNNING", "reportId")
        assert status in refused["message"]
    assert abandoned == {"__typename": "ResumeAnalysisSuccess"}


def _pdf_with_control_characters() -> bytes:
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 72), "Fleet emissions are reported for every depot each year.\x07", fontname="helv")
    page.insert_text((72, 90), "\x07SCOPE 3: purchased goods\x1bare estimated\ttoo.", fontname="helv")
    return bytes(document.tobytes())


async def test_page_text_keeps_no_control_characters_but_newlines_and_tabs(
    client: GraphQLClient, worker: object
) -> None:
    uploaded = await client.upload_result(_pdf_with_control_characters(), filename="bell.pdf")
    report_id = uploaded["report"]["id"]
    await wait_for_status(client, report_id, "PARSED", "ERROR")

    pages = (await client.data(PAGES, id=report_id))["report"]["pages"]

    text = pages[0]["text"]
    assert "\x07" not in text and "\x1b" not in text
    assert "each year. \n SCOPE 3: purchased goods are estimated\ttoo." in text
