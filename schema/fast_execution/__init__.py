"""Shortcuts through graphql-core's executor, Strawberry's resolvers and uvicorn's WebSocket
protocol, quarantined behind one switch (FAST_EXECUTION) and one start-up check (`compat`).

They answer exactly what Strawberry and graphql-core answer, with less CPU: a page of 200 claims
with verdicts and findings is about 4,000 fields, and a busy report has hundreds of subscribers.

* `leaf_fields`, `field_plans`, `object_completion`, `own_classes`, `leaf_coercion`, `relay_ids`:
  plain leaves, objects and lists of objects completed with what is the same for every object of
  a list worked out once (`FastExecutionContext`);
* `lean_resolvers`: plain synchronous resolvers without Strawberry's wrapper chain;
* `selections`: the field names below a resolver, without Strawberry's `selected_fields`;
* `execution`, `shared_execution`: each subscription event executed once per distinct operation and
  organisation, with its own sub-field memo (`PerEventMemoExecutionContext`);
* `shared_frames`, `fanout`: a shared result serialised once, and written as the same frame to
  every subscriber parked behind its group's leader.

Nothing outside this package imports those modules: the schema, the types and the transport ask
the functions below, which give the stock behaviour (Strawberry's own execution context, resolvers,
`selected_fields` and graphql-transport-ws handler) when `enabled()` is False. That is decided once
per process: FAST_EXECUTION off, or an internal that `compat` finds changed (logged as one WARNING
naming it). Tests of the shortcuts themselves import the modules directly.

`fanout` and `shared_execution` import only the standard library and graphql-core's public
`ExecutionResult`, so their names are re-exported here; the executor modules are imported only
once `compat` has passed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, TypeVar

from app.config import get_settings
from schema.fast_execution import compat
from schema.fast_execution.fanout import Member, drop_if_empty, group_for, member_for_current_operation
from schema.fast_execution.shared_execution import operation_scope

if TYPE_CHECKING:
    import strawberry
    from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
        BaseGraphQLTransportWSHandler,
    )

__all__ = [
    "Member",
    "decide",
    "drop_if_empty",
    "enabled",
    "execution_context_class",
    "group_for",
    "install",
    "member_for_current_operation",
    "operation_scope",
    "selected_names",
    "transport_ws_handler",
]

logger = logging.getLogger(__name__)

Handler = TypeVar("Handler", bound="type[BaseGraphQLTransportWSHandler[Any, None]]")

_enabled: bool | None = None


def enabled() -> bool:
    """Whether the shortcuts run in this process: FAST_EXECUTION, and every internal they lean on
    as `compat` expects it (decided on first use, then fixed for the process's life)."""
    global _enabled
    if _enabled is None:
        _enabled = decide(get_settings().fast_execution)
    return _enabled


def decide(requested: bool) -> bool:
    """`requested`, unless an internal changed: then False, with one WARNING naming what changed."""
    if not requested:
        return False
    changed = compat.changed()
    if changed:
        logger.warning(
            "fast execution is off: these internals are not as the shortcuts expect: %s; "
            "GraphQL runs on Strawberry's and graphql-core's own execution and transports",
            "; ".join(changed),
        )
        return False
    return True


def execution_context_class() -> type[Any] | None:
    """The schema's execution context: the shortcuts' when enabled, else None (Strawberry's own)."""
    if not enabled():
        return None
    from schema.fast_execution.execution import PerEventMemoExecutionContext

    return PerEventMemoExecutionContext


def install(schema: strawberry.Schema) -> None:
    """Give the schema's plain synchronous resolvers the lean wrapper, when enabled."""
    if enabled():
        from schema.fast_execution.lean_resolvers import install_lean_resolvers

        install_lean_resolvers(schema)


def selected_names(info: strawberry.Info[Any, Any]) -> set[str]:
    """Names of the resolver's field and of every field selected below it (through fragments too)."""
    if enabled():
        from schema.fast_execution.selections import selected_names as from_document

        return from_document(info)
    return _field_names(info.selected_fields)


def _field_names(selections: list[Any]) -> set[str]:
    """The field names of Strawberry's `selected_fields`, nested selections and fragments included."""
    from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField

    names: set[str] = set()
    for selection in selections:
        if isinstance(selection, SelectedField):
            names.add(selection.name)
        if isinstance(selection, SelectedField | FragmentSpread | InlineFragment):
            names |= _field_names(selection.selections)
    return names


def transport_ws_handler(base: Handler) -> Handler:
    """`base` (a graphql-transport-ws handler class) with shared results' frames written once
    (`shared_frames`) when enabled, else `base` itself."""
    if not enabled():
        return base
    from schema.fast_execution.shared_frames import SharedResultFrames

    return type(base.__name__, (SharedResultFrames, base), {"__module__": base.__module__})  # type: ignore[return-value]
