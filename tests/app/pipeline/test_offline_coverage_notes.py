"""The words a run uses for what it could not search: its warnings and the searching agents' notes."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.pipeline.search_coverage import (
    SearchCoverage,
    coverage_note,
    coverage_warnings,
    web_off_reason,
    with_coverage_note,
)
from app.verification.records import FindingDraft

OFFLINE_EMPTY = SearchCoverage(web_off_reason="TAVILY_API_KEY unset", library_empty=True)
OFFLINE_LIBRARY = SearchCoverage(web_off_reason="TAVILY_API_KEY unset", library_empty=False)
ONLINE_EMPTY = SearchCoverage(web_off_reason=None, library_empty=True)
ONLINE_LIBRARY = SearchCoverage(web_off_reason=None, library_empty=False)


def summary(agent_details: dict[str, object] | None = None) -> FindingDraft:
    return FindingDraft(
        claim_id="c1",
        evidence_type="none",
        summary="News/Media agent: 0 supporting and 0 contradicting source(s) among 0 evaluated.",
        supports_claim=None,
        confidence=None,
        method="rules",
        details=agent_details if agent_details is not None else {"queries": [{"query": "q"}]},
    )


@pytest.mark.parametrize(
    ("providers", "key", "reason"),
    [
        (["tavily", "library"], None, "TAVILY_API_KEY unset"),
        (["library"], "tvly-x", "SEARCH_PROVIDERS leaves out tavily"),
        (["tavily", "library"], "tvly-x", None),
    ],
)
def test_why_web_search_is_off(providers: list[str], key: str | None, reason: str | None) -> None:
    settings = Settings(_env_file=None, search_providers=providers, tavily_api_key=key)  # type: ignore[call-arg]
    assert web_off_reason(settings) == reason


def test_offline_with_an_empty_library_both_are_said_and_nothing_was_searched() -> None:
    web, library = coverage_warnings(OFFLINE_EMPTY, 12)
    assert (web["code"], web["stage"], web["count"], web["total"], web["iteration"]) == (
        "WEB_SEARCH_UNAVAILABLE",
        "investigating",
        12,
        12,
        0,
    )
    assert web["message"] == (
        "Web search is not configured (TAVILY_API_KEY unset): nothing independent was searched for the 12 "
        "claim(s), so UNVERIFIED means no independent source was looked at on the web, not that a claim "
        "is false."
    )
    assert library["code"] == "EVIDENCE_LIBRARY_EMPTY"
    assert "and web search is off, so no claim could meet an independent source" in library["message"]


def test_each_source_is_warned_about_only_when_it_is_missing() -> None:
    assert [w["code"] for w in coverage_warnings(OFFLINE_LIBRARY, 3)] == ["WEB_SEARCH_UNAVAILABLE"]
    assert "only the evidence library was searched" in coverage_warnings(OFFLINE_LIBRARY, 3)[0]["message"]
    assert [w["code"] for w in coverage_warnings(ONLINE_EMPTY, 3)] == ["EVIDENCE_LIBRARY_EMPTY"]
    assert coverage_warnings(ONLINE_LIBRARY, 3) == []
    assert coverage_warnings(OFFLINE_EMPTY, 0) == []  # no claim, nothing to search


def test_a_library_left_out_of_the_providers_is_not_called_empty() -> None:
    unsearched = SearchCoverage(web_off_reason="TAVILY_API_KEY unset", library_empty=None)
    assert [w["code"] for w in coverage_warnings(unsearched, 2)] == ["WEB_SEARCH_UNAVAILABLE"]
    assert coverage_note(unsearched) == (
        "Web search was off (TAVILY_API_KEY unset) and the evidence library is not searched: nothing "
        "independent was searched, so finding nothing says nothing about the claim."
    )


def test_a_search_summary_says_web_search_was_off() -> None:
    noted = with_coverage_note("news_media", summary(), OFFLINE_LIBRARY)
    assert noted.summary.endswith(
        "evaluated. Web search was off (TAVILY_API_KEY unset): only the evidence library was searched."
    )
    assert noted.details["web_search"] == {"available": False, "reason": "TAVILY_API_KEY unset"}


@pytest.mark.parametrize(
    ("agent", "draft", "coverage"),
    [
        ("news_media", summary(), ONLINE_EMPTY),  # web search was on
        ("geography", summary(), OFFLINE_EMPTY),  # not a searching agent
        ("academic", summary({"source_url": "https://x.example/a", "queries": []}), OFFLINE_EMPTY),
        ("academic", summary({"error": "boom"}), OFFLINE_EMPTY),  # not a search summary
    ],
)
def test_other_findings_are_left_alone(agent: str, draft: FindingDraft, coverage: SearchCoverage) -> None:
    assert with_coverage_note(agent, draft, coverage) is draft
