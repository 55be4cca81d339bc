"""Evidence search for the specialists: web search (Tavily) and the user's evidence library, merged."""

from app.search.results import SearchAPIError, SearchResponse, SearchResult
from app.search.web import EvidenceSearch, TimeRange

__all__ = ["EvidenceSearch", "SearchAPIError", "SearchResponse", "SearchResult", "TimeRange"]
