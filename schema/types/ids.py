"""Reading the ids clients send: Relay global ids, or bare UUIDs for convenience."""

from __future__ import annotations

import uuid

from graphql import GraphQLError
from strawberry.relay import GlobalID

from schema.errors import ErrorCode, client_error


class _MalformedId(ValueError):
    """The id is not what the argument accepts (the message says why, after the argument's name)."""


def _global_id(value: str, accepted: str) -> GlobalID:
    """`value` decoded as a global id; `accepted` names what the argument takes, for the message."""
    try:
        return GlobalID.from_id(value)
    except (ValueError, TypeError) as exc:
        raise _MalformedId(f"is not {accepted}: {value[:80]!r}.") from exc


def _names_another_type(global_id: GlobalID, wanted: str) -> _MalformedId:
    return _MalformedId(f"names a {global_id.type_name or 'nameless type'}, not {wanted}.")


def _node_uuid(value: str, type_name: str) -> uuid.UUID | None:
    """The UUID behind a bare UUID or a `type_name` global id; None for a `type_name` global id
    whose node part is not a UUID (e.g. `Report:123`: well-formed, names nothing)."""
    try:
        return uuid.UUID(value)
    except ValueError:
        pass
    global_id = _global_id(value, f"a {type_name}'s global id or a UUID")
    if global_id.type_name != type_name:
        raise _names_another_type(global_id, f"a {type_name}")
    try:
        return uuid.UUID(global_id.node_id)
    except ValueError:
        return None


def invalid_id(argument: str, reason: object) -> GraphQLError:
    """The INVALID_ID error on `argument`: "`<argument>` <reason>" (every malformed id reads so)."""
    return client_error(ErrorCode.INVALID_ID, f"`{argument}` {reason}", argument=argument)


def parse_node_id(value: str, type_name: str) -> uuid.UUID | None:
    """The UUID behind `value` if it names a `type_name` (global id) or is a bare UUID; else None."""
    try:
        return _node_uuid(value, type_name)
    except _MalformedId:
        return None


def argument_node_id(value: str, type_name: str, argument: str) -> uuid.UUID | None:
    """Like `parse_node_id`, for an argument with no typed error result to answer with.

    A malformed id (neither a UUID nor a global id, or another type's global id) is the INVALID_ID
    error, worded as `node(id:)` words it, not a silent null; a well-formed id that names nothing is None.
    """
    try:
        return _node_uuid(value, type_name)
    except _MalformedId as exc:
        raise invalid_id(argument, exc) from exc


def argument_global_id(value: str, argument: str) -> GlobalID:
    """`value` as a global id of any type (`node(id:)`); else the INVALID_ID error on `argument`."""
    try:
        return _global_id(value, "a global id")
    except _MalformedId as exc:
        raise invalid_id(argument, exc) from exc


def not_a_node(global_id: GlobalID, argument: str) -> GraphQLError:
    """The INVALID_ID error on `argument` for a well-formed global id of no type that has them."""
    return invalid_id(argument, _names_another_type(global_id, "a type with global ids"))
