"""The error contract: every error path answers with an `extensions.code` from `ErrorCode`, client
mistakes are logged at INFO in one line (no traceback, no query text), crashes are masked, and
refused WebSocket connections close with their own code and reason."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from types import SimpleNamespace
from typing import Any
from unittest.mock import ANY

import pytest
import websockets
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.session import SessionFactory
from app.metrics.labels import FirstCome
from schema import schema
from schema.context import Context
from schema.errors import MAX_CLOSE_REASON_BYTES, CloseCode, ErrorCode, close_reason
from schema.transport.http_edge import BodyLimits
from tests.conftest import make_settings, serve_api
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient
from tests.support.services import RunningServices

# Each document's selections carry the alias `marker_…`, so a test can tell that no log line
# quotes the query.
MARKER = "marker_f00d"
FIRST_TOO_LARGE = f"{{ {MARKER}: reports(first: 1000) {{ totalCount }} }}"
FIRST_NEGATIVE = f"{{ {MARKER}: evidenceDocuments(first: -1) {{ totalCount }} }}"
FOREIGN_CURSOR = f'{{ {MARKER}: reports(after: "zzz") {{ totalCount }} }}'
NODE = f"query Node($id: ID!) {{ {MARKER}: node(id: $id) {{ id }} }}"
SYNTAX_ERROR = f"{{ {MARKER}: reports("
UNKNOWN_FIELD = f"{{ {MARKER}: nope }}"
WRONG_VARIABLE = f"query Page($n: Int!) {{ {MARKER}: reports(first: $n) {{ totalCount }} }}"
TOO_DEEP = (
    f"query {{ {MARKER}: reports(first: 1) {{ edges {{ node {{ claims(first: 1) {{ edges {{ node {{ verdict "
    "{ claim { report { claims(first: 1) { edges { node { verdict { claim { id } } } } } } } } } } } } } } }"
)
TOO_COSTLY = (
    f"query {{ {MARKER}: reports(first: 100) {{ edges {{ node {{ "
    "claims(first: 200) { edges { node { id findings { id } } } } } } } }"
)
REPORT_LISTS = """
query Lists($id: ID!, $claims: Int = 1, $after: String, $order: ClaimOrder = PAGE, $pages: Int = 1,
            $events: Int = 1, $findings: Int = 1) {
  report(id: $id) {
    claims(first: $claims, after: $after, orderBy: $order) { edges { cursor } }
    pages(first: $pages) { number }
    events(first: $events) { id }
    findings(first: $findings) { id }
  }
}
"""
EVENTS = """
subscription Events($reportId: ID!, $after: Int!) {
  analysisEvents(reportId: $reportId, afterSequence: $after) { id }
}
"""
VERDICTS = "subscription Verdicts($reportId: ID) { verdictIssued(reportId: $reportId) { id } }"
UNKNOWN_REPORT = str(GlobalID("Report", str(uuid.uuid4())))
REPORTS = "query { reports(first: 1) { totalCount } }"


def only_error(body: dict[str, Any]) -> dict[str, Any]:
    errors = body.get("errors")
    assert errors and len(errors) == 1, body
    return dict(errors[0])


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body.get("errors", [])]


@pytest.mark.parametrize(
    ("document", "variables", "code"),
    [
        (FIRST_TOO_LARGE, {}, "PAGE_SIZE_OUT_OF_RANGE"),
        (FIRST_NEGATIVE, {}, "PAGE_SIZE_OUT_OF_RANGE"),
        (FOREIGN_CURSOR, {}, "INVALID_CURSOR"),
        (NODE, {"id": "garbage!!"}, "INVALID_ID"),
        (NODE, {"id": str(GlobalID("NoSuchType", "1"))}, "INVALID_ID"),
        (SYNTAX_ERROR, {}, "GRAPHQL_PARSE_FAILED"),
        (UNKNOWN_FIELD, {}, "GRAPHQL_VALIDATION_FAILED"),
        (WRONG_VARIABLE, {"n": "ten"}, "GRAPHQL_VALIDATION_FAILED"),
        (TOO_DEEP, {}, "QUERY_TOO_DEEP"),
        (TOO_COSTLY, {}, "QUERY_TOO_COSTLY"),
    ],
)
async def test_each_refused_query_has_its_code(
    client: GraphQLClient, document: str, variables: dict[str, Any], code: str
) -> None:
    body = await client.execute(document, **variables)

    assert only_error(body)["extensions"]["code"] == code


async def test_page_sizes_and_cursors_of_a_report_have_codes_and_figures(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 3)
    report_id = str(GlobalID("Report", str(seeded.report_id)))
    cursor = (await client.data(REPORT_LISTS, id=report_id))["report"]["claims"]["edges"][0]["cursor"]

    too_large = {
        "claims": await client.execute(REPORT_LISTS, id=report_id, claims=201),
        "pages": await client.execute(REPORT_LISTS, id=report_id, pages=101),
        "events": await client.execute(REPORT_LISTS, id=report_id, events=501),
        "findings": await client.execute(REPORT_LISTS, id=report_id, findings=1001),
    }
    garbage = await client.execute(REPORT_LISTS, id=report_id, after="garbage")
    other_order = await client.execute(REPORT_LISTS, id=report_id, after=cursor, order="PRIORITY")

    maxima = {name: only_error(body)["extensions"] for name, body in too_large.items()}
    assert {name: (ext["code"], ext["maximum"]) for name, ext in maxima.items()} == {
        "claims": ("PAGE_SIZE_OUT_OF_RANGE", 200),
        "pages": ("PAGE_SIZE_OUT_OF_RANGE", 100),
        "events": ("PAGE_SIZE_OUT_OF_RANGE", 500),
        "findings": ("PAGE_SIZE_OUT_OF_RANGE", 1000),
    }
    assert codes(garbage) == ["INVALID_CURSOR"]
    assert codes(other_order) == ["INVALID_CURSOR"]
    assert "another order" in only_error(other_order)["message"]


async def test_subscriptions_to_unknown_reports_are_not_found_in_both_streams(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)
    known = str(GlobalID("Report", str(seeded.report_id)))

    async with client.subscribe(EVENTS, reportId=UNKNOWN_REPORT, after=0) as events:
        unknown_events = await events.first_message()
    async with client.subscribe(VERDICTS, reportId=UNKNOWN_REPORT) as verdicts:
        unknown_verdicts = await verdicts.first_message()
    async with client.subscribe(EVENTS, reportId=known, after=-1) as events:
        negative_after = await events.first_message()

    assert codes(unknown_events["payload"]) == ["NOT_FOUND"]
    assert codes(unknown_verdicts["payload"]) == ["NOT_FOUND"]
    assert only_error(negative_after["payload"])["extensions"] == {
        "code": "INVALID_ARGUMENT",
        "argument": "afterSequence",
        "requestId": ANY,
    }


async def test_requests_without_a_usable_key_are_unauthenticated(api_url: str, api_key: str) -> None:
    anonymous = GraphQLClient(api_url)
    try:
        missing = await anonymous.http.post("/graphql", json={"query": REPORTS})
        invalid = await anonymous.http.post(
            "/graphql", json={"query": REPORTS}, headers={"Authorization": "Bearer sibyl_0000_nope"}
        )
    finally:
        await anonymous.aclose()

    assert (missing.status_code, codes(missing.json())) == (401, ["UNAUTHENTICATED"])
    assert (invalid.status_code, codes(invalid.json())) == (401, ["UNAUTHENTICATED"])


async def test_uploads_refused_by_the_guard_have_codes(client: GraphQLClient) -> None:
    response = await client.upload(b"%PDF-1.7", preflight=False)
    too_large = await _guarded_upload({b"apollo-require-preflight": b"true", b"content-length": b"1000"})

    assert (response.status_code, codes(response.json())) == (400, ["PREFLIGHT_REQUIRED"])
    assert too_large == (413, ["REQUEST_TOO_LARGE"])


async def _guarded_upload(headers: dict[bytes, bytes]) -> tuple[int, list[str]]:
    """Status and codes `BodyLimits` answers a multipart POST with (upload limit: 100 bytes)."""
    sent: list[dict[str, Any]] = []

    async def app(*_args: Any) -> None:
        raise AssertionError("the guard let the request through")

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "headers": [(b"content-type", b"multipart/form-data; boundary=x"), *headers.items()],
    }
    await BodyLimits(app, max_body_bytes=100, max_upload_bytes=100, timeout_seconds=60)(scope, receive, send)
    return sent[0]["status"], codes(json.loads(sent[1]["body"]))


async def test_a_crash_is_masked_as_an_internal_error_and_logged_with_its_traceback(
    settings: Settings, session_factory: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    services = SimpleNamespace(
        settings=settings, session_factory=session_factory, operation_names=FirstCome()
    )
    context = Context(services=services, request=None)  # type: ignore[arg-type]  # no principal: a bug

    with caplog.at_level(logging.INFO, logger="schema.errors"):
        result = await schema.execute(REPORTS, context_value=context)

    assert result.errors is not None and len(result.errors) == 1
    assert result.errors[0].message == "Unexpected error."
    assert result.errors[0].extensions == {"code": "INTERNAL_SERVER_ERROR"}
    [record] = [r for r in caplog.records if r.name == "schema.errors"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "no principal on the context" in record.getMessage()


async def test_client_mistakes_are_logged_at_info_in_one_line_without_the_query(
    client: GraphQLClient, api_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    anonymous = GraphQLClient(api_url)
    with caplog.at_level(logging.DEBUG):
        for document, variables in [
            (FIRST_TOO_LARGE, {}),
            (NODE, {"id": "garbage!!"}),
            (TOO_DEEP, {}),
            (TOO_COSTLY, {}),
            (SYNTAX_ERROR, {}),
        ]:
            await client.execute(document, **variables)
        try:
            await anonymous.http.post(
                "/graphql", json={"query": FIRST_TOO_LARGE}, headers={"Authorization": "Bearer bad"}
            )
        finally:
            await anonymous.aclose()
        async with client.connect({"authorization": "Bearer bad"}) as ws:
            await _closed(ws)

    ours = [r for r in caplog.records if r.name.startswith("schema")]
    assert [r.levelname for r in ours] == ["INFO"] * 7, [r.getMessage() for r in ours]
    assert [r.getMessage().split(":")[0] for r in ours] == [
        "client error PAGE_SIZE_OUT_OF_RANGE at marker_f00d",
        "client error INVALID_ID in operation Node at marker_f00d",
        "client error QUERY_TOO_DEEP",
        "client error QUERY_TOO_COSTLY",
        "client error GRAPHQL_PARSE_FAILED",
        "refused HTTP request",
        "refused WebSocket connection",
    ]
    server = [r for r in caplog.records if r.name.startswith(("schema", "strawberry", "uvicorn"))]
    for record in server:
        message = record.getMessage()
        assert "\n" not in message and "{" not in message, message  # no query text
        assert record.exc_info is None and record.levelno <= logging.INFO, message
    assert not [r for r in caplog.records if r.name == "strawberry.execution"]


async def test_refused_websocket_connections_close_with_their_own_code_and_reason(
    client: GraphQLClient,
) -> None:
    async with client.connect({}) as ws:
        missing = await _closed(ws)
    async with client.connect({"authorization": "Bearer sibyl_00000000_" + "x" * 43}) as ws:
        invalid = await _closed(ws)
    async with client.connect() as ws:
        accepted = json.loads(await ws.recv())["type"]

    assert missing == (
        CloseCode.FORBIDDEN,
        "UNAUTHENTICATED: An API key is required: send `Authorization: Bearer <key>` "
        "(create one with `sibyl keys create`).",
    )
    assert invalid == (
        CloseCode.FORBIDDEN,
        "UNAUTHENTICATED: The API key is not valid (unknown, malformed or revoked).",
    )
    assert accepted == "connection_ack"


async def test_the_deprecated_close_codes_are_a_setting(services: RunningServices) -> None:
    """WS_LEGACY_CLOSE_CODES keeps Sibyl's earlier codes for clients written against them."""
    async with serve_api(make_settings(services, ws_legacy_close_codes=True)) as url:
        anonymous = GraphQLClient(url)
        try:
            async with anonymous.connect({}) as ws:
                missing = await _closed(ws)
        finally:
            await anonymous.aclose()

    assert missing[0] == CloseCode.LEGACY_MISSING_API_KEY == 4401
    assert missing[1] is not None and missing[1].startswith("UNAUTHENTICATED: An API key is required")


