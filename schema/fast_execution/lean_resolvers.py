"""Leaner resolver wrappers for plain synchronous Strawberry resolvers.

Strawberry wraps every field that has a resolver in a chain built for field extensions and
exception handlers: `_resolver` → `extension_resolver` → a `functools.reduce` of partials →
`wrapped_get_result` → `_get_result` → `StrawberryField.get_result` → `StrawberryResolver.__call__`.
A field with neither extensions nor handlers runs that whole chain just to convert its arguments
and call the function; a page of 200 claims runs it some 600 times (each claim's `id`, `verdict`
and `findings`). For such fields the wrapper here does the same two steps directly: Strawberry's
own argument conversion (`convert_arguments`), then the resolver, given `self`, `root`, `parent`
and `info` as Strawberry's `get_arguments` gives them. Arguments whose GraphQL values are all
plain scalars convert to the same values every time, so each field keeps the conversions it has
made (when they are immutable too) and the 200 `findings(agent: …)` of a page convert once.
Errors, awaitables and completion stay with graphql-core exactly as before.

Fields with extensions (permissions among them), async resolvers, subscriptions or exception
handlers keep Strawberry's wrapper.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphql import GraphQLObjectType, GraphQLResolveInfo
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.arguments import convert_arguments
from strawberry.types.field import StrawberryField

from schema.fast_execution.compat import EXCEPTION_HANDLER_SPECS, STRAWBERRY_SYNC_RESOLVER
from schema.fast_execution.field_plans import IMMUTABLE_SCALARS, immutable_values

#: Distinct argument values whose conversion a field keeps (a dashboard asks a handful).
MAX_CONVERTED = 64

if TYPE_CHECKING:
    from collections.abc import Callable

    from strawberry import Schema


def install_lean_resolvers(schema: Schema) -> int:
    """Give every eligible field of `schema` the lean wrapper; returns how many were changed."""
    converter = schema.schema_converter
    if getattr(converter, EXCEPTION_HANDLER_SPECS, ()):
        return 0
    changed = 0
    for graphql_type in schema._schema.type_map.values():
        if not isinstance(graphql_type, GraphQLObjectType) or graphql_type.name.startswith("__"):
            continue
        for field_def in graphql_type.fields.values():
            field = (field_def.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
            if isinstance(field, StrawberryField) and _eligible(field, field_def.resolve):
                field_def.resolve = _lean_resolver(schema, field)
                changed += 1
    return changed


def _eligible(field: StrawberryField, resolve: object) -> bool:
    resolver = field.base_resolver
    return (
        resolver is not None
        and not field.extensions
        and not field.is_subscription
        and not resolver.is_async
        and type(field).get_result is StrawberryField.get_result
        and getattr(resolve, "__name__", None) == STRAWBERRY_SYNC_RESOLVER  # Strawberry's synchronous wrapper
    )


def _lean_resolver(schema: Schema, field: StrawberryField) -> Callable[..., Any]:
    info_class = schema.config.info_class
    config = schema.config
    scalar_registry = schema.schema_converter.scalar_registry
    resolver = field.base_resolver
    assert resolver is not None
    if not field.arguments:
        return _without_arguments(info_class, field)
    call = _caller(field)
    #: Converted arguments by their GraphQL values (scalars only): every claim of a page asks
    #: `findings(agent: …)` with the same arguments, converted once instead of 200 times.
    converted: dict[tuple[Any, ...], dict[str, Any]] = {}

    def lean_resolver(source: Any, info: GraphQLResolveInfo[Any], **kwargs: Any) -> Any:
        strawberry_info = info_class(_raw_info=info, _field=field)
        key = _scalar_key(kwargs)
        known = converted.get(key) if key is not None else None
        if known is not None:
            return call(source, strawberry_info, dict(known))
        arguments = convert_arguments(
            kwargs, field.arguments, scalar_registry=scalar_registry, config=config, info=strawberry_info
        )
        if key is not None and len(converted) < MAX_CONVERTED and immutable_values(arguments):
            converted[key] = dict(arguments)
        return call(source, strawberry_info, arguments)

    return lean_resolver


def _scalar_key(kwargs: dict[str, Any]) -> tuple[Any, ...] | None:
    """A cache key for GraphQL argument values that are all plain scalars, else None."""
    key = []
    for name, value in kwargs.items():  # (a claim's `findings(agent: null)`, 200 times a page)
        value_type = type(value)
        if value_type not in IMMUTABLE_SCALARS:
            return None
        key.append((name, value_type, value))
    return tuple(key)


def _caller(field: StrawberryField) -> Callable[[Any, Any, dict[str, Any]], Any]:
    """Calls the resolver with its converted GraphQL arguments plus `self`, `root`, `parent` and
    `info` as `get_arguments` would pass them (worked out once, not on every call)."""
    resolver = field.base_resolver
    assert resolver is not None
    bound = resolver.wrapped_func
    function: Callable[..., Any] = bound if callable(bound) else resolver  # else: Strawberry's error
    pass_self = resolver.self_parameter is not None
    as_source = [p.name for p in (resolver.parent_parameter, resolver.root_parameter) if p is not None]
    info_name = resolver.info_parameter.name if resolver.info_parameter is not None else None

    def call(source: Any, info: Any, kwargs: dict[str, Any]) -> Any:
        for name in as_source:
            kwargs[name] = source
        if info_name is not None:
            kwargs[info_name] = info
        return function(source, **kwargs) if pass_self else function(**kwargs)

    return call


def _without_arguments(info_class: type[Any], field: StrawberryField) -> Callable[..., Any]:
    """The wrapper of a resolver without GraphQL arguments."""
    call = _caller(field)

    def lean_resolver(source: Any, info: GraphQLResolveInfo[Any], **_kwargs: Any) -> Any:
        return call(source, info_class(_raw_info=info, _field=field), {})

    return lean_resolver
