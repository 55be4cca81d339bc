"""A fake OpenAI-compatible chat-completions server: real HTTP on loopback, scripted replies.

async with fake_llm_server() as fake:
    fake.script(FakeReply(status=429, headers={"Retry-After": "0"}), FakeReply(content={"ok": True}))
    settings = Settings(llm_api_key="k", llm_base_url=fake.url)
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.llm import LLMRole
from tests.support.http_server import RecordingFake, serve_asgi


@dataclass
class FakeReply:
    """One scripted reply; `content` dicts and lists are JSON-dumped into `message.content`."""

    content: str | dict[str, Any] | list[Any] | None = None
    status: int = 200
    delay: float = 0.0  # seconds before answering (timeouts, fixed latency)
    body: str | None = None  # raw body instead of a chat completion, e.g. "not json at all"
    headers: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 10
    completion_tokens: int = 5
    cost: float | None = None  # reported as usage.cost when set


NO_SCRIPTED_REPLY = FakeReply(status=500, body='{"error": {"message": "no scripted reply"}}')
#: How long a request held for `FakeLLM.gather` waits for the others before answering anyway.
GATHER_SECONDS = 10.0


class FakeLLM(RecordingFake):
    """The server's state: scripted replies, an optional handler, and every request received."""

    def __init__(self) -> None:
        super().__init__()
        self.handler: Callable[[dict[str, Any]], FakeReply] | None = None
        self.latency = 0.0  # added to every reply's delay
        self.in_flight = 0
        self.max_in_flight = 0
        # Requests wait until this many are in flight at once (or GATHER_SECONDS passed): a test
        # of concurrency then sees the overlap however slowly the client sends its requests.
        self.gather = 1
        self._gathered = asyncio.Event()
        self._script: deque[FakeReply] = deque()
        self._ids = itertools.count(1)

    def script(self, *replies: FakeReply) -> None:
        """Queue replies; they are used in order, before the handler."""
        self._script.extend(replies)

    def requests_for(self, model: str) -> list[dict[str, Any]]:
        """The requests that asked for `model`."""
        return [request for request in self.requests if request.get("model") == model]

    def app(self) -> Starlette:
        """The ASGI app serving `POST /v1/chat/completions`."""
        return Starlette(routes=[Route("/v1/chat/completions", self._chat_completions, methods=["POST"])])

    async def _chat_completions(self, request: Request) -> Response:
        payload = await self.record(request)
        if isinstance(payload, Response):
            return payload
        reply = self._next_reply(payload)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        if self.in_flight >= self.gather:
            self._gathered.set()
        try:
            if self.gather > 1:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._gathered.wait(), GATHER_SECONDS)
            await asyncio.sleep(reply.delay + self.latency)
        finally:
            self.in_flight -= 1
        body = reply.body if reply.body is not None else json.dumps(self._completion(payload, reply))
        return Response(body, reply.status, headers=reply.headers, media_type="application/json")

    def _next_reply(self, payload: dict[str, Any]) -> FakeReply:
        if self._script:
            return self._script.popleft()
        if self.handler is not None:
            return self.handler(payload)
        return NO_SCRIPTED_REPLY

    def _completion(self, payload: dict[str, Any], reply: FakeReply) -> dict[str, Any]:
        content = reply.content if isinstance(reply.content, str | None) else json.dumps(reply.content)
        usage: dict[str, Any] = {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        }
        if reply.cost is not None:
            usage["cost"] = reply.cost
        return {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "model": payload.get("model"),
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": usage,
        }


def settings_for(fake: FakeLLM, **overrides: Any) -> dict[str, Any]:
    """Settings values that send every LLM role to `fake`, with no fallback models and quick retries
    (one retry, 10 ms backoff, 1 s timeout); `overrides` name the models and anything else."""
    values: dict[str, Any] = {
        "llm_api_key": "test-key",
        "llm_base_url": fake.url,
        **{f"llm_fallback_model_{role.value}": None for role in LLMRole},
        "llm_max_retries": 1,
        "llm_backoff_seconds": 0.01,
        "llm_timeout_seconds": 1.0,
    }
    values.update(overrides)
    return values


@asynccontextmanager
async def fake_llm_server(**options: Any) -> AsyncIterator[FakeLLM]:
    """Run a `FakeLLM` under uvicorn on a free loopback port for the duration of the block
    (`options`: uvicorn's, such as `timeout_keep_alive`)."""
    fake = FakeLLM()
    async with serve_asgi(fake.app(), **options) as url:
        fake.url = f"{url}/v1"
        yield fake
