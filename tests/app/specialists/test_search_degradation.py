"""Degraded searches said as such: web search that fails gives error findings and WEB_SEARCH_FAILED
(not "searched, found nothing"), and the searching agents' LLM steps that fall back to rules, like
LLM routing that names no known agent, raise their warnings. Fake Tavily and fake LLM (real HTTP)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun, Event, Finding
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from app.llm import LLMClient
from app.llm.breaker import reset_breakers
from app.pipeline.llm_routing import ROUTING_SYSTEM_PROMPT
from app.services.analysis import open_analysis_run
from app.verification.investigators.news_media import investigate_news
from app.verification.investigators.prompts import QUERY_SYSTEM_PROMPT
from app.verification.reading.prompts import SOURCE_ANALYSIS_SYSTEM_PROMPT
from tests.conftest import make_settings
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.fake_tavily import Failure, FakeTavily
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices

CLAIMS: list[dict[str, Any]] = [
    {
        "text": "Example Metals lowered its Scope 1 emissions by 9% in 2024 to 1.80 Mt CO2e.",
        "claim_type": "strategic",
        "page": 1,
    },
    {
        "text": "Example Metals has committed to reach net zero across its smelters by 2045.",
        "claim_type": "strategic",
        "page": 2,
    },
]
LIBRARY_TEXT = (
    "Example Metals's Scope 1 emissions rose 4% in 2024 to 2.05 Mt CO2e after a second furnace "
    "started, according to the regulator's filings.\n\nThe company had promised cuts."
)


@pytest.fixture(autouse=True)
def fresh_breakers() -> Iterator[None]:
    reset_breakers()
    yield
    reset_breakers()


def _settings(services: RunningServices, tavily: FakeTavily, **overrides: object) -> Settings:
    return make_settings(
        services,
        tavily_api_key="tvly-test",
        tavily_api_base_url=tavily.url,
        search_backoff_seconds=0.0,
        search_max_retries=1,
        search_providers=["tavily", "library"],
        fetch_allow_private_addresses=True,
        **overrides,
    )


async def _run(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, llm: LLMClient | None = None
) -> tuple[AnalysisRun, list[Finding], list[Event], list[str]]:
    seeded = await seed_report(session_factory, CLAIMS, pages=2)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    agents = investigators(news_media=investigate_news)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents, llm=llm) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        run = await session.get(AnalysisRun, started.run.id)
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "news_media")))
        events = list(await session.scalars(select(Event).where(Event.event_type == "warning")))
    assert run is not None
    return run, findings, events, seeded.claim_ids


def _warning(run: AnalysisRun, code: str) -> dict[str, Any]:
    [warning] = [entry for entry in run.warnings if entry["code"] == code]
    return dict(warning)


async def test_a_web_outage_gives_error_findings_and_a_warning_not_found_nothing(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    tavily: FakeTavily,
) -> None:
    tavily.always_fail = Failure(status=500)
    settings = _settings(services, tavily)
    run, findings, events, claim_ids = await _run(settings, session_factory, event_log)

    by_claim: dict[str, list[Finding]] = {}
    for finding in findings:
        by_claim.setdefault(str(finding.claim_id), []).append(finding)
    assert set(by_claim) == set(claim_ids)
    for claim_findings in by_claim.values():
        assert "none" not in {finding.evidence_type for finding in claim_findings}
        [error] = [finding for finding in claim_findings if finding.evidence_type == "error"]
        assert "web search failed for" in error.summary and "Tavily returned HTTP 500" in error.summary
        assert "not checked on the web" in error.summary
        assert error.details["web_search"]["failed"] is True

    failed = _warning(run, "WEB_SEARCH_FAILED")
    assert failed["stage"] == "investigating" and failed["count"] == failed["total"] > 0
    assert failed["message"].startswith(
        f"Web search failed for {failed['count']} of {failed['total']} queries: Tavily returned HTTP 500."
    )
    assert failed["parts"]["news_media"]["count"] == failed["count"]
    library = _warning(run, "EVIDENCE_LIBRARY_EMPTY")
    assert "only web sources could be found" not in library["message"]
    assert (
        "web search failed for every query, so no claim could meet an independent source"
        in library["message"]
    )
    [event] = [event for event in events if event.data["code"] == "WEB_SEARCH_FAILED"]
    assert event.data == {key: value for key, value in failed.items() if key != "parts"}
    # The circuit breaker: after 5 consecutive failures Tavily is no longer called.
    assert len(tavily.requests) < 2 * failed["total"]
    assert len(tavily.requests) <= 5 + 4  # the threshold, plus calls already in flight


async def test_library_sources_still_count_when_the_web_fails(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    tavily: FakeTavily,
) -> None:
    tavily.always_fail = Failure(status=503)
    settings = _settings(services, tavily)
    await add_evidence_document(
        session_factory,
        create_embedder(settings),
        settings,
        title="Example Metals emissions rise as a furnace starts",
        text=LIBRARY_TEXT,
        source_url="https://www.reuters.com/business/environment/northwind-copper-1",
        published_date="2025-02-01",
    )
    run, findings, _, (claim_id, _other) = await _run(settings, session_factory, event_log)

    about = [finding for finding in findings if str(finding.claim_id) == claim_id]
    sources = [
        finding for finding in about if finding.details.get("source_url", "").startswith("https://www.")
    ]
    assert sources, [finding.summary for finding in about]
    [summary] = [finding for finding in about if "relevant_sources" in finding.details]
    assert summary.details["relevant_sources"] >= 1
    assert (
        "Web search failed (Tavily returned HTTP 503): only the evidence library answered." in summary.summary
    )
    [error] = [finding for finding in about if finding.evidence_type == "error"]
    assert "relevant sources are reported separately" in error.summary
    assert _warning(run, "WEB_SEARCH_FAILED")["count"] > 0


async def test_llm_fallbacks_of_routing_query_writing_and_source_reading_are_warned(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    tavily: FakeTavily,
) -> None:
    text = "Example Metals reported Scope 1 emissions of 1.80 Mt CO2e for 2024 in its filing."
    tavily.add_article("filing", title="Example Metals filing", text=text + " More text." * 40)
    tavily.results_for("example metals", [tavily.result("filing", content=text)])

    def answer(payload: dict[str, Any]) -> FakeReply:
        system = payload["messages"][0]["content"]
        if system == ROUTING_SYSTEM_PROMPT:
            user = payload["messages"][1]["content"]
            ids = [part.split('"', 1)[0] for part in user.split('"claim_id": "')[1:]]
            assignments = [{"claim_id": claim_id, "assigned_agents": ["oracle"]} for claim_id in ids]
            return FakeReply(content={"assignments": assignments})
        if system == QUERY_SYSTEM_PROMPT:
            return FakeReply(content="Here are some good queries you could try for this claim.")
        if system == SOURCE_ANALYSIS_SYSTEM_PROMPT:
            return FakeReply(status=500, body='{"error": {"message": "down"}}')
        return FakeReply(status=400, body='{"error": {"message": "not scripted"}}')

    async with fake_llm_server() as fake:
        fake.handler = answer
        settings = _settings(services, tavily, **settings_for(fake))
        llm = LLMClient(settings)
        try:
            run, findings, _, claim_ids = await _run(settings, session_factory, event_log, llm)
        finally:
            await llm.aclose()

    routing = _warning(run, "ROUTING_FELL_BACK_TO_RULES")
    assert (routing["count"], routing["total"]) == (len(claim_ids), len(claim_ids))
    assert "named no known agent for any claim (it named oracle)" in routing["message"]
    queries = _warning(run, "QUERY_WRITING_FELL_BACK_TO_RULES")
    assert queries["count"] == queries["total"] >= 1
    assert queries["message"].endswith(
        "search queries were written by rules instead of the analysis model: the model answered "
        "without usable JSON (a refusal or a malformed answer)"
    )
    reading = _warning(run, "SOURCE_ANALYSIS_FELL_BACK_TO_RULES")
    assert reading["count"] == reading["total"] >= 1
    assert reading["message"].endswith("instead of the analysis model: provider returned HTTP 500")
    assert any(finding.details.get("source_url") and finding.method == "rules" for finding in findings)
    assert "WEB_SEARCH_FAILED" not in {entry["code"] for entry in run.warnings}


def test_routing_that_leaves_some_claims_to_the_rules_is_warned() -> None:
    from app.pipeline.llm_routing import routing_fallback_warnings
    from app.pipeline.routing import rule_route

    claim = {
        "claim_id": str(uuid.uuid4()),
        "text": CLAIMS[0]["text"],
        "claim_type": "strategic",
        "priority": "high",
        "source_page": 1,
    }
    llm_entry = {**rule_route(claim), "method": "llm"}  # type: ignore[arg-type]
    [warning] = routing_fallback_warnings([llm_entry, rule_route(claim)])  # type: ignore[arg-type,list-item]
    assert (warning["code"], warning["count"], warning["total"]) == ("ROUTING_FELL_BACK_TO_RULES", 1, 2)
    assert routing_fallback_warnings([llm_entry]) == []  # type: ignore[list-item]


def test_each_agent_adds_its_share_once_to_a_pass_warning() -> None:
    from app.degradation import WarningCode
    from app.pipeline.search_coverage import merged_warning, web_failure_cause

    news = {"count": 6, "total": 6, "causes": {"Tavily returned HTTP 500": 6}}
    academic = {"count": 1, "total": 3, "causes": {"Tavily did not answer in time": 1}}
    both = merged_warning(WarningCode.WEB_SEARCH_FAILED, 1, {"news_media": news, "academic": academic})
    assert (both["count"], both["total"]) == (7, 9)
    assert both["message"].startswith(
        "Web search failed for 7 of 9 queries: Tavily returned HTTP 500 (6), "
        "Tavily did not answer in time (1)."
    )
    assert both["message"].endswith("(pass 2)")
    again = merged_warning(WarningCode.WEB_SEARCH_FAILED, 1, {**both["parts"], "news_media": news})
    assert (again["count"], again["total"]) == (7, 9)  # a re-run agent replaces its share
    assert web_failure_cause("tavily: 502: bad gateway (after 1 retries)") == "Tavily returned HTTP 502"
    assert web_failure_cause("connection: refused") == "Tavily could not be reached"
