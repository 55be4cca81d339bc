"""Resolving a field of a list's objects with what is the same for all of them worked out once.

For every resolved field of every object (each claim's `verdict`, `findings`, each edge's `node`),
graphql-core's `execute_field` looks the field up in the schema, lists its nodes, checks for
middleware and coerces its arguments from the document and variables, before it builds the
resolve info and calls the resolver. All but the info and the call are the same for the 200
claims of a page. A `FieldPlan` keeps them (per field set and operation, in
`schema.fast_execution.leaf_fields`) and `execute_planned` does the rest exactly as `execute_field`
does: the same resolve info, the same completion, and errors handled by `handle_field_error` at the
same path.

Arguments are kept only when every value is an immutable scalar (resolvers must not share a
mutable value); a field whose arguments fail to coerce has no plan and reports its error the
normal way.

A field whose result is an ordinary instance of its object type's class (`schema.fast_execution.own_classes`)
goes straight to that type's planned sub-fields (`ObjectResult`), and a field that only reads such
an object from an attribute (each edge's `node`) is read without its resolve info.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from graphql import GraphQLError, GraphQLField, GraphQLNonNull, GraphQLObjectType, Undefined
from graphql.execution.values import get_argument_values
from graphql.pyutils import Path, gather_with_cancel
from strawberry.schema.schema_converter import GraphQLCoreConverter

from schema.fast_execution.compat import DEFAULT_RESOLVER_MARK
from schema.fast_execution.own_classes import own_class, plain_instance

#: Argument value types a plan or a cache may keep: nothing a resolver could mutate.
IMMUTABLE_SCALARS = frozenset({str, int, float, bool, type(None)})
#: Types of values that are never awaitable (graphql-core's check need not be asked about them).
PLAIN_RESULTS = frozenset({dict, list, str, int, float, bool, type(None)})


class ObjectResult(NamedTuple):
    """A field returning objects of a type with an `own_class` (`schema.fast_execution.own_classes`);
    `getter` and `name` when the field only reads an attribute (Strawberry's default resolver, no
    arguments)."""

    object_type: GraphQLObjectType
    own_class: type
    getter: Callable[[Any, str], Any] | None
    name: str


class FieldPlan(NamedTuple):
    field_def: GraphQLField
    field_nodes: list[Any]
    arguments: dict[str, Any]
    #: Set when the field returns an object the executor may complete by plan.
    objects: ObjectResult | None = None


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
    objects = object_result(field_def) if hasattr(executor, "object_plan") else None
    return FieldPlan(field_def, [details.node for details in field_details_list], arguments, objects)


def object_result(field_def: GraphQLField) -> ObjectResult | None:
    """What the plan knows of `field_def`'s result, when its type is an object type with an
    `own_class` (nullable or not), else None."""
    field_type = field_def.type
    object_type = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
    if not isinstance(object_type, GraphQLObjectType):
        return None
    own = own_class(object_type)
    if own is None:
        return None
    strawberry_field = attribute_field(field_def)
    if strawberry_field is None:
        return ObjectResult(object_type, own, None, "")
    return ObjectResult(object_type, own, strawberry_field.default_resolver, strawberry_field.python_name)


def attribute_field(field_def: GraphQLField) -> Any | None:
    """The Strawberry field behind `field_def` when reading it is a plain attribute read (no
    arguments, Strawberry's default resolver, a basic field), else None."""
    strawberry_field = (field_def.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    resolve = field_def.resolve
    if (
        strawberry_field is None
        or field_def.args
        or resolve is None
        or not getattr(resolve, DEFAULT_RESOLVER_MARK, False)
        or not strawberry_field.is_basic_field
    ):
        return None
    return strawberry_field


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
    objects = plan.objects if position_context is None else None
    if objects is not None and objects.getter is not None:
        completed = _read_object(executor, objects, return_type, source, field_details_list, path)
        if completed is not Undefined:
            return completed
    info = executor.build_resolve_info(field_def, plan.field_nodes, parent_type, path)
    try:
        result = (field_def.resolve or executor.field_resolver)(source, info, **plan.arguments)
        if objects is not None and type(result) is objects.own_class and plain_instance(result):
            # accepted by `is_type_of` and not awaitable: completed as `_complete_object` would
            object_plan = executor.object_plan(objects.object_type, field_details_list)
            if object_plan is not None:
                return _planned_object(
                    executor, object_plan, objects, result, return_type, field_details_list, path
                )
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


def _planned_object(  # noqa: PLR0913, PLR0917
    executor: Any,
    object_plan: Any,
    objects: ObjectResult,
    value: Any,
    return_type: Any,
    field_details_list: Any,
    path: Path,
) -> Any:
    """An accepted object's fields by `object_plan` (an exception propagates to the caller)."""
    completed = executor.execute_planned_fields(objects.object_type, value, path, object_plan.plans, None)
    if type(completed) is not dict:  # sub-fields still running
        return await_completed(executor, completed, return_type, field_details_list, path)
    return completed


def _read_object(  # noqa: PLR0917
    executor: Any, objects: ObjectResult, return_type: Any, source: Any, field_details_list: Any, path: Path
) -> Any:
    """The completed object of a plain object attribute of its type's own class, as `execute_field`
    completes it (its resolver reads the attribute, `is_type_of` accepts it, it is not awaitable),
    without the resolve info nobody reads; Undefined to take the normal path (which reads the
    attribute again and reports anything unusual)."""
    try:
        value = objects.getter(source, objects.name)  # type: ignore[misc]
    except Exception:  # the normal path raises it again, with the field's location
        return Undefined
    if type(value) is not objects.own_class or not plain_instance(value):
        return Undefined
    object_plan = executor.object_plan(objects.object_type, field_details_list)
    if object_plan is None:
        return Undefined
    try:
        return _planned_object(executor, object_plan, objects, value, return_type, field_details_list, path)
    except Exception as raw_error:
        executor.handle_field_error(raw_error, return_type, field_details_list, path)
        return None


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
