"""The executor shortcuts (`schema.fast_execution.leaf_fields`) and lean resolvers
(`schema.fast_execution.lean_resolvers`) must answer exactly what Strawberry and graphql-core answer
without them: the same data, the same errors at the same paths, and field middleware still applied."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Annotated, Any

import strawberry
from strawberry.extensions import SchemaExtension
from strawberry.permission import BasePermission

from schema.fast_execution.lean_resolvers import install_lean_resolvers
from schema.fast_execution.object_completion import FastExecutionContext


@strawberry.enum
class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@strawberry.input
class Range:
    low: int
    high: int


class Never(BasePermission):
    message = "Not allowed."

    def has_permission(self, source: Any, info: strawberry.Info, **kwargs: Any) -> bool:
        return False


def where(root: Item, info: strawberry.Info) -> str:
    return f"{root.name} at {info.path.key}"


@strawberry.type
class Item:
    name: str
    colour: Colour
    size: int | None
    label: str  # some items break the contract: None for a non-null field
    tags: list[str]
    raw: strawberry.Private[object] = None
    place: str = strawberry.field(resolver=where)  # `root` and `info`, no `self`

    @strawberry.field
    def shade(self) -> Colour:  # a resolver returning an unknown value breaks the enum contract
        return self.raw  # type: ignore[return-value]

    @strawberry.field
    def sizes(self, within: Range, scale: Annotated[int, strawberry.argument()] = 1) -> list[int]:
        return [n * scale for n in range(within.low, within.high)]

    @strawberry.field(permission_classes=[Never])
    def secret(self) -> str | None:
        return "hidden"

    @strawberry.field
    async def later(self, info: strawberry.Info) -> str:
        return f"{self.name} at {info.path.key}"


def items() -> list[Item]:
    return [
        Item(name="a", colour=Colour.RED, size=1, label="ok", tags=["x"], raw=Colour.BLUE),
        Item(name="b", colour=Colour.BLUE, size=None, label=None, tags=[], raw="purple"),  # type: ignore[arg-type]
    ]


@strawberry.type
class Query:
    @strawberry.field
    def items(self) -> list[Item] | None:
        return items()

    @strawberry.field
    def first(self) -> Item:
        return items()[0]


QUERY = """
query {
  first { name colour size tags shade sizes(within: {low: 1, high: 4}, scale: 2) later }
  items { name colour size label tags shade }
  shades: items { shade }
  secretive: first { secret }
}
"""


class Shouting(SchemaExtension):
    """A field middleware: every string result in upper case."""

    def resolve(self, _next: Callable[..., Any], root: Any, info: Any, *args: Any, **kwargs: Any) -> Any:
        result = _next(root, info, *args, **kwargs)
        return result.upper() if isinstance(result, str) else result


def schemas(extensions: list[Any] | None = None) -> tuple[strawberry.Schema, strawberry.Schema]:
    plain = strawberry.Schema(query=Query, extensions=extensions or [])
    fast = strawberry.Schema(
        query=Query, extensions=extensions or [], execution_context_class=FastExecutionContext
    )
    assert install_lean_resolvers(fast) > 0
    return plain, fast


def summary(result: Any) -> tuple[Any, list[tuple[str, list[Any]]]]:
    errors = sorted((error.message, error.path) for error in result.errors or [])
    return result.data, errors


async def test_same_data_and_errors_as_strawberry() -> None:
    plain, fast = schemas()

    expected = await plain.execute(QUERY)
    answered = await fast.execute(QUERY)

    assert summary(answered) == summary(expected)
    data, errors = summary(answered)
    assert data["first"]["sizes"] == [2, 4, 6]
    assert data["first"]["later"] == "a at later"
    assert data["items"] is None  # item b's null label nulls the non-null list
    messages = {message.split(".")[0] for message, _ in errors}
    assert "Cannot return null for non-nullable field Item" in messages
    assert "Not allowed" in messages  # the permission class still runs
    assert data["shades"] is None  # "purple" is no Colour
    assert any(path == ["shades", 1, "shade"] for _, path in errors)


async def test_valid_items_answer_the_same() -> None:
    plain, fast = schemas()
    query = "{ first { name colour size tags shade place } items { place } }"

    answered = await fast.execute(query)

    assert answered.errors is None
    assert answered.data == (await plain.execute(query)).data
    assert answered.data == {
        "first": {
            "name": "a",
            "colour": "RED",
            "size": 1,
            "tags": ["x"],
            "shade": "BLUE",
            "place": "a at place",
        },
        "items": [{"place": "a at place"}, {"place": "b at place"}],
    }


async def test_field_middleware_still_wraps_leaves() -> None:
    plain, fast = schemas([Shouting])
    query = "{ first { name tags } }"

    answered = await fast.execute(query)

    assert answered.data == (await plain.execute(query)).data == {"first": {"name": "A", "tags": ["x"]}}


def test_extensions_and_async_resolvers_keep_strawberrys_wrapper() -> None:
    _, fast = schemas()
    fields = fast._schema.get_type("Item").fields  # type: ignore[union-attr]

    assert fields["shade"].resolve.__name__ == "lean_resolver"
    assert fields["sizes"].resolve.__name__ == "lean_resolver"
    assert fields["place"].resolve.__name__ == "lean_resolver"
    assert fields["secret"].resolve.__name__ != "lean_resolver"
    assert fields["later"].resolve.__name__ != "lean_resolver"
