"""Recording what SQLAlchemy does inside a block, through its event hooks (tests and benches)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import event

T = TypeVar("T")


@contextmanager
def recorded(target: Any, identifier: str, value_of: Callable[..., T]) -> Iterator[list[T]]:
    """`value_of(*event arguments)` for every `identifier` event of `target` inside the block."""
    values: list[T] = []

    def record(*args: Any) -> None:
        values.append(value_of(*args))

    event.listen(target, identifier, record)
    try:
        yield values
    finally:
        event.remove(target, identifier, record)
