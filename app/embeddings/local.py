"""Embeddings from a sentence-transformers model in a local folder, for offline semantic search.

sentence-transformers (and torch) are not dependencies of Sibyl: they are imported only when this
embedder is first used, and their absence is an `EmbeddingUnavailable` saying what to install.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.embeddings.base import EmbeddingUnavailable, l2_normalise


class LocalEmbedder:
    """Embeds with the sentence-transformers model saved in `path`; `name` is "local:<folder>:<dims>".

    The model is loaded on first use: `embed` loads it in a worker thread, while reading `name` or
    `dimensions` first loads it in the caller's thread (it is needed to know the vector size).
    """

    def __init__(self, path: Path, *, batch_size: int = 32) -> None:
        self._path = Path(path)
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """The vector space: the model folder's name and the model's vector size."""
        return f"local:{self._path.name}:{self.dimensions}"

    @property
    def dimensions(self) -> int:
        """The model's vector size (loads the model)."""
        return int(self._load().get_sentence_embedding_dimension())

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text, in order; the model runs in a worker thread."""
        if not texts:
            return []
        return await asyncio.to_thread(self._encode, list(texts))

    def _encode(self, texts: list[str]) -> list[list[float]]:
        model = self._load()
        try:
            matrix = model.encode(texts, batch_size=self._batch_size, normalize_embeddings=True)
        except Exception as exc:  # the model's own errors are many and undocumented
            raise EmbeddingUnavailable(
                f"local model {self._path} failed: {type(exc).__name__}: {exc}"
            ) from exc
        return [l2_normalise(row) for row in matrix.tolist()]  # encode gives a numpy array

    def _load(self) -> Any:
        """The model, loaded once (thread-safe); `EmbeddingUnavailable` when it cannot be."""
        with self._lock:
            if self._model is None:
                self._model = _load_model(self._path)
            return self._model


def _load_model(path: Path) -> Any:
    try:
        module = importlib.import_module("sentence_transformers")
    except ImportError as exc:
        raise EmbeddingUnavailable(
            "the local embedder needs the sentence-transformers package: pip install sentence-transformers "
            "(or set EMBEDDING_PROVIDER=hashing or api)"
        ) from exc
    if not path.is_dir():
        raise EmbeddingUnavailable(f"no sentence-transformers model folder at {path}")
    try:
        return module.SentenceTransformer(str(path))
    except Exception as exc:  # torch and transformers raise whatever they like
        raise EmbeddingUnavailable(f"cannot load the model in {path}: {type(exc).__name__}: {exc}") from exc
