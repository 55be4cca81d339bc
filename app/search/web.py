"""`search_web`: every active provider queried together, results merged by URL.

Providers: Tavily (when `TAVILY_API_KEY` is set) and the evidence library. A provider that fails is
reported in the response's `errors` while the others' results still count; the search as a whole
fails only when no provider answered. Time ranges are enforced here, after the query, on each
web result's publication date (undated results and library documents are kept: the first cannot
be shown to be out of range, the second were chosen by the user).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import uuid
from collections.abc import Callable, Sequence
from typing import Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

from app.config import Settings
from app.knowledge.search import KnowledgeSearch
from app.metrics.catalogue import SEARCHES
from app.organisations.keys import LOCAL_ORGANISATION_ID
from app.search.domains import matches
from app.search.library import PROVIDER as LIBRARY
from app.search.library import LibrarySearch
from app.search.results import SearchAPIError, SearchResponse, SearchResult
from app.search.tavily import TavilySearch
from app.tracing import span

logger = logging.getLogger(__name__)

TimeRange = Literal["day", "week", "month", "year", "all"]
TIME_RANGE_DAYS: dict[str, int] = {"day": 1, "week": 7, "month": 31, "year": 366}


class SearchProvider(Protocol):
    name: str

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
    ) -> list[SearchResult]: ...


class EvidenceSearch:
    """The specialists' search tool; counts its queries (`queries`) for the benches, and the web
    providers' answers and failures (`web_queries`, `web_failures`: each failure's message) for
    the run's WEB_SEARCH_FAILED warning."""

    def __init__(
        self,
        settings: Settings,
        providers: Sequence[SearchProvider],
        *,
        inactive: dict[str, str] | None = None,
        today: Callable[[], dt.date] = dt.date.today,
    ) -> None:
        self._settings = settings
        self.providers = list(providers)
        self.inactive = dict(inactive or {})
        self._today = today
        self.queries = 0
        self.web_queries = 0
        self.web_failures: list[str] = []

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        knowledge: KnowledgeSearch,
        organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
    ) -> EvidenceSearch:
        """The providers `SEARCH_PROVIDERS` names; Tavily without a key is listed as inactive.

        The library provider searches only `organisation_id`'s documents.
        """
        providers: list[SearchProvider] = []
        inactive: dict[str, str] = {}
        for name in dict.fromkeys(settings.search_providers):
            if name == LIBRARY:
                providers.append(LibrarySearch(knowledge, organisation_id))
            elif settings.tavily_api_key is None:
                inactive["tavily"] = "Web search unavailable: API key not configured (TAVILY_API_KEY)"
            else:
                providers.append(TavilySearch(settings))
        return cls(settings, providers, inactive=inactive)

    @property
    def web_enabled(self) -> bool:
        """Whether a provider reaches the open web (not just the user's library)."""
        return any(provider.name != LIBRARY for provider in self.providers)

    @property
    def library_enabled(self) -> bool:
        """Whether the organisation's evidence library is searched."""
        return any(provider.name == LIBRARY for provider in self.providers)

    async def search(
        self,
        query: str,
        *,
        max_results: int | None = None,
        include_domains: Sequence[str] = (),
        exclude_domains: Sequence[str] = (),
        time_range: TimeRange = "all",
        topic: str = "general",
        search_depth: str = "basic",
        library_only: bool = False,
    ) -> SearchResponse:
        """Results of every active provider for `query` (only the evidence library's when
        `library_only`), merged, de-duplicated and filtered.

        Raises:
            SearchAPIError: no provider is active, or every active provider failed.
        """
        providers = [p for p in self.providers if p.name == LIBRARY] if library_only else self.providers
        if not providers:
            reasons = "; ".join(self.inactive.values()) or "no search provider configured (SEARCH_PROVIDERS)"
            raise SearchAPIError("search", reasons)
        self.queries += 1
        limit = max_results or self._settings.search_max_results
        with span("search", **{"sibyl.search.providers": ",".join(provider.name for provider in providers)}):
            answers = await asyncio.gather(
                *(
                    provider.search(
                        query,
                        max_results=limit,
                        include_domains=include_domains,
                        exclude_domains=exclude_domains,
                        time_range=time_range,
                        topic=topic,
                        search_depth=search_depth,
                    )
                    for provider in providers
                ),
                return_exceptions=True,
            )
        response = SearchResponse(query=query)
        found: list[list[SearchResult]] = []
        for provider, answer in zip(providers, answers, strict=True):
            if isinstance(answer, SearchAPIError):
                response.errors[provider.name] = answer.message
            elif isinstance(answer, Exception):
                logger.exception("search provider %s failed unexpectedly", provider.name, exc_info=answer)
                response.errors[provider.name] = f"{type(answer).__name__}: {answer}"
            elif isinstance(answer, BaseException):
                raise answer
            else:
                response.providers.append(provider.name)
                found.append(answer)
            SEARCHES.labels(provider.name, "error" if provider.name in response.errors else "ok").inc()
            if provider.name != LIBRARY:
                self.web_queries += 1
                if provider.name in response.errors:
                    self.web_failures.append(response.errors[provider.name])
        if response.failed:
            raise SearchAPIError(
                "search", "; ".join(f"{name}: {error}" for name, error in response.errors.items())
            )
        merged = merge_by_url(found)
        kept = [
            result
            for result in merged
            if not matches(result.url, exclude_domains) and self._in_range(result, time_range)
        ]
        response.filtered_out = len(merged) - len(kept)
        response.results = kept[:limit]
        return response

    def _in_range(self, result: SearchResult, time_range: str) -> bool:
        """Whether a web result is recent enough. The user's own library documents always are: they
        were chosen as evidence, and a report is often checked years after the period it covers."""
        days = TIME_RANGE_DAYS.get(time_range)
        if days is None or result.published_date is None or result.provider == LIBRARY:
            return True
        try:
            published = dt.date.fromisoformat(result.published_date[:10])
        except ValueError:
            return True
        return published >= self._today() - dt.timedelta(days=days)


def url_key(url: str) -> str:
    """A URL's identity for de-duplication: no fragment, no trailing slash, lower-case host."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/")
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower().removeprefix("www."), path, parts.query, "")
    )


def merge_by_url(result_lists: Sequence[Sequence[SearchResult]]) -> list[SearchResult]:
    """Results of several providers interleaved by rank, the first copy of each URL kept."""
    merged: list[SearchResult] = []
    seen: set[str] = set()
    for rank in range(max((len(results) for results in result_lists), default=0)):
        for results in result_lists:
            if rank < len(results):
                key = url_key(results[rank].url)
                if key not in seen:
                    seen.add(key)
                    merged.append(results[rank])
    return merged
