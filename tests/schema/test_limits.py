"""Query cost and depth limits: computed from the document and refused before anything executes."""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest
import strawberry
from graphql import GraphQLError, get_introspection_query, parse, specified_rules, validate
from strawberry.extensions import QueryDepthLimiter

from app.config import Settings
from schema import schema
from schema.limits import DEFAULT_LIST_SIZE, cost_limit_rule, limit_extensions, query_cost
from schema.limits.cost import LIST_SIZES

LIMITS = Settings(_env_file=None, max_query_cost=20_000)  # type: ignore[call-arg]  # depth 12 (default)


def with_limits(base: strawberry.Schema) -> strawberry.Schema:
    """Sibyl's schema as the lead wires it: its own extensions plus the limits at their defaults.

    A second `strawberry.Schema` cannot be built from the same types (the relay `node` field is
    converted once), so this is a copy that differs only in its extension factories (limits the
    schema may already carry are replaced, not doubled).
    """
    limited = copy.copy(base)
    own = [factory for factory in base.extensions if factory.__module__ != "schema.limits"]
    limited.extensions = (*own, *limit_extensions(LIMITS))
    return limited


sibyl = with_limits(schema)


# --- Documents on Sibyl's schema -------------------------------------------------------------

REPORT_PAGE = "{ reports(first: 100) { edges { node { id filename } } } }"
# reports 1 + edges 1 + 100 x (node 1 + id 1 + filename 1)
REPORT_PAGE_COST = 302

DEFAULT_PAGE = "{ reports { edges { node { id } } } }"
# `first` defaults to 20 in the schema: 1 + 1 + 20 x 2
DEFAULT_PAGE_COST = 42

UNPAGED_LIST = (
    '{ askReport(reportId: "1", question: "q") { ... on ReportAnswer { citations { kind excerpt } } } }'
)
# citations has no `first` and no size of its own: askReport 1 + citations (1 + 50 x 2)
UNPAGED_LIST_COST = 1 + (1 + DEFAULT_LIST_SIZE * 2)

NESTED_LISTS = """
query Everything {
  reports(first: 100) {
    edges { node { id pages(first: 100) { number text } events(first: 100) { id } } }
  }
}
"""
# 1 + 1 + 100 x (node 1 + id 1 + pages (1 + 100 x 2) + events (1 + 100 x 1))
NESTED_LISTS_COST = 2 + 100 * (2 + 201 + 101)

PAGES_BY_VARIABLE = """
query Pages($reports: Int!, $pages: Int! = 5) {
  reports(first: $reports) { edges { node { pages(first: $pages) { number } } } }
}
"""

CLAIMS_WITH_FINDINGS = """
{ report(id: "UmVwb3J0OjE=") { claims(first: 200) { edges { node { id findings { id summary } } } } } }
"""
# report 1 + claims 1 + edges 1 + 200 x (node 1 + id 1 + findings (1 + 15 x 2)): `first` applies at
# `edges`; a claim's findings count as LIST_SIZES[("Claim", "findings")], not the default list size
CLAIMS_WITH_FINDINGS_COST = 3 + 200 * (2 + 1 + LIST_SIZES[("Claim", "findings")] * 2)

WITH_FRAGMENTS = """
query { reports(first: 10) { ...ReportList } }
fragment ReportList on ReportConnection { edges { node { ...ReportFields } } totalCount }
fragment ReportFields on Report { id ... on Report { filename pages(first: 3) { number } } }
"""
WITHOUT_FRAGMENTS = """
{ reports(first: 10) { edges { node { id filename pages(first: 3) { number } } } totalCount } }
"""

ALIASES = """
{
  a: reports(first: 100) { edges { node { id filename } } }
  b: reports(first: 100) { edges { node { id filename } } }
}
"""

TWO_OPERATIONS = """
query Small { reports(first: 1) { totalCount } }
query Large { reports(first: 100) { edges { node { id filename } } } }
"""


