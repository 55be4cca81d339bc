"""The schema documents itself: GraphiQL can explain every type, field, argument and enum value.

Walks the live schema's SDL (what introspection returns), so a value or type added without a
description fails here rather than reaching a partner's GraphiQL blank.
"""

from __future__ import annotations

import enum

import pytest
import strawberry
from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLSchema,
    build_schema,
)

from schema import schema
from schema.types.claim_enums import VerdictLabel
from schema.types.enum_values import describe_values


@pytest.fixture(scope="module")
def sdl_schema() -> GraphQLSchema:
    return build_schema(schema.as_str())


def _named_types(built: GraphQLSchema) -> dict[str, object]:
    return {name: kind for name, kind in built.type_map.items() if not name.startswith("__")}


def test_every_enum_value_has_a_description(sdl_schema: GraphQLSchema) -> None:
    blank = [
        f"{name}.{value}"
        for name, kind in _named_types(sdl_schema).items()
        if isinstance(kind, GraphQLEnumType)
        for value, definition in kind.values.items()
        if not (definition.description or "").strip()
    ]

    assert blank == []


def test_every_field_and_argument_has_a_description(sdl_schema: GraphQLSchema) -> None:
    blank = []
    for name, kind in _named_types(sdl_schema).items():
        if isinstance(kind, GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType):
            for field_name, field in kind.fields.items():
                if not (field.description or "").strip():
                    blank.append(f"{name}.{field_name}")
                for argument, definition in getattr(field, "args", {}).items():
                    if not (definition.description or "").strip():
                        blank.append(f"{name}.{field_name}({argument})")

    assert blank == []


def test_every_type_has_a_description(sdl_schema: GraphQLSchema) -> None:
    """Root types and result unions included (Query, Mutation, Subscription, …Result)."""
    blank = [
        name
        for name, kind in _named_types(sdl_schema).items()
        if not (getattr(kind, "description", None) or "").strip()
    ]

    assert blank == []


def test_verdict_labels_say_what_each_verdict_requires(sdl_schema: GraphQLSchema) -> None:
    labels = sdl_schema.get_type("VerdictLabel")
    assert isinstance(labels, GraphQLEnumType)
    described = {name: value.description or "" for name, value in labels.values.items()}

    assert set(described) == {label.name for label in VerdictLabel}
    assert "Tier 1–2" in described["VERIFIED"] and "nothing contradicts" in described["VERIFIED"]
    assert "No independent evidence" in described["UNVERIFIED"]
    assert "contradicts itself" in described["CONTRADICTED"]
    assert "below the bar" in described["INSUFFICIENT_EVIDENCE"]


def test_an_enum_value_left_undescribed_fails_at_definition() -> None:
    class Colour(enum.Enum):
        RED = "red"
        BLUE = "blue"

    strawberry.enum(Colour, description="A colour.")

    with pytest.raises(ValueError, match=r"undescribed values \['BLUE'\], unknown names \['GREEN'\]"):
        describe_values(RED="Warm.", GREEN="Not a member.")(Colour)
    with pytest.raises(TypeError, match="not a strawberry enum"):

        @describe_values(RED="Warm.")
        class Plain(enum.Enum):
            RED = "red"
