"""Events and analysis runs have global ids like every other object: two reports' events never share
an `id` (caches keyed by type and id keep them apart), `sequence` is the per-report number clients
resume with (`afterSequence`, or its deprecated name `afterId`), and `node(id:)` reads an event or a
run of the caller's organisation only."""

from __future__ import annotations

import uuid
from typing import Any
from unittest.mock import ANY

from graphql import GraphQLObjectType
from strawberry.relay import GlobalID

from app.db.session import SessionFactory
from app.events import EventLog
from schema import schema
from tests.app.test_event_log import new_report
from tests.conftest import new_api_key
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient

LOG = """
query Log($id: ID!, $afterSequence: Int, $afterId: Int) {
  report(id: $id) { events(afterSequence: $afterSequence, afterId: $afterId) { id sequence eventType } }
}
"""
FOLLOW = """
subscription Follow($reportId: ID!, $afterSequence: Int, $afterId: Int) {
  analysisEvents(reportId: $reportId, afterSequence: $afterSequence, afterId: $afterId) {
    id sequence eventType
  }
}
"""
EVENT_NODE = """
query Node($id: ID!) {
  node(id: $id) { __typename id ... on StreamEvent { sequence reportId eventType data } }
}
"""
RUN = "query Run($id: ID!) { report(id: $id) { analysis { id runId status } } }"
RUN_NODE = "query Node($id: ID!) { node(id: $id) { __typename id ... on Analysis { runId status } } }"


def report_gid(report_id: uuid.UUID) -> str:
    return str(GlobalID("Report", str(report_id)))


async def report_with_events(session_factory: SessionFactory, event_log: EventLog, count: int) -> str:
    """A new report of the local organisation with `count` events; its global id."""
    report = await new_report(session_factory)
    for n in range(count):
        await event_log.append(report, "tick", {"n": n})
    return report_gid(report)


async def followed(client: GraphQLClient, count: int, **variables: Any) -> list[dict[str, Any]]:
    async with client.subscribe(FOLLOW, **variables) as subscription:
        return [(await subscription.next())["analysisEvents"] for _ in range(count)]


def only_error(body: dict[str, Any]) -> dict[str, Any]:
    errors = body.get("errors")
    assert errors and len(errors) == 1, body
    return dict(errors[0])


async def test_two_reports_events_never_share_an_id_and_number_from_one_without_gaps(
    client: GraphQLClient, session_factory: SessionFactory, event_log: EventLog
) -> None:
    # given two reports with three events each
    first = await report_with_events(session_factory, event_log, 3)
    second = await report_with_events(session_factory, event_log, 3)
    # when their logs are read and followed
    logged = {report: (await client.data(LOG, id=report))["report"]["events"] for report in (first, second)}
    live = {report: await followed(client, 3, reportId=report) for report in (first, second)}
    # then each numbers its events 1, 2, 3, and no id is shared between the reports
    for report in (first, second):
        assert [event["sequence"] for event in logged[report]] == [1, 2, 3]
        assert live[report] == logged[report], "the query and the subscription give the same ids"
    ids = [event["id"] for report in (first, second) for event in logged[report]]
    assert len(set(ids)) == 6
    decoded = GlobalID.from_id(logged[first][0]["id"])
    assert decoded.type_name == "StreamEvent"
    assert decoded.node_id == f"{GlobalID.from_id(first).node_id}:1"


async def test_after_sequence_and_its_deprecated_name_after_id_both_resume(
    client: GraphQLClient, session_factory: SessionFactory, event_log: EventLog
) -> None:
    report = await report_with_events(session_factory, event_log, 5)

    by_sequence = (await client.data(LOG, id=report, afterSequence=2))["report"]["events"]
    by_id = (await client.data(LOG, id=report, afterId=2))["report"]["events"]
    live_by_sequence = await followed(client, 3, reportId=report, afterSequence=2)
    live_by_id = await followed(client, 3, reportId=report, afterId=2)

    assert [event["sequence"] for event in by_sequence] == [3, 4, 5]
    assert by_id == live_by_sequence == live_by_id == by_sequence


async def test_both_resume_arguments_at_once_are_an_invalid_argument_naming_after_id(
    client: GraphQLClient, session_factory: SessionFactory, event_log: EventLog
) -> None:
    report = await report_with_events(session_factory, event_log, 2)

    queried = await client.execute(LOG, id=report, afterSequence=1, afterId=1)
    async with client.subscribe(FOLLOW, reportId=report, afterSequence=1, afterId=1) as subscription:
        subscribed = (await subscription.first_message())["payload"]
    negative_id = await client.execute(LOG, id=report, afterId=-1)

    for body in (queried, subscribed):
        error = only_error(body)
        assert error["extensions"] == {"code": "INVALID_ARGUMENT", "argument": "afterId", "requestId": ANY}
        assert error["message"] == "Give `afterSequence` or its deprecated name `afterId`, not both."
    assert only_error(negative_id)["extensions"] == {
        "code": "INVALID_ARGUMENT",
        "argument": "afterId",
        "requestId": ANY,
    }


async def test_node_reads_an_event_of_your_organisation_only(
    client: GraphQLClient, api_url: str, session_factory: SessionFactory, event_log: EventLog
) -> None:
    report = await report_with_events(session_factory, event_log, 2)
    second = (await client.data(LOG, id=report))["report"]["events"][1]
    outsider = GraphQLClient(api_url, await new_api_key(session_factory, "Other Org"))
    nameless = str(GlobalID("StreamEvent", "not-an-event"))
    unknown = str(GlobalID("StreamEvent", f"{uuid.uuid4()}:1"))

    try:
        mine = (await client.data(EVENT_NODE, id=second["id"]))["node"]
        theirs = (await outsider.data(EVENT_NODE, id=second["id"]))["node"]
    finally:
        await outsider.aclose()
    missing = [(await client.data(EVENT_NODE, id=gid))["node"] for gid in (nameless, unknown)]

    assert mine == {
        "__typename": "StreamEvent",
        "id": second["id"],
        "sequence": 2,
        "reportId": report,
        "eventType": "tick",
        "data": {"n": 1},
    }
    assert theirs is None and missing == [None, None]


async def test_an_analysis_has_a_global_id_node_reads_and_its_uuid_as_deprecated_run_id(
    client: GraphQLClient, api_url: str, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)
    run_gid = str(GlobalID("Analysis", str(seeded.run_id)))
    outsider = GraphQLClient(api_url, await new_api_key(session_factory, "Other Org"))

    analysis = (await client.data(RUN, id=report_gid(seeded.report_id)))["report"]["analysis"]
    try:
        mine = (await client.data(RUN_NODE, id=run_gid))["node"]
        theirs = (await outsider.data(RUN_NODE, id=run_gid))["node"]
    finally:
        await outsider.aclose()

    assert analysis == {"id": run_gid, "runId": str(seeded.run_id), "status": "COMPLETED"}
    assert mine == {"__typename": "Analysis", **analysis}
    assert theirs is None


def test_the_old_names_are_deprecated_with_what_to_use_instead() -> None:
    graph = schema._schema
    subscription, report, analysis = (graph.get_type(name) for name in ("Subscription", "Report", "Analysis"))
    assert isinstance(subscription, GraphQLObjectType) and isinstance(report, GraphQLObjectType)
    assert isinstance(analysis, GraphQLObjectType)

    for field in (subscription.fields["analysisEvents"], report.fields["events"]):
        assert "afterSequence" in (field.args["afterId"].deprecation_reason or "")
        assert field.args["afterSequence"].deprecation_reason is None
    assert "global id" in (analysis.fields["runId"].deprecation_reason or "")
