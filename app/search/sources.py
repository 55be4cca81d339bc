"""The text behind a search result, as retrieved for the quote check.

A library result's text is its document, read from the database. A web result's page is fetched
through the one outbound fetcher (SSRF-guarded, size- and time-bounded) and reduced to text; if the
page cannot be fetched, the provider's own retrieved content (Tavily's raw content) stands in, and
failing that the quote is left unchecked (`None`), never assumed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.config import Settings
from app.db.session import SessionFactory
from app.evidence.html_text import html_to_text
from app.evidence.search import load_document_texts
from app.net.fetch import FetchFailed, FetchPolicy, FetchRefused, fetch
from app.search.quote_sentences import whole_sentences
from app.search.quotes import quote_found
from app.search.results import SearchResult

logger = logging.getLogger(__name__)

#: A fetched page with less readable text than this is a paywall or script shell, not the article.
MIN_PAGE_CHARS = 400


@dataclass(frozen=True)
class QuoteCheck:
    """Whether a quote was found in its source (`verified` None: could not be checked) and against
    which text ("library_document", "fetched_page", "provider_content") or why not; `sentence` is the
    whole sentence(s) of that text holding the quote (`quote_sentences`), None when not found."""

    verified: bool | None
    checked_against: str
    sentence: str | None = None

    def as_details(self) -> dict[str, object]:
        return {"quote_verified": self.verified, "quote_checked_against": self.checked_against}


class SourceTexts:
    """Retrieves each source's text once per investigation and checks quotes against it."""

    def __init__(self, settings: Settings, session_factory: SessionFactory) -> None:
        self._policy = FetchPolicy.from_settings(settings)
        self._session_factory = session_factory
        self._texts: dict[str, tuple[str | None, str]] = {}

    async def check(self, result: SearchResult, quote: str | None) -> QuoteCheck:
        """The quote check of `quote` against `result`'s retrieved text."""
        if not quote:
            return QuoteCheck(None, "no quote to check")
        text, origin = await self._text(result)
        if text is None:
            return QuoteCheck(None, origin)
        found = quote_found(quote, f"{result.title}\n{text}")
        if found is False and result.content and origin == "fetched_page":
            # A page may differ from what the provider saw (paywall, consent wall, edits).
            found = quote_found(quote, result.content)
            if found:
                origin, text = "provider_content", result.content
        if found is False and origin == "fetched_page" and len(text) < MIN_PAGE_CHARS:
            # A paywall or a script-built page shows almost no text: absence proves nothing there.
            return QuoteCheck(None, f"fetched page has too little text to check ({len(text)} characters)")
        sentence = whole_sentences(quote, text, result.title) if found is not False else None
        return QuoteCheck(found, origin if found is not None else "quote too short to check", sentence)

    async def _text(self, result: SearchResult) -> tuple[str | None, str]:
        """The source's own text, retrieved once per investigation and keyed by the source (its
        library document, else its address); a page that cannot be read falls back to this
        result's own provider content. Claims are checked concurrently, so a cache that kept the
        content of whichever claim's result came first would check one claim's quote against
        another claim's copy, and its finding would depend on which claim finished first."""
        key = f"library:{result.document_id}" if result.document_id is not None else f"web:{result.url}"
        if key not in self._texts:
            self._texts[key] = await self._retrieve(result)
        text, origin = self._texts[key]
        if text is None and result.document_id is None and result.content:
            return result.content, "provider_content"
        return text, origin

    async def _retrieve(self, result: SearchResult) -> tuple[str | None, str]:
        """The library document's text or the fetched page's, else None and why."""
        if result.document_id is not None:
            texts = await load_document_texts(self._session_factory, [result.document_id])
            text = texts.get(result.document_id)
            return (text, "library_document") if text is not None else (None, "library document deleted")
        try:
            page = await fetch(result.url, self._policy)
        except (FetchRefused, FetchFailed) as exc:
            logger.info("quote check: could not fetch %s (%s)", result.url, exc)
            return None, f"source page not retrievable ({exc})"
        content_type = (page.content_type or "").lower()
        body = page.text()
        if "html" in content_type or body.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
            return html_to_text(body).text, "fetched_page"
        if content_type.startswith("text/") or not content_type:
            return body, "fetched_page"
        return None, f"source page is {content_type}, which the quote check does not read"
