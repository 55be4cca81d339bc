"""How the contract's records read and write stored `details` values."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def as_details(record: Any) -> dict[str, Any]:
    """A record's fields by name, in order; lists and dicts copied so the details own them."""
    details: dict[str, Any] = {}
    for item in fields(record):
        value = getattr(record, item.name)
        details[item.name] = (
            list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
        )
    return details


def text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None
