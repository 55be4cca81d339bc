"""The media type of GraphQL answers over HTTP and their statuses (the GraphQL-over-HTTP spec):
`application/graphql-response+json` for a client that prefers it, with 4xx for a request that did
not execute and for refusals, 200 for an operation that ran; `application/json` with today's
statuses for everyone else. Under either, a request that did not execute carries no `data`."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from schema.transport.media_types import OUTAGE_RETRY_AFTER_SECONDS, MediaType, negotiate
from tests.conftest import make_settings, serve_api
from tests.schema.test_api_limits import TOO_DEEP
from tests.support.services import RunningServices

GRAPHQL_RESPONSE = MediaType.GRAPHQL_RESPONSE
JSON = MediaType.JSON
#: What Apollo Client 4 and the spec recommend a client send.
PREFERRED = "application/graphql-response+json, application/json;q=0.9"
TYPENAME = {"query": "{ __typename }"}
REPORTS = {"query": "query Reports { reports(first: 1) { totalCount } }"}
#: Operations that run and meet a field error: with partial data, and with none (`reports` is non-null).
FIELD_ERRORS = {
    "partial data": (
        {"query": '{ __typename report(id: "zzz") { id } }'},
        {"__typename": "Query", "report": None},
        "INVALID_ID",
    ),
    "no data": (
        {"query": "{ __typename reports(first: 1000) { totalCount } }"},
        None,
        "PAGE_SIZE_OUT_OF_RANGE",
    ),
}
#: Requests that never execute, and the code each answers with.
REQUEST_ERRORS = {
    "parse": ({"query": "{"}, "GRAPHQL_PARSE_FAILED"),
    "validation": ({"query": "{ noSuchField }"}, "GRAPHQL_VALIDATION_FAILED"),
    "variables": (
        {"query": "query R($id: ID!) { report(id: $id) { id } }", "variables": {"id": None}},
        "GRAPHQL_VALIDATION_FAILED",
    ),
    "limit": ({"query": TOO_DEEP}, "QUERY_TOO_DEEP"),
    "persisted query": (
        {"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "a" * 64}}},
        "PERSISTED_QUERY_NOT_FOUND",
    ),
}


async def post(url: str, body: Any, accept: str | None, api_key: str | None = None) -> httpx.Response:
    """POST `body` (JSON unless bytes) to `/graphql` with exactly this `Accept` (None: none at all)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = http.build_request(
            "POST", "/graphql", content=content, headers={"content-type": "application/json"}
        )
        if api_key is not None:
            request.headers["authorization"] = f"Bearer {api_key}"
        del request.headers["accept"]
        if accept is not None:
            request.headers["accept"] = accept
        return await http.send(request)


def media_type(response: httpx.Response) -> MediaType:
    return MediaType(response.headers["content-type"].split(";")[0])


def code(response: httpx.Response) -> str:
    return str(response.json()["errors"][0]["extensions"]["code"])


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("", JSON),
        ("*/*", JSON),
        ("application/*", JSON),
        ("application/json", JSON),
        ("application/graphql-response+json", GRAPHQL_RESPONSE),
        (PREFERRED, GRAPHQL_RESPONSE),
        ("application/graphql-response+json, application/json", GRAPHQL_RESPONSE),
        ("application/json, application/graphql-response+json", JSON),
        ("application/json;q=0.5, application/graphql-response+json;q=0.8", GRAPHQL_RESPONSE),
        ("application/graphql-response+json, */*;q=0.1", GRAPHQL_RESPONSE),
        ("application/graphql-response+json;q=0.5, */*", JSON),
        ("application/json;q=0, */*", GRAPHQL_RESPONSE),
        ("Application/GraphQL-Response+JSON; charset=UTF-8", GRAPHQL_RESPONSE),
        ("application/graphql-response+json; charset=utf-16", JSON),
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", JSON),
        ("text/html", JSON),  # nothing acceptable: the server's choice, not 406
    ],
)
def test_the_accept_header_picks_the_media_type(accept: str, expected: MediaType) -> None:
    assert negotiate(accept) is expected


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, JSON),
        ("*/*", JSON),
        ("application/json", JSON),
        ("application/graphql-response+json", GRAPHQL_RESPONSE),
        (PREFERRED, GRAPHQL_RESPONSE),
    ],
)
async def test_an_answer_is_in_the_negotiated_media_type(
    api_url: str, api_key: str, accept: str | None, expected: MediaType
) -> None:
    response = await post(api_url, TYPENAME, accept, api_key)

    assert response.status_code == 200
    assert media_type(response) is expected
    assert response.json() == {"data": {"__typename": "Query"}}


@pytest.mark.parametrize("case", REQUEST_ERRORS)
async def test_a_request_that_never_executed_has_no_data_under_either_media_type(
    api_url: str, api_key: str, case: str
) -> None:
    body, expected_code = REQUEST_ERRORS[case]

    legacy = await post(api_url, body, "application/json", api_key)
    new = await post(api_url, body, PREFERRED, api_key)

    assert (legacy.status_code, media_type(legacy), code(legacy)) == (200, JSON, expected_code)
    assert (new.status_code, media_type(new), code(new)) == (400, GRAPHQL_RESPONSE, expected_code)
    assert "data" not in legacy.json() and "data" not in new.json()


