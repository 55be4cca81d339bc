"""Documents too large to run: the token limit stops parsing, the alias limit stops validation.

One request of 20,000 aliased `reports { totalCount }` passed every other limit and held the API for
half a minute (a database query per alias); a normal query waited behind it.
"""

from __future__ import annotations

import time
from unittest.mock import ANY

import httpx
from graphql import OperationDefinitionNode, parse

from app.config import Settings
from schema.limits import operation_aliases
from schema.limits.cost import fragment_definitions
from tests.schema.test_error_contract import only_error
from tests.schema.test_partner_graph import counted_queries
from tests.support.graphql import GraphQLClient


def aliased(count: int, field: str = "reports { totalCount }") -> str:
    return "{ " + " ".join(f"a{index}: {field}" for index in range(count)) + " }"


async def test_a_huge_document_is_refused_while_parsing_without_echoing_it(
    client: GraphQLClient, api_url: str, api_key: str
) -> None:
    await client.data("{ reports { totalCount } }")  # the key is cached after this
    document = aliased(20_000)
    with counted_queries() as statements:
        started = time.perf_counter()
        async with httpx.AsyncClient(base_url=api_url, timeout=60) as http:
            response = await http.post(
                "/graphql", json={"query": document}, headers={"Authorization": f"Bearer {api_key}"}
            )
        seconds = time.perf_counter() - started
    error = only_error(response.json())
    limit = Settings().max_query_tokens
    assert error["extensions"] == {"code": "QUERY_TOO_LARGE", "limit": limit, "requestId": ANY}
    assert f"more than {limit:,} tokens" in error["message"]
    assert len(response.content) < 2_000, "the error must not repeat the document"
    assert statements == []  # nothing ran
    print(f"refused in {seconds * 1000:.0f} ms")


async def test_aliases_beyond_the_limit_are_refused_with_their_count(client: GraphQLClient) -> None:
    limit = Settings().max_query_aliases
    assert "errors" not in await client.execute(aliased(limit))
    with counted_queries() as statements:
        error = only_error(await client.execute(aliased(limit + 1)))
    assert error["extensions"] == {
        "code": "TOO_MANY_ALIASES",
        "aliases": limit + 1,
        "limit": limit,
        "requestId": ANY,
    }
    assert statements == []


async def test_many_aliased_questions_are_refused_before_any_is_answered(client: GraphQLClient) -> None:
    limit = Settings().max_query_aliases
    questions = " ".join(
        f'q{index}: askReport(reportId: "UmVwb3J0OjA=", question: "Question {index}?") {{ __typename }}'
        for index in range(limit + 5)
    )
    error = only_error(await client.execute("{ " + questions + " }"))
    assert error["extensions"]["code"] == "TOO_MANY_ALIASES"


def test_aliases_in_a_fragment_count_each_time_it_is_spread() -> None:
    document = parse(
        """
        query { reports { ...Counts } again: reports { ...Counts } }
        fragment Counts on ReportConnection { one: totalCount two: totalCount }
        """
    )
    operation = next(node for node in document.definitions if isinstance(node, OperationDefinitionNode))
    assert operation_aliases(operation, fragment_definitions(document)) == 5
