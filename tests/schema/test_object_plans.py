"""Objects completed from a plan kept per field group (`schema.fast_execution.object_completion.ObjectPlan`)
must answer what Strawberry and graphql-core answer: casts, subclasses, interfaces, field middleware."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import strawberry
from graphql.pyutils import Path
from strawberry.extensions import SchemaExtension

from schema.fast_execution.field_plans import object_result
from schema.fast_execution.lean_resolvers import install_lean_resolvers
from schema.fast_execution.object_completion import FastExecutionContext
from schema.fast_execution.own_classes import own_class


@strawberry.interface
class Named:
    name: str


@strawberry.type
class Pet(Named):
    legs: int


@strawberry.type
class Rock:
    name: str


@strawberry.type
class Toy:
    name: str

    @classmethod
    def is_type_of(cls, obj: Any, _info: Any) -> bool:
        return getattr(obj, "name", "") != "broken"


@strawberry.type
class Cat(Pet):
    """A subclass of `Pet` answered as a `Pet` (not `Pet`'s own class)."""


@strawberry.type
class Holder:
    """Plain object attributes (read without their resolver when ordinary)."""

    pet: Pet
    maybe: Pet | None = None


def holders() -> list[Holder]:
    return [
        Holder(pet=Pet(name="dog", legs=4), maybe=Cat(name="cat", legs=4)),
        Holder(pet=strawberry.cast(Rock, Pet(name="posing", legs=0))),  # refused: nulls the holder
        Holder(pet=Pet(name=None, legs=1), maybe=Pet(name="ok", legs=2)),  # type: ignore[arg-type]
        Holder(pet=None, maybe=Pet(name="fine", legs=3)),  # type: ignore[arg-type]
        Holder(pet=Pet(name="last", legs=4), maybe=Pet(name="also", legs=4)),
    ]


@strawberry.type
class Query:
    @strawberry.field
    def holders(self) -> list[Holder | None]:
        return holders()

    @strawberry.field
    def holder(self) -> Holder:
        return holders()[0]

    @strawberry.field
    def broken_pet(self) -> Pet | None:  # its non-null `name` is None: the pet is null
        return Pet(name=None, legs=1)  # type: ignore[arg-type]

    @strawberry.field
    def broken_holder(self) -> Holder | None:  # the non-null pet's name is None: the holder is null
        return holders()[2]

    @strawberry.field
    def pets(self) -> list[Pet | None]:
        return [
            Pet(name="dog", legs=4),
            strawberry.cast(Rock, Pet(name="posing", legs=0)),  # cast to another type: refused
            Cat(name="cat", legs=4),
            strawberry.cast(Pet, Pet(name="cast", legs=3)),  # cast to its own type: accepted
            Pet(name=None, legs=2),  # type: ignore[arg-type]  # breaks a non-null field
        ]

    @strawberry.field
    def pet(self) -> Pet:
        return strawberry.cast(Pet, Cat(name="lion", legs=4))

    @strawberry.field
    def named(self) -> list[Named]:
        return [Pet(name="bird", legs=2), Cat(name="kitten", legs=4)]

    @strawberry.field
    def toys(self) -> list[Toy | None]:
        return [Toy(name="ball"), Toy(name="broken")]

    @strawberry.field
    def rocks(self) -> list[Rock]:
        return [Rock(name="granite"), Rock(name="slate")]


class Shouting(SchemaExtension):
    """A field middleware: every string result in upper case."""

    def resolve(self, _next: Callable[..., Any], root: Any, info: Any, *args: Any, **kwargs: Any) -> Any:
        result = _next(root, info, *args, **kwargs)
        return result.upper() if isinstance(result, str) else result


def summary(result: Any) -> tuple[Any, list[tuple[str, Any]]]:
    return result.data, sorted((error.message, error.path) for error in result.errors or [])


async def same(query: str, extensions: list[Any] | None = None) -> tuple[Any, list[tuple[str, Any]]]:
    plain = strawberry.Schema(query=Query, types=[Cat], extensions=extensions or [])
    fast = strawberry.Schema(
        query=Query,
        types=[Cat],
        extensions=extensions or [],
        execution_context_class=FastExecutionContext,
    )
    install_lean_resolvers(fast)
    expected = summary(await plain.execute(query))
    answered = summary(await fast.execute(query))
    assert answered == expected
    return answered


async def test_casts_subclasses_and_broken_items_in_a_list() -> None:
    data, errors = await same("{ pets { name legs } }")

    assert data["pets"][0] == {"name": "dog", "legs": 4}
    assert data["pets"][1] is None  # cast to Rock
    assert data["pets"][2] == {"name": "cat", "legs": 4}
    assert data["pets"][3] == {"name": "cast", "legs": 3}
    assert data["pets"][4] is None
    assert sorted(path for _, path in errors) == [["pets", 1], ["pets", 4, "name"]]


async def test_a_single_cast_object_an_interface_list_and_a_custom_type_check() -> None:
    data, errors = await same(
        "{ pet { name } named { name ... on Pet { legs } } toys { name } rocks { name } }"
    )

    assert data["pet"] == {"name": "lion"}
    assert data["named"] == [{"name": "bird", "legs": 2}, {"name": "kitten"}]  # a Cat is no Pet here
    assert data["toys"] == [{"name": "ball"}, None]  # Toy's own is_type_of refuses the broken one
    assert data["rocks"] == [{"name": "granite"}, {"name": "slate"}]
    assert [path for _, path in errors] == [["toys", 1]]


async def test_object_attributes_read_directly_answer_as_their_resolver() -> None:
    data, errors = await same("{ holders { pet { name legs } maybe { name } } holder { pet { name } } }")

    assert data["holders"][0] == {"pet": {"name": "dog", "legs": 4}, "maybe": {"name": "cat"}}
    assert data["holders"][1:4] == [None, None, None]
    assert data["holders"][4] == {"pet": {"name": "last", "legs": 4}, "maybe": {"name": "also"}}
    assert data["holder"] == {"pet": {"name": "dog"}}
    assert sorted(path for _, path in errors) == [
        ["holders", 1, "pet"],
        ["holders", 2, "pet", "name"],
        ["holders", 3, "pet"],
    ]


async def test_objects_a_resolver_returns_fail_at_the_same_paths() -> None:
    data, errors = await same("{ brokenPet { legs name } brokenHolder { maybe { name } pet { name } } }")

    assert data == {"brokenPet": None, "brokenHolder": None}
    assert sorted(path for _, path in errors) == [["brokenHolder", "pet", "name"], ["brokenPet", "name"]]


async def test_field_middleware_still_wraps_fields_of_listed_objects() -> None:
    data, _ = await same("{ rocks { name } pets { name } holder { pet { name } } }", [Shouting])

    assert data["rocks"] == [{"name": "GRANITE"}, {"name": "SLATE"}]
    assert data["holder"] == {"pet": {"name": "DOG"}}
    assert data["pets"][0] == {"name": "DOG"}


def test_only_strawberrys_own_type_check_is_skipped() -> None:
    schema = strawberry.Schema(query=Query, types=[Cat])
    types = schema._schema.type_map

    assert own_class(types["Pet"]) is Pet  # type: ignore[arg-type]
    assert own_class(types["Rock"]) is Rock  # type: ignore[arg-type]  # no is_type_of at all
    assert own_class(types["Toy"]) is None  # type: ignore[arg-type]  # a type check of its own
    holder = types["Holder"].fields  # type: ignore[union-attr]
    assert object_result(holder["pet"]).getter is not None  # type: ignore[union-attr]
    assert object_result(holder["maybe"]).getter is not None  # type: ignore[union-attr]
    by_resolver = object_result(types["Query"].fields["holder"])  # type: ignore[union-attr]
    assert by_resolver is not None and by_resolver.getter is None  # a resolver: asked, not read
    assert object_result(types["Query"].fields["toys"]) is None  # type: ignore[union-attr]  # a list


def test_claim_edges_read_their_node_directly() -> None:
    from schema import schema as sibyl

    node = object_result(sibyl._schema.type_map["ClaimEdge"].fields["node"])  # type: ignore[union-attr]
    verdict = object_result(sibyl._schema.type_map["Claim"].fields["verdict"])  # type: ignore[union-attr]

    assert node is not None and node.getter is not None
    assert verdict is not None and verdict.getter is None


class _Streams:
    """Stands in for an executor: `get_stream_usage` answers from a table and counts its calls."""

    _unstreamed = None

    def __init__(self, usages: dict[str, Any]) -> None:
        self.usages = usages
        self.asked = 0

    def get_stream_usage(self, field_details_list: Any, path: Any) -> Any:
        self.asked += 1
        return None if isinstance(path.key, int) else self.usages.get(field_details_list[0])


def test_only_field_groups_without_stream_are_remembered() -> None:
    executor = _Streams({"streamed": "usage"})
    plain, streamed = ["plain"], ["streamed"]
    usage = FastExecutionContext._stream_usage

    assert usage(executor, plain, Path(None, 0, None)) is None  # an inner list: not remembered
    assert usage(executor, plain, Path(None, "tags", None)) is None
    assert usage(executor, plain, Path(None, "tags", None)) is None
    assert executor.asked == 2
    assert usage(executor, streamed, Path(None, "tags", None)) == "usage"
    assert usage(executor, streamed, Path(None, "tags", None)) == "usage"
    assert executor.asked == 4
