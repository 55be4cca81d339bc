"""`schema.fast_execution.selections.selected_names` must name the same fields as Strawberry's
`selected_fields` (through nested selections, inline fragments and named fragments)."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField

from schema.fast_execution.selections import selected_names

SEEN: list[tuple[set[str], set[str]]] = []


def strawberry_field_names(selections: list[Any]) -> set[str]:
    names: set[str] = set()
    for selection in selections:
        if isinstance(selection, SelectedField):
            names.add(selection.name)
        if isinstance(selection, (SelectedField, FragmentSpread, InlineFragment)):
            names |= strawberry_field_names(selection.selections)
    return names


@strawberry.type
class Leaf:
    name: str = "leaf"
    size: int = 1


@strawberry.type
class Branch:
    @strawberry.field
    def leaves(self) -> list[Leaf]:
        return [Leaf()]

    @strawberry.field
    def twig(self) -> Branch | None:
        return None


@strawberry.type
class Query:
    @strawberry.field
    def branch(self, info: strawberry.Info) -> Branch:
        SEEN.append((selected_names(info), strawberry_field_names(info.selected_fields)))
        return Branch()


async def test_the_same_field_names_as_strawberry() -> None:
    query = """
    query { branch { leaves { name } ...Twigs ... on Branch { other: leaves { size } } } }
    fragment Twigs on Branch { twig { twig { leaves { name } } } }
    """
    result = await strawberry.Schema(query=Query).execute(query)

    assert result.errors is None
    ours, theirs = SEEN[-1]
    assert ours == theirs == {"branch", "leaves", "name", "twig", "size"}
