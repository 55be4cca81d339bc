"""Text embedders behind one interface: built-in hashing, an OpenAI-compatible API, or a local model.

`create_embedder(settings)` picks one; every vector it returns is stored with the embedder's `name`,
and only vectors of the same name are compared (with `cosine`).
"""

from __future__ import annotations

from app.embeddings.api import ApiEmbedder
from app.embeddings.base import Embedder, EmbeddingUnavailable, cosine
from app.embeddings.factory import create_embedder
from app.embeddings.hashing import HashingEmbedder
from app.embeddings.local import LocalEmbedder

__all__ = [
    "ApiEmbedder",
    "Embedder",
    "EmbeddingUnavailable",
    "HashingEmbedder",
    "LocalEmbedder",
    "cosine",
    "create_embedder",
]
