"""The pipeline with an LLM (a local fake speaking the OpenAI protocol): validated routing, the
judge's review of conflicting evidence, usage on the run, and the rule path when the LLM fails,
recorded in the run's warnings."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun, Event, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.llm import LLMClient
from app.pipeline.routing import rule_route, with_corroboration
from app.services.analysis import open_analysis_run
from tests.conftest import make_settings
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.investigators import contradicting, strong_support
from tests.support.pipeline import KNOWN_CLAIMS, investigators, pipeline_agents, pipeline_runner, seed_report
from tests.support.services import RunningServices

ROUTE_MODEL, JUDGE_MODEL = "test/route-model", "test/judge-model"


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as fake:
        yield fake


def llm_settings(services: RunningServices, fake: FakeLLM) -> Settings:
    return make_settings(
        services, **settings_for(fake, llm_model_routing=ROUTE_MODEL, llm_model_judgment=JUDGE_MODEL)
    )


def claims_in(request: dict[str, Any]) -> list[dict[str, Any]]:
    user = request["messages"][-1]["content"]
    return list(json.loads(re.search(r"\[.*\]", user, re.DOTALL).group(0)))  # type: ignore[union-attr]


def routing_reply(request: dict[str, Any]) -> FakeReply:
    """Routes every claim to news_media plus an agent that does not exist, and skips the second claim."""
    claims = claims_in(request)
    assignments = [
        {
            "claim_id": claim["claim_id"],
            "assigned_agents": ["news_media", "astrology"],
            "reasoning": "LLM says so",
        }
        for index, claim in enumerate(claims)
        if index != 1
    ]
    return FakeReply(content={"assignments": assignments, "routing_summary": "ok", "agent_workload": {}})


async def _run(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, **kwargs: Any
) -> Any:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    llm = LLMClient(settings)
    try:
        async with pipeline_runner(settings, session_factory, event_log, llm=llm, **kwargs) as runner:
            outcome = await runner.run(started.run.id)
    finally:
        await llm.aclose()
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        run = await session.get(AnalysisRun, started.run.id)
        routing = list(await session.scalars(select(RoutingAssignment)))
        verdicts = list(await session.scalars(select(Verdict)))
        events = list(await session.scalars(select(Event).order_by(Event.seq)))
    return seeded, run, routing, verdicts, events


async def test_llm_routing_is_validated_and_gaps_filled_by_rules(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    fake_llm.handler = routing_reply
    settings = llm_settings(services, fake_llm)
    seeded, run, routing, verdicts, events = await _run(settings, session_factory, event_log)

    routed: dict[str, set[str]] = {}
    methods: dict[str, str] = {}
    for row in routing:
        if row.iteration == 0:  # later passes re-route the judge's requests
            routed.setdefault(str(row.claim_id), set()).add(row.agent)
            methods[str(row.claim_id)] = row.method
    assert {row.method for row in routing if row.iteration > 0} <= {"reinvestigation"}
    skipped = claims_in(fake_llm.requests_for(ROUTE_MODEL)[0])[1]["claim_id"]
    for index, claim_id in enumerate(seeded.claim_ids):
        if claim_id == skipped:
            assert routed[claim_id] == pipeline_agents(KNOWN_CLAIMS[index]) and methods[claim_id] == "rules"
        else:
            assert routed[claim_id] == {"news_media"} and methods[claim_id] == "llm", index
    notes = " ".join(e.data.get("message", "") for e in events if e.event_type == "agent_thinking")
    assert "astrology" in notes and "rule route used" in notes

    assert run.usage["calls"] == 1 and run.usage["by_model"][ROUTE_MODEL]["calls"] == 1
    assert run.usage["prompt_tokens"] > 0
    assert len([verdict for verdict in verdicts if verdict.is_final]) == len(KNOWN_CLAIMS)


@pytest.mark.parametrize(
    ("llm_verdict", "verdict", "method", "status"),
    [
        # Weighing the evidence down is the reviewer's call ...
        ("insufficient_evidence", "insufficient_evidence", "llm", "overridden"),
        # ... claiming more than the evidence holds is not: a counting contradiction rules VERIFIED out.
        ("verified", "contradicted", "rules", "refused"),
    ],
)
async def test_judge_llm_reviews_conflicting_evidence_within_what_the_evidence_permits(
    llm_verdict: str,
    verdict: str,
    method: str,
    status: str,
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    def handler(request: dict[str, Any]) -> FakeReply:
        if request["model"] == ROUTE_MODEL:
            claims = claims_in(request)
            assignments = [
                {"claim_id": claim["claim_id"], "assigned_agents": ["academic", "news_media"]}
                for claim in claims
            ]
            return FakeReply(content={"assignments": assignments})
        return FakeReply(
            content={
                "verdict": llm_verdict,
                "reasoning": "The tier-1 report outweighs the benchmark.",
                "confidence": 0.82,
            }
        )

    fake_llm.handler = handler
    settings = llm_settings(services, fake_llm)
    agents = investigators(academic=strong_support, news_media=contradicting)
    seeded, run, routing, verdicts, events = await _run(settings, session_factory, event_log, agents=agents)

    final = [verdict for verdict in verdicts if verdict.is_final]
    assert len(final) == len(KNOWN_CLAIMS)
    assert len(fake_llm.requests_for(JUDGE_MODEL)) >= len(KNOWN_CLAIMS)
    for row in final:
        assert (row.verdict, row.method) == (verdict, method)
        review = row.details["evaluation"]["llm_review"]
        assert review["status"] == status
        assert review["why"] == "The tier-1 report outweighs the benchmark."
        assert review["rule_verdict"] == "contradicted"
    judged = [request for request in fake_llm.requests_for(JUDGE_MODEL)]
    assert (
        '"permitted_verdicts": ["contradicted", "insufficient_evidence"]'
        in judged[0]["messages"][-1]["content"]
    )
    assert run.usage["by_role"]["judgment"]["calls"] >= len(KNOWN_CLAIMS)


@pytest.mark.parametrize(
    "failure",
    [
        FakeReply(status=500, content="boom"),
        FakeReply(status=429, headers={"Retry-After": "0"}),
        FakeReply(body="<html>not json</html>"),
        FakeReply(content="this is not the JSON you asked for"),
        FakeReply(delay=2.0, content={}),
    ],
    ids=["500", "429", "garbage-body", "malformed-content", "timeout"],
)
async def test_llm_failures_are_retried_then_the_rule_path_completes_the_run(
    failure: FakeReply,
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    fake_llm.handler = lambda request: failure
    settings = llm_settings(services, fake_llm)
    seeded, run, routing, verdicts, events = await _run(settings, session_factory, event_log)

    assert len(fake_llm.requests_for(ROUTE_MODEL)) >= 2  # retried (or repaired) before giving up
    expected = {
        claim_id: set(
            with_corroboration(
                rule_route(
                    {
                        "claim_id": claim_id,
                        "text": claim["text"],
                        "claim_type": claim["claim_type"],
                        "priority": "high",
                        "source_page": 1,
                    }
                )
            )["assigned_agents"]
        )
        for claim_id, claim in zip(seeded.claim_ids, KNOWN_CLAIMS, strict=True)
    }
    routed: dict[str, set[str]] = {}
    for row in routing:
        assert row.iteration == 0 and row.method == "rules"
        routed.setdefault(str(row.claim_id), set()).add(row.agent)
    assert routed == expected
    assert run.status == "COMPLETED"
    assert run.usage["failed_calls"] >= 1
    assert len([verdict for verdict in verdicts if verdict.is_final]) == len(KNOWN_CLAIMS)
    notes = " ".join(e.data.get("message", "") for e in events if e.event_type == "agent_thinking")
    assert "LLM routing failed" in notes
    count = len(KNOWN_CLAIMS)
    # Offline besides: no web search and an empty evidence library are said too.
    assert [(w["code"], w["stage"], w["count"], w["total"]) for w in run.warnings] == [
        ("ROUTING_FELL_BACK_TO_RULES", "routing", count, count),
        ("WEB_SEARCH_UNAVAILABLE", "investigating", count, count),
        ("EVIDENCE_LIBRARY_EMPTY", "investigating", count, count),
    ]
    assert run.warnings[0]["message"].startswith(
        f"{count} of {count} claims fell back to the routing matrix: "
    )
    assert [e.data for e in events if e.event_type == "warning"] == run.warnings


async def test_a_failing_judge_review_keeps_the_rule_verdicts_with_a_warning(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    clean_db: None,
) -> None:
    def handler(request: dict[str, Any]) -> FakeReply:
        if request["model"] == ROUTE_MODEL:
            assignments = [
                {"claim_id": claim["claim_id"], "assigned_agents": ["academic", "news_media"]}
                for claim in claims_in(request)
            ]
            return FakeReply(content={"assignments": assignments})
        return FakeReply(status=503, body='{"error": {"message": "overloaded"}}')

    fake_llm.handler = handler
    settings = llm_settings(services, fake_llm)
    agents = investigators(academic=strong_support, news_media=contradicting)
    seeded, run, routing, verdicts, events = await _run(settings, session_factory, event_log, agents=agents)

    final = [verdict for verdict in verdicts if verdict.is_final]
    assert {(row.verdict, row.method) for row in final} == {("contradicted", "rules")}
    assert {row.details["evaluation"]["llm_review"]["status"] for row in final} == {"failed"}
    judge = "JUDGE_REVIEW_FELL_BACK_TO_RULES"
    first_pass = next(w for w in run.warnings if w["iteration"] == 0 and w["code"] == judge)
    count = len(KNOWN_CLAIMS)
    assert first_pass == {
        "code": "JUDGE_REVIEW_FELL_BACK_TO_RULES",
        "stage": "judging",
        "message": f"{count} of {count} LLM reviews of conflicting evidence fell back to the rule verdict: "
        "provider returned HTTP 503",
        "count": count,
        "total": count,
        "iteration": 0,
    }
    assert {w["code"] for w in run.warnings} == {judge, "WEB_SEARCH_UNAVAILABLE", "EVIDENCE_LIBRARY_EMPTY"}
    assert [e.data for e in events if e.event_type == "warning"] == run.warnings
