"""Tavily web search through `tavily-python`, with the project's retry policy
(`RetryPolicy.for_search`): a rate limit (honouring its `Retry-After`), a server error, a time-out,
a broken connection or an unreadable answer is retried with backoff; a refused key or a bad request
is final, since asking again cannot change it.

The SDK is given our own `httpx.AsyncClient` (base URL from `TAVILY_API_BASE_URL`, our timeout) so
that a response hook can keep the response whose `Retry-After` a 429 carries, which the SDK's
exception does not.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
from tavily import AsyncTavilyClient
from tavily.errors import (
    BadRequestError,
    ForbiddenError,
    InvalidAPIKeyError,
    UsageLimitExceededError,
)
from tavily.errors import TimeoutError as TavilyTimeout

from app.config import Settings
from app.llm.backoff import RetriesExhausted, RetryPolicy, with_retries
from app.llm.breaker import breaker_for
from app.llm.errors import AttemptFailed
from app.llm.protocol import retry_after_seconds
from app.search.domains import domain_of
from app.search.results import SearchAPIError, SearchResult

logger = logging.getLogger(__name__)

PROVIDER = "tavily"
TAVILY_TIME_RANGES = frozenset({"day", "week", "month", "year"})


class TavilySearch:
    """One Tavily `/search` call per query, retried on 429, 5xx, timeouts, network and JSON errors;
    not called while the process's Tavily circuit breaker is open (`app.llm.breaker`)."""

    name = PROVIDER

    def __init__(self, settings: Settings) -> None:
        if settings.tavily_api_key is None:
            raise SearchAPIError(PROVIDER, "Web search unavailable: API key not configured (TAVILY_API_KEY)")
        self._settings = settings
        self._api_key = settings.tavily_api_key.get_secret_value()

    async def search(
        self,
        query: str,
        *,
        max_results: int,
        include_domains: Sequence[str] = (),
        exclude_domains: Sequence[str] = (),
        time_range: str | None = None,
        topic: str = "general",
        search_depth: str = "basic",
    ) -> list[SearchResult]:
        """The results for `query`; `SearchAPIError` once retries are spent or on a final error."""
        arguments: dict[str, Any] = {
            "query": query,
            "max_results": max_results,
            "search_depth": search_depth,
            "topic": topic,
            "include_domains": list(include_domains) or None,
            "exclude_domains": list(exclude_domains) or None,
            "time_range": time_range if time_range in TAVILY_TIME_RANGES else None,
            "timeout": self._settings.search_timeout_seconds,
        }

        def on_retry(failure: AttemptFailed, retry: int, delay: float) -> None:
            logger.warning(
                "Tavily search failed (%s); retry %d/%d in %.2fs",
                failure,
                retry,
                self._settings.search_max_retries,
                delay,
            )

        try:
            return await with_retries(
                lambda: self._attempt(arguments),
                RetryPolicy.for_search(self._settings),
                on_retry,
                breaker_for(self._settings, PROVIDER, self._settings.tavily_api_base_url),
            )
        except RetriesExhausted as exc:
            raise SearchAPIError(PROVIDER, str(exc)) from exc

    async def _attempt(self, arguments: dict[str, Any]) -> list[SearchResult]:
        # Per call, not per provider: one provider serves several concurrent queries.
        responses: list[httpx.Response] = []

        async def keep(response: httpx.Response) -> None:
            responses.append(response)

        async with httpx.AsyncClient(
            base_url=self._settings.tavily_api_base_url,
            timeout=self._settings.search_timeout_seconds,
            event_hooks={"response": [keep]},
        ) as http:
            client = AsyncTavilyClient(api_key=self._api_key, client=http)
            try:
                body = await client.search(**arguments)
            except UsageLimitExceededError as exc:
                retry_after = retry_after_seconds(responses[-1]) if responses else None
                raise AttemptFailed("429", str(exc), retryable=True, retry_after=retry_after) from exc
            except (InvalidAPIKeyError, ForbiddenError, BadRequestError) as exc:
                raise AttemptFailed(type(exc).__name__, str(exc), retryable=False) from exc
            except httpx.HTTPStatusError as exc:
                status = exc.response.status_code
                raise AttemptFailed(str(status), exc.response.text[:200], retryable=status >= 500) from exc
            except (TavilyTimeout, httpx.TimeoutException) as exc:
                raise AttemptFailed("timeout", str(exc), retryable=True) from exc
            except httpx.TransportError as exc:
                raise AttemptFailed("connection", str(exc), retryable=True) from exc
            except json.JSONDecodeError as exc:
                raise AttemptFailed("bad_response", f"not JSON: {exc}", retryable=True) from exc
        return parse_results(body)


def parse_results(body: object) -> list[SearchResult]:
    """Tavily's `results` as `SearchResult`s; entries without a URL are skipped."""
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        raise AttemptFailed("bad_response", "no results list in the answer", retryable=True)
    results: list[SearchResult] = []
    for entry in body["results"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("url"), str) or not entry["url"]:
            continue
        score = entry.get("score")
        raw = entry.get("raw_content")
        results.append(
            SearchResult(
                title=str(entry.get("title") or ""),
                url=entry["url"],
                snippet=str(entry.get("content") or ""),
                published_date=_date(entry.get("published_date")),
                source_domain=domain_of(entry["url"]),
                relevance_score=float(score) if isinstance(score, int | float) else None,
                provider=PROVIDER,
                content=raw if isinstance(raw, str) and raw else None,
            )
        )
    return results


def _date(value: object) -> str | None:
    """An ISO date (YYYY-MM-DD) from Tavily's date strings, which come in ISO or RFC 2822 form."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).date().isoformat()
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(text).date().isoformat()
    except (TypeError, ValueError):
        return None
