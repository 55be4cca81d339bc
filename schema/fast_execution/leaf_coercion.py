"""Result coercion of the commonest leaf values without calling the leaf type.

graphql-core coerces every leaf value through its type: `serialize_string` for a `String`,
`serialize_boolean` for a `Boolean`, and for a Strawberry enum a loop over the enum's values
comparing `.value` until one matches (three `ClaimType`/`Priority`/`VerdictLabel` fields per claim
of a page). Two forms answer the same without that work:

* an exact `str` for a `String` or an `ID` (an exact `bool` for a `Boolean`) coerces to itself,
  which is the first thing those functions check; so does a finite exact `float` for a `Float`, and an exact
  `int` within 32 bits for an `Int` (`numeric`, checked by `schema.fast_execution.leaf_fields`);
* an enum member coerces to the same name every time, so each member's name is asked of the type
  once, when the plan is made, and then looked up by the member's identity (members live as long
  as their class, so no other object can share the identity).

Anything else (a subclass of `str`, an `int` for a `Boolean`, a value that is no member) goes
through the type as before (`schema.fast_execution.leaf_fields`).
"""

from __future__ import annotations

import enum

from graphql import GraphQLEnumType, GraphQLLeafType
from graphql.type.scalars import (
    GRAPHQL_MAX_INT,
    GRAPHQL_MIN_INT,
    serialize_boolean,
    serialize_float,
    serialize_id,
    serialize_int,
    serialize_string,
)

#: Per leaf type: the exact Python type its values coerce to unchanged, enum names by member
#: identity, and the numeric type (`float` or `int`) whose in-range values coerce to themselves
#: (each may be None).
FastForms = tuple[type | None, dict[int, str] | None, type | None]

INT_RANGE = (GRAPHQL_MIN_INT, GRAPHQL_MAX_INT)


def fast_forms(leaf: GraphQLLeafType) -> FastForms:
    """The shortcuts that apply to `leaf`'s values."""
    coerce = getattr(leaf, "coerce_output_value", None)
    if coerce is serialize_string or coerce is serialize_id:
        return str, None, None
    if coerce is serialize_boolean:
        return bool, None, None
    if coerce is serialize_float:
        return None, None, float
    if coerce is serialize_int:
        return None, None, int
    wrapped = getattr(leaf, "wrapped_cls", None)
    if (
        not isinstance(leaf, GraphQLEnumType)
        or not isinstance(wrapped, type)
        or not issubclass(wrapped, enum.Enum)
    ):
        return None, None, None
    names: dict[int, str] = {}
    for member in wrapped:
        try:
            name = leaf.coerce_output_value(member)
        except Exception:  # noqa: BLE001,S112  # such a member takes the normal path (and its error)
            continue
        if isinstance(name, str):
            names[id(member)] = name
    return None, names, None
