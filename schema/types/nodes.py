"""`node(id)` resolution shared by every Relay type: parse the ids, load the caller's rows, keep order."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import strawberry
from sqlalchemy import Select

from schema.context import Context
from schema.types.ids import parse_node_id

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
