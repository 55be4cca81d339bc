"""Subscription events are executed once per distinct operation and organisation: subscribers with
the same document, variables and organisation share one execution; other organisations (or other
variables) never receive a result computed for someone else."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any

import strawberry

from app.organisations import Principal
from schema.fast_execution.execution import PerEventMemoExecutionContext
from schema.fast_execution.shared_execution import SHARED_RESULTS, serialised_data

SUBSCRIPTION = "subscription Ticks($label: String!) { ticks(label: $label) { n seenBy label } }"


@dataclass
class FakeContext:
    principal: Principal | None
    executions: list[str] = field(default_factory=list)


@strawberry.type
class Tick:
    n: int
    label: str

    def sharing_key(self) -> tuple[str, int]:
        return ("Tick", self.n)

    @strawberry.field
    def seen_by(self, info: strawberry.Info[FakeContext, None]) -> str:
        """Which organisation this execution was for (and count the execution)."""
        principal = info.context.principal
        who = str(principal.organisation_id) if principal else "nobody"
        info.context.executions.append(who)
        return who


@strawberry.type
class Query:
    ok: bool = True


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def ticks(self, label: str) -> AsyncGenerator[Tick, None]:
        for n in range(5):
            yield Tick(n=n, label=label)


schema = strawberry.Schema(
    Query, subscription=Subscription, execution_context_class=PerEventMemoExecutionContext
)


async def run(context: FakeContext, label: str) -> list[dict[str, Any]]:
    stream = await schema.subscribe(SUBSCRIPTION, variable_values={"label": label}, context_value=context)
    results = []
    async for result in stream:  # type: ignore[union-attr]
        assert not result.errors, result.errors
        results.append(result.data)
    return results


async def test_same_organisation_and_variables_share_one_execution_per_event() -> None:
    principal = Principal(organisation_id=uuid.uuid4())
    contexts = [FakeContext(principal) for _ in range(10)]
    label = f"shared-{id(contexts)}"
    executed_before = SHARED_RESULTS.executions

    results = await asyncio.gather(*(run(context, label) for context in contexts))

    assert all(result == results[0] for result in results)
    assert [r["ticks"]["n"] for r in results[0]] == [0, 1, 2, 3, 4]
    assert sum(len(context.executions) for context in contexts) == 5  # once per event, not 50
    assert SHARED_RESULTS.executions - executed_before == 5
    assert all(result[n] is results[0][n] for result in results for n in range(5))  # one object
    expected = {"ticks": {"n": 0, "seenBy": str(principal.organisation_id), "label": label}}
    assert serialised_data(results[0][0]) == json.dumps(expected)  # serialised once, for all


async def test_other_organisations_and_variables_never_share() -> None:
    first, second = Principal(organisation_id=uuid.uuid4()), Principal(organisation_id=uuid.uuid4())
    label = f"scoped-{uuid.uuid4()}"
    ours, theirs, other_label = FakeContext(first), FakeContext(second), FakeContext(first)

    got_ours, got_theirs, got_other = await asyncio.gather(
        run(ours, label), run(theirs, label), run(other_label, label + "-x")
    )

    assert {r["ticks"]["seenBy"] for r in got_ours} == {str(first.organisation_id)}
    assert {r["ticks"]["seenBy"] for r in got_theirs} == {str(second.organisation_id)}
    assert {r["ticks"]["label"] for r in got_other} == {label + "-x"}
    assert len(ours.executions) == len(theirs.executions) == len(other_label.executions) == 5


async def test_without_an_organisation_nothing_is_shared() -> None:
    contexts = [FakeContext(None) for _ in range(3)]

    await asyncio.gather(*(run(context, "anonymous") for context in contexts))

    assert [len(context.executions) for context in contexts] == [5, 5, 5]
