"""The API as a partner's own Python client sees it: `gql` (graphql-python), unmodified, against the
live server: introspection and local validation over HTTP, a multipart upload, subscriptions over
both WebSocket protocols, automatic persisted queries registered over POST and then sent by hash
alone over GET (as Apollo's `useGETForHashedQueries` does), and refusals it can read."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from gql import Client, FileVar, GraphQLRequest, gql
from gql.transport.exceptions import TransportQueryError, TransportServerError
from gql.transport.httpx import HTTPXAsyncTransport
from gql.transport.websockets import WebsocketsTransport
from graphql import GraphQLError, build_schema, find_breaking_changes, find_dangerous_changes

from tests.fixtures.planted_report import planted_report

SDL = Path(__file__).resolve().parents[2] / "schema.graphql"
REPORTS = gql("query Reports { reports(first: 5) { totalCount edges { node { id filename } } } }")
UPLOAD = gql(
    """
    mutation Upload($file: Upload!) {
      uploadReport(file: $file, companyName: "Conformance Ltd") {
        __typename
        ... on UploadReportSuccess { report { id status } }
        ... on UploadReportError { message }
      }
    }
    """
)
EVENTS = gql(
    "subscription Events($reportId: ID!) { analysisEvents(reportId: $reportId) { eventType reportId } }"
)


def http_transport(api_url: str, key: str | None, **headers: str) -> HTTPXAsyncTransport:
    auth = {"Authorization": f"Bearer {key}"} if key else {}
    return HTTPXAsyncTransport(url=f"{api_url}/graphql", headers={**auth, **headers}, timeout=30)


@pytest.fixture
async def uploaded(api_url: str, api_key: str, worker: object) -> AsyncIterator[str]:
    """The global id of a report uploaded with gql's own multipart request (a worker parses it)."""
    transport = http_transport(api_url, api_key, **{"Apollo-Require-Preflight": "true"})
    async with Client(transport=transport) as session:
        pdf = FileVar(
            io.BytesIO(planted_report().pdf), filename="conformance.pdf", content_type="application/pdf"
        )
        result = await session.execute(
            GraphQLRequest(UPLOAD, variable_values={"file": pdf}), upload_files=True
        )
    upload = result["uploadReport"]
    assert upload["__typename"] == "UploadReportSuccess", upload
    yield upload["report"]["id"]


async def test_introspection_is_the_committed_schema_and_validates_locally(
    api_url: str, api_key: str
) -> None:
    async with Client(
        transport=http_transport(api_url, api_key), fetch_schema_from_transport=True
    ) as session:
        result = await session.execute(REPORTS)
        with pytest.raises(GraphQLError, match="Cannot query field 'nope'"):
            await session.execute(gql("query { reports(first: 1) { nope } }"))
        introspected = session.client.schema

    committed = build_schema(SDL.read_text())
    assert introspected is not None
    assert find_breaking_changes(committed, introspected) == []
    assert find_breaking_changes(introspected, committed) == []
    assert find_dangerous_changes(committed, introspected) == []
    assert result["reports"]["totalCount"] == 0


async def test_an_upload_is_a_report_of_the_organisation(api_url: str, api_key: str, uploaded: str) -> None:
    async with Client(transport=http_transport(api_url, api_key)) as session:
        result = await session.execute(REPORTS)

    assert [edge["node"] for edge in result["reports"]["edges"]] == [
        {"id": uploaded, "filename": "conformance.pdf"}
    ]


@pytest.mark.parametrize(
    "subprotocol",
    [WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL, WebsocketsTransport.APOLLO_SUBPROTOCOL],
    ids=["graphql-transport-ws", "graphql-ws (older)"],
)
async def test_subscriptions_over_both_websocket_protocols(
    api_url: str, api_key: str, uploaded: str, subprotocol: str
) -> None:
    transport = WebsocketsTransport(
        url=api_url.replace("http://", "ws://") + "/graphql",
        init_payload={"authorization": f"Bearer {api_key}"},
        subprotocols=[subprotocol],
    )
    async with Client(transport=transport) as session:
        request = GraphQLRequest(EVENTS, variable_values={"reportId": uploaded})
        first = await anext(aiter(session.subscribe(request)))
        assert transport.subprotocol == subprotocol

    assert first == {"analysisEvents": {"eventType": "report_uploaded", "reportId": uploaded}}


async def test_a_refused_key_is_an_error_gql_can_read(api_url: str) -> None:
    async with Client(transport=http_transport(api_url, "sibyl_00000000_" + "x" * 43)) as session:
        with pytest.raises((TransportServerError, TransportQueryError)) as refused:
            await session.execute(REPORTS)

    error = refused.value
    if isinstance(error, TransportServerError):
        assert error.code == 401
    else:
        assert error.errors is not None and error.errors[0]["extensions"]["code"] == "UNAUTHENTICATED"


async def test_persisted_queries_registered_over_post_are_found_by_hash_over_get(
    api_url: str, api_key: str, uploaded: str
) -> None:
    document = gql("query Reports { reports(first: 5) { totalCount } }")
    # gql sends the document as graphql-core prints it: the hash is of that text, as Apollo's is
    sha = hashlib.sha256(GraphQLRequest(document).payload["query"].encode()).hexdigest()
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": sha}}
    async with Client(transport=http_transport(api_url, api_key)) as session:
        registered = await session.execute(GraphQLRequest(document, extensions=extensions))

    async with httpx.AsyncClient(base_url=api_url, timeout=30) as http:
        by_hash = await http.get(
            "/graphql",
            params={"operationName": "Reports", "variables": "{}", "extensions": json.dumps(extensions)},
            headers={"Authorization": f"Bearer {api_key}", "Accept": "*/*"},
        )
    body: dict[str, Any] = by_hash.json()

    assert registered == {"reports": {"totalCount": 1}}
    assert by_hash.status_code == 200 and body["data"] == registered
