"""What a search returns, in one shape whichever provider found it (the provider is named on each
result, for the citation)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class SearchAPIError(Exception):
    """A provider failed after its retries (or is not configured); `provider` says which one."""

    def __init__(self, provider: str, message: str) -> None:
        super().__init__(f"{provider}: {message}")
        self.provider = provider
        self.message = message


@dataclass(frozen=True)
class SearchResult:
    """One source found for a query.

    `snippet` is the provider's excerpt; `content` the fuller text it retrieved, when it has one
    (a library passage's document, Tavily's raw content). `document_id` is set for library results.
    """

    title: str
    url: str
    snippet: str
    published_date: str | None
    source_domain: str
    relevance_score: float | None
    provider: str
    content: str | None = None
    document_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data (an info response's sources), with its provider (content is left
        out: it can be long)."""
        return {
            "title": self.title,
            "url": self.url,
            "snippet": self.snippet,
            "published_date": self.published_date,
            "source_domain": self.source_domain,
            "relevance_score": self.relevance_score,
            "provider": self.provider,
        }


@dataclass
class SearchResponse:
    """Results of one query over every active provider; a provider that failed is in `errors`."""

    query: str
    results: list[SearchResult] = field(default_factory=list)
    providers: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    filtered_out: int = 0

    @property
    def total_results(self) -> int:
        return len(self.results)

    @property
    def failed(self) -> bool:
        """True when no provider answered (every active one failed, or none is active)."""
        return not self.providers
