"""The partner graph: claims with filters and ordering, nested verdicts/findings/routing without N+1,
organisation isolation, and the `verdictIssued` subscription."""

from __future__ import annotations

import asyncio
import json
import uuid
from contextlib import AbstractContextManager
from typing import Any
from unittest.mock import ANY

from redis.asyncio import Redis
from sqlalchemy.engine import Engine
from strawberry.relay import GlobalID

from app.db.models import Finding
from app.db.session import SessionFactory
from app.events import EventLog
from app.organisations import LOCAL_ORGANISATION_ID
from tests.conftest import new_api_key
from tests.support.analysed import LABELS, claim_type, final_label, page, priority, seed_analysed_report
from tests.support.graphql import GraphQLClient
from tests.support.live_subscriptions import until_organisation_followed, until_report_followed
from tests.support.sqlalchemy_events import recorded

FULL_PAGE = """
query Claims($id: ID!, $first: Int!) {
  report(id: $id) {
    filename
    analysis { status claimsCount findingsCount verdictsCount agentStatuses { agentName } }
    claims(first: $first) {
      totalCount
      edges { node {
        id text claimType priority sourcePage ifrsParagraphs { paragraphId pillar }
        verdict { verdict confidence isFinal iteration ifrsMapping { paragraphId source } }
        verdicts { iteration }
        findings { agent evidenceType supportsClaim }
        routing { agent iteration }
      } }
    }
  }
}
"""

FILTERED = """
query Claims($id: ID!, $first: Int!, $after: String, $type: ClaimType, $priority: Priority,
             $verdict: VerdictLabel, $order: ClaimOrder!) {
  report(id: $id) {
    claims(first: $first, after: $after, type: $type, priority: $priority, verdict: $verdict,
           orderBy: $order) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { node { text claimType priority sourcePage verdict { verdict } } }
    }
  }
}
"""

BY_AGENT = """
query ByAgent($id: ID!, $agent: String) {
  report(id: $id) { claims(first: 200, agent: $agent) { totalCount edges { node { routing { agent } } } } }
}
"""

REPORT_LISTS = """
query Lists($id: ID!) {
  report(id: $id) {
    verdicts { verdict isFinal claim { text } }
    allVerdicts: verdicts(final: false) { iteration }
    findings(agent: "news_media") { agent claim { sourcePage } }
    routingPlan(iteration: 0) { agent }
  }
}
"""

START = """
mutation($id: ID!) { startAnalysis(reportId: $id) { __typename ... on StartAnalysisError { code } } }
"""
FINDING_NODE = "query Node($id: ID!) { node(id: $id) { ... on Finding { summary claim { id } } } }"
NODE = "query Node($id: ID!) { node(id: $id) { id ... on Claim { text } ... on Report { filename } } }"
CLAIM_NODE = """
query Node($id: ID!) {
  node(id: $id) { ... on Claim { verdict { verdict } verdicts { iteration } findings(agent: "legal") { agent }
                                 allFindings: findings { agent } routing { agent } } }
}
"""
REPORTS = "query { reports(first: 10) { totalCount edges { node { filename } } } }"
VERDICTS = """
subscription Verdicts($reportId: ID) {
  verdictIssued(reportId: $reportId) { verdict reasoning reportId claim { text } }
}
"""


def report_gid(report_id: object) -> str:
    return str(GlobalID("Report", str(report_id)))


def counted_queries() -> AbstractContextManager[list[str]]:
    """Every SQL statement any engine of this process runs inside the block."""
    return recorded(Engine, "before_cursor_execute", lambda conn, cursor, statement, *_: statement)


