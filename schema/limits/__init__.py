"""Abuse limits on GraphQL operations: size (tokens), depth, aliases and cost, refused before any
resolver runs: the size while parsing, the others at validation.

`limit_extensions(settings)` gives the Strawberry schema extensions; `query_cost` and
`operation_depth` say what a document costs (see `schema.limits.cost` for the cost model).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from graphql import DocumentNode, GraphQLError, GraphQLSchema, OperationDefinitionNode, ValidationRule
from graphql.language import SKIP, VisitorAction
from strawberry.extensions import AddValidationRules, SchemaExtension

from app.config import Settings
from schema.errors import ErrorCode
from schema.limits.aliases import operation_aliases
from schema.limits.cost import DEFAULT_LIST_SIZE, fragment_definitions, operation_cost, query_cost, selected
from schema.limits.cost_cache import cost_errors
from schema.limits.depth import operation_depth
from schema.limits.document_cache import parse_cached, validate_cached

__all__ = [
    "DEFAULT_LIST_SIZE",
    "QueryCostLimiter",
    "alias_limit_rule",
    "cost_limit_rule",
    "depth_limit_rule",
    "limit_extensions",
    "operation_aliases",
    "operation_depth",
    "query_cost",
]


def cost_error(cost: int, limit: int, node: OperationDefinitionNode) -> GraphQLError:
    return GraphQLError(
        f"Query cost {cost:,} exceeds the limit of {limit:,}. "
        "Ask for fewer items (`first`) or fewer nested lists.",
        node,
        extensions={"code": ErrorCode.QUERY_TOO_COSTLY.name, "cost": cost, "limit": limit},
    )


def depth_error(depth: int, limit: int, node: OperationDefinitionNode) -> GraphQLError:
    return GraphQLError(
        f"Query depth {depth} exceeds the limit of {limit}. Nest fewer selections "
        "(fetch a deep object by its id with `node(id:)` instead).",
        node,
        extensions={"code": ErrorCode.QUERY_TOO_DEEP.name, "depth": depth, "limit": limit},
    )


def cost_limit_rule(
    max_cost: int, variables: Mapping[str, Any] | None = None, operation_name: str | None = None
) -> type[ValidationRule]:
    """A graphql-core rule refusing operations that cost more than `max_cost`.

    Validation does not see the request's variables, so they are bound here; without them a
    `first: $n` counts as the variable's default, else the argument's schema default.
    """

    class QueryCostRule(ValidationRule):
        def enter_operation_definition(self, node: OperationDefinitionNode, *_args: object) -> VisitorAction:
            if selected(node, operation_name):
                fragments = fragment_definitions(self.context.document)
                cost = operation_cost(self.context.schema, fragments, node, variables)
                if cost > max_cost:
                    self.report_error(cost_error(cost, max_cost, node))
            return SKIP

    return QueryCostRule


def depth_limit_rule(max_depth: int) -> type[ValidationRule]:
    """A graphql-core rule refusing operations nested deeper than `max_depth`.

    Depth counts like Strawberry's `QueryDepthLimiter`, but the error carries a `QUERY_TOO_DEEP`
    code and the figures and is reported once per operation rather than once per too-deep field
    (Strawberry's message names the operation, without a code), which clients and the
    error-contract tests rely on: so this rule is kept instead of Strawberry's.
    """

    class QueryDepthRule(ValidationRule):
        def enter_operation_definition(self, node: OperationDefinitionNode, *_args: object) -> VisitorAction:
            depth = operation_depth(node, fragment_definitions(self.context.document))
            if depth > max_depth:
                self.report_error(depth_error(depth, max_depth, node))
            return SKIP

    return QueryDepthRule


def alias_limit_rule(max_aliases: int) -> type[ValidationRule]:
    """A graphql-core rule refusing operations with more than `max_aliases` aliases
    (`schema.limits.aliases`).

    Strawberry's `MaxAliasesLimiter` counts an operation's aliases the same way, but adds up every
    operation of the document into one total and refuses it with a plain message and no code; this
    rule judges each operation on its own and refuses with TOO_MANY_ALIASES and the figures, which
    clients and the error-contract tests rely on."""

    class QueryAliasRule(ValidationRule):
        def enter_operation_definition(self, node: OperationDefinitionNode, *_args: object) -> VisitorAction:
            aliases = operation_aliases(node, fragment_definitions(self.context.document))
            if aliases > max_aliases:
                self.report_error(
                    GraphQLError(
                        f"The operation uses {aliases:,} aliases; at most {max_aliases:,} are allowed. "
                        "Ask for each field once, or send several requests.",
                        node,
                        extensions={
                            "code": ErrorCode.TOO_MANY_ALIASES.name,
                            "aliases": aliases,
                            "limit": max_aliases,
                        },
                    )
                )
            return SKIP

    return QueryAliasRule


class QueryCostLimiter(SchemaExtension):
    """Adds the cost rule per request, bound to that request's variables and operation name."""

    def __init__(self, *, max_cost: int) -> None:
        self.max_cost = max_cost

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        rule = cost_limit_rule(self.max_cost, context.variables, context.operation_name)
        context.validation_rules = (*context.validation_rules, rule)
        yield


def limit_extensions(settings: Settings) -> list[Callable[[], SchemaExtension]]:
    """Factories for `strawberry.Schema(extensions=[...])`: a fresh extension per request."""
    depth_rule = depth_limit_rule(settings.max_query_depth)
    max_cost = settings.max_query_cost

    def depth_limiter() -> SchemaExtension:
        return AddValidationRules([depth_rule])

    def cost_limiter() -> SchemaExtension:
        return QueryCostLimiter(max_cost=max_cost)

    return [depth_limiter, cost_limiter]


class RequestLimits(SchemaExtension):
    """Depth and cost limits from the settings of the app serving the request (`Services.settings`),
    checked through the process's parse and validation caches (`schema.limits.document_cache`): the
    document-only rules (the depth limit among them) once per distinct document, the cost (it
    reads the request's variables) on every request, from `schema.limits.cost_cache`."""

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        settings = context.context.services.settings
        parse_cached(context, settings.document_cache_size, settings.max_query_tokens)
        yield

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        settings = context.context.services.settings
        document_rules = (_depth_rule(settings.max_query_depth), _alias_rule(settings.max_query_aliases))
        context.validation_rules = (*context.validation_rules, *document_rules)
        variables, operation_name = context.variables, context.operation_name
        max_cost, cache_size = settings.max_query_cost, settings.document_cache_size

        def rules() -> tuple[type[ValidationRule], ...]:
            return (cost_limit_rule(max_cost, variables, operation_name),)

        def check(schema: GraphQLSchema, document: DocumentNode, query: str) -> list[GraphQLError]:
            return cost_errors(
                schema, document, query, variables, operation_name, max_cost, cost_error, cache_size
            )

        validate_cached(context, rules, cache_size, check)
        yield


@functools.lru_cache(maxsize=8)
def _depth_rule(max_depth: int) -> type[ValidationRule]:
    return depth_limit_rule(max_depth)


@functools.lru_cache(maxsize=8)
def _alias_rule(max_aliases: int) -> type[ValidationRule]:
    return alias_limit_rule(max_aliases)
