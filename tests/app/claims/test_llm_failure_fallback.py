"""An LLM provider that is down or refuses degrades to the rules, visibly: a generated report analysed
with a fake OpenAI-compatible server that answers HTTP 500 (or refusals) to everything ends with the
same claims as the offline run, and the run's warnings say what fell back, through GraphQL and as
`warning` events."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Event
from app.db.session import SessionFactory
from app.documents.pdf import open_pdf, read_pages
from app.events import EventLog
from app.llm import LLMClient
from app.services.analysis import open_analysis_run
from tests.conftest import make_settings
from tests.fixtures.planted_report import planted_report
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.graphql import GraphQLClient
from tests.support.pipeline import pipeline_runner, seed_parsed_pages
from tests.support.services import RunningServices

EXTRACT_MODEL, EXTRACT_FALLBACK = "test/extract-model", "test/extract-fallback"
REFUSAL = "I'm sorry, but I can't help with that request."
UNUSABLE = "the model answered without usable JSON (a refusal or a malformed answer)"
#: Small windows, so the report has several and they overlap: 16 pages give 1-6, 5-10, 9-14, 13-16.
CHUNKING = {"claims_chunk_size_pages": 6, "claims_chunk_overlap_pages": 2}

#: Each provider failure: its reply to every request, and the cause the extraction warning names.
FAILURES: dict[str, tuple[FakeReply, str]] = {
    "http-500": (
        FakeReply(status=500, body='{"error": {"message": "upstream down"}}'),
        "provider returned HTTP 500",
    ),
    "refusal": (FakeReply(content=REFUSAL), UNUSABLE),
    "refusal-in-json": (
        FakeReply(content={"claims": [], "extraction_summary": REFUSAL}),
        "the model refused",
    ),
}

RUN = """
query Run($id: ID!) {
  report(id: $id) {
    analysis { status claimsCount extractionStats warnings { code stage message count total iteration } }
    events(first: 500) { eventType agentName data }
  }
}
"""


@pytest.fixture(scope="module")
def pages() -> list[str]:
    with open_pdf(planted_report().pdf) as document:
        return [text for _, text in read_pages(document, 1, document.page_count)]


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as fake:
        yield fake


def claim_rows(rows: list[Claim]) -> list[tuple[Any, ...]]:
    """What must match the offline run: everything a claim says, in a stable order."""
    return sorted(
        (row.source_page, row.text, row.claim_type, row.priority, row.source_context, row.method,
         [paragraph["paragraph_id"] for paragraph in row.ifrs_paragraphs])
        for row in rows
    )  # fmt: skip


async def analyse(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    pages: list[str],
    llm: LLMClient | None,
) -> tuple[uuid.UUID, AnalysisRun, list[Claim]]:
    report_id = await seed_parsed_pages(session_factory, pages)
    started = await open_analysis_run(event_log, settings, report_id)
    async with pipeline_runner(settings, session_factory, event_log, llm=llm) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        run = await session.get(AnalysisRun, started.run.id)
        claims = list(await session.scalars(select(Claim).where(Claim.report_id == report_id)))
    assert run is not None
    return report_id, run, claims


@pytest.mark.parametrize("failure", list(FAILURES))
async def test_a_failing_llm_gives_the_offline_claims_with_warnings(
    failure: str,
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    client: GraphQLClient,
    pages: list[str],
) -> None:
    reply, cause = FAILURES[failure]
    fake_llm.handler = lambda request: reply
    offline = make_settings(services, **CHUNKING)
    failing = make_settings(
        services,
        **settings_for(
            fake_llm,
            **CHUNKING,
            llm_model_extraction=EXTRACT_MODEL,
            llm_fallback_model_extraction=EXTRACT_FALLBACK,
        ),
    )
    _, offline_run, offline_claims = await analyse(offline, session_factory, event_log, pages, None)
    llm = LLMClient(failing)
    try:
        report_id, run, claims = await analyse(failing, session_factory, event_log, pages, llm)
    finally:
        await llm.aclose()

    assert len(offline_claims) >= 30
    assert claim_rows(claims) == claim_rows(offline_claims)
    assert all(claim.method == "rules" for claim in claims)
    assert fake_llm.requests_for(EXTRACT_MODEL)
    # A failed call goes on to the fallback model; a refusal in valid JSON is an answer to the client.
    assert bool(fake_llm.requests_for(EXTRACT_FALLBACK)) == (failure != "refusal-in-json")
    stats = run.extraction_stats
    assert (stats["chunks"], stats["chunks_failed"], stats["chunks_fell_back_to_rules"]) == (4, 4, 4)
    assert stats["method"] == "rules"
    assert stats["claims"] == offline_run.extraction_stats["claims"]

    extraction = next(w for w in run.warnings if w["code"] == "EXTRACTION_FELL_BACK_TO_RULES")
    assert extraction == {
        "code": "EXTRACTION_FELL_BACK_TO_RULES",
        "stage": "extracting_claims",
        "message": f"4 of 4 extraction windows fell back to rules: {cause}",
        "count": 4,
        "total": 4,
        "iteration": 0,
    }
    routing = next(w for w in run.warnings if w["code"] == "ROUTING_FELL_BACK_TO_RULES")
    assert (routing["stage"], routing["count"], routing["total"]) == ("routing", len(claims), len(claims))
    assert [w["code"] for w in offline_run.warnings] == ["WEB_SEARCH_UNAVAILABLE", "EVIDENCE_LIBRARY_EMPTY"]

    data = await client.data(RUN, id=str(report_id))
    analysis = data["report"]["analysis"]
    assert analysis["status"] == "COMPLETED" and analysis["claimsCount"] == len(offline_claims)
    assert analysis["warnings"] == run.warnings
    warning_events = [event for event in data["report"]["events"] if event["eventType"] == "warning"]
    assert [event["data"] for event in warning_events] == run.warnings
    assert {event["agentName"] for event in warning_events} == {"claims", "orchestrator"}


async def test_warning_events_are_in_the_event_log_once_per_warning(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    fake_llm.handler = lambda request: FAILURES["http-500"][0]
    settings = make_settings(services, **settings_for(fake_llm, **CHUNKING))
    llm = LLMClient(settings)
    try:
        report_id, run, claims = await analyse(settings, session_factory, event_log, ["Intro."] * 3, llm)
    finally:
        await llm.aclose()

    async with session_factory() as session:
        events = list(
            await session.scalars(
                select(Event).where(Event.report_id == report_id, Event.event_type == "warning")
            )
        )
    assert [event.data for event in events] == run.warnings
    assert [warning["code"] for warning in run.warnings] == ["EXTRACTION_FELL_BACK_TO_RULES"]
    assert claims == []  # nothing to check in the report, but the run says the LLM never answered
