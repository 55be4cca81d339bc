"""A report's claims do not depend on the analyses running beside it.

Four copies of one generated 24-page report (they differ only in their PDF metadata title, so each
is a report of its own) are parsed and analysed at once through the real pipeline, on one runner as
a worker runs them; each must end with the claims of a copy analysed alone: the same texts, pages,
other pages and types. Offline, and with an extraction model (a local fake) whose page windows
finish in another order on every analysis, as a shared model's answers do when other analyses
call it too.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.claims.rules import extract_rule_claims
from app.config import Settings
from app.db.models import Claim
from app.db.session import SessionFactory
from app.events import EventLog
from app.llm import LLMClient
from app.pipeline.runner import PipelineRunner
from app.pipeline.specialists import load_investigators
from app.services.analysis import open_analysis_run
from app.services.parsing import parse_report
from tests.conftest import make_settings
from tests.fixtures.repeating_report import HIGHLIGHT, HIGHLIGHT_PAGES, repeating_report, titled_copy
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.pipeline import pipeline_runner
from tests.support.services import RunningServices
from tests.workers.test_parse_isolation import upload

COPIES_AT_ONCE = 4
EXTRACT_MODEL, DEDUP_MODEL = "test/extract-model", "test/dedup-model"
#: How much later an extraction window's answer comes when it is the slow one of its analysis.
SLOW_WINDOW_SECONDS = 0.3
_PAGE = re.compile(r"<!-- PAGE (\d+) -->\n\n(.*?)(?=\n\n<!-- PAGE |\Z)", re.DOTALL)
_WINDOW = re.compile(r"Report pages (\d+)-(\d+) of \d+ \(chunk (\d+) of")

ClaimRow = tuple[int, str, str, tuple[int, ...]]


async def parsed_copies(
    session_factory: SessionFactory, event_log: EventLog, settings: Settings, count: int
) -> list[uuid.UUID]:
    """`count` uploaded copies of the report, parsed at once."""
    pdf = repeating_report()
    report_ids = [
        await upload(session_factory, event_log, settings, titled_copy(pdf, f"Copy {number}"))
        for number in range(count)
    ]
    await asyncio.gather(
        *(parse_report(session_factory, event_log, report_id, progress_every=4) for report_id in report_ids)
    )
    return report_ids


async def analyse(
    runner: PipelineRunner, event_log: EventLog, settings: Settings, report_id: uuid.UUID
) -> None:
    started = await open_analysis_run(event_log, settings, report_id, max_iterations=1)
    outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail


async def stored_claims(session_factory: SessionFactory, report_id: uuid.UUID) -> list[ClaimRow]:
    """The report's claims as (page, text, type, other pages), in page and text order."""
    async with session_factory() as session:
        rows = await session.execute(
            select(Claim.source_page, Claim.text, Claim.claim_type, Claim.also_on_pages).where(
                Claim.report_id == report_id
            )
        )
    return sorted((page, text, claim_type, tuple(others)) for page, text, claim_type, others in rows)


async def claims_alone_and_at_once(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, llm: LLMClient | None
) -> tuple[list[ClaimRow], list[list[ClaimRow]]]:
    """The claims of one copy analysed alone, then of `COPIES_AT_ONCE` copies analysed at once."""
    alone, *together = await parsed_copies(session_factory, event_log, settings, 1 + COPIES_AT_ONCE)
    agents = load_investigators(settings)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents, llm=llm) as runner:
        await analyse(runner, event_log, settings, alone)
        await asyncio.gather(*(analyse(runner, event_log, settings, report_id) for report_id in together))
    return (
        await stored_claims(session_factory, alone),
        [await stored_claims(session_factory, report_id) for report_id in together],
    )


async def test_rule_claims_of_copies_analysed_at_once_are_those_of_a_copy_analysed_alone(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    alone, together = await claims_alone_and_at_once(settings, session_factory, event_log, llm=None)

    assert len(alone) >= 90
    assert (HIGHLIGHT_PAGES[0], HIGHLIGHT) in {(page, text) for page, text, _, _ in alone}
    assert next(row for row in alone if row[1] == HIGHLIGHT)[3] == HIGHLIGHT_PAGES[1:]
    for claims in together:
        assert claims == alone


class WindowReader:
    """The fake extraction model: it reads a window's pages with the rule extractor and answers
    with what it found. It types a sentence on a page its window shares with the previous window
    by its figures (quantitative), as a model that read other pages first may; the previous window
    keeps the rules' type. Every other answer for a window comes `SLOW_WINDOW_SECONDS` later, so
    the windows of one analysis finish in another order than those of the next."""

    def __init__(self) -> None:
        self.asked: Counter[int] = Counter()

    def __call__(self, request: dict[str, Any]) -> FakeReply:
        if request["model"] == DEDUP_MODEL:
            return FakeReply(content={"duplicate": False, "keep": 1, "reason": "different figures"})
        if request["model"] != EXTRACT_MODEL:
            return FakeReply(status=400, body='{"error": {"message": "not scripted"}}')
        user = next(message["content"] for message in request["messages"] if message["role"] == "user")
        window = _WINDOW.search(user)
        assert window is not None
        first, chunk = int(window.group(1)), int(window.group(3))
        pages = [(int(number), text) for number, text in _PAGE.findall(user)]
        claims = [
            {
                "claim_text": claim.text,
                "claim_type": "quantitative"
                if chunk > 1 and claim.source_page < first + 2
                else claim.claim_type,
                "source_page": claim.source_page,
                "source_context": claim.source_context,
                "priority": claim.priority,
                "reasoning": "States a checkable fact.",
                "preliminary_ifrs": [],
            }
            for claim in extract_rule_claims(pages, budget=False)
        ]
        self.asked[chunk] += 1
        slow = (self.asked[chunk] + chunk) % 2 == 1
        return FakeReply(
            content={"claims": claims, "extraction_summary": "ok"},
            delay=SLOW_WINDOW_SECONDS if slow else 0.0,
        )


@pytest.fixture
async def window_reader() -> AsyncIterator[FakeLLM]:
    # The fake reads windows with the rules in the test's event loop, so a connection may sit idle in
    # the client's pool for longer than uvicorn's 5 s keep-alive; the server closing it just as the
    # client sends on it fails that window (no retries here), and the rules read it instead.
    async with fake_llm_server(timeout_keep_alive=600) as fake:
        fake.handler = WindowReader()
        yield fake


async def test_llm_claims_of_copies_analysed_at_once_are_those_of_a_copy_analysed_alone(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    window_reader: FakeLLM,
    clean_db: None,
) -> None:
    settings = make_settings(
        services,
        **settings_for(
            window_reader,
            llm_model_extraction=EXTRACT_MODEL,
            llm_model_dedup=DEDUP_MODEL,
            llm_max_retries=0,
            # A window whose answer times out is read by the rules instead: another extraction, rightly.
            # What is compared here is the order answers arrive in, so none may time out, however
            # slow the machine (the fake reads every window with the rules in this event loop).
            llm_timeout_seconds=120.0,
            llm_max_concurrency=8,
        ),
    )
    llm = LLMClient(settings)
    try:
        alone, together = await claims_alone_and_at_once(settings, session_factory, event_log, llm)
    finally:
        await llm.aclose()

    reader = window_reader.handler
    assert isinstance(reader, WindowReader) and set(reader.asked) == {1, 2, 3}
    # pages 9 and 10 are read by windows 1 and 2: each claim there keeps the earlier window's type
    assert any(claim_type != "quantitative" for page, _, claim_type, _ in alone if page in (9, 10))
    for claims in together:
        assert claims == alone
