"""The built-in embedder: signed feature hashing of words, word pairs and character 4-grams.

No model, no download, no network, and the same vector for the same text on every machine (blake2b,
never Python's salted `hash()`), so it is the offline default and what tests use. Beyond the few
synonyms `tokens.SYNONYMS` folds ("fell" = "decreased"), it knows no meaning: passages match by
shared terms, the way a keyword index would, but ranked by a cosine like any other embedder.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from hashlib import blake2b

from app.embeddings.base import l2_normalise
from app.embeddings.tokens import tokenize

#: Bump when features or weights change: vectors of different versions must not be compared.
VERSION = "hashing-v1"

# Each feature group is normalised on its own, then weighted, so that the cosine of two texts is
# about the weighted mean of their word, pair and 4-gram overlaps whatever the texts' lengths.
_WORD_WEIGHT = 1.0
_PAIR_WEIGHT = 0.45
_GRAM_WEIGHT = 0.6
_GRAM = 4

# Above this many texts, `embed` hashes in a worker thread so that the event loop stays responsive.
_INLINE_TEXTS = 64


class HashingEmbedder:
    """Deterministic feature-hashing embedder (see the module docstring); `name` is "hashing-v1:<dims>"."""

    def __init__(self, dimensions: int = 384) -> None:
        if dimensions <= 0:
            raise ValueError(f"dimensions must be positive, got {dimensions}")
        self._dimensions = dimensions

    @property
    def name(self) -> str:
        """The vector space: the feature version and the size."""
        return f"{VERSION}:{self._dimensions}"

    @property
    def dimensions(self) -> int:
        """Length of every vector."""
        return self._dimensions

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text (all zeros for a text without words); never raises for text."""
        if len(texts) > _INLINE_TEXTS:
            return await asyncio.to_thread(self.embed_sync, texts)
        return self.embed_sync(texts)

    def embed_sync(self, texts: Sequence[str]) -> list[list[float]]:
        """`embed` without the event loop, for batch scripts and benchmarks."""
        return [self.embed_one(text) for text in texts]

    def embed_one(self, text: str) -> list[float]:
        """The unit vector of one text."""
        vector = [0.0] * self._dimensions
        words = tokenize(text)
        groups = (
            (_WORD_WEIGHT, "w", words),
            (_PAIR_WEIGHT, "p", [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]),
            (_GRAM_WEIGHT, "g", list(_char_grams(words))),
        )
        for group_weight, tag, features in groups:
            counts = Counter(features)
            # Sublinear tf: a word said five times is not five times as telling.
            weights = {feature: 1.0 + math.log(count) for feature, count in counts.items()}
            norm = math.sqrt(sum(w * w for w in weights.values()))
            if norm == 0.0:
                continue
            scale = group_weight / norm
            for feature, weight in weights.items():
                slot = _slot(f"{tag}:{feature}")
                index = (slot & _INDEX_BITS) % self._dimensions
                vector[index] += -weight * scale if slot & _SIGN_BIT else weight * scale
        return l2_normalise(vector)


_SIGN_BIT = 1 << 63
_INDEX_BITS = _SIGN_BIT - 1


@lru_cache(maxsize=1 << 17)
def _slot(feature: str) -> int:
    """A stable 64-bit hash of a feature: its top bit is the sign, the rest picks the index."""
    return int.from_bytes(blake2b(feature.encode("utf-8"), digest_size=8).digest(), "big")


def _char_grams(words: Iterable[str]) -> Iterable[str]:
    """Character 4-grams of each word with boundary marks, so "emission" matches "emissions".

    Numbers are skipped: "2022" and "2023" sharing "<202" says nothing.
    """
    for word in words:
        if not any(c.isalpha() for c in word):
            continue
        marked = f"<{word}>"
        if len(marked) <= _GRAM:
            yield marked
        else:
            yield from (marked[i : i + _GRAM] for i in range(len(marked) - _GRAM + 1))
