"""Which objects a GraphQL object type accepts without asking its `is_type_of`.

Strawberry gives every object type that implements an interface an `is_type_of` check
(`isinstance` of the type's class, unless the object carries a `strawberry.cast`), and graphql-core
also asks of every object whether it is awaitable. For a page of 200 claims that is some 2,000
calls answering what the object's class already says. `own_class` names the class whose
instances pass both checks by their class alone, provided their own dictionary adds no cast and no
`__await__` (`schema.fast_execution.object_completion` and `schema.fast_execution.field_plans`
check that per object).
"""

from __future__ import annotations

from types import CoroutineType, GeneratorType

from graphql import GraphQLObjectType
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.base import StrawberryObjectDefinition
from strawberry.types.cast import TYPE_CAST_ATTRIBUTE

from schema.fast_execution.compat import STRAWBERRY_IS_TYPE_OF

CAST = TYPE_CAST_ATTRIBUTE
AWAIT = "__await__"


#: Per object type (by identity, keeping it alive): its class, if its structure qualifies.
_STRUCTURAL: dict[int, tuple[GraphQLObjectType, type | None]] = {}


def own_class(object_type: GraphQLObjectType) -> type | None:
    """`structural_own_class`, unless a cast has since been put on the class itself."""
    known = _STRUCTURAL.get(id(object_type))
    if known is None or known[0] is not object_type:
        known = (object_type, structural_own_class(object_type))
        _STRUCTURAL[id(object_type)] = known
    origin = known[1]
    return None if origin is None or hasattr(origin, CAST) else origin


def structural_own_class(object_type: GraphQLObjectType) -> type | None:
    """The class whose instances `object_type` accepts without asking its `is_type_of` (None: ask).

    That is the Strawberry class of the type, when the type's `is_type_of` is Strawberry's own (or
    it has none) and the class cannot make an instance awaitable (no `__await__`, `__getattr__` or
    `__class__` of its own, not an exception, an instance dictionary; `own_class` also refuses a
    class-wide cast): an instance is then accepted and not awaitable unless its own dictionary
    says otherwise, which the callers check (`plain_instance`)."""
    is_type_of = object_type.is_type_of
    definition = (object_type.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    if (is_type_of is not None and getattr(is_type_of, "__qualname__", None) != STRAWBERRY_IS_TYPE_OF) or (
        not isinstance(definition, StrawberryObjectDefinition)
    ):
        return None
    origin = definition.origin
    if (
        not isinstance(origin, type)
        or issubclass(origin, CoroutineType | GeneratorType | Exception)
        or any(hasattr(origin, name) for name in (AWAIT, "__getattr__"))
        or any(
            name in vars(cls)
            for cls in origin.__mro__
            if cls is not object
            for name in ("__class__", "__getattribute__")
        )
        or not origin.__dictoffset__
    ):
        return None
    return origin


def plain_instance(value: object) -> bool:
    """Whether an instance of an `own_class` carries neither a cast nor an `__await__` of its own."""
    values = value.__dict__
    return CAST not in values and AWAIT not in values
