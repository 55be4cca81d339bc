"""Relay `id` fields read directly: a claim's global id without a resolver call.

Every `Node` type's `id` goes through Strawberry's `Node._id` resolver: graphql-core builds a
resolve-info object, the resolver wrapper builds Strawberry's `Info`, `_id` asks the class for the
type name and the id, builds a `GlobalID` and graphql-core serialises it with `str()`, which is
`to_base64(type name, id)`. A page of 200 claims does that 200 times. For a type that keeps
`Node`'s own `resolve_id` and `resolve_typename` (the id attribute and the GraphQL type name),
the same string is `to_base64(type name, str(getattr(obj, id attribute)))`; the reader here
computes just that.

Anything the reader does not recognise (another class than the type's own, a missing or
awaitable id) raises, and `schema.fast_execution.leaf_fields` then takes the resolver path, which answers or
reports the error exactly as before.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from graphql import GraphQLField, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType
from strawberry.relay import Node
from strawberry.relay.utils import to_base64
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.base import StrawberryObjectDefinition


def _node_id_function() -> object:
    definition: StrawberryObjectDefinition = Node.__strawberry_definition__  # type: ignore[attr-defined]
    field = next(f for f in definition.fields if f.python_name == "_id")
    assert field.base_resolver is not None
    wrapped = field.base_resolver.wrapped_func
    return getattr(wrapped, "__func__", wrapped)


_NODE_ID = _node_id_function()
_RESOLVE_ID = Node.resolve_id.__func__  # type: ignore[attr-defined]
_RESOLVE_TYPENAME = Node.resolve_typename.__func__  # type: ignore[attr-defined]


def relay_id_reader(
    parent_type: GraphQLObjectType, field_def: GraphQLField
) -> Callable[[Any, str], str] | None:
    """A reader `(obj, type name) -> global id` for `parent_type`'s Relay `id` field, or None when
    this field is not that or the type customises how its id is resolved."""
    field = (field_def.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    definition = (parent_type.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    if field is None or not isinstance(definition, StrawberryObjectDefinition):
        return None
    resolver = field.base_resolver
    wrapped = resolver.wrapped_func if resolver is not None else None
    origin = definition.origin
    if (
        getattr(wrapped, "__func__", wrapped) is not _NODE_ID
        or field.extensions
        or field_def.args
        or not isinstance(origin, type)
        or not issubclass(origin, Node)
        or getattr(origin.resolve_id, "__func__", None) is not _RESOLVE_ID
        or getattr(origin.resolve_typename, "__func__", None) is not _RESOLVE_TYPENAME
        or not _is_id_type(field_def)
    ):
        return None
    id_attr = origin.resolve_id_attr()

    def read(obj: Any, type_name: str) -> str:
        if type(obj) is not origin:
            raise TypeError("not the type's own class: resolve normally")
        node_id = getattr(obj, id_attr)
        if node_id is None or inspect.isawaitable(node_id):
            raise TypeError("no plain id: resolve normally")
        return to_base64(type_name, str(node_id))

    return read


def _is_id_type(field_def: GraphQLField) -> bool:
    field_type = field_def.type
    inner = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
    return isinstance(inner, GraphQLScalarType) and inner.name == "ID"
