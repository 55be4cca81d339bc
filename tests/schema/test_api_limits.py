"""Abuse limits as a client meets them over HTTP and WebSocket: clear errors, nothing executed."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator

import pytest

from app.config import Settings
from schema.errors import CloseCode
from tests.conftest import make_settings, serve_api
from tests.support.graphql import GraphQLClient
from tests.support.services import RunningServices

REPORTS = "query { reports(first: 1) { totalCount } }"
TOO_DEEP = (
    "query { reports(first: 1) { edges { node { claims(first: 1) { edges { node { verdict { claim { "
    "report { claims(first: 1) { edges { node { verdict { claim { id } } } } } } } } } } } } } } }"
)
TOO_COSTLY = (
    "query { reports(first: 100) { edges { node { "
    "claims(first: 200) { edges { node { id findings { id } } } } } } } }"
)


#: 18 a minute: a bucket of 3 (a sixth), refilled one every 3.3 s, slower than any test here runs.
LIMIT_PER_MINUTE = 18


@pytest.fixture(scope="module")
async def limited_api(services: RunningServices) -> AsyncIterator[str]:
    limited: Settings = make_settings(services, rate_limit_per_minute=LIMIT_PER_MINUTE, max_query_depth=8)
    async with serve_api(limited) as url:
        yield url


async def test_too_deep_and_too_costly_operations_are_refused_with_codes(client: GraphQLClient) -> None:
    deep = await client.execute(TOO_DEEP)
    costly = await client.execute(TOO_COSTLY)

    assert deep["errors"][0]["extensions"]["code"] == "QUERY_TOO_DEEP"
    assert "exceeds the limit of 12" in deep["errors"][0]["message"]
    assert costly["errors"][0]["extensions"]["code"] == "QUERY_TOO_COSTLY"
    assert costly["errors"][0]["message"].startswith("Query cost ")
    assert "data" not in deep and "data" not in costly  # refused before running: no `data` at all


async def test_the_depth_limit_is_a_setting(limited_api: str, api_key: str) -> None:
    client = GraphQLClient(limited_api, api_key)
    try:
        body = await client.execute("query { reports(first: 1) { edges { node { claims { edges { node { "
                                    "verdict { claim { report { id } } } } } } } } } }")  # fmt: skip
    finally:
        await client.aclose()
    assert "exceeds the limit of 8" in body["errors"][0]["message"]


async def test_a_key_over_its_rate_is_refused_with_retry_after_and_others_are_not(
    limited_api: str, api_key: str, session_factory: object
) -> None:
    from tests.conftest import new_api_key

    client = GraphQLClient(limited_api, api_key)
    other = GraphQLClient(limited_api, await new_api_key(session_factory, "Other Org"))  # type: ignore[arg-type]
    try:
        statuses = [
            (await client.http.post("/graphql", json={"query": REPORTS})).status_code for _ in range(3)
        ]
        refused = await client.http.post("/graphql", json={"query": REPORTS})
        elsewhere = await other.http.post("/graphql", json={"query": REPORTS})
        async with client.connect() as ws:  # connection 5: over the limit
            try:
                await ws.recv()
            except Exception:  # noqa: BLE001 - the refusal closes the socket
                pass
            close_code, close_reason = ws.close_code, ws.close_reason
    finally:
        await client.aclose()
        await other.aclose()

    assert statuses == [200, 200, 200]
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    error = refused.json()["errors"][0]
    assert error["extensions"]["code"] == "RATE_LIMITED" and "18 requests per minute" in error["message"]
    assert error["extensions"]["burst"] == 3 and error["extensions"]["limit"] == LIMIT_PER_MINUTE
    assert elsewhere.status_code == 200
    assert close_code == CloseCode.TRY_AGAIN_LATER
    assert close_reason.startswith("RATE_LIMITED: Rate limit of 18 requests per minute")
    assert re.search(r"retry in [1-9]\d* s\.$", close_reason), close_reason


async def test_operations_over_a_websocket_count_against_the_rate_limit(
    limited_api: str, api_key: str
) -> None:
    client = GraphQLClient(limited_api, api_key)
    answers = []
    try:
        async with client.connect() as ws:  # request 1
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            for number in range(3):  # requests 2, 3 and (refused) 4
                await ws.send(
                    json.dumps({"id": str(number), "type": "subscribe", "payload": {"query": REPORTS}})
                )
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
                if answers[-1]["type"] == "next":
                    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "complete"
    finally:
        await client.aclose()

    assert [answer["type"] for answer in answers[:2]] == ["next", "next"], answers
    assert "errors" not in answers[0]["payload"]
    refused = answers[2]
    assert "payload" in refused, answers
    errors = refused["payload"] if refused["type"] == "error" else refused["payload"]["errors"]
    assert errors[0]["extensions"]["code"] == "RATE_LIMITED", refused
