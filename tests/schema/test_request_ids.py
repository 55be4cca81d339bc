"""Request ids: the client's `X-Request-ID` (or one made for it) comes back in the response, in
`extensions.requestId` of every error and in every log line of the request, uvicorn's included,
in the LOG_FORMAT the operator chose."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import websockets

from app.log_setup import make_handler
from tests.fixtures.planted_report import planted_report
from tests.support.graphql import UPLOAD_MUTATION, GraphQLClient
from tests.support.reports import wait_for_status

BAD_QUERY = "query Marked { reports(first: 1) { nope } }"
GENERATED = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The JSON lines the root logger writes while the test runs."""
    stream = io.StringIO()
    handler = make_handler("json", stream=stream)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)  # client errors are logged at INFO
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines_of(stream: io.StringIO) -> list[dict[str, str]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


async def test_the_clients_id_comes_back_in_the_header_the_error_and_the_log(
    client: GraphQLClient, json_log: io.StringIO
) -> None:
    response = await client.http.post(
        "/graphql", json={"query": BAD_QUERY}, headers={"X-Request-ID": "ticket-42.a"}
    )

    assert response.headers["x-request-id"] == "ticket-42.a"
    assert response.json()["errors"][0]["extensions"]["requestId"] == "ticket-42.a"
    logged = [line for line in lines_of(json_log) if "client error" in line["message"]]
    assert logged and all(line["request_id"] == "ticket-42.a" for line in logged)


@pytest.mark.parametrize(
    "sent", [None, "has spaces", "x" * 129, 'quote"d'], ids=["none", "spaces", "long", "quote"]
)
async def test_a_missing_or_unusable_id_is_replaced_by_a_new_one(
    client: GraphQLClient, sent: str | None
) -> None:
    headers = {} if sent is None else {"X-Request-ID": sent}
    response = await client.http.post("/graphql", json={"query": BAD_QUERY}, headers=headers)

    request_id = response.headers["x-request-id"]
    assert GENERATED.fullmatch(request_id)
    assert response.json()["errors"][0]["extensions"]["requestId"] == request_id


async def test_refusals_before_graphql_carry_the_id(api_url: str) -> None:
    anonymous = GraphQLClient(api_url)
    try:
        response = await anonymous.http.post(
            "/graphql",
            json={"query": "{ reports(first: 1) { totalCount } }"},
            headers={"X-Request-ID": "no-key-1"},
        )
    finally:
        await anonymous.aclose()

    assert response.status_code == 401 and response.headers["x-request-id"] == "no-key-1"
    assert response.json()["errors"][0]["extensions"] == {"code": "UNAUTHENTICATED", "requestId": "no-key-1"}


async def test_a_websockets_id_is_its_handshakes_for_every_operation(
    client: GraphQLClient, api_key: str
) -> None:
    url = client.http.base_url.copy_with(scheme="ws").join("/graphql")
    async with websockets.connect(
        str(url),
        subprotocols=[websockets.Subprotocol("graphql-transport-ws")],
        additional_headers={"X-Request-ID": "socket-7"},
    ) as ws:
        assert ws.response is not None and ws.response.headers["x-request-id"] == "socket-7"
        await ws.send(
            json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {api_key}"}})
        )
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": BAD_QUERY}}))
        answer = json.loads(await ws.recv())

    assert answer["type"] == "error"
    assert answer["payload"][0]["extensions"]["requestId"] == "socket-7"


async def test_the_jobs_a_request_queues_log_with_its_id(
    client: GraphQLClient, worker: object, json_log: io.StringIO
) -> None:
    operations = {"query": UPLOAD_MUTATION, "variables": {"file": None}}
    response = await client.http.post(
        "/graphql",
        data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.file"]})},
        files={"0": ("traced.pdf", planted_report().pdf, "application/pdf")},
        headers={"Apollo-Require-Preflight": "true", "X-Request-ID": "upload-9"},
    )
    report_id = response.json()["data"]["uploadReport"]["report"]["id"]
    await wait_for_status(client, report_id, "PARSED", "ERROR")

    # the job may still be writing its last lines when the report's status changes
    worker_lines = await _worker_lines(json_log)
    assert worker_lines, "the parse job logged nothing"
    assert {line.get("request_id") for line in worker_lines} == {"upload-9"}


async def _worker_lines(json_log: io.StringIO, wait: float = 10.0) -> list[dict[str, str]]:
    """The worker's and the services' log lines, waiting up to `wait` seconds for the first."""
    deadline = time.monotonic() + wait
    while True:
        found = [
            line for line in lines_of(json_log) if line["logger"].startswith(("workers", "app.services"))
        ]
        if found or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.05)


def server_log(*statements: str) -> list[dict[str, str]]:
    """The JSON lines a fresh process writes (LOG_FORMAT=json) that loads `schema.asgi:app` as
    uvicorn does, after uvicorn set up its logging, then runs `statements`."""
    script = "; ".join(["import logging, logging.config, uvicorn.config, schema.asgi as entry", *statements])
    environment = {**os.environ, "LOG_FORMAT": "json"}
    finished = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env=environment,
    )
    return [json.loads(line) for line in finished.stderr.strip().splitlines()]


def test_the_servers_own_lines_follow_log_format() -> None:
    """uvicorn sets up its own logging, then loads `schema.asgi:app`: from then on its lines (start-up,
    access) go through the API's handler, as JSON lines under LOG_FORMAT=json."""
    lines = server_log(
        "logging.config.dictConfig(uvicorn.config.LOGGING_CONFIG)",
        "entry.app",
        "logging.getLogger('uvicorn.error').info('Application startup complete.')",
    )

    line = lines[-1]
    assert line["logger"] == "uvicorn.error" and line["message"] == "Application startup complete."


def test_an_access_log_uvicorn_was_told_to_leave_out_stays_out() -> None:
    """`sibyl run` starts the API with `--no-access-log`: routing uvicorn's lines does not bring the
    access lines back."""
    lines = server_log(
        "uvicorn.config.Config('schema.asgi:app', access_log=False)",
        "entry.app",
        "logging.getLogger('uvicorn.access').info('GET /healthz 200')",
        "logging.getLogger('uvicorn.error').info('started')",
    )

    messages = [line["message"] for line in lines]
    assert "started" in messages and "GET /healthz 200" not in messages
