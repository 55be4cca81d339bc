"""An offline run (no Tavily key, the built-in specialists) says what it could not search, sends no
claim back for a pass that cannot change its verdict, and narrates each agent's name once."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun, Event, Finding, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from app.pipeline.specialists import load_investigators
from app.services.analysis import open_analysis_run
from tests.conftest import make_settings
from tests.support.fake_tavily import fake_tavily_server
from tests.support.pipeline import pipeline_runner, seed_report
from tests.support.services import RunningServices

SEARCHING = ("news_media", "academic")


async def _analyse(settings: Settings, session_factory: SessionFactory, event_log: EventLog) -> uuid.UUID:
    """The known claims through the whole pipeline with the built-in specialists; the run's id."""
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=3
    )
    agents = load_investigators(settings)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    return started.run.id


async def _rows(session_factory: SessionFactory, model: Any, run_id: uuid.UUID) -> list[Any]:
    async with session_factory() as session:
        return list(await session.scalars(select(model).where(model.analysis_run_id == run_id)))


def _search_summaries(findings: list[Finding]) -> list[Finding]:
    """The searching agents' per-claim summaries (not their per-source findings)."""
    return [
        finding
        for finding in findings
        if finding.agent in SEARCHING and "queries" in finding.details and "source_url" not in finding.details
    ]


async def test_an_offline_run_with_an_empty_library_says_nothing_independent_was_searched(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    settings = make_settings(services, tavily_api_key=None)
    run_id = await _analyse(settings, session_factory, event_log)

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    assert [(w["code"], w["stage"], w["count"]) for w in run.warnings] == [
        ("WEB_SEARCH_UNAVAILABLE", "investigating", 6),
        ("EVIDENCE_LIBRARY_EMPTY", "investigating", 6),
    ]
    web, library = (w["message"] for w in run.warnings)
    assert web.startswith(
        "Web search is not configured (TAVILY_API_KEY unset): nothing independent was searched"
    )
    assert "UNVERIFIED means no independent source was looked at on the web, not that a claim is false" in web
    assert library.startswith("The organisation's evidence library holds no document, and web search is off")
    events = await _rows(session_factory, Event, run_id)
    assert [event.data for event in events if event.event_type == "warning"] == run.warnings

    summaries = _search_summaries(await _rows(session_factory, Finding, run_id))
    assert {finding.agent for finding in summaries} == set(SEARCHING)
    for finding in summaries:
        assert finding.summary.endswith(
            "Web search was off (TAVILY_API_KEY unset) and the evidence library holds no document: nothing "
            "independent was searched, so finding nothing says nothing about the claim."
        )
        assert finding.details["web_search"] == {"available": False, "reason": "TAVILY_API_KEY unset"}


async def test_offline_no_claim_goes_back_to_agents_that_would_only_repeat_themselves(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    """Geography (a gazetteer location) and Legal (disclosure coverage) cannot move a verdict, and
    the searching agents had nothing to search: one pass, and no agent is called missing that
    reported on the claim."""
    settings = make_settings(services, tavily_api_key=None)
    run_id = await _analyse(settings, session_factory, event_log)

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None and run.iteration_count == 0
    routing = await _rows(session_factory, RoutingAssignment, run_id)
    assert {row.iteration for row in routing} == {0}
    events = await _rows(session_factory, Event, run_id)
    assert not [event for event in events if event.event_type == "reinvestigation"]

    findings = await _rows(session_factory, Finding, run_id)
    reported: dict[str, set[str]] = {}
    for finding in findings:
        if finding.evidence_type != "error":
            reported.setdefault(str(finding.claim_id), set()).add(finding.agent)
    for verdict in await _rows(session_factory, Verdict, run_id):
        missing = set(verdict.details["evaluation"]["completeness"]["missing_agents"])
        assert not missing & reported[str(verdict.claim_id)], verdict.claim_id
        assert "should have investigated but did not" not in verdict.reasoning

    thinking = [event.data["message"] for event in events if event.event_type == "agent_thinking"]
    assert any(message.startswith("News/Media agent: 0 supporting") for message in thinking)
    assert not [message for message in thinking if " agent: " in message and _doubled(message)]


def _doubled(message: str) -> bool:
    head, _, rest = message.partition(" agent: ")
    return rest.startswith(f"{head} agent: ")


async def test_with_a_library_document_only_the_web_is_said_to_be_off(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    settings = make_settings(services, tavily_api_key=None)
    await add_evidence_document(
        session_factory,
        create_embedder(settings),
        settings,
        title="Water stewardship at Example Metals",
        text="An unrelated story about river levels in a dry summer.",
        source_url="https://news.example.org/river-levels",
    )
    run_id = await _analyse(settings, session_factory, event_log)

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    assert [w["code"] for w in run.warnings] == ["WEB_SEARCH_UNAVAILABLE"]
    assert "only the evidence library was searched" in run.warnings[0]["message"]
    summaries = _search_summaries(await _rows(session_factory, Finding, run_id))
    assert summaries
    assert all(
        finding.summary.endswith(
            "Web search was off (TAVILY_API_KEY unset): only the evidence library was searched."
        )
        for finding in summaries
    )


async def test_with_web_search_nothing_is_said_and_news_media_is_still_sent_back(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    """With the web searched, a searching agent that found nothing is asked again with the judge's
    refined queries (that can change a verdict); Geography and Legal are not."""
    async with fake_tavily_server() as tavily:
        settings = make_settings(services, tavily_api_key="tvly-test", tavily_api_base_url=tavily.url)
        run_id = await _analyse(settings, session_factory, event_log)

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    assert [w["code"] for w in run.warnings] == ["EVIDENCE_LIBRARY_EMPTY"]
    assert "so independent sources can come from web search only" in run.warnings[0]["message"]
    summaries = _search_summaries(await _rows(session_factory, Finding, run_id))
    assert summaries and not [finding for finding in summaries if "Web search was off" in finding.summary]
    again = {
        row.agent for row in await _rows(session_factory, RoutingAssignment, run_id) if row.iteration > 0
    }
    assert "news_media" in again
    assert not again & {"geography", "legal", "data_metrics"}