async def test_the_older_graphql_ws_protocol_gets_a_typed_connection_error(api_url: str) -> None:
    url = api_url.replace("http://", "ws://") + "/graphql"
    async with websockets.connect(url, subprotocols=[websockets.Subprotocol("graphql-ws")]) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        closed = await _closed(ws)

    assert message["type"] == "connection_error"
    assert message["payload"]["extensions"] == {"code": "UNAUTHENTICATED"}
    assert closed[0] == CloseCode.FORBIDDEN


async def _closed(ws: websockets.ClientConnection) -> tuple[int | None, str | None]:
    """The close code and reason the server ends the connection with."""
    with pytest.raises(websockets.ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 10)
    return ws.close_code, ws.close_reason


def test_close_reasons_fit_a_close_frame() -> None:
    reason = close_reason(ErrorCode.RATE_LIMITED, "é" * 200)

    assert len(reason.encode()) <= MAX_CLOSE_REASON_BYTES
    assert reason.startswith("RATE_LIMITED: é") and reason.endswith("...")


def test_every_code_is_documented_in_the_schema() -> None:
    sdl = schema.as_str()
    definition = ErrorCode.__strawberry_definition__  # type: ignore[attr-defined]

    assert "enum ErrorCode" in sdl
    described = {value.name: value.description for value in definition.values}
    assert set(described) == {code.name for code in ErrorCode}
    assert all(description and len(description) > 20 for description in described.values())