def cost(document: str, variables: dict[str, Any] | None = None, operation_name: str | None = None) -> int:
    return query_cost(parse(document), sibyl._schema, variables, operation_name)


def only_error(errors: list[GraphQLError] | None) -> GraphQLError:
    assert errors is not None and len(errors) == 1, errors
    return errors[0]


def test_a_page_of_reports_costs_its_page_size_times_its_fields() -> None:
    assert cost(REPORT_PAGE) == REPORT_PAGE_COST


def test_the_schema_default_of_first_is_the_page_size() -> None:
    assert cost(DEFAULT_PAGE) == DEFAULT_PAGE_COST


def test_a_list_without_first_counts_the_default_list_size() -> None:
    assert cost(UNPAGED_LIST) == UNPAGED_LIST_COST


def test_nested_lists_multiply() -> None:
    assert cost(NESTED_LISTS) == NESTED_LISTS_COST


def test_a_connections_first_multiplies_its_edges() -> None:
    assert cost(CLAIMS_WITH_FINDINGS) == CLAIMS_WITH_FINDINGS_COST
    assert cost('{ report(id: "x") { claims { edges { node { id } } } } }') == 3 + 50 * 2  # default 50


def test_variables_set_the_page_size() -> None:
    small = cost(PAGES_BY_VARIABLE, {"reports": 2, "pages": 3})
    large = cost(PAGES_BY_VARIABLE, {"reports": 100, "pages": 100})
    defaulted = cost(PAGES_BY_VARIABLE, {"reports": 2})

    assert small == 1 + 1 + 2 * (1 + 1 + 3 * 1)
    assert large == 1 + 1 + 100 * (1 + 1 + 100 * 1)
    assert defaulted == 1 + 1 + 2 * (1 + 1 + 5 * 1)  # the operation's `$pages = 5`


def test_fragments_cost_what_their_selections_cost() -> None:
    assert cost(WITH_FRAGMENTS) == cost(WITHOUT_FRAGMENTS) == 1 + 1 + 10 * (1 + 2 + 1 + 3) + 1


def test_aliased_copies_each_count() -> None:
    assert cost(ALIASES) == 2 * REPORT_PAGE_COST


def test_the_named_operation_is_the_one_costed() -> None:
    assert cost(TWO_OPERATIONS, operation_name="Small") == 2  # reports + totalCount
    assert cost(TWO_OPERATIONS, operation_name="Large") == REPORT_PAGE_COST
    assert cost(TWO_OPERATIONS) == REPORT_PAGE_COST  # no name: the costliest


async def test_an_operation_over_the_cost_limit_is_refused_with_a_clear_error() -> None:
    result = await sibyl.execute(NESTED_LISTS)

    error = only_error(result.errors)
    assert error.message == (
        "Query cost 30,402 exceeds the limit of 20,000. Ask for fewer items (`first`) or fewer nested lists."
    )
    assert error.extensions == {"code": "QUERY_TOO_COSTLY", "cost": NESTED_LISTS_COST, "limit": 20_000}
    assert result.data is None


def test_every_claim_with_its_findings_fits_the_limit() -> None:
    assert cost(CLAIMS_WITH_FINDINGS) == CLAIMS_WITH_FINDINGS_COST < 20_000


async def test_the_limit_sees_the_request_variables() -> None:
    result = await sibyl.execute(PAGES_BY_VARIABLE, variable_values={"reports": 100, "pages": 300})

    assert only_error(result.errors).extensions == {
        "code": "QUERY_TOO_COSTLY",
        "cost": 1 + 1 + 100 * (1 + 1 + 300),
        "limit": 20_000,
    }


