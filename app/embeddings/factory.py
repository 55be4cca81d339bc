"""The embedder the settings ask for."""

from __future__ import annotations

import httpx

from app.config import Settings
from app.embeddings.api import ApiEmbedder
from app.embeddings.base import Embedder
from app.embeddings.hashing import HashingEmbedder
from app.embeddings.local import LocalEmbedder


def create_embedder(settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None) -> Embedder:
    """The embedder of `embedding_provider`; `transport` replaces the API embedder's HTTP (tests).

    "auto" picks the API when `embedding_api_key` is set, else the local model when
    `embedding_local_path` is set, else hashing, so that a bare install works offline. An explicit
    "api" without a key or "local" without a path is a `ValueError`, not a silent fallback: the
    vectors would land in another vector space than the one asked for.
    """
    provider = settings.embedding_provider
    has_key = settings.embedding_api_key is not None and bool(
        settings.embedding_api_key.get_secret_value().strip()
    )
    if provider == "auto":
        provider = "api" if has_key else "local" if settings.embedding_local_path is not None else "hashing"
    if provider == "api":
        if not has_key:
            raise ValueError("EMBEDDING_PROVIDER=api needs EMBEDDING_API_KEY")
        return ApiEmbedder(settings, transport=transport)
    if provider == "local":
        if settings.embedding_local_path is None:
            raise ValueError(
                "EMBEDDING_PROVIDER=local needs EMBEDDING_LOCAL_PATH (a sentence-transformers model folder)"
            )
        return LocalEmbedder(settings.embedding_local_path, batch_size=settings.embedding_batch_size)
    return HashingEmbedder(settings.embedding_dimensions)
