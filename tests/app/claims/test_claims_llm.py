"""The claims agent with an LLM (a local fake speaking the OpenAI protocol), through the pipeline:
map over overlapping page windows, duplicates across the overlap merged, the location check, and a
chunk whose answer is malformed read by the rule extractor instead, with a warning on the run."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Event, Report
from app.db.session import SessionFactory
from app.events import EventLog
from app.llm import LLMClient
from app.services.analysis import open_analysis_run
from tests.conftest import make_settings
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.pipeline import pipeline_runner, seed_parsed_pages
from tests.support.services import RunningServices

EXTRACT_MODEL, DEDUP_MODEL = "test/extract-model", "test/dedup-model"
COMPANY = "Harbourline Foods plc"

SCOPE_1 = "Scope 1 emissions fell 8.2% to 410,000 tCO2e in 2023."
BOARD = "The Board Risk Committee reviews climate risks every quarter."
RENEWABLE = "Renewable electricity supplied 64% of our sites' consumption in 2023."
RENEWABLE_PARAPHRASE = "In 2023 renewable electricity supplied 64% of our sites' consumption."
WATER = "Water withdrawal at the Kestrel plant was 1.2 GL in 2023."
NET_ZERO = "We target net zero Scope 1 and 2 emissions by 2040 against a 2019 baseline."
WIND = "A 50 MW wind farm in Aberdeenshire opened in 2023."
PLANTED = {2: SCOPE_1, 5: BOARD, 9: RENEWABLE, 10: WATER, 14: NET_ZERO, 20: WIND}


def report_pages() -> list[str]:
    return [
        f"{COMPANY} annual sustainability review, page {number}. " + PLANTED.get(number, "")
        for number in range(1, 25)
    ]


def claim(
    text: str, page: int, claim_type: str, ifrs: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "claim_text": text,
        "claim_type": claim_type,
        "source_page": page,
        "source_context": text,
        "priority": "high",
        "reasoning": "States a checkable fact.",
        "preliminary_ifrs": ifrs or [],
        **extra,
    }


#: What the fake extraction model answers for each page window (10 pages, 2 overlapping).
ANSWERS: dict[tuple[int, int], list[dict[str, Any]]] = {
    (1, 10): [
        claim(SCOPE_1, 2, "quantitative", ["S2.29(a)(i)"]),
        claim(BOARD, 5, "legal_governance", ["S2.6(a)", "S9.99"]),
        claim(RENEWABLE, 9, "environmental"),
        claim(WATER, 10, "geographic"),
    ],
    (9, 18): [
        {**claim(RENEWABLE_PARAPHRASE, 9, "environmental"), "source_context": RENEWABLE},
        claim(WATER, 10, "geographic"),
        claim(NET_ZERO, 13, "strategic", ["S2.33"]),  # wrong page: the sentence is on page 14
        claim("Our delivery fleet has been fully electric since 2015.", 12, "environmental"),  # not in report
        claim("We care a great deal.", 11, "opinion"),  # invalid type: rejected on its own
    ],
}


def prompt_window(request: dict[str, Any]) -> str:
    """The page range named by the first user message (a repair round appends more messages)."""
    user = next(message["content"] for message in request["messages"] if message["role"] == "user")
    found = re.search(r"Report pages (\d+-\d+)", user)
    assert found is not None
    return found.group(1)


def fake_model(request: dict[str, Any]) -> FakeReply:
    if request["model"] == DEDUP_MODEL:
        return FakeReply(content={"duplicate": True, "keep": 1, "reason": "same figure and year"})
    if request["model"] != EXTRACT_MODEL:
        return FakeReply(status=500, body='{"error": {"message": "not scripted"}}')
    first, last = prompt_window(request).split("-")
    window = (int(first), int(last))
    if window not in ANSWERS:
        return FakeReply(content='{"claims": [{"claim_text": "broken...')  # malformed, every time
    return FakeReply(content={"claims": ANSWERS[window], "extraction_summary": "ok"})


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as fake:
        fake.handler = fake_model
        yield fake


def llm_settings(services: RunningServices, fake: FakeLLM) -> Settings:
    return make_settings(
        services,
        **settings_for(
            fake,
            llm_model_extraction=EXTRACT_MODEL,
            llm_model_dedup=DEDUP_MODEL,
            llm_max_retries=0,
            llm_timeout_seconds=2.0,
            claims_max_concurrent_chunks=2,
        ),
    )


async def test_llm_map_reduce_merges_overlap_duplicates_and_reads_the_broken_chunk_with_rules(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    settings = llm_settings(services, fake_llm)
    report_id = await seed_parsed_pages(session_factory, report_pages())
    started = await open_analysis_run(event_log, settings, report_id)
    llm = LLMClient(settings)
    try:
        async with pipeline_runner(settings, session_factory, event_log, llm=llm) as runner:
            await runner.run(started.run.id)
    finally:
        await llm.aclose()

    async with session_factory() as session:
        claims = {
            row.text: row for row in await session.scalars(select(Claim).where(Claim.report_id == report_id))
        }
        run = await session.get(AnalysisRun, started.run.id)
        report = await session.get(Report, report_id)
        chunk_events = list(
            await session.scalars(
                select(Event).where(Event.report_id == report_id, Event.event_type == "claims_extracted")
            )
        )
    extraction_requests = fake_llm.requests_for(EXTRACT_MODEL)
    windows = sorted({prompt_window(request) for request in extraction_requests})
    assert windows == ["1-10", "17-24", "9-18"]
    assert fake_llm.max_in_flight <= 2
    assert set(claims) == {SCOPE_1, BOARD, RENEWABLE, WATER, NET_ZERO, WIND}
    assert claims[NET_ZERO].source_page == 14
    assert claims[WIND].method == "rules"  # its chunk was malformed: the rules read pages 19-24
    assert all(row.method == "llm" for text, row in claims.items() if text != WIND)
    assert any(p["paragraph_id"] == "S2.29(a)(i)" for p in claims[SCOPE_1].ifrs_paragraphs)
    assert all(p["paragraph_id"] != "S9.99" for row in claims.values() for p in row.ifrs_paragraphs)
    assert run is not None and report is not None
    stats = run.extraction_stats
    assert (stats["chunks"], stats["chunks_failed"], stats["rejected_by_validation"]) == (3, 1, 1)
    assert stats["chunks_fell_back_to_rules"] == 1 and stats["method"] == "llm+rules"
    extraction_warning = next(w for w in run.warnings if w["code"] == "EXTRACTION_FELL_BACK_TO_RULES")
    assert extraction_warning["message"] == (
        "1 of 3 extraction windows fell back to rules: "
        "the model answered without usable JSON (a refusal or a malformed answer)"
    )
    assert stats["location"]["page_corrected"] == 1 and stats["location"]["dropped"] == 1
    assert stats["dedup"]["exact"] == 1 and stats["dedup"]["confirmed_by_llm"] == 1
    assert len(fake_llm.requests_for(DEDUP_MODEL)) == stats["dedup"]["candidate_pairs"] >= 1
    assert run.usage["calls"] >= 4
    assert report.company_name == COMPANY
    assert len(chunk_events) == 3
    assert sorted(event.data["error"] is not None for event in chunk_events) == [False, False, True]
    assert sorted(event.data["method"] for event in chunk_events) == ["llm", "llm", "rules"]


async def test_a_failing_dedup_model_leaves_pairs_to_the_lexical_rule_with_a_warning(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    def dedup_down(request: dict[str, Any]) -> FakeReply:
        if request["model"] == DEDUP_MODEL:
            return FakeReply(status=502, body='{"error": {"message": "bad gateway"}}')
        return fake_model(request)

    fake_llm.handler = dedup_down
    settings = llm_settings(services, fake_llm)
    report_id = await seed_parsed_pages(session_factory, report_pages())
    started = await open_analysis_run(event_log, settings, report_id)
    llm = LLMClient(settings)
    try:
        async with pipeline_runner(settings, session_factory, event_log, llm=llm) as runner:
            await runner.run(started.run.id)
    finally:
        await llm.aclose()

    async with session_factory() as session:
        texts = set(await session.scalars(select(Claim.text).where(Claim.report_id == report_id)))
        run = await session.get(AnalysisRun, started.run.id)
    assert run is not None
    assert len(texts & {RENEWABLE, RENEWABLE_PARAPHRASE}) == 1  # the rule confirmed the paraphrase
    dedup = run.extraction_stats["dedup"]
    pairs = dedup["candidate_pairs"]
    assert pairs >= 1 and dedup["llm_failed"] == pairs and dedup["confirmed_by_rule"] == 1
    warning = next(w for w in run.warnings if w["code"] == "DEDUP_FELL_BACK_TO_RULES")
    assert warning["message"] == (
        f"{pairs} of {pairs} duplicate checks fell back to the lexical rule: provider returned HTTP 502"
    )
