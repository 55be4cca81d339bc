"""SibylClient against a scripted local server: typed results, paging, uploads, subscriptions, and
every failure mapped to its typed error."""

from __future__ import annotations

from contextlib import aclosing

import pytest

from clients.sibyl import (
    AnalysisWarning,
    AuthenticationError,
    ConfigurationError,
    GraphQLErrors,
    MutationFailed,
    NotFound,
    RateLimitedError,
    ServerUnreachable,
    SibylClient,
    StreamEvent,
    WaitTimeout,
)
from clients.sibyl.ids import node_uuid
from clients.sibyl.transport import resolve_api_key, resolve_base_url, websocket_url
from tests.clients.fake_sibyl import REPORT_ID, FakeSibyl, claim_json, event, report_json, serve_fake

KEY = "sibyl_0123abcd_" + "k" * 43


def refusal(code: str, message: str, field: str | None = None) -> dict[str, object]:
    return {"__typename": "StartAnalysisError", "code": code, "message": message, "field": field}


async def test_report_is_typed_and_the_key_is_sent_as_bearer() -> None:
    running = report_json("ANALYZING", 42.0, "investigating", active_agents=["legal"])
    fake = FakeSibyl(api_key=KEY, reports=[running])
    async with serve_fake(fake), SibylClient(fake.url, KEY) as client:
        report = await client.report(REPORT_ID)

    assert report.status == "ANALYZING" and report.page_count == 12
    assert report.analysis is not None
    assert report.analysis.progress_percent == 42.0 and report.analysis.active_agents == ("legal",)
    assert report.analysis.warnings == ()
    assert fake.headers[0]["authorization"] == f"Bearer {KEY}"


async def test_the_analysis_warnings_are_typed() -> None:
    warning = {
        "code": "ROUTING_FELL_BACK_TO_RULES",
        "stage": "routing",
        "message": "6 of 6 claims fell back to the routing matrix: provider returned HTTP 500",
        "count": 6,
        "total": 6,
        "iteration": 0,
    }
    fake = FakeSibyl(api_key=KEY, reports=[report_json("COMPLETED", 100.0, "completed", warnings=[warning])])
    async with serve_fake(fake), SibylClient(fake.url, KEY) as client:
        report = await client.report(REPORT_ID)

    assert report.analysis is not None
    assert report.analysis.warnings == (
        AnalysisWarning("ROUTING_FELL_BACK_TO_RULES", "routing", warning["message"], count=6, total=6),
    )
    assert "warnings { code stage message count total iteration }" in fake.requests[0]["query"]


async def test_http_401_is_an_authentication_error() -> None:
    fake = FakeSibyl(api_key=KEY)
    async with serve_fake(fake), SibylClient(fake.url, "sibyl_bad") as client:
        with pytest.raises(AuthenticationError, match="Invalid API key"):
            await client.report(REPORT_ID)


async def test_429_is_retried_after_the_servers_delay() -> None:
    fake = FakeSibyl(rate_limited=2, retry_after="0.05")
    async with serve_fake(fake), SibylClient(fake.url, max_retries=3) as client:
        report = await client.report(REPORT_ID)

    assert report.status == "PARSED"
    assert fake.operations() == ["Report", "Report", "Report"]


async def test_429_beyond_the_retries_is_rate_limited_with_retry_after() -> None:
    fake = FakeSibyl(rate_limited=10, retry_after=None)
    async with serve_fake(fake), SibylClient(fake.url, max_retries=1) as client:
        with pytest.raises(RateLimitedError) as raised:
            await client.report(REPORT_ID)

    assert raised.value.retry_after == 0.0  # from extensions.retryAfterSeconds when no header
    assert len(fake.requests) == 2


async def test_top_level_errors_are_graphql_errors() -> None:
    fake = FakeSibyl()
    async with serve_fake(fake), SibylClient(fake.url) as client:
        with pytest.raises(GraphQLErrors, match="no answer for Mystery") as raised:
            await client.execute("query Mystery { nothing }")

    assert raised.value.errors[0]["message"] == "fake has no answer for Mystery"


