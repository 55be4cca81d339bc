"""Shared limits and cursor encoding for paginated fields."""

from __future__ import annotations

import base64

from graphql import GraphQLError

MAX_PAGE_SIZE = 100


def check_first(first: int, maximum: int = MAX_PAGE_SIZE) -> int:
    """`first` if within 0..maximum, else a clear GraphQL error."""
    if first < 0 or first > maximum:
        raise GraphQLError(f"`first` must be between 0 and {maximum}; got {first}.")
    return first


def encode_cursor(*parts: str) -> str:
    return base64.urlsafe_b64encode("|".join(parts).encode()).decode()


def decode_cursor(cursor: str, parts: int) -> list[str]:
    """The parts of a cursor made by `encode_cursor`, or a clear error for a foreign one."""
    try:
        values = base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
    except (ValueError, UnicodeDecodeError) as exc:
        raise GraphQLError("`after` is not a cursor this API issued.") from exc
    if len(values) != parts:
        raise GraphQLError("`after` is not a cursor this API issued.")
    return values
