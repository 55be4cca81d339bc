"""addEvidenceDocument, evidenceDocuments, node and deleteEvidenceDocument over real HTTP."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.conftest import make_settings, serve_api
from tests.support.evidence import article
from tests.support.graphql import GraphQLClient
from tests.support.services import RunningServices

ADD = """
mutation Add($input: AddEvidenceDocumentInput!) {
  addEvidenceDocument(input: $input) {
    __typename
    ... on AddEvidenceDocumentSuccess {
      duplicate
      document {
        id title sourceUrl sourceDomain publishedDate mediaType filename charCount chunkCount createdAt
      }
    }
    ... on AddEvidenceDocumentError { code message field }
  }
}
"""
LIST = """
query List($first: Int!, $after: String) {
  evidenceDocuments(first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id title } }
  }
}
"""
NODE = "query Node($id: ID!) { node(id: $id) { __typename ... on EvidenceDocument { id title text } } }"
DELETE = """
mutation Delete($id: ID!) {
  deleteEvidenceDocument(id: $id) {
    __typename
    ... on DeleteEvidenceDocumentSuccess { deletedId document { title } }
    ... on DeleteEvidenceDocumentError { code message field }
  }
}
"""
PAGE = (
    b"<html><head><title>Spill at Karoo smelter</title></head>"
    b"<body><p>Tailings reached the river.</p></body></html>"
)


async def add(client: GraphQLClient, **fields: Any) -> dict[str, Any]:
    return dict((await client.data(ADD, input=fields))["addEvidenceDocument"])


async def upload(
    http: httpx.AsyncClient, content: bytes, filename: str, preflight: bool = True, **fields: Any
) -> httpx.Response:
    """A GraphQL multipart request putting the file at `input.file`."""
    operations = {"query": ADD, "variables": {"input": {**fields, "file": None}}}
    return await http.post(
        "/graphql",
        data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.input.file"]})},
        files={"0": (filename, content, "text/html")},
        headers={"Apollo-Require-Preflight": "true"} if preflight else {},
    )


async def upload_result(
    http: httpx.AsyncClient, content: bytes, filename: str, **fields: Any
) -> dict[str, Any]:
    response = await upload(http, content, filename, **fields)
    response.raise_for_status()
    body = response.json()
    assert "errors" not in body, body["errors"]
    return dict(body["data"]["addEvidenceDocument"])


async def test_text_is_added_listed_found_by_id_and_deleted(client: GraphQLClient) -> None:
    text = article(["Tailings from the Karoo nickel smelter reached the river."])

    added = await add(
        client,
        text=text,
        title="River pollution",
        sourceUrl="https://www.groundup.org.za/a",
        publishedDate="2024-03-20",
    )
    document = added["document"]
    listed = (await client.data(LIST, first=10))["evidenceDocuments"]
    node = (await client.data(NODE, id=document["id"]))["node"]
    deleted = (await client.data(DELETE, id=document["id"]))["deleteEvidenceDocument"]
    after = (await client.data(LIST, first=10))["evidenceDocuments"]
    again = (await client.data(DELETE, id=document["id"]))["deleteEvidenceDocument"]

    assert added["__typename"] == "AddEvidenceDocumentSuccess" and added["duplicate"] is False
    assert document["title"] == "River pollution"
    assert (document["sourceDomain"], document["publishedDate"]) == ("groundup.org.za", "2024-03-20")
    assert (document["mediaType"], document["charCount"]) == ("text/plain", len(text))
    assert document["chunkCount"] >= 1 and document["filename"] is None
    assert listed["totalCount"] == 1 and listed["edges"][0]["node"]["id"] == document["id"]
    assert node == {
        "__typename": "EvidenceDocument",
        "id": document["id"],
        "title": "River pollution",
        "text": text,
    }
    assert deleted == {
        "__typename": "DeleteEvidenceDocumentSuccess",
        "deletedId": document["id"],
        "document": {"title": "River pollution"},
    }
    assert after["totalCount"] == 0
    assert again == {
        "__typename": "DeleteEvidenceDocumentError",
        "code": "NOT_FOUND",
        "message": again["message"],
        "field": "id",
    }


async def test_a_file_upload_is_read_and_a_second_upload_is_a_duplicate(client: GraphQLClient) -> None:
    first = await upload_result(client.http, PAGE, "spill.html", publishedDate="2024-01-02")
    second = await upload_result(client.http, PAGE, "copy.html", title="Another title")

    assert first["__typename"] == "AddEvidenceDocumentSuccess"
    assert first["document"]["title"] == "Spill at Karoo smelter"
    assert (first["document"]["mediaType"], first["document"]["filename"]) == ("text/html", "spill.html")
    assert second["duplicate"] is True
    assert second["document"]["id"] == first["document"]["id"]
    assert second["document"]["title"] == "Spill at Karoo smelter"


async def test_documents_page_newest_first(client: GraphQLClient) -> None:
    for n in range(3):
        await add(client, text=f"Document number {n} about water quality.", title=f"doc {n}")

    page1 = (await client.data(LIST, first=2))["evidenceDocuments"]
    page2 = (await client.data(LIST, first=2, after=page1["pageInfo"]["endCursor"]))["evidenceDocuments"]

    assert [edge["node"]["title"] for edge in page1["edges"]] == ["doc 2", "doc 1"]
    assert page1["pageInfo"]["hasNextPage"] is True and page1["totalCount"] == 3
    assert [edge["node"]["title"] for edge in page2["edges"]] == ["doc 0"]
    assert page2["pageInfo"]["hasNextPage"] is False


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({}, "NO_INPUT", None),
        ({"text": "   "}, "EMPTY_TEXT", "text"),
        (
            {"text": "x", "publishedDate": (date.today() + timedelta(days=60)).isoformat()},
            "INVALID_DATE",
            "publishedDate",
        ),
        ({"text": "x", "sourceUrl": "file:///etc/passwd"}, "INVALID_URL", "sourceUrl"),
        ({"sourceUrl": "http://127.0.0.1:9/internal"}, "URL_REFUSED", "sourceUrl"),
    ],
)
async def test_bad_input_is_a_typed_error(
    client: GraphQLClient, fields: dict[str, Any], code: str, field: str | None
) -> None:
    result = await add(client, **fields)

    assert result == {
        "__typename": "AddEvidenceDocumentError",
        "code": code,
        "message": result["message"],
        "field": field,
    }
    assert (await client.data(LIST, first=10))["evidenceDocuments"]["totalCount"] == 0


async def test_a_malformed_date_is_rejected_by_the_date_type(client: GraphQLClient) -> None:
    body = await client.execute(ADD, input={"text": "x", "publishedDate": "2024-02-30"})

    assert body.get("data") is None
    assert "publishedDate" in body["errors"][0]["message"] and "Date" in body["errors"][0]["message"]


@pytest.fixture(scope="module")
async def strict_api(services: RunningServices) -> AsyncIterator[str]:
    strict: Settings = make_settings(services, evidence_max_document_bytes=1_000)
    async with serve_api(strict) as url:
        yield url


async def test_a_file_over_the_limit_is_too_large(strict_api: str, api_key: str) -> None:
    headers = {"Authorization": f"Bearer {api_key}"}
    async with httpx.AsyncClient(base_url=strict_api, timeout=60, headers=headers) as http:
        result = await upload_result(http, PAGE + b" " * 2_000, "big.html")
        text_result = (
            await http.post("/graphql", json={"query": ADD, "variables": {"input": {"text": "y" * 1_001}}})
        ).json()

    assert (result["code"], result["field"]) == ("TOO_LARGE", "file")
    assert text_result["data"]["addEvidenceDocument"]["code"] == "TOO_LARGE"


async def test_multipart_without_preflight_header_is_refused(client: GraphQLClient) -> None:
    response = await upload(client.http, PAGE, "spill.html", preflight=False)

    assert response.status_code == 400
    assert "Apollo-Require-Preflight" in response.json()["errors"][0]["message"]
    assert (await client.data(LIST, first=10))["evidenceDocuments"]["totalCount"] == 0
