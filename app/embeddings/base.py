"""The embedder interface every provider implements, its error, and vector arithmetic."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol


class Embedder(Protocol):
    """Turns texts into unit-length vectors that can be compared with `cosine`.

    Vectors of different embedders (or of one embedder at different sizes) are not comparable, so
    `name` is stored with every vector and searches compare only vectors of the same name.
    """

    @property
    def name(self) -> str:
        """Identifies the vector space, e.g. "hashing-v1:384" or "api:text-embedding-3-small:384"."""
        ...

    @property
    def dimensions(self) -> int:
        """Length of every vector `embed` returns."""
        ...

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per text, in the order given; `[]` for no texts.

        Raises `EmbeddingUnavailable` when the provider cannot embed (after retries, where it retries).
        """
        ...


class EmbeddingUnavailable(Exception):
    """The provider could not embed the texts; the message says why (and what to do, when known)."""


def l2_normalise(vector: Sequence[float]) -> list[float]:
    """`vector` scaled to length 1; an all-zero vector (a text with no features) stays all zeros."""
    norm = math.hypot(*vector)
    if norm == 0.0:
        return [0.0] * len(vector)
    return [x / norm for x in vector]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors of equal length; 0.0 when either is all zeros.

    It divides by both norms, so it is right for vectors that are not normalised too.
    """
    if len(a) != len(b):
        raise ValueError(f"cannot compare vectors of {len(a)} and {len(b)} dimensions")
    dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
    norms = math.hypot(*a) * math.hypot(*b)
    if norms == 0.0:
        return 0.0
    return max(-1.0, min(1.0, dot / norms))
