"""Descriptions for the values of GraphQL enums whose Python values are read as plain strings.

`strawberry.enum_value(value, description=...)` describes a value too, but mypy then types the
member's `.value` as `EnumValueDefinition`. That suits error codes, which code only constructs, not
enums like `VerdictLabel` or `ReportStatus` whose `.value` is compared with stored strings
everywhere; those are described here, after `@strawberry.enum`, and keep their plain values.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TypeVar

from strawberry.types.enum import StrawberryEnumDefinition

EnumT = TypeVar("EnumT", bound=type[enum.Enum])


def describe_values(**descriptions: str) -> Callable[[EnumT], EnumT]:
    """Give every GraphQL value of a `@strawberry.enum` class its description (by member name).

    Apply it above `@strawberry.enum`, or call it on the class `strawberry.enum(...)` returned. A
    member left out, or a name that is no member, fails at import: a new value cannot ship
    undocumented.
    """

    def apply(cls: EnumT) -> EnumT:
        definition = getattr(cls, "__strawberry_definition__", None)
        if not isinstance(definition, StrawberryEnumDefinition):
            raise TypeError(f"{cls.__name__} is not a strawberry enum; apply @strawberry.enum first")
        names = {value.name for value in definition.values}
        if set(descriptions) != names:
            missing, unknown = sorted(names - set(descriptions)), sorted(set(descriptions) - names)
            raise ValueError(f"{definition.name}: undescribed values {missing}, unknown names {unknown}")
        for value in definition.values:
            value.description = descriptions[value.name]
        return cls

    return apply
