"""The per-request cost check (`schema.limits.cost_cache`) says exactly what validating with the cost
rule says, and its cache tells apart only what changes a cost."""

from __future__ import annotations

from typing import Any

import pytest
from graphql import GraphQLError, parse, validate

from schema import schema
from schema.limits import cost_error, cost_limit_rule
from schema.limits.cost_cache import _cached_costs, cost_errors

SCHEMA = schema._schema

DOCUMENTS = [
    "{ reports(first: 100) { edges { node { id filename } } } }",
    """
    query Pages($reports: Int!, $pages: Int! = 5) {
      reports(first: $reports) { edges { node { pages(first: $pages) { number } } } }
    }
    """,
    """
    query Small { reports(first: 1) { totalCount } }
    query Large($n: Int) { reports(first: $n) { edges { node { id filename } } } }
    """,
    """
    query { reports(first: 10) { ...ReportList } }
    fragment ReportList on ReportConnection { edges { node { ...ReportFields } } totalCount }
    fragment ReportFields on Report { id ... on Report { filename pages(first: $p) { number } } }
    """,
]
VARIABLES: list[dict[str, Any] | None] = [
    None,
    {},
    {"reports": 2, "pages": 3},
    {"reports": 100, "pages": 300, "n": 7, "p": 50},
    {"reports": True, "pages": 2.0, "n": "x", "p": None},
    {"reports": [1], "pages": {"a": 1}},
]


def shape(errors: list[GraphQLError]) -> list[Any]:
    return [error.formatted for error in errors]


def by_rule(document: str, variables: Any, name: str | None, limit: int) -> list[Any]:
    return shape(validate(SCHEMA, parse(document), [cost_limit_rule(limit, variables, name)]))


def checked(document: str, variables: Any, name: str | None, limit: int, size: int = 64) -> list[Any]:
    return shape(cost_errors(SCHEMA, parse(document), document, variables, name, limit, cost_error, size))


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("variables", VARIABLES)
@pytest.mark.parametrize("name", [None, "Small", "Large", "Pages"])
@pytest.mark.parametrize("limit", [1, 100, 10_000])
def test_the_check_reports_what_the_rule_reports(
    document: str, variables: Any, name: str | None, limit: int
) -> None:
    expected = by_rule(document, variables, name, limit)

    assert checked(document, variables, name, limit) == expected
    assert checked(document, variables, name, limit) == expected  # from the cache


def test_a_page_size_variable_changes_the_cost_and_other_variables_share_one_entry() -> None:
    document = DOCUMENTS[1]
    cache = _cached_costs(3)  # a cache of its own: nothing else uses this size

    assert checked(document, {"reports": 2, "pages": 3, "id": "a"}, None, 100, size=3) == []
    assert checked(document, {"reports": 2, "pages": 3, "id": "b"}, None, 100, size=3) == []
    assert cache.cache_info().misses == 1
    assert cache.cache_info().hits == 1

    refused = checked(document, {"reports": 100, "pages": 3}, None, 100, size=3)

    assert [error["extensions"]["cost"] for error in refused] == [1 + 1 + 100 * (1 + 1 + 3)]
    assert cache.cache_info().misses == 2


def test_an_int_and_a_bool_of_equal_value_are_not_one_entry() -> None:
    document = "query Q($n: Int) { reports(first: $n) { edges { node { id } } } }"

    assert checked(document, {"n": 1}, None, 4, size=5) == []  # 1 + 1 + 1 x 2
    assert checked(document, {"n": True}, None, 4, size=5) == by_rule(document, {"n": True}, None, 4)
    assert checked(document, {"n": True}, None, 4, size=5) != []  # a bool is no page size: the default


def test_after_a_hundred_errors_validation_is_aborted_as_graphql_core_does() -> None:
    document = "\n".join(
        f"query Q{index} {{ reports(first: 100) {{ edges {{ node {{ id }} }} }} }}" for index in range(102)
    )

    expected = by_rule(document, None, None, 10)

    assert len(expected) == 101
    assert expected[-1]["message"] == "Too many validation errors, error limit reached. Validation aborted."
    assert checked(document, None, None, 10) == expected
