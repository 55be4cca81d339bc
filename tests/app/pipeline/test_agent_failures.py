"""A searching agent works on several claims at once, and one that times out or fails keeps what it
checked: the rest get error findings, the run an AGENT_FAILED warning, and the verdict of every claim
routed to the agent names it (the real pipeline; web search is a fake Tavily over real HTTP)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.config import Settings
from app.db.models import AnalysisRun, Event, Finding, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline.progress import claim_done
from app.pipeline.specialists import load_investigators, no_evidence_source
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import InvestigationTools, Investigator
from app.verification.records import FindingDraft, InvestigationOutcome, SpecialistTask
from schema.types.warnings import AnalysisWarningCode, analysis_warnings
from tests.conftest import make_settings
from tests.support.fake_tavily import FakeTavily
from tests.support.http_server import serve_asgi
from tests.support.pipeline import pipeline_runner, seed_report
from tests.support.services import RunningServices

#: How long the fake holds searches for others to join them; claims investigated one at a time
#: each wait this long, so a run stays well within the test's time limit.
GATHER_SECONDS = 10.0
HOLD = "kestrel"  # web searches for these claims never answer (until the test ends)
FAST = [
    {"text": f"Our Osprey {site} site will run on renewable power by 2030.", "page": 1}
    for site in ("north", "south", "east")
]
HELD = [
    {"text": "Our Kestrel transition plan commits to net zero operations by 2040.", "page": 2},
    {"text": "The Kestrel programme will retire all coal boilers by 2035.", "page": 2},
]
#: Routed to News/Media only so that it meets the evidence: the claim type does not expect it.
HELD_CORROBORATION = {
    "text": "The Kestrel board committee meets four times a year.",
    "claim_type": "legal_governance",
    "page": 3,
}
ONE_PASS: dict[str, Any] = {"skip_claims_extraction": True, "max_iterations": 1}


class SlowTavily(FakeTavily):
    """Tavily that never answers queries containing `hold` until the test ends, holds the first
    searches until `gather` of them are in flight at once (or `GATHER_SECONDS` passed: searches
    made one at a time still finish), and records how many searches were in flight at once."""

    def __init__(self, *, hold: str | None = None, gather: int = 1) -> None:
        super().__init__()
        self.hold = hold
        self.gather = gather
        self.gathered = asyncio.Event()
        self.release = asyncio.Event()
        self.in_flight = 0
        self.most_in_flight = 0

    async def search(self, request: Request) -> Response:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        if self.in_flight >= self.gather:
            self.gathered.set()
        try:
            query = str(json.loads(await request.body()).get("query", "")).lower()
            if self.hold is not None and self.hold in query:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.release.wait(), 30)
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.gathered.wait(), GATHER_SECONDS)
            return await super().search(request)
        finally:
            self.in_flight -= 1


@asynccontextmanager
async def slow_tavily(**options: Any) -> AsyncIterator[SlowTavily]:
    fake = SlowTavily(**options)
    app = Starlette(
        routes=[
            Route("/search", fake.search, methods=["POST"]),
            Route("/articles/{slug}", fake.article, methods=["GET"]),
        ]
    )
    async with serve_asgi(app) as url:
        fake.url = url
        try:
            yield fake
        finally:
            fake.release.set()


def _settings(services: RunningServices, tavily: FakeTavily, **overrides: Any) -> Settings:
    return make_settings(
        services,
        tavily_api_key="tvly-test",
        tavily_api_base_url=tavily.url,
        search_max_retries=0,
        search_queries_per_claim=1,  # one web search per claim: searches in flight = claims in flight
        **overrides,
    )


async def _analyse(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    claims: list[dict[str, Any]],
    agents: Mapping[str, Investigator],
) -> tuple[uuid.UUID, list[str]]:
    seeded = await seed_report(session_factory, claims, pages=3)
    started = await open_analysis_run(event_log, settings, seeded.report_id, **ONE_PASS)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    return started.run.id, seeded.claim_ids


async def _rows(session_factory: SessionFactory, model: Any, run_id: uuid.UUID) -> list[Any]:
    async with session_factory() as session:
        return list(await session.scalars(select(model).where(model.analysis_run_id == run_id)))


def _news_only(settings: Settings) -> dict[str, Investigator]:
    """The built-in specialists, with Academic/Research silent so only News/Media searches the web."""
    return {**load_investigators(settings), "academic": no_evidence_source}


async def test_news_media_investigates_several_claims_at_once(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    async with slow_tavily(gather=4) as tavily:
        settings = _settings(services, tavily, llm_max_concurrency=4)
        claims = [{**claim, "claim_type": "strategic", "page": 1} for claim in FAST + HELD]
        run_id, claim_ids = await _analyse(settings, session_factory, event_log, claims, _news_only(settings))

    assert len(tavily.queries) == len(claims)
    # LLM_MAX_CONCURRENCY claims at once, never more (claim by claim, the first search would wait
    # GATHER_SECONDS alone and the most in flight would be 1).
    assert tavily.most_in_flight == 4
    findings = [
        finding for finding in await _rows(session_factory, Finding, run_id) if finding.agent == "news_media"
    ]
    assert {str(finding.claim_id) for finding in findings} == set(claim_ids)
    assert not [finding for finding in findings if finding.evidence_type == "error"]


async def test_a_timed_out_agent_keeps_what_it_checked_and_says_what_it_did_not(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    async with slow_tavily(hold=HOLD) as tavily:
        settings = _settings(services, tavily, agent_timeout_seconds=4)
        claims = [{**claim, "claim_type": "strategic"} for claim in FAST + HELD] + [HELD_CORROBORATION]
        run_id, claim_ids = await _analyse(settings, session_factory, event_log, claims, _news_only(settings))
    fast, held = claim_ids[: len(FAST)], claim_ids[len(FAST) :]

    news = [
        finding for finding in await _rows(session_factory, Finding, run_id) if finding.agent == "news_media"
    ]
    for claim_id in fast:  # checked before the time-out: its findings are kept
        kept = [finding for finding in news if str(finding.claim_id) == claim_id]
        assert kept and all(finding.evidence_type != "error" for finding in kept)
        assert any(finding.details.get("queries") for finding in kept)
    for claim_id in held:
        [error] = [finding for finding in news if str(finding.claim_id) == claim_id]
        assert error.evidence_type == "error" and error.supports_claim is None
        assert error.summary == (
            "The News/Media agent timed out after 4 s before it finished checking this claim; its evidence "
            "for this claim is missing."
        )

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    status = run.agent_status["news_media"]
    assert (status["status"], status["claims_completed"], status["claims_assigned"]) == ("error", 3, 6)
    [warning] = [warning for warning in run.warnings if warning["code"] == "AGENT_FAILED"]
    assert warning == {
        "code": "AGENT_FAILED",
        "stage": "investigating",
        "message": "News/Media agent timed out after 4 s: 3 of 6 claims checked, 3 left without its evidence",
        "count": 3,
        "total": 6,
        "iteration": 0,
    }
    events = await _rows(session_factory, Event, run_id)
    assert [
        event.data
        for event in events
        if event.event_type == "warning" and event.data["code"] == "AGENT_FAILED"
    ] == [warning]
    assert AnalysisWarningCode.AGENT_FAILED in [entry.code for entry in analysis_warnings(run.warnings)]

    verdicts = {str(verdict.claim_id): verdict for verdict in await _rows(session_factory, Verdict, run_id)}
    note = "Note: the News/Media agent failed (timed out after 4 s); its check is missing."
    for claim_id in held:  # the corroboration claim included, which its type does not expect News/Media for
        assert note in verdicts[claim_id].reasoning
        assert verdicts[claim_id].verdict == "unverified"
    for claim_id in fast:
        assert "News/Media agent failed" not in verdicts[claim_id].reasoning
        assert verdicts[claim_id].verdict != "verified"


async def _checks_one_claim_then_fails(
    task: SpecialistTask, tools: InvestigationTools
) -> InvestigationOutcome:
    """A plugin investigator that reports the "north" claim as finished, then raises."""
    [first] = [claim["claim_id"] for claim in task["claims"] if " north " in claim["text"]]
    claim_done(
        first,
        [
            FindingDraft(
                claim_id=first,
                evidence_type="test_note",
                summary="Checked before the failure.",
                supports_claim=None,
                confidence=None,
                method="test",
            )
        ],
    )
    await tools.think("about to fail")
    raise RuntimeError("the source went away")


async def test_an_agent_that_raises_keeps_its_finished_claims(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    settings = make_settings(services, tavily_api_key=None)
    agents = {**load_investigators(settings), "legal": _checks_one_claim_then_fails}
    claims = [{**claim, "claim_type": "legal_governance", "page": 1} for claim in FAST]
    run_id, claim_ids = await _analyse(settings, session_factory, event_log, claims, agents)

    legal = sorted(
        (finding for finding in await _rows(session_factory, Finding, run_id) if finding.agent == "legal"),
        key=lambda finding: claim_ids.index(str(finding.claim_id)),
    )
    assert [(str(finding.claim_id), finding.evidence_type) for finding in legal] == [
        (claim_ids[0], "test_note"),
        (claim_ids[1], "error"),
        (claim_ids[2], "error"),
    ]
    assert legal[1].summary.startswith("The Legal agent failed (RuntimeError: the source went away) before")
    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    [warning] = [warning for warning in run.warnings if warning["code"] == "AGENT_FAILED"]
    assert warning["message"] == (
        "Legal agent failed (RuntimeError: the source went away): 1 of 3 claims checked, 2 left without "
        "its evidence"
    )
    verdicts = {str(verdict.claim_id): verdict for verdict in await _rows(session_factory, Verdict, run_id)}
    assert "Legal agent failed" not in verdicts[claim_ids[0]].reasoning  # its check stands
    assert "every expected specialist failed" not in verdicts[claim_ids[0]].reasoning
    for claim_id in claim_ids[1:]:
        assert (
            "Note: every expected specialist failed (Legal agent), so the claim could not be checked."
            in verdicts[claim_id].reasoning
        )
        assert verdicts[claim_id].verdict == "unverified"


async def test_agents_failing_in_the_same_pass_share_one_warning(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    async with slow_tavily(hold="") as tavily:  # no web search ever answers
        settings = _settings(services, tavily, agent_timeout_seconds=2)
        claims = [{**claim, "claim_type": "strategic"} for claim in HELD]
        run_id, _ = await _analyse(settings, session_factory, event_log, claims, load_investigators(settings))

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    [warning] = [warning for warning in run.warnings if warning["code"] == "AGENT_FAILED"]
    assert warning["message"] == (
        "News/Media agent timed out after 2 s: 0 of 2 claims checked, 2 left without its evidence; "
        "Academic/Research agent timed out after 2 s: 0 of 2 claims checked, 2 left without its evidence"
    )
    assert (warning["count"], warning["total"]) == (4, 4)
    events = sorted(await _rows(session_factory, Event, run_id), key=lambda event: event.seq)
    emitted = [
        event.data
        for event in events
        if event.event_type == "warning" and event.data["code"] == "AGENT_FAILED"
    ]
    assert len(emitted) == 2 and emitted[-1] == warning  # each failure told as it happened, the last in full
    for verdict in await _rows(session_factory, Verdict, run_id):
        assert "Note: every expected specialist failed" not in verdict.reasoning  # Legal checked it
        assert (
            "Note: the News/Media agent failed (timed out after 2 s); its check is missing."
            in verdict.reasoning
        )
        assert (
            "Note: the Academic/Research agent failed (timed out after 2 s); its check is missing."
            in verdict.reasoning
        )
        assert verdict.verdict == "unverified"
