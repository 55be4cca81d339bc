"""Objects, lists of objects, Relay ids and cached argument conversion on the fast executor
(`schema.fast_execution.object_completion`, `schema.fast_execution.relay_ids`,
`schema.fast_execution.lean_resolvers`) must answer exactly what Strawberry and graphql-core answer: the
same data, and the same errors at the same paths."""

from __future__ import annotations

import asyncio
import enum
from typing import Any

import strawberry
from strawberry import relay

from schema.fast_execution.lean_resolvers import install_lean_resolvers
from schema.fast_execution.object_completion import FastExecutionContext
from schema.fast_execution.relay_ids import relay_id_reader


@strawberry.enum
class Mood(enum.Enum):
    CALM = "calm"
    STORMY = "stormy"


@strawberry.type
class Leaf:
    name: str
    weight: int | None


@strawberry.type
class Numbers:
    count: int | None
    share: float | None
    label: str | None
    flag: bool | None


ODD_NUMBERS = [
    Numbers(count=7, share=0.5, label="plain", flag=True),
    Numbers(count=2**31, share=float("inf"), label=None, flag=None),  # out of range, not finite
    Numbers(count=True, share=1, label=3, flag=0),  # type: ignore[arg-type]  # other types coerce
    Numbers(count=-(2**31), share=float("nan"), label="", flag=False),
    Numbers(count=1.5, share="2.5", label=True, flag="yes"),  # type: ignore[arg-type]
]


@strawberry.type
class Fruit(relay.Node):
    id: relay.NodeID[str]
    name: str

    @strawberry.field
    def leaves(self, heavier_than: int | None = None, mood: Mood | None = None) -> list[Leaf]:
        found = [Leaf(name=f"{self.name}{n}", weight=n) for n in range(3)]
        if mood is Mood.STORMY:
            found = found[:1]
        return [leaf for leaf in found if heavier_than is None or (leaf.weight or 0) > heavier_than]

    @strawberry.field
    def broken_leaves(self) -> list[Leaf] | None:  # the second leaf breaks a non-null field
        return [Leaf(name="fine", weight=1), Leaf(name=None, weight=2)]  # type: ignore[arg-type]

    @strawberry.field
    def maybe_leaves(self) -> list[Leaf | None]:
        return [Leaf(name="a", weight=None), None, Leaf(name=None, weight=3)]  # type: ignore[arg-type]

    @strawberry.field
    def wrong_leaves(self) -> list[Leaf | None]:  # not a Leaf at all, where one is expected
        return [Leaf(name="a", weight=1), "a string"]  # type: ignore[list-item]

    @strawberry.field
    def later_leaves(self) -> list[Leaf | None]:
        async def leaf(name: str | None) -> Leaf:
            await asyncio.sleep(0)
            return Leaf(name=name, weight=0)  # type: ignore[arg-type]

        return [leaf("x"), leaf(None), Leaf(name="y", weight=1)]  # type: ignore[list-item]

    @strawberry.field
    async def slow_leaf(self) -> Leaf:
        await asyncio.sleep(0)
        return Leaf(name=f"slow {self.name}", weight=None)


@strawberry.type
class Lemon(Fruit):
    """A subclass whose instances are resolved the normal way (not the type's own class)."""


@strawberry.type
class Odd(relay.Node):
    """A type with its own id resolution: left to its resolver."""

    code: relay.NodeID[str]

    @classmethod
    def resolve_id(cls, root: Odd, *, info: strawberry.Info) -> str:
        return f"odd-{root.code}"


@strawberry.type
class Query:
    @strawberry.field
    def fruits(self) -> list[Fruit]:
        return [Fruit(id="1", name="apple"), Lemon(id="2", name="lemon"), Fruit(id="3", name="pear")]

    @strawberry.field
    def nameless(self) -> list[Fruit | None]:
        return [Fruit(id=None, name="ghost")]  # type: ignore[arg-type]  # an id of None breaks the contract

    @strawberry.field
    def wrong_fruits(self) -> list[Fruit | None]:  # Fruit has `is_type_of` (it is a Node)
        return [Fruit(id="1", name="apple"), "a string", Odd(code="1")]  # type: ignore[list-item]

    @strawberry.field
    def numbers(self) -> list[Numbers]:
        return ODD_NUMBERS

    @strawberry.field
    def odd(self) -> Odd:
        return Odd(code="7")

    @strawberry.field
    def count(self, upto: int) -> list[int]:
        return list(range(upto))


def schemas() -> tuple[strawberry.Schema, strawberry.Schema]:
    plain = strawberry.Schema(query=Query, types=[Lemon])
    fast = strawberry.Schema(query=Query, types=[Lemon], execution_context_class=FastExecutionContext)
    assert install_lean_resolvers(fast) > 0
    return plain, fast


