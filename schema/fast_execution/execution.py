"""Execution context for subscriptions: bounded memory per event, and one execution per event for
subscribers of the same operation.

graphql-core 3.3 copies the executor for every subscription event, and the copies share one
memo of collected sub-fields keyed by the identity of per-event lists. Every event adds an entry
that lives as long as the subscription, so a busy report's subscribers accumulate hundreds of
thousands of objects and long full garbage collections (measured: p99 delivery 220 ms instead of
~40 ms with 100 subscribers; see bench/event_latency.py). Each event's executor gets its own memo.

Each per-event executor also knows its operation's sharing scope (document, operation name,
variables, organisation); when the payload is a `SharedPayload`, the event is executed once per
scope and the result handed to every subscriber with that scope (`schema.fast_execution.shared_execution`).

Plain attribute leaves, objects and lists of objects take shortcuts through the executor
(`schema.fast_execution.leaf_fields`, `schema.fast_execution.object_completion`).
"""

from __future__ import annotations

from typing import Any, cast

from graphql import ExecutionResult

from schema.fast_execution.object_completion import FastExecutionContext
from schema.fast_execution.shared_execution import SHARED_RESULTS, operation_scope, sharing_key_of

_UNSET = object()


class PerEventMemoExecutionContext(FastExecutionContext):
    _sharing_scope: object = _UNSET

    def build_per_event_executor(self, payload: Any) -> Any:
        if self._sharing_scope is _UNSET:
            self._sharing_scope = self._scope()
        scope = self._sharing_scope
        if isinstance(scope, str):
            key = sharing_key_of(payload)
            done = SHARED_RESULTS.done(scope, key) if key is not None else None
            if done is not None:
                return _Executed(done)  # another subscriber's execution: no executor copy needed
        executor = cast(PerEventMemoExecutionContext, super().build_per_event_executor(payload))
        executor._relevant_sub_fields = {}
        # the same for the plans kept on them
        executor._leaf_plans = executor._object_plans = executor._unstreamed = None
        return executor

    def _scope(self) -> str | None:
        """The operation's sharing scope, or None when it must not be shared (no organisation, or
        a document without its source text)."""
        organisation = getattr(getattr(self.context_value, "principal", None), "organisation_id", None)
        location = self.operation.loc
        if organisation is None or location is None:
            return None
        name = self.operation.name.value if self.operation.name else None
        variables = getattr(self.variable_values, "coerced", self.variable_values)  # graphql-core 3.3
        return operation_scope(location.source.body, name, variables, organisation)

    def execute_operation(self, serially: bool | None = None) -> Any:
        scope = self._sharing_scope
        key = sharing_key_of(self.root_value) if isinstance(scope, str) else None
        if not isinstance(scope, str) or key is None:
            return super().execute_operation(serially)

        async def execute() -> ExecutionResult:
            result = super(PerEventMemoExecutionContext, self).execute_operation(serially)
            if self.is_awaitable(result):
                result = await result
            return cast(ExecutionResult, result)

        return SHARED_RESULTS.result(scope, key, execute)


class _Executed:
    """Stands in for a per-event executor when the event's shared result is already there."""

    __slots__ = ("result",)

    def __init__(self, result: ExecutionResult) -> None:
        self.result = result

    def execute_operation(self, serially: bool | None = None) -> ExecutionResult:
        return self.result
