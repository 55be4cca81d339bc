"""Leaner resolver wrappers for plain synchronous Strawberry resolvers.

Strawberry wraps every field that has a resolver in a chain built for field extensions and
exception handlers: `_resolver` → `extension_resolver` → a `functools.reduce` of partials →
`wrapped_get_result` → `_get_result` → `StrawberryField.get_result` → `StrawberryResolver.__call__`.
A field with neither extensions nor handlers runs that whole chain just to convert its arguments
and call the function; a page of 200 claims runs it some 600 times (each claim's `id`, `verdict`
and `findings`). For such fields the wrapper here does the same two steps directly: Strawberry's
own argument conversion (`get_arguments`, which also passes `self`, `root` and `info`), then the
resolver. Errors, awaitables and completion stay with graphql-core exactly as before.

Fields with extensions (permissions among them), async resolvers, subscriptions or exception
handlers keep Strawberry's wrapper.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphql import GraphQLObjectType, GraphQLResolveInfo
from strawberry.schema.schema_converter import GraphQLCoreConverter, get_arguments
from strawberry.types.field import StrawberryField

if TYPE_CHECKING:
    from collections.abc import Callable

    from strawberry import Schema


def install_lean_resolvers(schema: Schema) -> int:
    """Give every eligible field of `schema` the lean wrapper; returns how many were changed."""
    converter = schema.schema_converter
    if getattr(converter, "_exception_handler_specs", ()):
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
        and getattr(resolve, "__name__", None) == "_resolver"  # Strawberry's synchronous wrapper
    )


def _lean_resolver(schema: Schema, field: StrawberryField) -> Callable[..., Any]:
    info_class = schema.config.info_class
    config = schema.config
    scalar_registry = schema.schema_converter.scalar_registry
    resolver = field.base_resolver
    assert resolver is not None
    if not field.arguments:
        return _without_arguments(info_class, field)

    def lean_resolver(source: Any, info: GraphQLResolveInfo[Any], **kwargs: Any) -> Any:
        strawberry_info = info_class(_raw_info=info, _field=field)
        args, field_kwargs = get_arguments(
            field=field,
            source=source,
            info=strawberry_info,
            kwargs=kwargs,
            config=config,
            scalar_registry=scalar_registry,
        )
        return resolver(*args, **field_kwargs)

    return lean_resolver


def _without_arguments(info_class: type[Any], field: StrawberryField) -> Callable[..., Any]:
    """The wrapper of a resolver without GraphQL arguments: `self`, `root`, `parent` and `info`
    are passed as `get_arguments` would pass them, worked out once rather than on every call."""
    resolver = field.base_resolver
    assert resolver is not None
    bound = resolver.wrapped_func
    function: Callable[..., Any] = bound if callable(bound) else resolver  # else: Strawberry's error
    pass_self = resolver.self_parameter is not None
    as_source = [p.name for p in (resolver.root_parameter, resolver.parent_parameter) if p is not None]
    info_name = resolver.info_parameter.name if resolver.info_parameter is not None else None

    def lean_resolver(source: Any, info: GraphQLResolveInfo[Any], **_kwargs: Any) -> Any:
        kwargs = dict.fromkeys(as_source, source)
        if info_name is not None:
            kwargs[info_name] = info_class(_raw_info=info, _field=field)
        return function(source, **kwargs) if pass_self else function(**kwargs)

    return lean_resolver