def test_the_rule_alone_uses_defaults_for_variables_it_was_not_given() -> None:
    rules = [*specified_rules, cost_limit_rule(100)]
    bound = [*specified_rules, cost_limit_rule(100, {"reports": 2})]

    unbound_error = only_error(validate(sibyl._schema, parse(PAGES_BY_VARIABLE), rules))

    # $reports unknown: reports' schema default (20); $pages: the operation's default (5)
    assert unbound_error.extensions == {"code": "QUERY_TOO_COSTLY", "cost": 1 + 1 + 20 * 7, "limit": 100}
    assert validate(sibyl._schema, parse(PAGES_BY_VARIABLE), bound) == []


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "descriptions": True,
            "specified_by_url": True,
            "directive_is_repeatable": True,
            "schema_description": True,
            "input_value_deprecation": True,
        },
    ],
)
async def test_introspection_passes_the_default_limits(options: dict[str, bool]) -> None:
    result = await sibyl.execute(get_introspection_query(**options))

    assert result.errors is None
    assert result.data is not None and result.data["__schema"]["queryType"]["name"] == "Query"


# --- A small recursive schema, for depth and for executing operations that pass -----------------


@strawberry.type
class Tag:
    name: str


@strawberry.type
class Item:
    value: int

    @strawberry.field
    def child(self) -> Item:
        return Item(value=self.value + 1)

    @strawberry.field
    def children(self, first: int = 10) -> list[Item]:
        return [Item(value=self.value * 10 + n) for n in range(min(first, 2))]

    @strawberry.field
    def tags(self) -> list[Tag]:
        return [Tag(name="a")]


@strawberry.type
class ItemEdge:
    node: Item


@strawberry.type
class ItemConnection:
    edges: list[ItemEdge]
    nodes: list[Item]
    total_count: int


@strawberry.type
class LocalQuery:
    @strawberry.field
    def item(self) -> Item:
        return Item(value=0)

    @strawberry.field
    def items(self, first: int = 5) -> ItemConnection:
        items = [Item(value=n) for n in range(min(first, 2))]
        return ItemConnection(edges=[ItemEdge(node=item) for item in items], nodes=items, total_count=2)


local = strawberry.Schema(query=LocalQuery, extensions=limit_extensions(LIMITS))


def chain(depth: int) -> str:
    """An operation whose deepest field is at `depth` (top-level fields are at 0)."""
    return "{ item " + "{ child " * (depth - 1) + "{ value }" + " }" * (depth - 1) + " }"


def local_cost(document: str, variables: dict[str, Any] | None = None) -> int:
    return query_cost(parse(document), local._schema, variables)


def test_a_connection_hands_its_page_size_to_edges_and_nodes() -> None:
    assert local_cost("{ items(first: 7) { edges { node { value } } } }") == 1 + 1 + 7 * 2
    assert local_cost("{ items(first: 7) { nodes { value } totalCount } }") == 1 + (1 + 7 * 1) + 1
    assert local_cost("{ items(first: 7) { ... on ItemConnection { nodes { value } } } }") == 1 + 1 + 7


def test_other_lists_keep_their_own_size() -> None:
    assert local_cost("{ item { children { value } tags { name } } }") == 1 + (1 + 10) + (
        1 + DEFAULT_LIST_SIZE
    )


def test_introspection_fields_are_free() -> None:
    assert local_cost("{ __typename item { __typename value } }") == 2


def test_nested_fragment_spreads_are_costed_without_exploding() -> None:
    levels = 40
    fragments = "".join(
        f"fragment F{n} on Item {{ child {{ ...F{n + 1} }} children(first: 1) {{ ...F{n + 1} }} }}\n"
        for n in range(levels)
    )
    document = "{ item { ...F0 } }\n" + fragments + f"fragment F{levels} on Item {{ value }}\n"
    started = time.monotonic()

    total = local_cost(document)

    # Memoised, it takes well under 0.1 s; expanding each spread would take 2**40 steps, i.e. never
    # return. 10 s is only a bound for a slow, loaded machine, not a speed target.
    assert time.monotonic() - started < 10
    assert total > 2**levels


