"""Conflicting evidence where the contradiction falls below the §5.4 bar (a Tier 2 source supports,
a blog contradicts: INSUFFICIENT_EVIDENCE by the rules) still goes to the judge's LLM review."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.llm import LLMClient
from app.llm.breaker import reset_breakers
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import InvestigationTools
from app.verification.judge.evaluation import evaluate_evidence
from app.verification.records import Finding, FindingDraft, InvestigationOutcome, SpecialistTask
from tests.conftest import make_settings
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.investigators import scripted_source, strong_support
from tests.support.pipeline import KNOWN_CLAIMS, investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices

ROUTE_MODEL, JUDGE_MODEL = "test/route-model", "test/judge-model"


@pytest.fixture(autouse=True)
def fresh_breakers() -> Iterator[None]:
    reset_breakers()
    yield
    reset_breakers()


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as fake:
        yield fake


def _blog_contradiction(claim_id: str | None) -> FindingDraft:
    """What a searching agent reports for a lone Tier 4 source against the claim: the reading
    (`supports_claim` False), which the judge finds below the bar."""
    return FindingDraft(
        claim_id=claim_id,
        evidence_type="test_source",
        summary="A blog says the claim is wrong.",
        supports_claim=False,
        confidence=0.6,
        method="test",
        details=scripted_source(4, "contradicts"),
    )


async def weak_contradiction(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    return InvestigationOutcome(findings=[_blog_contradiction(claim["claim_id"]) for claim in task["claims"]])


def _finding(agent: str, draft: FindingDraft, index: int) -> Finding:
    return {
        "finding_id": f"f{index}",
        "claim_id": "c1",
        "agent_name": agent,
        "evidence_type": draft.evidence_type,
        "summary": draft.summary,
        "supports_claim": draft.supports_claim,
        "confidence": draft.confidence,
        "method": draft.method,
        "details": draft.details,
        "iteration": 0,
    }


def test_a_weak_contradiction_against_support_is_a_conflict() -> None:
    support = FindingDraft(
        claim_id="c1",
        evidence_type="test_source",
        summary="A scripted source supports the claim.",
        supports_claim=True,
        confidence=0.95,
        method="test",
        details=scripted_source(2, "supports"),
    )
    claim = {"claim_id": "c1", "text": "We cut emissions.", "claim_type": "quantitative_metric"}
    both = [_finding("academic", support, 0), _finding("news_media", _blog_contradiction("c1"), 1)]
    consistency = evaluate_evidence(claim, both, {})["consistency"]  # type: ignore[arg-type]
    assert consistency["has_contradictions"] is True
    assert consistency["weak_contradictions"] == 1
    assert consistency["contradicting_agents"] == ["news_media"]
    assert consistency["consistency"] == "high"  # the score is the bar's business, unchanged
    alone = evaluate_evidence(claim, both[1:], {})["consistency"]  # type: ignore[arg-type]
    assert alone["has_contradictions"] is False  # nothing to weigh it against


async def test_the_llm_reviews_support_against_a_below_bar_contradiction(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    def handler(request: dict[str, Any]) -> FakeReply:
        if request["model"] == ROUTE_MODEL:
            user = request["messages"][-1]["content"]
            claims = json.loads(re.search(r"\[.*\]", user, re.DOTALL).group(0))  # type: ignore[union-attr]
            assignments = [
                {"claim_id": claim["claim_id"], "assigned_agents": ["academic", "news_media"]}
                for claim in claims
            ]
            return FakeReply(content={"assignments": assignments})
        return FakeReply(
            content={
                "verdict": "insufficient_evidence",
                "reasoning": "One blog against a report.",
                "confidence": 0.5,
            }
        )

    fake_llm.handler = handler
    settings = make_settings(
        services, **settings_for(fake_llm, llm_model_routing=ROUTE_MODEL, llm_model_judgment=JUDGE_MODEL)
    )
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    agents = investigators(academic=strong_support, news_media=weak_contradiction)
    llm = LLMClient(settings)
    try:
        async with pipeline_runner(settings, session_factory, event_log, agents=agents, llm=llm) as runner:
            outcome = await runner.run(started.run.id)
    finally:
        await llm.aclose()
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        verdicts = [row for row in await session.scalars(select(Verdict)) if row.is_final]

    assert len(fake_llm.requests_for(JUDGE_MODEL)) == len(KNOWN_CLAIMS)
    assert len(verdicts) == len(KNOWN_CLAIMS)
    for row in verdicts:
        assert row.verdict == "insufficient_evidence"
        review = row.details["evaluation"]["llm_review"]
        assert (review["status"], review["why"]) == ("confirmed", "One blog against a report.")
