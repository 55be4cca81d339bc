"""A fake Tavily API (POST /search, the real request and answer shapes) plus article pages it can
point results at, served over real HTTP on loopback.

async with fake_tavily_server() as fake:
    fake.add_article("reuters-scope1", title=..., text=...)   # served at fake.url/articles/reuters-scope1
    fake.results_for("Scope 1", [fake.result("reuters-scope1", ...)])
    settings = Settings(tavily_api_key="tvly-test", tavily_api_base_url=fake.url, ...)
"""

from __future__ import annotations

import asyncio
import html
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from tests.support.http_server import RecordingFake, serve_asgi


@dataclass
class Failure:
    """A scripted failure for the next /search call."""

    status: int = 500
    body: str = '{"detail": {"error": "internal error"}}'
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


class FakeTavily(RecordingFake):
    def __init__(self) -> None:
        super().__init__()
        self.articles: dict[str, tuple[str, str]] = {}
        self.scripted: list[tuple[str, list[dict[str, Any]]]] = []
        self.failures: deque[Failure] = deque()
        self.always_fail: Failure | None = None
        self.page_hits: list[str] = []

    def add_article(self, slug: str, *, title: str, text: str) -> str:
        """Serve an HTML page at /articles/<slug>; returns its URL."""
        self.articles[slug] = (title, text)
        return f"{self.url}/articles/{slug}"

    def result(
        self,
        slug: str,
        *,
        content: str,
        published_date: str | None = None,
        score: float = 0.8,
        url: str | None = None,
    ) -> dict[str, Any]:
        title = self.articles.get(slug, (slug, ""))[0]
        entry: dict[str, Any] = {
            "title": title,
            "url": url or f"{self.url}/articles/{slug}",
            "content": content,
            "score": score,
            "raw_content": None,
        }
        if published_date:
            entry["published_date"] = published_date
        return entry

    def results_for(self, query_contains: str, results: list[dict[str, Any]]) -> None:
        """Answer queries containing `query_contains` (case-insensitive) with `results`."""
        self.scripted.append((query_contains.lower(), results))

    @property
    def queries(self) -> list[str]:
        return [request["query"] for request in self.requests]

    async def search(self, request: Request) -> Response:
        payload = await self.record(request)
        if isinstance(payload, Response):
            return payload
        failure = self.failures.popleft() if self.failures else self.always_fail
        if failure is not None:
            await asyncio.sleep(failure.delay)
            return Response(
                failure.body, failure.status, headers=failure.headers, media_type="application/json"
            )
        query = str(payload.get("query", "")).lower()
        results: list[dict[str, Any]] = []
        for needle, scripted in self.scripted:
            if needle in query:
                results.extend(scripted)
        limit = int(payload.get("max_results") or 5)
        return JSONResponse(
            {
                "query": payload.get("query"),
                "answer": None,
                "images": [],
                "results": results[:limit],
                "response_time": 0.01,
            }
        )

    async def article(self, request: Request) -> Response:
        slug = request.path_params["slug"]
        self.page_hits.append(slug)
        if slug not in self.articles:
            return Response("not found", 404)
        title, text = self.articles[slug]
        paragraphs = "".join(f"<p>{html.escape(part)}</p>" for part in text.split("\n\n"))
        return HTMLResponse(
            f"<!doctype html><html><head><title>{html.escape(title)}</title>"
            "<script>var x = 1;</script></head><body><nav>Home | World | Business</nav>"
            f"<article><h1>{html.escape(title)}</h1>{paragraphs}</article></body></html>"
        )


@asynccontextmanager
async def fake_tavily_server() -> AsyncIterator[FakeTavily]:
    fake = FakeTavily()
    app = Starlette(
        routes=[
            Route("/search", fake.search, methods=["POST"]),
            Route("/articles/{slug}", fake.article, methods=["GET"]),
        ]
    )
    async with serve_asgi(app) as url:
        fake.url = url
        yield fake
