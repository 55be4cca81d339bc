"""Reading many columns off a loaded ORM row without SQLAlchemy's per-attribute descriptor.

Building the GraphQL objects of a page of 200 claims with verdicts and findings reads some 10,000
column attributes. Each `row.text` goes through SQLAlchemy's instrumented attribute descriptor
(a Python `__get__` call); after a plain `select(Model)` the value already sits in the row's
instance `__dict__`, where a dictionary lookup finds it for a fraction of the cost
(`bench.partner_api`: about 2 ms of CPU per request).

A row whose `__dict__` lacks any wanted column (expired after a commit, deferred, never loaded)
is read through the descriptors as before, so SQLAlchemy still loads or refreshes what it must.

Stored enum values become members through the enum's value map (`enum_member`), which is what
`Enum(value)` looks up first, without its Python-level call for each of a page's 1,000 values.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

E = TypeVar("E", bound=enum.Enum)


def column_values(row: object, columns: frozenset[str]) -> Mapping[str, Any]:
    """`row`'s values of `columns` by name: its instance dictionary when every one is loaded,
    else the values read through the ORM's attributes."""
    values: dict[str, Any] = row.__dict__
    if values.keys() >= columns:
        return values
    return {name: getattr(row, name) for name in columns}


def enum_member(cls: type[E], value: Any) -> E:
    """`cls(value)`: the member with this value (an unknown value raises as `cls(value)` does)."""
    try:
        member = cls._value2member_map_.get(value)
    except TypeError:  # unhashable: let the enum decide
        member = None
    return member if member is not None else cls(value)  # type: ignore[return-value]


def member_or(cls: type[E], value: Any, otherwise: Callable[[Any], E]) -> E:
    """The member of `cls` with this value, else `otherwise(value)` (a lenient reading, such as
    `schema.types.claim_enums.evidence_kind`, asked only for values that are no member)."""
    try:
        member = cls._value2member_map_.get(value)
    except TypeError:  # unhashable: let `otherwise` decide
        member = None
    return member if member is not None else otherwise(value)  # type: ignore[return-value]
