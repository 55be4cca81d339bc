"""The Tavily provider through the real tavily-python client against a fake Tavily server."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.search.results import SearchAPIError
from app.search.tavily import TavilySearch
from app.search.web import EvidenceSearch
from tests.support.fake_tavily import Failure, FakeTavily, fake_tavily_server


def _settings(fake: FakeTavily, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "tavily_api_key": "tvly-test-key",
        "tavily_api_base_url": fake.url,
        "search_providers": ["tavily"],
        "search_backoff_seconds": 0.0,
        "search_max_retries": 2,
        "search_timeout_seconds": 2.0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


async def test_search_sends_filters_and_parses_results() -> None:
    async with fake_tavily_server() as fake:
        fake.results_for("scope 1", [fake.result("a", content="Scope 1 fell.", published_date="2025-01-02")])
        results = await TavilySearch(_settings(fake)).search(
            "Example Scope 1 emissions",
            max_results=5,
            include_domains=["reuters.com"],
            exclude_domains=["twitter.com"],
            time_range="year",
            topic="news",
        )
    assert [(item.snippet, item.published_date, item.provider) for item in results] == [
        ("Scope 1 fell.", "2025-01-02", "tavily")
    ]
    sent = fake.requests[0]
    assert sent["include_domains"] == ["reuters.com"] and sent["exclude_domains"] == ["twitter.com"]
    assert sent["time_range"] == "year" and sent["topic"] == "news" and sent["max_results"] == 5
    assert fake.authorizations == ["Bearer tvly-test-key"]


@pytest.mark.parametrize(
    "failure",
    [
        Failure(status=429, body='{"detail": {"error": "rate limited"}}', headers={"Retry-After": "0"}),
        Failure(status=503),
        Failure(status=200, body="this is not json"),
        Failure(status=200, body='{"results": "not a list"}'),
        Failure(delay=3.0),
    ],
    ids=["429", "503", "not-json", "no-results", "timeout"],
)
async def test_transient_failures_are_retried(failure: Failure) -> None:
    async with fake_tavily_server() as fake:
        fake.failures.append(failure)
        fake.results_for("", [fake.result("a", content="ok")])
        results = await TavilySearch(_settings(fake, search_timeout_seconds=1.0)).search("q", max_results=3)
    assert [item.snippet for item in results] == ["ok"]
    assert len(fake.requests) == 2


async def test_persistent_failure_and_bad_key_raise_search_errors() -> None:
    async with fake_tavily_server() as fake:
        fake.always_fail = Failure(status=500)
        with pytest.raises(SearchAPIError, match="after 2 retries"):
            await TavilySearch(_settings(fake)).search("q", max_results=3)
        assert len(fake.requests) == 3
        fake.requests.clear()
        fake.always_fail = Failure(
            status=401, body='{"detail": {"error": "Unauthorized: missing or invalid API key."}}'
        )
        with pytest.raises(SearchAPIError, match="InvalidAPIKeyError"):
            await TavilySearch(_settings(fake)).search("q", max_results=3)
        assert len(fake.requests) == 1


def test_without_a_key_web_search_is_inactive_and_says_why() -> None:
    search = EvidenceSearch.from_settings(Settings(search_providers=["tavily"]), knowledge=None)  # type: ignore[arg-type]
    assert search.providers == [] and "API key not configured" in search.inactive["tavily"]
