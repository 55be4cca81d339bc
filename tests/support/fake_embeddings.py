"""A fake OpenAI-compatible embeddings server: real HTTP on loopback, scripted failures.

By default every input gets its `HashingEmbedder` vector (so similarities mean something), the
`data` list comes back in reverse order (clients must re-order by `index`) with a `usage` block.

async with fake_embeddings_server() as fake:
    fake.script(FakeEmbeddingReply(status=429, headers={"Retry-After": "0"}))  # then the default
    settings = Settings(embedding_api_key="k", embedding_base_url=fake.url)
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.embeddings.hashing import HashingEmbedder
from tests.support.http_server import RecordingFake, serve_asgi


@dataclass
class FakeEmbeddingReply:
    """One scripted reply. A 200 without `body` is the default answer (at `dimensions`, if set)."""

    status: int = 200
    delay: float = 0.0  # seconds before answering (timeouts)
    body: str | None = None  # raw body instead of an embeddings response, e.g. "not json"
    headers: dict[str, str] = field(default_factory=dict)
    dimensions: int | None = None  # vector length instead of the one asked for (a model ignoring it)


class FakeEmbeddings(RecordingFake):
    """The server's state: scripted replies and every request received."""

    def __init__(self) -> None:
        super().__init__()
        self.reverse_order = True  # answer `data` last input first
        self.default_dimensions = 1536  # when a request sends no `dimensions`
        self._script: deque[FakeEmbeddingReply] = deque()

    def script(self, *replies: FakeEmbeddingReply) -> None:
        """Queue replies; they are used in order, then the default answer resumes."""
        self._script.extend(replies)

    def app(self) -> Starlette:
        """The ASGI app serving `POST /v1/embeddings`."""
        return Starlette(routes=[Route("/v1/embeddings", self._embeddings, methods=["POST"])])

    async def _embeddings(self, request: Request) -> Response:
        payload = await self.record(request)
        if isinstance(payload, Response):
            return payload
        reply = self._script.popleft() if self._script else FakeEmbeddingReply()
        await asyncio.sleep(reply.delay)
        if reply.body is not None:
            body = reply.body
        elif reply.status != 200:
            body = json.dumps({"error": {"message": f"scripted {reply.status}"}})
        else:
            body = json.dumps(self._answer(payload, reply))
        return Response(body, reply.status, headers=reply.headers, media_type="application/json")

    def _answer(self, payload: dict[str, Any], reply: FakeEmbeddingReply) -> dict[str, Any]:
        texts = payload["input"]
        texts = [texts] if isinstance(texts, str) else texts
        dimensions = reply.dimensions or payload.get("dimensions") or self.default_dimensions
        vectors = HashingEmbedder(dimensions).embed_sync(texts)
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        if self.reverse_order:
            data.reverse()
        tokens = sum(len(text.split()) for text in texts)
        return {
            "object": "list",
            "data": data,
            "model": payload.get("model"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }


@asynccontextmanager
async def fake_embeddings_server() -> AsyncIterator[FakeEmbeddings]:
    """Run a `FakeEmbeddings` under uvicorn on a free loopback port for the duration of the block."""
    fake = FakeEmbeddings()
    async with serve_asgi(fake.app()) as url:
        fake.url = f"{url}/v1"
        yield fake
