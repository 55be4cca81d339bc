"""Cursors page only the list they were issued for, an agent filter refuses names of no agent, and a
malformed report id is INVALID_ID wherever an argument names a report without a typed error result,
as `node(id:)` answers it."""

from __future__ import annotations

import uuid
from typing import Any
from unittest.mock import ANY

from strawberry.relay import GlobalID

from app.db.session import SessionFactory
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient

CLAIMS = """
query Claims($id: ID!, $first: Int!, $after: String, $order: ClaimOrder = PAGE) {
  report(id: $id) {
    claims(first: $first, after: $after, orderBy: $order) {
      pageInfo { endCursor }
      edges { node { id } }
    }
  }
}
"""
REPORTS = "query Reports($after: String) { reports(first: 1, after: $after) { edges { cursor } } }"
EVIDENCE = "query Evidence($after: String) { evidenceDocuments(first: 1, after: $after) { totalCount } }"
REPORT = "query Report($id: ID!) { report(id: $id) { id } }"
NODE = "query Node($id: ID!) { node(id: $id) { id } }"
EVENTS = "subscription Events($reportId: ID!) { analysisEvents(reportId: $reportId) { id } }"
VERDICTS = "subscription Verdicts($reportId: ID) { verdictIssued(reportId: $reportId) { id } }"


def report_gid(report_id: uuid.UUID) -> str:
    return str(GlobalID("Report", str(report_id)))


def error_of(body: dict[str, Any]) -> dict[str, Any]:
    errors = body.get("errors")
    assert errors and len(errors) == 1, body
    return dict(errors[0])


async def test_a_claims_cursor_of_one_report_is_refused_on_another(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    rio = report_gid((await seed_analysed_report(session_factory, 4, filename="rio.pdf")).report_id)
    vw = report_gid((await seed_analysed_report(session_factory, 6, filename="vw.pdf")).report_id)
    rio_cursor = (await client.data(CLAIMS, id=rio, first=2))["report"]["claims"]["pageInfo"]["endCursor"]
    vw_first = (await client.data(CLAIMS, id=vw, first=2))["report"]["claims"]
    rio_priority = (await client.data(CLAIMS, id=rio, first=1, order="PRIORITY"))["report"]["claims"]

    own = await client.data(CLAIMS, id=vw, first=2, after=vw_first["pageInfo"]["endCursor"])
    foreign = await client.execute(CLAIMS, id=vw, first=2, after=rio_cursor)
    foreign_priority = await client.execute(
        CLAIMS, id=vw, first=2, after=rio_priority["pageInfo"]["endCursor"], order="PRIORITY"
    )

    assert len(own["report"]["claims"]["edges"]) == 2
    for body in (foreign, foreign_priority):
        error = error_of(body)
        assert error["extensions"] == {"code": "INVALID_CURSOR", "argument": "after", "requestId": ANY}
        assert "issued for another report's claims" in error["message"]
        assert body["data"] is None or body["data"]["report"] is None


async def test_a_cursor_of_one_list_is_refused_on_another_list(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    await seed_analysed_report(session_factory, 1)
    reports_cursor = (await client.data(REPORTS))["reports"]["edges"][0]["cursor"]

    next_reports = await client.execute(REPORTS, after=reports_cursor)
    on_evidence = await client.execute(EVIDENCE, after=reports_cursor)

    assert "errors" not in next_reports, next_reports
    error = error_of(on_evidence)
    assert error["extensions"] == {"code": "INVALID_CURSOR", "argument": "after", "requestId": ANY}
    assert "another list" in error["message"]


async def test_a_malformed_report_id_is_invalid_id_and_an_unknown_one_is_null(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)
    claim_gid = str(GlobalID("Claim", str(seeded.claim_ids[0])))
    unknown = report_gid(uuid.uuid4())

    hello, as_node = await client.execute(REPORT, id="hello"), await client.execute(NODE, id="hello")
    a_claim_id = await client.execute(REPORT, id=claim_gid)
    unknown_report = await client.data(REPORT, id=unknown)
    bare_unknown = await client.data(REPORT, id=str(uuid.uuid4()))
    non_uuid_report = await client.data(REPORT, id=str(GlobalID("Report", "123")))
    known = await client.data(REPORT, id=str(seeded.report_id))

    expected = {"code": "INVALID_ID", "argument": "id", "requestId": ANY}
    assert error_of(hello)["extensions"] == expected and error_of(as_node)["extensions"] == expected
    assert error_of(hello)["message"] == "`id` is not a Report's global id or a UUID: 'hello'."
    assert error_of(as_node)["message"] == "`id` is not a global id: 'hello'."
    assert error_of(a_claim_id)["extensions"]["code"] == "INVALID_ID"
    assert "names a Claim, not a Report" in error_of(a_claim_id)["message"]
    assert unknown_report == bare_unknown == non_uuid_report == {"report": None}
    assert known == {"report": {"id": report_gid(seeded.report_id)}}


async def test_subscriptions_answer_a_malformed_report_id_with_invalid_id(client: GraphQLClient) -> None:
    async with client.subscribe(EVENTS, reportId="hello") as events:
        malformed_events = await events.first_message()
    async with client.subscribe(VERDICTS, reportId="hello") as verdicts:
        malformed_verdicts = await verdicts.first_message()
    async with client.subscribe(VERDICTS, reportId=report_gid(uuid.uuid4())) as verdicts:
        unknown_verdicts = await verdicts.first_message()

    for message in (malformed_events, malformed_verdicts):
        assert error_of(message["payload"])["extensions"] == {
            "code": "INVALID_ID",
            "argument": "reportId",
            "requestId": ANY,
        }
    assert error_of(unknown_verdicts["payload"])["extensions"]["code"] == "NOT_FOUND"


FINDINGS_BY_AGENT = """
query Findings($id: ID!, $agent: String) {
  report(id: $id) { claims(first: 1) { edges { node { findings(agent: $agent) { agent } } } } }
}
"""


async def test_findings_of_a_misspelt_agent_are_an_error_not_an_empty_list(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    report_id = report_gid((await seed_analysed_report(session_factory, 1)).report_id)

    known = await client.data(FINDINGS_BY_AGENT, id=report_id, agent="news_media")
    misspelt = await client.execute(FINDINGS_BY_AGENT, id=report_id, agent="NEWS_MEDIA")

    assert known["report"]["claims"]["edges"][0]["node"]["findings"] == [{"agent": "news_media"}]
    error = error_of(misspelt)
    assert error["extensions"] == {"code": "INVALID_ARGUMENT", "argument": "agent", "requestId": ANY}
    assert "news_media" in error["message"]


REPORT_FINDINGS_BY_AGENT = """
query ReportFindings($id: ID!, $agent: String) { report(id: $id) { findings(agent: $agent) { agent } } }
"""


async def test_report_findings_of_a_misspelt_agent_are_an_error_not_an_empty_list(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    report_id = report_gid((await seed_analysed_report(session_factory, 2)).report_id)

    known = await client.data(REPORT_FINDINGS_BY_AGENT, id=report_id, agent="data_metrics")
    misspelt = await client.execute(REPORT_FINDINGS_BY_AGENT, id=report_id, agent="newsMedia")

    assert known["report"]["findings"] == [{"agent": "data_metrics"}] * 2
    assert error_of(misspelt)["extensions"] == {
        "code": "INVALID_ARGUMENT",
        "argument": "agent",
        "requestId": ANY,
    }
