"""Embeddings from an OpenAI-compatible `POST /embeddings` endpoint, batched, with retries.

Retries follow the LLM client's rules (429 with `Retry-After`, 5xx, timeouts, connection errors
and malformed bodies are retried with `backoff_delay`; other 4xx are final) and reuse its
`llm_max_retries` / `llm_backoff_*` settings.

`dimensions` is always sent. A server that answers with vectors of another length (a model that
ignores the parameter) is an error, not a silent change of `dimensions`: `name` and `dimensions`
are fixed when the embedder is built, because stored vectors are labelled with `name` before and
after any call. The message says which `EMBEDDING_DIMENSIONS` the model needs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import httpx

from app.config import Settings
from app.embeddings.base import EmbeddingUnavailable, l2_normalise
from app.llm.backoff import RetriesExhausted, RetryPolicy, with_retries
from app.llm.errors import AttemptFailed
from app.llm.protocol import retry_after_seconds, snippet

logger = logging.getLogger(__name__)


class ApiEmbedder:
    """Embeds through an OpenAI-compatible API; `name` is "api:<model>:<dimensions>".

    Each `embed` call opens (and closes) its own HTTP connection pool, so the embedder holds no
    resources, needs no closing and can be shared between event loops.
    """

    def __init__(self, settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        key = settings.embedding_api_key
        if key is None or not key.get_secret_value().strip():
            raise ValueError("ApiEmbedder needs embedding_api_key (EMBEDDING_API_KEY)")
        self._settings = settings
        self._transport = transport
        self._headers = {"Authorization": f"Bearer {key.get_secret_value()}"}

    @property
    def name(self) -> str:
        """The vector space: the model and the size asked of it."""
        return f"api:{self._settings.embedding_model}:{self._settings.embedding_dimensions}"

    @property
    def dimensions(self) -> int:
        """Length of every vector (as asked with the `dimensions` parameter)."""
        return self._settings.embedding_dimensions

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text, in order, in batches of `embedding_batch_size`.

        Raises `EmbeddingUnavailable` when a batch fails after retries or fails for good.
        """
        if not texts:
            return []
        size = self._settings.embedding_batch_size
        vectors: list[list[float]] = []
        async with httpx.AsyncClient(
            base_url=self._settings.embedding_base_url.rstrip("/") + "/",
            headers=self._headers,
            timeout=self._settings.embedding_timeout_seconds,
            transport=self._transport,
        ) as http:
            for start in range(0, len(texts), size):
                vectors.extend(await self._batch(http, list(texts[start : start + size])))
        return vectors

    async def _batch(self, http: httpx.AsyncClient, texts: list[str]) -> list[list[float]]:
        """The vectors of one batch, retrying retryable failures with backoff."""
        settings = self._settings

        def on_retry(failure: AttemptFailed, retry: int, delay: float) -> None:
            logger.warning(
                "embeddings model %s failed (%s); retry %d/%d in %.2fs",
                settings.embedding_model,
                failure,
                retry,
                settings.llm_max_retries,
                delay,
            )

        try:
            return await with_retries(
                lambda: self._attempt(http, texts), RetryPolicy.for_models(settings), on_retry
            )
        except RetriesExhausted as exc:
            raise EmbeddingUnavailable(f"embeddings API failed: {exc}") from exc

    async def _attempt(self, http: httpx.AsyncClient, texts: list[str]) -> list[list[float]]:
        """One HTTP call; `AttemptFailed` says whether asking again may help."""
        body = {
            "model": self._settings.embedding_model,
            "input": texts,
            "dimensions": self._settings.embedding_dimensions,
        }
        timeout = self._settings.embedding_timeout_seconds
        try:
            async with asyncio.timeout(timeout):
                response = await http.post("embeddings", json=body)
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise AttemptFailed("timeout", f"no answer within {timeout:g}s", retryable=True) from exc
        except httpx.RequestError as exc:
            raise AttemptFailed("connection", f"{type(exc).__name__}: {exc}", retryable=True) from exc
        return self._read(response, len(texts))

    def _read(self, response: httpx.Response, count: int) -> list[list[float]]:
        """The `count` vectors of `response`, re-ordered by their `index` and normalised."""
        status = response.status_code
        if status == 429 or status >= 500:
            raise AttemptFailed(
                str(status),
                snippet(response.text),
                retryable=True,
                retry_after=retry_after_seconds(response),
            )
        if status >= 400:
            raise AttemptFailed(str(status), snippet(response.text), retryable=False)
        try:
            vectors = _vectors_by_index(response.json(), count)
        except (ValueError, LookupError, TypeError, AttributeError) as exc:
            detail = f"not an embeddings response ({type(exc).__name__}: {exc}): {snippet(response.text)}"
            raise AttemptFailed("bad_response", detail, retryable=True) from exc
        expected = self.dimensions
        for vector in vectors:
            if len(vector) != expected:
                raise AttemptFailed(
                    "dimensions",
                    f"model {self._settings.embedding_model!r} returned {len(vector)}-dimensional vectors, "
                    f"not the {expected} asked for; it may not support the dimensions parameter: "
                    f"set EMBEDDING_DIMENSIONS={len(vector)}",
                    retryable=False,
                )
        return [l2_normalise(vector) for vector in vectors]


def _vectors_by_index(body: Any, count: int) -> list[list[float]]:
    """`body["data"]` as `count` float vectors ordered by `index`; ValueError/LookupError/TypeError else."""
    items = body["data"]
    if not isinstance(items, list) or len(items) != count:
        raise ValueError(f"expected {count} embeddings, got {len(items) if isinstance(items, list) else 0}")
    vectors: list[list[float] | None] = [None] * count
    for item in items:
        index = item["index"]
        if not isinstance(index, int) or not 0 <= index < count or vectors[index] is not None:
            raise ValueError(f"bad or repeated index {index!r}")
        embedding = item["embedding"]
        if not isinstance(embedding, list) or not embedding:
            raise TypeError("embedding is not a list of numbers")
        vectors[index] = [float(x) for x in embedding]
    return [vector for vector in vectors if vector is not None]
