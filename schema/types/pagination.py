"""Shared limits, cursor encoding and newest-first keyset paging for paginated fields.

Every cursor names the list it was issued for (its scope: the list's name, or the report whose claims
it pages), so a cursor passed to another list is refused with INVALID_CURSOR instead of silently
positioning that list by a row it does not contain.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from graphql import GraphQLError
from sqlalchemy import Select, and_, or_
from sqlalchemy.orm import InstrumentedAttribute
from strawberry import relay

from schema.errors import ErrorCode, client_error

MAX_PAGE_SIZE = 100

SelectT = TypeVar("SelectT", bound=Select[Any])


def check_first(first: int, maximum: int = MAX_PAGE_SIZE) -> int:
    """`first` if within 0..maximum, else a PAGE_SIZE_OUT_OF_RANGE error."""
    if first < 0 or first > maximum:
        raise client_error(
            ErrorCode.PAGE_SIZE_OUT_OF_RANGE,
            f"`first` must be between 0 and {maximum}; got {first}.",
            argument="first",
            maximum=maximum,
        )
    return first


def invalid_cursor(message: str = "`after` is not a cursor this API issued.") -> GraphQLError:
    """The INVALID_CURSOR error for an `after` argument this API did not issue (for this list)."""
    return client_error(ErrorCode.INVALID_CURSOR, message, argument="after")


def encode_cursor(*parts: str) -> str:
    return base64.urlsafe_b64encode("|".join(parts).encode()).decode()


def cursor_parts(cursor: str) -> list[str]:
    """The parts of a cursor made by `encode_cursor`, however many; a clear error for garbage."""
    try:
        return base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
    except (ValueError, UnicodeDecodeError) as exc:
        raise invalid_cursor() from exc


def decode_cursor(cursor: str, parts: int) -> list[str]:
    """The `parts` parts of a cursor made by `encode_cursor`, or a clear error for a foreign one."""
    values = cursor_parts(cursor)
    if len(values) != parts:
        raise invalid_cursor()
    return values


def scoped_parts(cursor: str, scope: str, parts: int, foreign: str) -> list[str]:
    """The `parts` parts after the scope of a cursor issued for the list `scope`.

    A well-formed cursor of another list is refused with `foreign` as the message; anything else
    this API did not issue with the generic one.
    """
    values = decode_cursor(cursor, parts + 1)
    if values[0] != scope:
        raise invalid_cursor(foreign)
    return values[1:]


def newest_first_cursor(scope: str, created_at: datetime, row_id: uuid.UUID) -> str:
    """The cursor of a row in the newest-first list `scope` (see `newest_first_page`)."""
    return encode_cursor(scope, created_at.isoformat(), str(row_id))


def newest_first_page(
    query: SelectT,
    created_at: InstrumentedAttribute[datetime],
    row_id: InstrumentedAttribute[uuid.UUID],
    after: str | None,
    first: int,
    scope: str,
) -> SelectT:
    """`query` ordered newest first, after the row `after` names, one row more than `first`.

    Keyset paging on (created_at, id) stays correct while rows are added; the extra row tells
    whether a next page exists. `after` must come from the same list (`scope`).
    """
    if after:
        foreign = f"`after` was issued for another list, not `{scope}`; pass a cursor from `{scope}`."
        created, after_id = scoped_parts(after, scope, 2, foreign)
        try:
            after_created, after_uuid = datetime.fromisoformat(created), uuid.UUID(after_id)
        except ValueError as exc:
            raise invalid_cursor() from exc
        query = query.where(
            or_(created_at < after_created, and_(created_at == after_created, row_id < after_uuid))
        )
    return query.order_by(created_at.desc(), row_id.desc()).limit(first + 1)


def page_info(cursors: Sequence[str], has_next_page: bool, after: str | None) -> relay.PageInfo:
    """Relay page info for a page whose edges have `cursors`."""
    return relay.PageInfo(
        has_next_page=has_next_page,
        has_previous_page=after is not None,
        start_cursor=cursors[0] if cursors else None,
        end_cursor=cursors[-1] if cursors else None,
    )
