"""`node(id:)`, and the resolution shared by every Relay type: parse the ids, load the caller's rows,
keep order."""

from __future__ import annotations

import inspect
import uuid
from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeVar

import strawberry
from sqlalchemy import Select
from strawberry import relay
from strawberry.relay import GlobalIDValueError

from schema.context import Context
from schema.types.ids import argument_global_id, not_a_node, parse_node_id

T = TypeVar("T")


async def nodes_in_order(
    info: strawberry.Info[Context],
    node_ids: Iterable[str],
    type_name: str,
    query: Callable[[list[uuid.UUID]], Select[Any]],
    convert: Callable[..., T],
) -> list[T | None]:
    """One node per id asked for, in order: None for a malformed, unknown or foreign id.

    `query(ids)` selects the wanted rows the caller may see, the entity first (any further columns
    are passed on); `convert(*columns)` builds the node.
    """
    wanted = [parse_node_id(node_id, type_name) for node_id in node_ids]
    async with info.context.read_sessions() as session:
        rows = await session.execute(query([key for key in wanted if key is not None]))
        found = {row[0].id: tuple(row) for row in rows}
    return [convert(*found[key]) if key in found else None for key in wanted]


@strawberry.type
class NodeQuery:
    @strawberry.field(
        description="Any object of yours by its global id; null if there is none (or it is another "
        "organisation's). An id that is not a global id, or names a type without global ids, is an "
        "INVALID_ID error on `id`."
    )
    async def node(
        self,
        info: strawberry.Info[Context],
        id: Annotated[
            strawberry.ID, strawberry.argument(description="The object's global id (its `id` field).")
        ],
    ) -> relay.Node | None:
        global_id = argument_global_id(id, "id")
        try:
            node_type = global_id.resolve_type(info)
        except GlobalIDValueError as exc:
            raise not_a_node(global_id, "id") from exc
        found = node_type.resolve_node(global_id.node_id, info=info, required=False)
        return await found if inspect.isawaitable(found) else found