def summary(result: Any) -> tuple[Any, list[tuple[str, Any]]]:
    return result.data, sorted((error.message, error.path) for error in result.errors or [])


async def same(query: str, variables: dict[str, Any] | None = None) -> tuple[Any, list[tuple[str, Any]]]:
    plain, fast = schemas()
    expected = summary(await plain.execute(query, variable_values=variables))
    answered = summary(await fast.execute(query, variable_values=variables))
    assert answered == expected
    return answered


async def test_relay_ids_read_directly_equal_the_resolvers() -> None:
    data, errors = await same("{ fruits { id name } odd { id } }")

    assert errors == []
    ids = [fruit["id"] for fruit in data["fruits"]]
    assert ids[0] == str(relay.GlobalID("Fruit", "1"))
    assert ids[1] == str(relay.GlobalID("Fruit", "2"))  # a subclass instance: resolved normally
    assert data["odd"]["id"] == str(relay.GlobalID("Odd", "odd-7"))


async def test_scalars_coerce_and_fail_exactly_as_graphql_core() -> None:
    data, errors = await same("{ numbers { count share label flag } }")

    assert data["numbers"][0] == {"count": 7, "share": 0.5, "label": "plain", "flag": True}
    assert data["numbers"][2] == {"count": 1, "share": 1.0, "label": "3", "flag": False}
    assert data["numbers"][3]["count"] == -(2**31)
    failed = {tuple(path) for _, path in errors}
    assert {("numbers", 1, "count"), ("numbers", 1, "share"), ("numbers", 3, "share")} <= failed
    assert {("numbers", 4, "count"), ("numbers", 4, "flag")} <= failed


async def test_a_missing_id_is_the_same_error() -> None:
    data, errors = await same("{ nameless { id name } }")

    assert data == {"nameless": [None]}
    assert [path for _, path in errors] == [["nameless", 0, "id"]]


async def test_lists_of_objects_with_nulls_errors_and_wrong_types() -> None:
    data, errors = await same(
        "{ fruits { maybeLeaves { name weight } wrongLeaves { name } brokenLeaves { name } } "
        "wrongFruits { name } }"
    )

    first = data["fruits"][0]
    assert first["maybeLeaves"] == [{"name": "a", "weight": None}, None, None]
    assert first["wrongLeaves"] == [{"name": "a"}, None]
    assert first["brokenLeaves"] is None  # a null item in a non-null list nulls the list
    paths = {tuple(path) for _, path in errors}
    assert ("fruits", 0, "maybeLeaves", 2, "name") in paths
    assert ("fruits", 0, "wrongLeaves", 1, "name") in paths
    assert data["wrongFruits"] == [{"name": "apple"}, None, None]
    assert ("wrongFruits", 1) in paths  # not a Fruit
    assert ("wrongFruits", 2, "name") in paths  # a Node passes Strawberry's check, then lacks `name`
    assert ("fruits", 0, "brokenLeaves", 1, "name") in paths


async def test_awaitable_items_and_async_fields_inside_objects() -> None:
    data, errors = await same("{ fruits { laterLeaves { name } slowLeaf { name weight } } }")

    first = data["fruits"][0]
    assert first["laterLeaves"] == [{"name": "x"}, None, {"name": "y"}]
    assert first["slowLeaf"] == {"name": "slow apple", "weight": None}
    assert ("fruits", 0, "laterLeaves", 1, "name") in {tuple(path) for _, path in errors}


async def test_cached_argument_conversion_answers_each_value_correctly() -> None:
    query = """
    query Leaves($over: Int, $mood: Mood) {
      fruits {
        all: leaves { name }
        heavy: leaves(heavierThan: 0) { name }
        vary: leaves(heavierThan: $over, mood: $mood) { name }
      }
      again: fruits { heavy: leaves(heavierThan: 1) { weight } }
    }
    """
    for variables in ({"over": 0, "mood": "STORMY"}, {"over": 1, "mood": None}, {}):
        data, errors = await same(query, variables)
        assert errors == []
    assert data["fruits"][0]["heavy"] == [{"name": "apple1"}, {"name": "apple2"}]
    assert data["again"][0]["heavy"] == [{"weight": 2}]


async def test_argument_errors_are_reported_every_time() -> None:
    data, errors = await same("query Count($n: Int!) { count(upto: $n) }", {"n": "many"})

    assert data is None
    assert len(errors) == 1


def test_only_default_relay_ids_are_read_directly() -> None:
    _, fast = schemas()
    types = fast._schema.type_map

    def reader(name: str) -> object:
        graphql_type = types[name]
        return relay_id_reader(graphql_type, graphql_type.fields["id"])  # type: ignore[union-attr]

    assert reader("Fruit") is not None
    assert reader("Lemon") is not None
    assert reader("Odd") is None  # its own resolve_id
