"""Evidence-library test material: filler prose that matches no test query, and a broken embedder."""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.embeddings import EmbeddingUnavailable

# Deliberately bland: no word here appears in any query the evidence tests search for.
_SUBJECTS = ["The committee", "Our regional office", "The editorial team", "A local council", "The panel"]
_VERBS = ["discussed", "reviewed", "summarised", "revisited", "noted", "welcomed"]
_OBJECTS = [
    "the quarterly calendar",
    "a new parking arrangement",
    "the library opening hours",
    "several staffing questions",
    "the annual picnic schedule",
    "minor website changes",
]
_TAILS = ["during a short meeting", "without further comment", "on a rainy afternoon", "after lunch", ""]


def filler_sentences(count: int, seed: int = 0) -> list[str]:
    """`count` harmless sentences, the same for the same seed."""
    rng = random.Random(seed)
    sentences = []
    for _ in range(count):
        tail = rng.choice(_TAILS)
        sentence = f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}"
        sentences.append(f"{sentence} {tail}.".replace(" .", "."))
    return sentences


def article(planted: Sequence[str], *, before: int = 12, after: int = 12, seed: int = 0) -> str:
    """Paragraphs of filler with the `planted` sentences in a paragraph of their own in the middle."""
    filler = filler_sentences(before + after, seed)
    paragraphs = [" ".join(filler[i : i + 4]) for i in range(0, before, 4)]
    paragraphs.append(" ".join(planted))
    paragraphs += [" ".join(filler[i : i + 4]) for i in range(before, before + after, 4)]
    return "\n\n".join(paragraphs)


class BrokenEmbedder:
    """An embedder whose provider is down (same name as the hashing embedder the tests use)."""

    name = "hashing-v1:384"
    dimensions = 384

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise EmbeddingUnavailable("embeddings API unreachable (test)")