async def test_200_claims_with_verdicts_findings_and_routing_take_a_constant_number_of_queries(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    small = await seed_analysed_report(session_factory, 10, filename="small.pdf")
    large = await seed_analysed_report(session_factory, 200, filename="large.pdf")

    await client.data(REPORTS)  # authenticates the key (cached afterwards), so it is not counted
    with counted_queries() as small_queries:
        small_data = await client.data(FULL_PAGE, id=report_gid(small.report_id), first=200)
    with counted_queries() as large_queries:
        large_data = await client.data(FULL_PAGE, id=report_gid(large.report_id), first=200)

    edges = large_data["report"]["claims"]["edges"]
    assert len(edges) == 200 and large_data["report"]["claims"]["totalCount"] == 200
    assert len(small_data["report"]["claims"]["edges"]) == 10
    assert len(large_queries) == len(small_queries), (small_queries, large_queries)
    assert len(large_queries) <= 12, large_queries
    first = next(edge["node"] for edge in edges if edge["node"]["text"].startswith("Claim 0:"))
    assert first["verdict"] == {
        "verdict": final_label(0).upper(),
        "confidence": 0.6,
        "isFinal": True,
        "iteration": 1,
        "ifrsMapping": [{"paragraphId": "S2.29(a)(i)(1)", "source": "claim"}],
    }
    assert [v["iteration"] for v in first["verdicts"]] == [0, 1]
    assert sorted(f["agent"] for f in first["findings"]) == ["data_metrics", "news_media"]
    assert len(first["routing"]) == 2
    analysis = large_data["report"]["analysis"]
    assert (analysis["claimsCount"], analysis["findingsCount"], analysis["verdictsCount"]) == (200, 400, 200)


async def test_claims_filter_by_type_priority_and_verdict_and_order_by_priority(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 60)
    await seed_analysed_report(session_factory, 4, filename="newer.pdf")  # holds the newest run
    gid = report_gid(seeded.report_id)
    base = {
        "id": gid,
        "first": 200,
        "after": None,
        "type": None,
        "priority": None,
        "verdict": None,
        "order": "PAGE",
    }

    contradicted = (await client.data(FILTERED, **{**base, "verdict": "CONTRADICTED"}))["report"]["claims"]
    expected = [i for i in range(60) if final_label(i) == "contradicted"]
    assert contradicted["totalCount"] == len(expected) > 0
    assert {edge["node"]["verdict"]["verdict"] for edge in contradicted["edges"]} == {"CONTRADICTED"}

    both = {**base, "type": "QUANTITATIVE", "priority": "HIGH"}
    narrowed = (await client.data(FILTERED, **both))["report"]["claims"]
    wanted = [i for i in range(60) if claim_type(i) == "quantitative" and priority(i) == "high"]
    assert narrowed["totalCount"] == len(wanted)
    assert [edge["node"]["text"].split(":")[0] for edge in narrowed["edges"]] == [
        f"Claim {i}" for i in wanted
    ]

    by_priority = (await client.data(FILTERED, **{**base, "order": "PRIORITY"}))["report"]["claims"]["edges"]
    ranks = [["HIGH", "MEDIUM", "LOW"].index(edge["node"]["priority"]) for edge in by_priority]
    assert ranks == sorted(ranks)
    assert [e["node"]["sourcePage"] for e in by_priority if e["node"]["priority"] == "HIGH"] == sorted(
        page(i) for i in range(60) if priority(i) == "high"
    )
    assert set(LABELS) >= {"verified", "contradicted"}


async def test_claims_filter_by_the_agent_the_latest_run_sent_them_to(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 12)  # every claim went to data_metrics, news_media
    gid = report_gid(seeded.report_id)

    routed = (await client.data(BY_AGENT, id=gid, agent="news_media"))["report"]["claims"]
    unrouted = (await client.data(BY_AGENT, id=gid, agent="geography"))["report"]["claims"]
    unknown = await client.execute(BY_AGENT, id=gid, agent="astrology")

    assert routed["totalCount"] == 12
    assert all({"agent": "news_media"} in edge["node"]["routing"] for edge in routed["edges"])
    assert unrouted == {"totalCount": 0, "edges": []}
    assert unknown["errors"][0]["extensions"] == {
        "code": "INVALID_ARGUMENT",
        "argument": "agent",
        "requestId": ANY,
    }
    assert "geography, legal, news_media, academic, data_metrics" in unknown["errors"][0]["message"]


async def test_claims_pages_follow_cursors_in_either_order_without_gaps(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 23)
    for order in ("PAGE", "PRIORITY"):
        seen: list[str] = []
        after = None
        while True:
            claims = (
                await client.data(
                    FILTERED,
                    id=report_gid(seeded.report_id),
                    first=5,
                    after=after,
                    type=None,
                    priority=None,
                    verdict=None,
                    order=order,
                )
            )["report"]["claims"]
            seen += [edge["node"]["text"] for edge in claims["edges"]]
            if not claims["pageInfo"]["hasNextPage"]:
                break
            after = claims["pageInfo"]["endCursor"]
        assert len(seen) == len(set(seen)) == 23, order

    body = await client.execute(
        FILTERED, id=report_gid(seeded.report_id), first=5, after=after, type=None, priority=None,
        verdict=None, order="PAGE",
    )  # fmt: skip
    assert "another order" in body["errors"][0]["message"]
    too_many = await client.execute(
        FILTERED, id=report_gid(seeded.report_id), first=201, after=None, type=None, priority=None,
        verdict=None, order="PAGE",
    )  # fmt: skip
    assert "`first` must be between 0 and 200" in too_many["errors"][0]["message"]


async def test_a_finding_without_a_claim_is_a_node_of_its_organisation_only(
    client: GraphQLClient, api_url: str, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)
    finding_id = uuid.uuid4()
    async with session_factory() as session, session.begin():
        session.add(
            Finding(
                id=finding_id,
                analysis_run_id=seeded.run_id,
                claim_id=None,
                agent="legal",
                evidence_type="disclosure_gap",
                summary="The report never discloses Scope 3 emissions.",
                method="rules",
            )
        )
    gid = str(GlobalID("Finding", str(finding_id)))
    other = GraphQLClient(api_url, await new_api_key(session_factory, "Other Org"))
    try:
        assert (await other.data(FINDING_NODE, id=gid))["node"] is None
    finally:
        await other.aclose()

    node = (await client.data(FINDING_NODE, id=gid))["node"]

    assert node == {"summary": "The report never discloses Scope 3 emissions.", "claim": None}


async def test_report_wide_verdicts_findings_and_routing(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 8)

    report = (await client.data(REPORT_LISTS, id=report_gid(seeded.report_id)))["report"]

    assert len(report["verdicts"]) == 8 and all(v["isFinal"] for v in report["verdicts"])
    assert len(report["allVerdicts"]) == 16
    assert len(report["findings"]) == 8 and {f["agent"] for f in report["findings"]} == {"news_media"}
    assert len(report["routingPlan"]) == 16


async def test_another_organisations_reports_and_claims_are_not_found(
    client: GraphQLClient, api_url: str, session_factory: SessionFactory
) -> None:
    mine = await seed_analysed_report(session_factory, 3, filename="mine.pdf")
    other_key = await new_api_key(session_factory, "Other Org")
    other = GraphQLClient(api_url, other_key)
    try:
        theirs_upload = await other.upload_result(b"%PDF-1.4 not really", filename="theirs.pdf")
        assert theirs_upload["__typename"] == "UploadReportError"  # a bad PDF: nothing stored
        claim_gid = str(GlobalID("Claim", str(mine.claim_ids[0])))

        assert (await other.data(NODE, id=report_gid(mine.report_id)))["node"] is None
        assert (await other.data(NODE, id=claim_gid))["node"] is None
        assert (await other.data(FULL_PAGE, id=report_gid(mine.report_id), first=5))["report"] is None
        assert (await other.data(REPORTS))["reports"]["totalCount"] == 0
        started = await other.data(START, id=report_gid(mine.report_id))
        assert started["startAnalysis"] == {"__typename": "StartAnalysisError", "code": "REPORT_NOT_FOUND"}

        assert (await client.data(NODE, id=claim_gid))["node"]["text"].startswith("Claim 0")
        claim = (await client.data(CLAIM_NODE, id=claim_gid))["node"]  # not prefetched: DataLoaders
        assert claim["verdict"] == {"verdict": "VERIFIED"} and len(claim["verdicts"]) == 2
        assert claim["findings"] == [] and len(claim["allFindings"]) == 2 and len(claim["routing"]) == 2
        assert (await client.data(REPORTS))["reports"]["totalCount"] == 1
    finally:
        await other.aclose()


async def test_requests_without_a_valid_key_are_refused(api_url: str, api_key: str) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer sibyl_00000000_" + "x" * 43},
        {"Authorization": "Basic abc"},
    ):
        anonymous = GraphQLClient(api_url)
        try:
            response = await anonymous.http.post("/graphql", json={"query": REPORTS}, headers=headers)
        finally:
            await anonymous.aclose()
        assert response.status_code == 401, headers
        assert response.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    via_header = GraphQLClient(api_url)
    try:
        ok = await via_header.http.post("/graphql", json={"query": REPORTS}, headers={"X-API-Key": api_key})
    finally:
        await via_header.aclose()
    assert ok.status_code == 200 and "errors" not in ok.json()


