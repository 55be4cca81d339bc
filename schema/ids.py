"""Reading the ids clients send: Relay global ids, or bare UUIDs for convenience."""

from __future__ import annotations

import uuid

from strawberry.relay import GlobalID


def parse_node_id(value: str, type_name: str) -> uuid.UUID | None:
    """The UUID behind `value` if it names a `type_name` (global id) or is a bare UUID; else None."""
    try:
        return uuid.UUID(value)
    except ValueError:
        pass
    try:
        global_id = GlobalID.from_id(value)
    except (ValueError, TypeError):
        return None
    if global_id.type_name != type_name:
        return None
    try:
        return uuid.UUID(global_id.node_id)
    except ValueError:
        return None
