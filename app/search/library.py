"""An organisation's evidence library as a search provider: passages of documents it added."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy.exc import SQLAlchemyError

from app.evidence.search import library_is_empty, search_evidence
from app.knowledge.search import KnowledgeSearch
from app.search.domains import matches
from app.search.results import SearchAPIError, SearchResult

PROVIDER = "library"


def library_url(document_id: str) -> str:
    """The stand-in URL of a library document that has no source URL (it still needs an identity)."""
    return f"library://{document_id}"


class LibrarySearch:
    """Hybrid (full-text + vector) search over evidence passages; one result per document.

    Library documents are the user's own curated evidence, so `include_domains` (meant to steer
    web search to some outlets) does not hide them; `exclude_domains` does.
    """

    name = PROVIDER

    def __init__(self, knowledge: KnowledgeSearch, organisation_id: uuid.UUID) -> None:
        self._knowledge = knowledge
        self._organisation_id = organisation_id
        self._empty: bool | None = None  # checked once: an empty library answers without a search

    async def is_empty(self) -> bool:
        """Whether the organisation's library has no document (asked once per instance)."""
        if self._empty is None:
            self._empty = await library_is_empty(self._knowledge.session_factory, self._organisation_id)
        return self._empty

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
        try:
            if await self.is_empty():
                return []
            hits = await search_evidence(self._knowledge, query, max_results, self._organisation_id)
        except SQLAlchemyError as exc:
            raise SearchAPIError(PROVIDER, f"evidence library unavailable: {exc}") from exc
        results = [
            SearchResult(
                title=hit.title,
                url=hit.source_url or library_url(hit.document_id),
                snippet=hit.text,
                published_date=hit.published_date.isoformat() if hit.published_date else None,
                source_domain=hit.source_domain or "",
                relevance_score=hit.score,
                provider=PROVIDER,
                document_id=hit.document_id,
            )
            for hit in hits
        ]
        return [
            result
            for result in results
            if not (result.source_domain and matches(result.url, exclude_domains))
        ]