async def test_an_error_union_member_is_mutation_failed_with_code_and_field() -> None:
    refused = refusal("NOT_PARSED", "Not yet.", "reportId")
    fake = FakeSibyl(start_result=refused)
    async with serve_fake(fake), SibylClient(fake.url) as client:
        with pytest.raises(MutationFailed) as raised:
            await client.start_analysis(REPORT_ID)

    error = raised.value
    assert (error.code, error.message, error.field) == ("NOT_PARSED", "Not yet.", "reportId")
    assert not isinstance(raised.value, NotFound)


async def test_unknown_reports_are_not_found() -> None:
    fake = FakeSibyl(reports=[None], start_result=refusal("REPORT_NOT_FOUND", "No."))  # type: ignore[list-item]
    async with serve_fake(fake), SibylClient(fake.url) as client:
        with pytest.raises(NotFound):
            await client.report("nope")
        with pytest.raises(NotFound):
            await client.start_analysis("nope")


async def test_unreachable_server_is_server_unreachable() -> None:
    async with SibylClient("http://127.0.0.1:9") as client:
        with pytest.raises(ServerUnreachable):
            await client.report(REPORT_ID)


async def test_upload_is_a_graphql_multipart_request_with_preflight_header() -> None:
    fake = FakeSibyl()
    async with serve_fake(fake), SibylClient(fake.url) as client:
        upload = await client.upload_report(b"%PDF-1.7 fake", company_name="Northwind", filename="r.pdf")

    assert upload.created and upload.report.id == REPORT_ID
    sent = fake.requests[0]
    assert sent["file"] == b"%PDF-1.7 fake"
    assert sent["map"] == {"0": ["variables.file"]}
    assert sent["variables"] == {"companyName": "Northwind", "file": None}
    assert fake.headers[0]["apollo-require-preflight"] == "true"


async def test_claims_pages_through_the_connection() -> None:
    fake = FakeSibyl(claims=[claim_json(n, n, "VERIFIED") for n in range(1, 6)])
    async with serve_fake(fake), SibylClient(fake.url) as client:
        claims = await client.claims(REPORT_ID, first=2, verdict="VERIFIED")

    assert [claim.source_page for claim in claims] == [1, 2, 3, 4, 5]
    assert claims[0].verdict is not None and claims[0].verdict.confidence == 0.8
    afters = [request["variables"]["after"] for request in fake.requests]
    assert afters == [None, "2", "4"]
    assert {request["variables"]["verdict"] for request in fake.requests} == {"VERIFIED"}


async def test_wait_for_status_polls_until_a_wanted_status_or_times_out() -> None:
    fake = FakeSibyl(reports=[report_json("PARSING"), report_json("PARSING"), report_json("PARSED")])
    async with serve_fake(fake), SibylClient(fake.url) as client:
        report = await client.wait_for_status(REPORT_ID, {"PARSED"}, timeout=5, poll_interval=0.01)
        assert report.status == "PARSED"
        with pytest.raises(WaitTimeout):
            await client.wait_for_status(REPORT_ID, {"COMPLETED"}, timeout=0.05, poll_interval=0.01)


async def test_events_subscription_answers_pings_and_sends_the_key_in_connection_init() -> None:
    events = [event(n, "agent_thinking", "judge", message=f"m{n}") for n in (1, 2, 3)]
    fake = FakeSibyl(api_key=KEY, events=events)
    async with serve_fake(fake), SibylClient(fake.url, KEY) as client:
        received = await _take(client, 2, after_sequence=1)

    assert [item.sequence for item in received] == [2, 3]
    assert received[0].id == event(2, "agent_thinking")["id"]
    assert received[0].data == {"message": "m2"} and received[0].agent_name == "judge"
    assert fake.ws_inits[0]["payload"] == {"authorization": f"Bearer {KEY}"}
    assert fake.pongs == [{"type": "pong"}]