async def test_subscriptions_need_a_key_and_cannot_follow_another_organisation(
    client: GraphQLClient, api_url: str, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 2)
    anonymous = GraphQLClient(api_url)
    async with anonymous.connect(payload={}) as ws:
        closed = await _close_code(ws)
    assert closed == 4403  # no key, as a bad key: the protocol's refusal of a connection

    other = GraphQLClient(api_url, await new_api_key(session_factory, "Other Org"))
    try:
        async with other.connect() as ws:
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(
                json.dumps(
                    {
                        "id": "1",
                        "type": "subscribe",
                        "payload": {
                            "query": VERDICTS,
                            "variables": {"reportId": report_gid(seeded.report_id)},
                        },
                    }
                )
            )
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert message["type"] == "error" or "errors" in message.get("payload", {}), message
        assert "No report" in json.dumps(message)
    finally:
        await other.aclose()


async def _close_code(ws: Any) -> int | None:
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except Exception:  # noqa: BLE001 - the close is what we wait for
        pass
    return ws.close_code  # type: ignore[no-any-return]


async def test_verdict_issued_streams_one_report_or_the_whole_organisation(
    client: GraphQLClient, session_factory: SessionFactory, event_log: EventLog, api_url: str, redis: Redis
) -> None:
    first = await seed_analysed_report(session_factory, 2, filename="a.pdf")
    second = await seed_analysed_report(session_factory, 2, filename="b.pdf")
    foreign = await seed_analysed_report(
        session_factory,
        1,
        filename="c.pdf",
        organisation_id=await _organisation(session_factory, "Other Org"),
    )
    verdict_ids = await _verdict_ids(session_factory)

    async with (
        client.subscribe(VERDICTS, reportId=report_gid(first.report_id)) as one,
        client.subscribe(VERDICTS) as everything,
    ):
        await until_report_followed(redis, first.report_id)  # live only: both must be in place
        await until_organisation_followed(redis, LOCAL_ORGANISATION_ID)
        for seeded in (foreign, second, first):
            await event_log.append(
                seeded.report_id,
                "verdict_issued",
                {"claim_id": str(seeded.claim_ids[0]), "verdict_id": str(verdict_ids[seeded.claim_ids[0]])},
                agent_name="judge",
            )
        from_one = await one.next()
        from_all = [await everything.next(), await everything.next()]

    assert from_one["verdictIssued"]["reportId"] == report_gid(first.report_id)
    assert from_one["verdictIssued"]["claim"]["text"].startswith("Claim 0")
    assert [item["verdictIssued"]["reportId"] for item in from_all] == [
        report_gid(second.report_id),
        report_gid(first.report_id),
    ]


