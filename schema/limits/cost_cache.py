"""The cost check of every request, without a validation pass and mostly from a cache.

The cost rule is the one validation rule that reads the request's variables, so it cannot share the
document-only validation cache (`schema.limits.document_cache`). Run through graphql-core's `validate`, it
cost about 0.7 ms per request (`bench.partner_api`), nearly all of it the validation machinery (type
info, parallel visitor, a walk of the whole document) around a cost walk of some 40 µs. Here the
walk runs directly on the operations the rule would visit, in the same order, and its result is
kept per document text, operation name and the values of the only variables a cost can depend on:
those passed as a page size (`first: $n`). A dashboard that asks for one report after another
with the same document therefore costs a dictionary lookup.

The errors are the rule's: `cost_error` for each selected operation over the limit, and
graphql-core's "Too many validation errors" abort after its default of 100 errors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    GraphQLError,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
)
from graphql.validation.validate import ValidationAbortedError

from schema.limits.cost import PAGE_SIZE_ARGUMENT, fragment_definitions, operation_cost, selected

#: graphql-core's `validate` stops after this many errors (its default `max_errors`).
MAX_ERRORS = 100
#: Variable value types a cache key may hold (hashable, and equal only to values of the same cost).
_KEY_TYPES = frozenset({str, int, float, bool, type(None)})
_MISSING = object()
_NO_VARIABLES: Mapping[str, Any] = {}

Costs = tuple[tuple[OperationDefinitionNode, int], ...]
CostError = Callable[[int, int, OperationDefinitionNode], GraphQLError]


def cost_errors(  # noqa: PLR0913, PLR0917
    schema: GraphQLSchema,
    document: DocumentNode,
    query: str,
    variables: Mapping[str, Any] | None,
    operation_name: str | None,
    max_cost: int,
    error: CostError,
    maxsize: int,
) -> list[GraphQLError]:
    """What `validate(schema, document, [cost_limit_rule(max_cost, variables, operation_name)])`
    returns, for the parsed `document` of the text `query`."""
    errors: list[GraphQLError] = []
    for node, cost in _operation_costs(schema, document, query, variables or {}, operation_name, maxsize):
        if cost > max_cost:
            if len(errors) >= MAX_ERRORS:
                errors.append(
                    ValidationAbortedError(
                        "Too many validation errors, error limit reached. Validation aborted."
                    )
                )
                break
            errors.append(error(cost, max_cost, node))
    return errors


def _operation_costs(  # noqa: PLR0913, PLR0917
    schema: GraphQLSchema,
    document: DocumentNode,
    query: str,
    variables: Mapping[str, Any],
    operation_name: str | None,
    maxsize: int,
) -> Costs:
    names = _page_size_variables(maxsize)(query, _Unhashed(document, _NO_VARIABLES))
    key = _variables_key(names, variables)
    if key is None:  # a page size that is not a plain scalar: not worth keeping
        return _costs(schema, document, variables, operation_name)
    costs: Costs = _cached_costs(maxsize)(schema, query, operation_name, key, _Unhashed(document, variables))
    return costs


def _costs(
    schema: GraphQLSchema,
    document: DocumentNode,
    variables: Mapping[str, Any],
    operation_name: str | None,
) -> Costs:
    """The cost of each operation the rule visits, in document order."""
    fragments = fragment_definitions(document)
    return tuple(
        (node, operation_cost(schema, fragments, node, variables))
        for node in document.definitions
        if isinstance(node, OperationDefinitionNode) and selected(node, operation_name)
    )


def _variables_key(names: frozenset[str], variables: Mapping[str, Any]) -> tuple[Any, ...] | None:
    key = []
    for name in sorted(names):
        value = variables.get(name, _MISSING)
        if value is not _MISSING and type(value) not in _KEY_TYPES:
            return None
        key.append((name, type(value), value))
    return tuple(key)


@functools.cache
def _page_size_variables(maxsize: int) -> Any:
    @functools.lru_cache(maxsize=maxsize)
    def names(query: str, carrier: _Unhashed) -> frozenset[str]:
        """Variables passed as a page size anywhere in the document (the only ones a cost reads)."""
        found: set[str] = set()
        for definition in carrier.document.definitions:
            if isinstance(definition, OperationDefinitionNode | FragmentDefinitionNode):
                _collect(definition.selection_set, found)
        return frozenset(found)

    return names


def _collect(selection_set: SelectionSetNode | None, found: set[str]) -> None:
    if selection_set is None:
        return
    for selection in selection_set.selections:
        if isinstance(selection, FieldNode):
            for argument in selection.arguments or ():
                value = argument.value
                if argument.name.value == PAGE_SIZE_ARGUMENT and isinstance(value, VariableNode):
                    found.add(value.name.value)
            _collect(selection.selection_set, found)
        elif isinstance(selection, InlineFragmentNode):
            _collect(selection.selection_set, found)


@functools.cache
def _cached_costs(maxsize: int) -> Any:
    @functools.lru_cache(maxsize=maxsize)
    def costs(
        schema: GraphQLSchema,
        query: str,
        operation_name: str | None,
        key: tuple[Any, ...],
        carrier: _Unhashed,
    ) -> Costs:
        found = _costs(schema, carrier.document, carrier.variables, operation_name)
        carrier.variables = _NO_VARIABLES  # the cache keeps the carrier, not this request's variables
        return found

    return costs


class _Unhashed:
    """Carries the parsed document and the variables into a cached function without making them
    part of its key (the text and the page-size variables already are)."""

    __slots__ = ("document", "variables")

    def __init__(self, document: DocumentNode, variables: Mapping[str, Any]) -> None:
        self.document = document
        self.variables = variables

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unhashed)