async def test_events_resume_after_a_dropped_connection_without_repeats() -> None:
    fake = FakeSibyl(events=[event(n, "agent_thinking") for n in range(1, 6)], drop_after=2)
    async with serve_fake(fake), SibylClient(fake.url) as client:
        received = await _take(client, 5)

    assert [item.sequence for item in received] == [1, 2, 3, 4, 5]
    assert [sub["variables"]["afterSequence"] for sub in fake.subscriptions] == [0, 2]


async def test_verdicts_subscription_yields_typed_verdicts_until_complete() -> None:
    verdict = {
        "id": "v1", "reportId": REPORT_ID, "verdict": "CONTRADICTED", "confidence": 0.4, "reasoning": "News.",
        "iteration": 1, "isFinal": True, "claim": {"id": "claim-1", "text": "Net zero by 2050."},
    }  # fmt: skip
    fake = FakeSibyl(verdicts=[verdict, {**verdict, "id": "v2"}])
    async with serve_fake(fake), SibylClient(fake.url) as client:
        received = [item async for item in client.verdicts()]

    assert [item.id for item in received] == ["v1", "v2"]
    assert received[0].verdict == "CONTRADICTED" and received[0].claim_text == "Net zero by 2050."
    assert fake.subscriptions[0]["variables"] == {"reportId": None}


async def test_ask_returns_the_answer_with_citations_and_maps_refusals() -> None:
    answer = {
        "__typename": "ReportAnswer", "question": "Scope 1?", "answer": "2.3 Mt.", "queryType": "FACTUAL",
        "method": "extractive", "cached": False, "caveats": ["offline"],
        "citations": [{"kind": "page", "pageNumber": 5, "excerpt": "Scope 1 fell", "score": 0.9}],
    }  # fmt: skip
    refused = {"__typename": "AskReportError", "code": "NOT_FOUND", "message": "No report."}
    fake = FakeSibyl(ask_result=answer)
    async with serve_fake(fake), SibylClient(fake.url) as client:
        result = await client.ask(REPORT_ID, "Scope 1?")
        fake.ask_result = refused
        with pytest.raises(NotFound, match="No report."):
            await client.ask("nope", "Scope 1?")

    assert result.answer == "2.3 Mt." and result.citations[0].page_number == 5
    assert result.caveats == ["offline"]


async def test_websocket_close_4403_is_an_authentication_error() -> None:
    fake = FakeSibyl(api_key=KEY)
    async with serve_fake(fake), SibylClient(fake.url, "sibyl_bad") as client:
        with pytest.raises(AuthenticationError):
            await _take(client, 1)


def test_connection_settings_come_from_arguments_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIBYL_API_URL", "https://sibyl.example.com/graphql")
    monkeypatch.setenv("SIBYL_API_KEY", "from-env")

    assert resolve_base_url(None) == "https://sibyl.example.com"
    assert resolve_base_url("http://other:9000/") == "http://other:9000"
    assert resolve_api_key(None) == "from-env" and resolve_api_key("given") == "given"
    assert websocket_url("https://sibyl.example.com") == "wss://sibyl.example.com/graphql"
    monkeypatch.delenv("SIBYL_API_URL")
    assert resolve_base_url(None) == "http://127.0.0.1:8000"
    for bad in ("foo", "ftp://host", "http://[::1"):
        with pytest.raises(ConfigurationError):
            resolve_base_url(bad)


def test_node_uuid_reads_relay_global_ids() -> None:
    assert node_uuid(REPORT_ID) == "11111111-1111-1111-1111-111111111111"
    assert node_uuid("not-a-global-id") is None


async def _take(client: SibylClient, count: int, after_sequence: int = 0) -> list[StreamEvent]:
    received: list[StreamEvent] = []
    async with aclosing(client.events(REPORT_ID, after_sequence)) as events:
        async for item in events:
            received.append(item)
            if len(received) == count:
                break
    return received
