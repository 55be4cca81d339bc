"""Malformed requests are the client's mistake: each answers a typed 4xx (`BAD_REQUEST`) and logs one
line, never a 500 with "Unexpected error." and a traceback in the server's log.

Covered: JSON nested deeper than the parser goes (in `?extensions=`, `?variables=`, a body, a
multipart `operations`, a WebSocket message, which closes the socket with 4400), a NUL in the
request path, NUL characters and lone UTF-16 surrogates anywhere in a GraphQL request (Postgres
cannot store the one, UTF-8 cannot encode the other), a body that is not UTF-8 or not a JSON
object, a multipart request whose `operations` and `map` do not fit together, and a subscription
sent over HTTP (subscriptions run over WebSocket).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
import pytest
import websockets

from tests.support.graphql import GraphQLClient

NESTED = "[" * 5000 + "]" * 5000
REPORT_ID = "5d0c3a3e-1111-4111-8111-111111111111"
ASK = f'query($q: String!) {{ askReport(reportId: "{REPORT_ID}", question: $q) {{ __typename }} }}'
ADD_EVIDENCE = "mutation($i: AddEvidenceDocumentInput!) { addEvidenceDocument(input: $i) { __typename } }"
SUBSCRIPTION = 'subscription { analysisEvents(reportId: "x") { __typename } }'
JSON = {"content-type": "application/json", "accept": "application/json"}


@dataclass(frozen=True)
class Case:
    name: str
    path: str
    body: bytes | None = None  # None: a GET
    keyed: bool = True
    headers: dict[str, str] = field(default_factory=lambda: dict(JSON))


def surrogate_in(request: dict[str, object]) -> str:
    """`request` as JSON with the JSON escape of a lone surrogate where `@@` was."""
    return json.dumps(request).replace("@@", "\\ud800")


def post(name: str, body: str | bytes) -> Case:
    return Case(name, "/graphql", body.encode() if isinstance(body, str) else body)


CASES = [
    # A GET carrying `extensions` runs an operation (a persisted query by its hash), so it needs a key.
    Case("deeply nested ?extensions=", "/graphql?extensions=" + NESTED),
    Case("deeply nested ?variables=", "/graphql?query=%7B__typename%7D&variables=" + NESTED),
    Case("a NUL in a dashboard path", "/web/index.html%00", keyed=False),
    Case("a NUL in a GraphiQL path", "/graphiql/ide/%00", keyed=False),
    post("a deeply nested JSON body", '{"query": "{ __typename }", "variables": {"a": ' + NESTED + "}}"),
    post(
        "a NUL in a variable",
        json.dumps({"query": ADD_EVIDENCE, "variables": {"i": {"text": "t", "title": "\0"}}}),
    ),
    post("a NUL in the document", json.dumps({"query": "{ __typename }\0"})),
    post(
        "a lone surrogate in a variable",
        surrogate_in({"query": ADD_EVIDENCE, "variables": {"i": {"text": "a @@"}}}),
    ),
    post("a lone surrogate in the operation name", '{"query": "{ __typename }", "operationName": "\\ud800"}'),
    post(
        "a lone surrogate in a persisted query",
        '{"query": "{ __typename } #\\udfff", "extensions": '
        '{"persistedQuery": {"version": 1, "sha256Hash": "' + "0" * 64 + '"}}}',
    ),
    post(
        "a lone surrogate in the question",
        surrogate_in({"query": ASK, "variables": {"q": "@@"}}),
    ),
    post("a body that is not UTF-8", b'{"query": "{ __typename }\xff"}'),
    post("a JSON string body", '"x"'),
    post("a JSON number body", "1"),
    post("a JSON null body", "null"),
    post("a subscription over POST", json.dumps({"query": SUBSCRIPTION})),
    Case("a subscription over GET", "/graphql?query=" + SUBSCRIPTION.replace(" ", "%20").replace('"', "%22")),
]

MULTIPART_CASES = [
    ("operations that are a number", "1", '{"0": ["variables.file"]}'),
    ("operations that are a string", '"x"', "{}"),
    ("a map that is a list", '{"query": "{ __typename }"}', "[]"),
    ("a map that is a number", '{"query": "{ __typename }"}', "1"),
    (
        "a map path through a number",
        '{"query": "{ __typename }", "variables": {"a": 1}}',
        '{"0": ["variables.a.b"]}',
    ),
    (
        "a map entry that is not a list",
        '{"query": "{ __typename }", "variables": {"a": 1}}',
        '{"0": "variables.a"}',
    ),
    ("deeply nested operations", '{"query": "{ __typename }", "variables": ' + NESTED + "}", "{}"),
]


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """The log of the in-process API, uvicorn's own logger (which does not propagate) included."""
    uvicorn = logging.getLogger("uvicorn")
    uvicorn.addHandler(caplog.handler)
    with caplog.at_level(logging.INFO):
        yield caplog
    uvicorn.removeHandler(caplog.handler)


def assert_refused_in_one_line(response: httpx.Response, log: pytest.LogCaptureFixture) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    assert [error["extensions"]["code"] for error in response.json()["errors"]] == ["BAD_REQUEST"]
    ours = [r for r in log.records if r.name.startswith(("schema", "strawberry", "uvicorn", "app"))]
    assert len(ours) == 1, [(r.name, r.getMessage()[:200]) for r in ours]
    [record] = ours
    assert record.exc_info is None and record.levelno <= logging.WARNING, record.getMessage()[:200]
    assert "\n" not in record.getMessage()


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_malformed_requests_are_bad_requests(
    api_url: str, api_key: str, case: Case, server_log: pytest.LogCaptureFixture
) -> None:
    headers = {**case.headers, **({"authorization": f"Bearer {api_key}"} if case.keyed else {})}
    async with httpx.AsyncClient(base_url=api_url, timeout=30) as http:
        if case.body is None:
            response = await http.get(case.path, headers=headers)
        else:
            response = await http.post(case.path, content=case.body, headers=headers)

    assert_refused_in_one_line(response, server_log)


@pytest.mark.parametrize(
    ("operations", "files_map"),
    [(operations, files_map) for _, operations, files_map in MULTIPART_CASES],
    ids=[name for name, _, _ in MULTIPART_CASES],
)
async def test_malformed_multipart_requests_are_bad_requests(
    api_url: str, api_key: str, operations: str, files_map: str, server_log: pytest.LogCaptureFixture
) -> None:
    headers = {"authorization": f"Bearer {api_key}", "apollo-require-preflight": "true"}
    async with httpx.AsyncClient(base_url=api_url, timeout=30) as http:
        response = await http.post(
            "/graphql",
            data={"operations": operations, "map": files_map},
            files={"0": ("a.pdf", b"%PDF-1.4 x")},
            headers=headers,
        )

    assert_refused_in_one_line(response, server_log)


async def test_a_deeply_nested_websocket_message_closes_the_socket_as_malformed(
    client: GraphQLClient, server_log: pytest.LogCaptureFixture
) -> None:
    async with client.connect() as ws:
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send('{"id": "1", "type": "subscribe", "payload": ' + NESTED + "}")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()

    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    assert not [r for r in server_log.records if r.exc_info or r.levelno >= logging.ERROR]
