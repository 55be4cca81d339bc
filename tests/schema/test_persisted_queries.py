"""Automatic persisted queries (Apollo's protocol) over HTTP and WebSocket, per organisation and
bounded; and the Python client's hash-first use of them."""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

import pytest
from redis.asyncio import Redis

from app.db.session import SessionFactory
from clients.sibyl import SibylClient
from schema.transport.persisted_queries import PersistedQueryStore
from tests.conftest import new_api_key
from tests.support.graphql import GraphQLClient

QUERY = "query Count { reports(first: 1) { totalCount } }"
SHA = hashlib.sha256(QUERY.encode()).hexdigest()


def persisted(sha: str = SHA, version: int = 1) -> dict[str, Any]:
    return {"persistedQuery": {"version": version, "sha256Hash": sha}}


async def post(client: GraphQLClient, **body: Any) -> dict[str, Any]:
    response = await client.http.post("/graphql", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def code_of(body: dict[str, Any]) -> str:
    return str(body["errors"][0]["extensions"]["code"])


async def test_unknown_hash_is_not_found_then_registered_then_hit(client: GraphQLClient) -> None:
    miss = await post(client, extensions=persisted())
    registered = await post(client, query=QUERY, extensions=persisted())
    hit = await post(client, extensions=persisted())

    assert miss["errors"][0]["message"] == "PersistedQueryNotFound"
    assert code_of(miss) == "PERSISTED_QUERY_NOT_FOUND"
    assert registered == {"data": {"reports": {"totalCount": 0}}}
    assert hit == registered


async def test_a_hash_that_does_not_match_the_query_is_refused(client: GraphQLClient) -> None:
    wrong = await post(client, query=QUERY, extensions=persisted("0" * 64))
    after = await post(client, extensions=persisted("0" * 64))

    assert code_of(wrong) == "PERSISTED_QUERY_HASH_MISMATCH"
    assert code_of(after) == "PERSISTED_QUERY_NOT_FOUND"  # nothing was registered


async def test_other_versions_are_not_supported(client: GraphQLClient) -> None:
    body = await post(client, query=QUERY, extensions=persisted(version=2))

    assert code_of(body) == "PERSISTED_QUERY_NOT_SUPPORTED"


async def test_registered_documents_are_per_organisation(
    client: GraphQLClient, api_url: str, session_factory: SessionFactory
) -> None:
    other = GraphQLClient(api_url, await new_api_key(session_factory, "another-org"))
    try:
        await post(client, query=QUERY, extensions=persisted())
        theirs = await post(other, extensions=persisted())
        ours = await post(client, extensions=persisted())
    finally:
        await other.aclose()

    assert code_of(theirs) == "PERSISTED_QUERY_NOT_FOUND"
    assert ours == {"data": {"reports": {"totalCount": 0}}}


@pytest.mark.parametrize(
    "hash_only",
    [{}, {"query": ""}],
    ids=["no query", "empty query as graphql-transport-ws requires a string"],
)
async def test_a_subscription_can_be_sent_by_hash(client: GraphQLClient, hash_only: dict[str, str]) -> None:
    subscription = 'subscription E { analysisEvents(reportId: "UmVwb3J0Om5vcGU=") { id } }'
    sha = hashlib.sha256(subscription.encode()).hexdigest()
    async with client.connect() as ws:
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        by_hash = {"id": "1", "type": "subscribe", "payload": {**hash_only, "extensions": persisted(sha)}}
        await ws.send(json.dumps(by_hash))
        miss = json.loads(await ws.recv())
        payload = {"query": subscription, "extensions": persisted(sha)}
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        registered = json.loads(await ws.recv())
        await ws.send(json.dumps({**by_hash, "id": "2"}))
        hit = json.loads(await ws.recv())
        while hit["id"] != "2":  # skips the `complete` of operation 1
            hit = json.loads(await ws.recv())

    assert miss["type"] == "error" and miss["id"] == "1"
    assert miss["payload"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND"
    for answer, operation_id in ((registered, "1"), (hit, "2")):  # both ran the document
        assert answer["id"] == operation_id and answer["type"] == "next"
        assert "No report" in answer["payload"]["errors"][0]["message"]


async def test_the_store_keeps_the_most_recently_used_per_organisation(redis: Redis, clean_db: None) -> None:
    store = PersistedQueryStore(redis, max_entries=3, ttl_seconds=60)
    organisation, other = uuid.uuid4(), uuid.uuid4()
    documents = {f"{n:064x}": f"query Q{n} {{ __typename }}" for n in range(5)}
    hashes = list(documents)
    for sha in hashes[:3]:
        await store.register(organisation, sha, documents[sha])
    await store.register(other, hashes[0], documents[hashes[0]])
    assert await store.lookup(organisation, hashes[0]) == documents[hashes[0]]  # now the most recent
    for sha in hashes[3:]:
        await store.register(organisation, sha, documents[sha])

    kept = {sha for sha in hashes if await store.lookup(organisation, sha) is not None}
    assert kept == {hashes[0], hashes[3], hashes[4]}
    assert await store.lookup(other, hashes[0]) == documents[hashes[0]]
    assert 0 < await redis.ttl(f"sibyl:apq:{organisation}:doc:{hashes[0]}") <= 60


async def test_the_python_client_sends_the_hash_first_and_the_document_once(
    api_url: str, api_key: str, redis: Redis
) -> None:
    async with SibylClient(api_url, api_key) as sibyl:
        first = await sibyl.execute(QUERY)
        second = await sibyl.execute(QUERY)
    keys = [key.decode() async for key in redis.scan_iter("sibyl:apq:*:doc:*")]

    assert first == second == {"reports": {"totalCount": 0}}
    assert [key.rsplit(":", 1)[1] for key in keys] == [SHA]


async def test_a_hash_only_get_is_an_authenticated_operation_of_the_keys_organisation(
    client: GraphQLClient, api_url: str
) -> None:
    """Apollo's `useGETForHashedQueries`: the hash alone over GET, with `Accept: */*` as browsers'
    fetch sends it, finds the document the organisation registered; without a key or with a bad
    one it is refused like any other operation, never answered with the GraphiQL page."""
    params = {"extensions": json.dumps(persisted())}
    await post(client, query=QUERY, extensions=persisted())
    hit = await client.http.get("/graphql", params=params, headers={"Accept": "*/*"})
    assert hit.status_code == 200, hit.text
    assert hit.json() == {"data": {"reports": {"totalCount": 0}}}

    for headers in ({}, {"Authorization": "Bearer not-a-key"}):
        anonymous = GraphQLClient(api_url)
        try:
            refused = await anonymous.http.get(
                "/graphql", params=params, headers={"Accept": "*/*", **headers}
            )
        finally:
            await anonymous.aclose()
        assert refused.status_code == 401, refused.text
        assert code_of(refused.json()) == "UNAUTHENTICATED"

    page = await client.http.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
