"""Free-text arguments are bounded, documented, and refused when over their limit, before storage.

A tenant who may write text the API stores can make the server store far more than they send when
that text is copied: a document's source URL goes into every passage of the document, so a
462 KB request with a huge `sourceUrl` once stored ~51 MB. Defended: every free-text argument
states its limit in its description ("At most 2,048 characters."), and a longer value is the
mutation's typed error naming the field, with nothing stored; so a source URL costs each passage
at most 2,048 characters.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from graphql import GraphQLInputObjectType, GraphQLObjectType, GraphQLSchema, build_schema, get_named_type
from sqlalchemy import func, select

from app.db.models import EvidenceDocument, KnowledgePassage, Report
from app.db.session import SessionFactory
from schema import schema
from schema.limits.input_limits import FILENAME_CHARS, SOURCE_URL_CHARS
from tests.fixtures import pdfs
from tests.support.evidence import article
from tests.support.graphql import GraphQLClient

ADD = """
mutation Add($input: AddEvidenceDocumentInput!) {
  addEvidenceDocument(input: $input) {
    __typename
    ... on AddEvidenceDocumentSuccess { document { id sourceUrl chunkCount } }
    ... on AddEvidenceDocumentError { code message field }
  }
}
"""
ASK = """
query Ask($id: ID!, $question: String!) {
  askReport(reportId: $id, question: $question) {
    __typename
    ... on AskReportError { code field }
  }
}
"""
#: String arguments that are not free text: values the API issued (cursors) or a closed list.
NOT_FREE_TEXT = {("Query", "reports", "after"), ("Query", "evidenceDocuments", "after")}
NOT_FREE_TEXT_NAMES = {"after", "agent"}
TEXT = article(["Tailings from the Karoo nickel smelter reached the river."], before=60, after=60)


async def _stored(session_factory: SessionFactory) -> tuple[int, int, int]:
    async with session_factory() as session:
        documents = await session.scalar(select(func.count()).select_from(EvidenceDocument)) or 0
        passages = await session.scalar(
            select(func.count())
            .select_from(KnowledgePassage)
            .where(KnowledgePassage.source_type == "evidence")
        )
        reports = await session.scalar(select(func.count()).select_from(Report)) or 0
    return documents, passages or 0, reports


async def _add(client: GraphQLClient, **fields: Any) -> dict[str, Any]:
    return dict((await client.data(ADD, input=fields))["addEvidenceDocument"])


def _free_text_arguments(built: GraphQLSchema) -> dict[str, str | None]:
    """`Type.field.argument` (or `Input.field`) of every String or Upload argument, with its description."""
    found: dict[str, str | None] = {}
    for name, kind in built.type_map.items():
        if isinstance(kind, GraphQLObjectType) and not name.startswith("__"):
            for field_name, field in kind.fields.items():
                for argument, spec in field.args.items():
                    if get_named_type(spec.type).name in ("String", "Upload"):
                        found[f"{name}.{field_name}.{argument}"] = spec.description
        if isinstance(kind, GraphQLInputObjectType):
            for field_name, input_field in kind.fields.items():
                if get_named_type(input_field.type).name in ("String", "Upload"):
                    found[f"{name}.{field_name}"] = input_field.description
    return {key: text for key, text in found.items() if key.rsplit(".", 1)[1] not in NOT_FREE_TEXT_NAMES}


def test_every_free_text_argument_documents_its_limit() -> None:
    arguments = _free_text_arguments(build_schema(schema.as_str()))

    undocumented = sorted(key for key, text in arguments.items() if "at most" not in (text or "").lower())

    assert "AddEvidenceDocumentInput.sourceUrl" in arguments and "Query.askReport.question" in arguments
    assert undocumented == []


async def test_a_huge_source_url_is_refused_and_stores_nothing(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    url = "https://example.org/report?" + "&".join(f"k{i}={uuid.uuid4().hex}" for i in range(12_000))
    assert len(json.dumps({"sourceUrl": url, "text": TEXT})) > 462_000

    result = await _add(client, text=TEXT, sourceUrl=url)

    assert (result["__typename"], result["code"], result["field"]) == (
        "AddEvidenceDocumentError",
        "INVALID_URL",
        "sourceUrl",
    )
    assert f"{SOURCE_URL_CHARS:,}" in result["message"] and url not in result["message"]
    assert await _stored(session_factory) == (0, 0, 0)


async def test_a_source_url_at_the_limit_is_stored_whole(client: GraphQLClient) -> None:
    url = "https://example.org/r?q=" + "a" * (SOURCE_URL_CHARS - len("https://example.org/r?q="))

    result = await _add(client, text=TEXT, sourceUrl=url)

    assert result["__typename"] == "AddEvidenceDocumentSuccess", result
    assert result["document"]["sourceUrl"] == url


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"text": "a", "title": "t" * 501}, "INVALID_TITLE", "title"),
        ({"text": "a", "sourceUrl": "https://x.org/" + "p" * SOURCE_URL_CHARS}, "INVALID_URL", "sourceUrl"),
    ],
)
async def test_over_long_evidence_fields_are_typed_errors(
    client: GraphQLClient, session_factory: SessionFactory, fields: dict[str, str], code: str, field: str
) -> None:
    result = await _add(client, **fields)

    assert (result["code"], result["field"]) == (code, field)
    assert await _stored(session_factory) == (0, 0, 0)


async def test_an_over_long_evidence_file_name_is_refused(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    name = "n" * (FILENAME_CHARS - 3) + ".txt"
    operations = {"query": ADD, "variables": {"input": {"file": None}}}

    response = await client.http.post(
        "/graphql",
        data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.input.file"]})},
        files={"0": (name, TEXT.encode(), "text/plain")},
        headers={"Apollo-Require-Preflight": "true"},
    )

    result = response.json()["data"]["addEvidenceDocument"]
    assert (result["code"], result["field"]) == ("INVALID_FILENAME", "file")
    assert await _stored(session_factory) == (0, 0, 0)


@pytest.mark.parametrize(
    ("upload", "field"),
    [
        ({"filename": "r" * (FILENAME_CHARS - 3) + ".pdf"}, "file"),
        ({"company_name": "c" * 256}, "companyName"),
    ],
)
async def test_over_long_upload_arguments_are_invalid_input(
    client: GraphQLClient, session_factory: SessionFactory, upload: dict[str, str], field: str
) -> None:
    result = await client.upload_result(pdfs.synthetic_report(page_count=2).pdf, **upload)

    assert (result["__typename"], result["code"], result["field"]) == (
        "UploadReportError",
        "INVALID_INPUT",
        field,
    )
    assert await _stored(session_factory) == (0, 0, 0)


async def test_an_over_long_question_is_a_typed_error(client: GraphQLClient) -> None:
    body = await client.data(ASK, id=str(uuid.uuid4()), question="why? " * 201)

    assert body["askReport"] == {
        "__typename": "AskReportError",
        "code": "INVALID_QUESTION",
        "field": "question",
    }