@pytest.mark.parametrize("case", FIELD_ERRORS)
async def test_an_operation_that_ran_is_a_200_with_data_even_with_field_errors(
    api_url: str, api_key: str, case: str
) -> None:
    body, data, expected_code = FIELD_ERRORS[case]

    response = await post(api_url, body, PREFERRED, api_key)

    assert (response.status_code, media_type(response), code(response)) == (
        200,
        GRAPHQL_RESPONSE,
        expected_code,
    )
    assert response.json()["data"] == data and response.json()["errors"][0]["path"]


#: Refusals made before GraphQL runs: the key sent (VALID: the test's), the body, status and code.
VALID = "valid"
REFUSALS = {
    "no key": (None, REPORTS, 401, "UNAUTHENTICATED"),
    "bad key": ("not-a-key", REPORTS, 401, "UNAUTHENTICATED"),
    "not JSON": (VALID, b'{"query": ', 400, "BAD_REQUEST"),
    "subscription": (VALID, {"query": "subscription { __typename }"}, 400, "BAD_REQUEST"),
    "too large": (VALID, b'{"query": "' + b"x" * (2 * 1024 * 1024) + b'"}', 413, "REQUEST_TOO_LARGE"),
}


@pytest.mark.parametrize("case", REFUSALS)
async def test_refusals_before_graphql_runs_are_graphql_responses(
    api_url: str, api_key: str, case: str
) -> None:
    key, body, status, expected_code = REFUSALS[case]
    sent_key = api_key if key == VALID else key

    new = await post(api_url, body, PREFERRED, sent_key)
    legacy = await post(api_url, body, "application/json", sent_key)

    assert (new.status_code, media_type(new), code(new)) == (status, GRAPHQL_RESPONSE, expected_code)
    assert (legacy.status_code, media_type(legacy), code(legacy)) == (status, JSON, expected_code)
    assert "data" not in new.json() and "data" not in legacy.json()


async def test_an_upload_without_preflight_is_refused_in_the_negotiated_media_type(
    api_url: str, api_key: str
) -> None:
    async with httpx.AsyncClient(base_url=api_url, timeout=30) as http:
        response = await http.post(
            "/graphql",
            data={"operations": json.dumps(TYPENAME), "map": "{}"},
            files={"0": ("a.pdf", b"%PDF-", "application/pdf")},
            headers={"authorization": f"Bearer {api_key}", "accept": PREFERRED},
        )

    assert (response.status_code, media_type(response), code(response)) == (
        400,
        GRAPHQL_RESPONSE,
        "PREFLIGHT_REQUIRED",
    )


@pytest.fixture(scope="module")
async def limited_api(services: RunningServices) -> AsyncIterator[str]:
    """An API whose keys may make one request at once (a burst of 1)."""
    async with serve_api(make_settings(services, rate_limit_per_minute=6)) as url:
        yield url


async def test_a_rate_limited_request_is_a_429_graphql_response(limited_api: str, api_key: str) -> None:
    first = await post(limited_api, TYPENAME, PREFERRED, api_key)
    refused = await post(limited_api, TYPENAME, PREFERRED, api_key)

    assert first.status_code == 200
    assert (refused.status_code, media_type(refused), code(refused)) == (
        429,
        GRAPHQL_RESPONSE,
        "RATE_LIMITED",
    )
    assert int(refused.headers["retry-after"]) >= 1 and "data" not in refused.json()


@pytest.fixture(scope="module")
async def database_away(services: RunningServices) -> AsyncIterator[str]:
    """An API whose database refuses connections (nothing listens on its port); requests without a
    key act for the local organisation, so they reach execution."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings: Settings = make_settings(
        services,
        database_url=f"postgresql://sibyl:sibyl@127.0.0.1:{port}/sibyl",
        allow_unauthenticated=True,
    )
    async with serve_api(settings) as url:
        yield url


async def test_a_dependency_away_is_a_503_with_retry_after_only_under_graphql_response_json(
    database_away: str,
) -> None:
    new = await post(database_away, REPORTS, PREFERRED)
    legacy = await post(database_away, REPORTS, "application/json")
    checking_a_key = await post(database_away, REPORTS, PREFERRED, api_key="sibyl_00000000_" + "x" * 43)

    assert (new.status_code, media_type(new), code(new)) == (503, GRAPHQL_RESPONSE, "SERVICE_UNAVAILABLE")
    assert new.headers["retry-after"] == str(OUTAGE_RETRY_AFTER_SECONDS)
    assert (legacy.status_code, media_type(legacy), code(legacy)) == (200, JSON, "SERVICE_UNAVAILABLE")
    assert "retry-after" not in legacy.headers
    assert (checking_a_key.status_code, code(checking_a_key)) == (503, "SERVICE_UNAVAILABLE")
    assert checking_a_key.headers["retry-after"] == str(OUTAGE_RETRY_AFTER_SECONDS)
