"""Subscription events executed once per distinct operation and serialised once.

Strawberry runs each subscription on its own connection: its resolver yields a payload per event
and graphql-core executes the operation's selection set against it, per subscriber. Hundreds of
dashboards watching one report therefore ran the same execution hundreds of times per event.

Sharing is done per event, inside graphql-core's per-event executor
(`schema.fast_execution.execution`), rather than by sharing one stream between connections: each
subscriber keeps its own source stream and cursor (its own `afterSequence`, replay and pace, served
cheaply by `app.events.hub`), so joining late, resuming, or being slow never affects anyone else,
while the expensive part is shared:

* a payload that can be shared says so with `sharing_key()` (a `StreamEvent` is keyed by report and
  sequence number);
* the operation's scope is the SHA-256 of its document, its operation name, its variables
  (canonical JSON) and the caller's organisation. Only subscribers with the same scope share, so an
  organisation never receives a result computed for another;
* the first subscriber to reach an event executes it; the others await the same future and get the
  same `ExecutionResult`; the `data` of a shared result is serialised to JSON once
  (`serialised_data`, used by the graphql-transport-ws handler in
  `schema.fast_execution.shared_frames`).

Both caches are bounded LRUs, so memory stays flat however long subscriptions run; a subscriber
that replays old events after the entries were evicted simply executes them itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

from graphql import ExecutionResult

#: Shared per-event results kept (distinct operations x recent events).
MAX_SHARED_RESULTS = 4096
#: Serialised `data` payloads kept.
MAX_SERIALISED = 1024


@runtime_checkable
class SharedPayload(Protocol):
    """A subscription payload whose execution may be shared by subscribers with the same scope."""

    def sharing_key(self) -> Hashable: ...


_shareable_types: dict[type, bool] = {}


def sharing_key_of(payload: object) -> Hashable | None:
    """The payload's sharing key, or None when it is not a `SharedPayload`.

    Checked per type, once: `isinstance` against a runtime-checkable protocol walks the protocol's
    attributes on every call, which cost more than the rest of a delivery together.
    """
    kind = type(payload)
    shareable = _shareable_types.get(kind)
    if shareable is None:
        shareable = _shareable_types[kind] = callable(getattr(kind, "sharing_key", None))
    return cast(SharedPayload, payload).sharing_key() if shareable else None


def operation_scope(
    document_text: str, operation_name: str | None, variables: Any, organisation: object
) -> str:
    """The sharing scope of a subscription: document, operation, variables and organisation."""
    canonical = json.dumps(
        [document_text, operation_name, variables, str(organisation)], sort_keys=True, default=str
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class SharedResults:
    """In-flight and recent per-event results by (scope, payload key), process-wide."""

    def __init__(self, max_entries: int = MAX_SHARED_RESULTS) -> None:
        self._entries: OrderedDict[tuple[str, Hashable], asyncio.Future[ExecutionResult]] = OrderedDict()
        self._max = max_entries
        self.executions = 0  # events actually executed (tests and benches watch it)
        self.shared = 0  # events served from another subscriber's execution

    def done(self, scope: str, key: Hashable) -> ExecutionResult | None:
        """The finished result for (scope, key), if another subscriber already executed it."""
        entry = self._entries.get((scope, key))
        if entry is None or not entry.done() or entry.cancelled() or entry.exception() is not None:
            return None
        if entry.get_loop() is not asyncio.get_running_loop():
            return None
        self.shared += 1
        return entry.result()

    async def result(
        self, scope: str, key: Hashable, execute: Callable[[], Awaitable[ExecutionResult]]
    ) -> ExecutionResult:
        """The result for (scope, key): executed here if nobody has, else the shared one."""
        loop = asyncio.get_running_loop()
        entry = self._entries.get((scope, key))
        if entry is not None and entry.get_loop() is loop:
            self._entries.move_to_end((scope, key))
            shared = await _outcome_of(entry)
            if shared is not None:
                self.shared += 1
                return shared
        return await self._execute(loop, scope, key, execute)

    async def _execute(
        self,
        loop: asyncio.AbstractEventLoop,
        scope: str,
        key: Hashable,
        execute: Callable[[], Awaitable[ExecutionResult]],
    ) -> ExecutionResult:
        future: asyncio.Future[ExecutionResult] = loop.create_future()
        self._entries[(scope, key)] = future
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)
        self.executions += 1
        try:
            result = await execute()
        except asyncio.CancelledError:
            self._entries.pop((scope, key), None)
            future.cancel()  # the waiters execute the event themselves
            raise
        except Exception as exc:
            self._entries.pop((scope, key), None)
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters re-raise it, nobody else must log it
            raise
        if result.data is not None and not result.errors:
            remember_shared_data(result.data, scope, key)
        future.set_result(result)
        return result


async def _outcome_of(entry: asyncio.Future[ExecutionResult]) -> ExecutionResult | None:
    """The shared result, or None when its executor was cancelled (then execute it yourself)."""
    try:
        return await asyncio.shield(entry)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if entry.cancelled() and (task is None or not task.cancelling()):
            return None
        raise


SHARED_RESULTS = SharedResults()


@dataclass
class _Serialised:
    data: object
    scope: str
    key: Hashable
    text: str | None = None


_serialised: OrderedDict[int, _Serialised] = OrderedDict()


def remember_shared_data(data: object, scope: str, key: Hashable) -> None:
    """Mark a shared result's `data` so its JSON is produced once (`serialised_data`)."""
    _serialised[id(data)] = _Serialised(data, scope, key)
    while len(_serialised) > MAX_SERIALISED:
        _serialised.popitem(last=False)


def _entry(data: object) -> _Serialised | None:
    entry = _serialised.get(id(data))
    return entry if entry is not None and entry.data is data else None


def serialised_data(data: object) -> str | None:
    """The JSON of a shared result's `data` (computed on first use), or None if it is not shared."""
    entry = _entry(data)
    if entry is None:
        return None
    if entry.text is None:
        entry.text = json.dumps(data)
    return entry.text


def shared_origin(data: object) -> tuple[str, Hashable] | None:
    """The (scope, payload key) a shared result's `data` was executed for."""
    entry = _entry(data)
    return (entry.scope, entry.key) if entry is not None else None