async def test_verdict_issued_for_the_organisation_alone_streams_its_verdicts(
    client: GraphQLClient, session_factory: SessionFactory, event_log: EventLog, redis: Redis
) -> None:
    """With no report followed anywhere in the API process, the organisation-wide subscription
    alone must start the process's pub/sub listener."""
    seeded = await seed_analysed_report(session_factory, 2, filename="alone.pdf")
    verdict_ids = await _verdict_ids(session_factory)
    async with client.subscribe(VERDICTS) as everything:
        await until_organisation_followed(redis, LOCAL_ORGANISATION_ID)  # live only
        for claim_id in seeded.claim_ids:
            await event_log.append(
                seeded.report_id,
                "verdict_issued",
                {"claim_id": str(claim_id), "verdict_id": str(verdict_ids[claim_id])},
                agent_name="judge",
            )
        received = [await asyncio.wait_for(everything.next(), 10) for _ in seeded.claim_ids]
    assert [item["verdictIssued"]["claim"]["text"][:7] for item in received] == ["Claim 0", "Claim 1"]


async def _organisation(session_factory: SessionFactory, name: str) -> Any:
    from app.organisations import ensure_organisation

    async with session_factory() as session, session.begin():
        return (await ensure_organisation(session, name)).id


async def _verdict_ids(session_factory: SessionFactory) -> dict[Any, Any]:
    from sqlalchemy import select

    from app.db.models import Verdict

    async with session_factory() as session:
        rows = await session.execute(select(Verdict.claim_id, Verdict.id).where(Verdict.is_final))
        return {claim_id: verdict_id for claim_id, verdict_id in rows}
