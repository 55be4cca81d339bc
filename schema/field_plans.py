"""Resolving a field of a list's objects with what is the same for all of them worked out once.

For every resolved field of every object (each claim's `verdict`, `findings`, each edge's `node`),
graphql-core's `execute_field` looks the field up in the schema, lists its nodes, checks for
middleware and coerces its arguments from the document and variables, before it builds the
resolve info and calls the resolver. All but the info and the call are the same for the 200
claims of a page. A `FieldPlan` keeps them (per field set and operation, in `schema.leaf_fields`)
and `execute_planned` does the rest exactly as `execute_field` does: the same resolve info, the
same completion, and errors handled by `handle_field_error` at the same path.

Arguments are kept only when every value is an immutable scalar (resolvers must not share a
mutable value); a field whose arguments fail to coerce has no plan and reports its error the
normal way.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, NamedTuple

from graphql import GraphQLError, GraphQLField, GraphQLObjectType
from graphql.execution.values import get_argument_values
from graphql.pyutils import Path, gather_with_cancel

#: Argument value types a plan or a cache may keep: nothing a resolver could mutate.
IMMUTABLE_SCALARS = frozenset({str, int, float, bool, type(None)})
#: Types of values that are never awaitable (graphql-core's check need not be asked about them).
PLAIN_RESULTS = frozenset({dict, list, str, int, float, bool, type(None)})


class FieldPlan(NamedTuple):
    field_def: GraphQLField
    field_nodes: list[Any]
    arguments: dict[str, Any]


def field_plan(executor: Any, parent_type: GraphQLObjectType, field_details_list: Any) -> FieldPlan | None:
    """The plan of a field of `parent_type` (no middleware), or None for graphql-core's own path."""
    first = field_details_list[0]
    field_def = executor.schema.get_field(parent_type, first.node.name.value)
    if field_def is None:
        return None
    if field_def.args or first.node.arguments:
        try:
            arguments = get_argument_values(
                field_def,
                first.node,
                executor.variable_values,
                first.fragment_variable_values,
                executor.hide_suggestions,
            )
        except GraphQLError:
            return None
        if not immutable_values(arguments):
            return None
    else:
        arguments = {}
    return FieldPlan(field_def, [details.node for details in field_details_list], arguments)


def execute_planned(  # noqa: PLR0917
    executor: Any,
    plan: FieldPlan,
    parent_type: GraphQLObjectType,
    source: Any,
    field_details_list: Any,
    path: Path,
    position_context: Any,
) -> Any:
    """`execute_field` with the plan's field, nodes and arguments."""
    field_def = plan.field_def
    return_type = field_def.type
    info = executor.build_resolve_info(field_def, plan.field_nodes, parent_type, path)
    try:
        result = (field_def.resolve or executor.field_resolver)(source, info, **plan.arguments)
        if type(result) not in PLAIN_RESULTS and executor.is_awaitable(result):
            return executor.complete_awaitable_value(
                return_type, field_details_list, info, path, result, position_context
            )
        completed = executor.complete_value(
            return_type, field_details_list, info, path, result, position_context
        )
        if type(completed) not in PLAIN_RESULTS and executor.is_awaitable(completed):
            return await_completed(executor, completed, return_type, field_details_list, path)
    except Exception as raw_error:
        executor.handle_field_error(raw_error, return_type, field_details_list, path)
        return None
    return completed


def immutable_values(arguments: dict[str, Any]) -> bool:
    """Whether every argument value is an immutable scalar or an enum member (safe to reuse)."""
    return all(
        type(value) in IMMUTABLE_SCALARS or isinstance(value, enum.Enum) for value in arguments.values()
    )


async def await_completed(
    executor: Any, completed: Any, return_type: Any, field_details_list: Any, path: Path
) -> Any:
    """A field's (or list item's) awaited completion; an error is reported at `path`, as
    graphql-core does."""
    try:
        return await completed
    except Exception as raw_error:
        executor.handle_field_error(raw_error, return_type, field_details_list, path)
        return None


async def gathered(container: Any, keys: Sequence[Any]) -> Any:
    """`container` (a list or a dict of results) with its values at `keys` awaited concurrently and
    written back, as graphql-core does."""
    if len(keys) == 1:
        container[keys[0]] = await container[keys[0]]
        return container
    awaited = await gather_with_cancel(*(container[key] for key in keys))
    for key, value in zip(keys, awaited, strict=True):
        container[key] = value
    return container
