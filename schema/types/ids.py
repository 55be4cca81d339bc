"""Reading the ids clients send: Relay global ids, or bare UUIDs for convenience."""

from __future__ import annotations

import uuid

from strawberry.relay import GlobalID

from schema.errors import ErrorCode, client_error


class _MalformedId(ValueError):
    """The id is neither a UUID nor a global id of the wanted type (the message says which)."""


def _node_uuid(value: str, type_name: str) -> uuid.UUID | None:
    """The UUID behind a bare UUID or a `type_name` global id; None for a `type_name` global id
    whose node part is not a UUID (e.g. `Report:123`: well-formed, names nothing)."""
    try:
        return uuid.UUID(value)
    except ValueError:
        pass
    try:
        global_id = GlobalID.from_id(value)
    except (ValueError, TypeError) as exc:
        raise _MalformedId(f"is neither a {type_name}'s global id nor a UUID: {value[:80]!r}.") from exc
    if global_id.type_name != type_name:
        raise _MalformedId(f"names a {global_id.type_name or 'nameless type'}, not a {type_name}.")
    try:
        return uuid.UUID(global_id.node_id)
    except ValueError:
        return None


def parse_node_id(value: str, type_name: str) -> uuid.UUID | None:
    """The UUID behind `value` if it names a `type_name` (global id) or is a bare UUID; else None."""
    try:
        return _node_uuid(value, type_name)
    except _MalformedId:
        return None


def argument_node_id(value: str, type_name: str, argument: str) -> uuid.UUID | None:
    """Like `parse_node_id`, for an argument with no typed error result to answer with.

    A malformed id (neither a UUID nor a global id, or another type's global id) is the INVALID_ID
    error, as `node(id:)` answers it, not a silent null; a well-formed id that names nothing is None.
    """
    try:
        return _node_uuid(value, type_name)
    except _MalformedId as exc:
        raise client_error(ErrorCode.INVALID_ID, f"`{argument}` {exc}", argument=argument) from exc
