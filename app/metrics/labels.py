"""Label values kept bounded: a series per value, so a value nobody bounds is a memory leak."""

from __future__ import annotations

from collections.abc import Collection

#: What a value outside its bounded set is counted as.
OTHER = "other"
#: Longest value `FirstCome` admits.
MAX_LABEL_CHARS = 64


def bounded(value: str, allowed: Collection[str]) -> str:
    """`value` when it is one of `allowed`, else `other`."""
    return value if value in allowed else OTHER


class FirstCome:
    """Values a client chooses (GraphQL operation names), admitted first come until `limit` have a
    series of their own; later ones, and any longer than `MAX_LABEL_CHARS`, count as `other`.

    A client can then fill the admitted set with names of its own, but never grow it, and what it
    names its operations is the only text of its own that reaches the metrics.
    """

    def __init__(self) -> None:
        self._admitted: set[str] = set()

    def label(self, value: str, limit: int) -> str:
        if value in self._admitted:
            return value
        if len(value) > MAX_LABEL_CHARS or len(self._admitted) >= limit:
            return OTHER
        self._admitted.add(value)
        return value