async def test_an_operation_within_the_limits_runs() -> None:
    document = (
        "query($n: Int!) { items(first: $n) { edges { node { value children(first: 2) { value } } } } }"
    )

    result = await local.execute(document, variable_values={"n": 2})

    assert result.errors is None
    assert result.data == {
        "items": {
            "edges": [
                {"node": {"value": 0, "children": [{"value": 0}, {"value": 1}]}},
                {"node": {"value": 1, "children": [{"value": 10}, {"value": 11}]}},
            ]
        }
    }


async def test_depth_12_passes_and_depth_13_is_refused() -> None:
    passing = await local.execute(chain(12))
    refused = await local.execute(chain(13))

    assert passing.errors is None
    error = only_error(refused.errors)
    assert error.message.startswith("Query depth 13 exceeds the limit of 12. Nest fewer selections")
    assert error.extensions == {"code": "QUERY_TOO_DEEP", "depth": 13, "limit": 12}


@pytest.mark.parametrize("depth", [1, 11, 12, 13, 20])
async def test_depth_counts_like_strawberrys_query_depth_limiter(depth: int) -> None:
    strawberry_limited = strawberry.Schema(
        query=LocalQuery, extensions=[lambda: QueryDepthLimiter(max_depth=12)]
    )

    ours = await local.execute(chain(depth))
    theirs = await strawberry_limited.execute(chain(depth))

    assert (ours.errors is None) == (theirs.errors is None) == (depth <= 12)


async def test_depth_counts_through_fragments() -> None:
    deep = "fragment Deep on Item { " + "child { " * 7 + "... on Item { ...Deeper }" + " }" * 7 + " }\n"
    deeper = "fragment Deeper on Item { " + "child { " * 5 + "value" + " }" * 5 + " }\n"
    document = "{ item { ...Deep } }\n" + deep + deeper  # `value` at 1 + 7 + 5

    result = await local.execute(document)

    assert only_error(result.errors).extensions == {"code": "QUERY_TOO_DEEP", "depth": 13, "limit": 12}


# --- The limit's headroom for the queries clients make (figures quoted in schema/limits/cost.py) ----


def test_the_documented_costs_of_real_client_queries_hold() -> None:
    from clients.sibyl import documents
    from schema.limits.cost import DASHBOARD_CLAIM_DETAIL

    graph = schema._schema

    def cost(document: str, **variables: Any) -> int:
        return query_cost(parse(document), graph, variables)

    assert cost(documents.CLAIMS, first=200) == 96_607
    assert cost(documents.REPORT) == 320
    assert cost(documents.REPORT_EVENT_SEQUENCES, first=500) == 502
    assert cost(documents.ASK_REPORT) == 261
    assert (cost(documents.ANALYSIS_EVENTS), cost(documents.VERDICT_ISSUED)) == (7, 11)
    detail = cost(DASHBOARD_CLAIM_DETAIL, first=200)
    with_sources = DASHBOARD_CLAIM_DETAIL.replace(
        "isFinal", "isFinal decidingSources { agent publisher title url tier }"
    )
    assert detail == 33_407
    assert cost(with_sources, first=200) == detail + 200 * (1 + 15 * 5)


def test_the_default_limit_leaves_a_full_claim_page_room_to_grow() -> None:
    from schema.limits.cost import DASHBOARD_CLAIM_DETAIL

    default_limit = Settings(_env_file=None).max_query_cost  # type: ignore[call-arg]
    detail = query_cost(parse(DASHBOARD_CLAIM_DETAIL), schema._schema, {"first": 200})
    every_claim = (
        "{ reports(first: 100) { edges { node { claims(first: 200) { edges { node { %s } } } } } } }"
    )
    wide = query_cost(parse(every_claim % "id text priority"), schema._schema)
    deeper = query_cost(parse(every_claim % "id findings { id summary }"), schema._schema)

    assert default_limit >= 2.9 * detail  # ~3x: a dashboard can add fields before hitting it
    assert (wide, deeper) == (80_302, 660_302)
    assert wide < default_limit < deeper  # one more nested list over 20,000 claims is refused
