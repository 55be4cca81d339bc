"""The quote check, URL de-duplication, time-range filtering and Tavily's answer parsing."""

from __future__ import annotations

import datetime as dt

import pytest

from app.config import Settings
from app.llm.errors import AttemptFailed
from app.search.domains import domain_of, matches
from app.search.quotes import quote_found
from app.search.results import SearchAPIError, SearchResult
from app.search.tavily import parse_results
from app.search.web import EvidenceSearch, merge_by_url, url_key


def _result(url: str, provider: str = "tavily", published: str | None = None) -> SearchResult:
    return SearchResult("t", url, "s", published, domain_of(url), None, provider)


def test_quote_check_ignores_layout_but_not_words() -> None:
    text = "The company's Scope 1 emis-\nsions rose 4% in 2024,\n according to filings."
    assert quote_found("Scope 1 emissions rose 4% in 2024", text) is True
    assert quote_found("Scope 1 emissions fell 4% in 2024", text) is False
    assert quote_found("“Scope 1 emissions rose” … “according to filings”", text) is True
    assert quote_found("rose", text) is None


def test_domains_and_patterns() -> None:
    assert domain_of("https://WWW.Reuters.com/x") == "reuters.com"
    assert matches("https://uk.reuters.com/a", ["reuters.com"])
    assert not matches("https://notreuters.com/a", ["reuters.com"])
    assert matches("https://www.sec.gov/litigation/x", ["sec.gov/litigation"])
    assert not matches("https://www.sec.gov/about", ["sec.gov/litigation"])


def test_merge_keeps_the_first_copy_of_each_url() -> None:
    web = [_result("https://a.example/x/"), _result("https://b.example/y")]
    library = [_result("https://www.a.example/x#part", "library"), _result("library://1", "library")]
    merged = merge_by_url([web, library])
    assert [item.url for item in merged] == ["https://a.example/x/", "https://b.example/y", "library://1"]
    assert url_key("https://WWW.A.example/x/#f") == url_key("https://a.example/x")


class _Fixed:
    name = "tavily"

    def __init__(self, results: list[SearchResult]) -> None:
        self.results = results

    async def search(self, query: str, **_: object) -> list[SearchResult]:
        return self.results


class _Broken:
    name = "library"

    async def search(self, query: str, **_: object) -> list[SearchResult]:
        raise SearchAPIError("library", "database unavailable")


async def test_time_range_and_exclusions_filter_after_the_query() -> None:
    results = [
        _result("https://a.example/new", published="2025-05-01"),
        _result("https://b.example/old", published="2023-01-01"),
        _result("https://c.example/undated"),
        _result("https://twitter.com/post", published="2025-05-02"),
    ]
    search = EvidenceSearch(Settings(), [_Fixed(results), _Broken()], today=lambda: dt.date(2025, 6, 1))
    response = await search.search("q", time_range="year", exclude_domains=["twitter.com"])
    assert [item.url for item in response.results] == ["https://a.example/new", "https://c.example/undated"]
    assert response.filtered_out == 2 and response.providers == ["tavily"]
    assert response.errors == {"library": "database unavailable"}


async def test_search_fails_only_when_no_provider_answers() -> None:
    with pytest.raises(SearchAPIError, match="database unavailable"):
        await EvidenceSearch(Settings(), [_Broken()]).search("q")
    offline = EvidenceSearch(Settings(), [], inactive={"tavily": "API key not configured"})
    with pytest.raises(SearchAPIError, match="API key not configured"):
        await offline.search("q")


def test_tavily_results_parse_dates_and_skip_entries_without_url() -> None:
    body = {
        "results": [
            {
                "title": "A",
                "url": "https://a.example/1",
                "content": "x",
                "score": 0.8,
                "published_date": "Tue, 04 Mar 2025 10:00:00 GMT",
            },
            {"title": "B", "url": "", "content": "y"},
            {
                "title": "C",
                "url": "https://c.example/2",
                "content": "z",
                "published_date": "2024-11-02T08:00:00Z",
            },
        ]
    }
    results = parse_results(body)
    assert [(item.url, item.published_date) for item in results] == [
        ("https://a.example/1", "2025-03-04"),
        ("https://c.example/2", "2024-11-02"),
    ]
    with pytest.raises(AttemptFailed):
        parse_results({"answer": "no results key"})


async def test_library_documents_are_never_too_old() -> None:
    old_web = _result("https://b.example/old", published="2023-01-01")
    old_library = _result("library://7", "library", published="2023-01-01")
    search = EvidenceSearch(Settings(), [_Fixed([old_web, old_library])], today=lambda: dt.date(2025, 6, 1))
    response = await search.search("q", time_range="year")
    assert [item.url for item in response.results] == ["library://7"]
