"""Cost limits of the LLM claims path: the final claims keep the rules' density budget (at most 1.5
per page, at least 100, best-ranked first), and the dedup model confirms at most
CLAIMS_DEDUP_LLM_BUDGET pairs per report, the lexical rule deciding the others, with a warning."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.claims.agent import ClaimsAgent, degradation_warnings
from app.claims.rules import MAX_CLAIMS_PER_PAGE, MIN_BUDGET
from app.config import Settings
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.knowledge.search import KnowledgeSearch
from app.knowledge.store import sync_registry
from app.llm import LLMClient, UsageTrace
from tests.conftest import make_settings
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.services import RunningServices

EXTRACT_MODEL, DEDUP_MODEL = "test/extract-model", "test/dedup-model"
PAGES = 80
SITES = ("Alder", "Birch", "Cedar", "Damson", "Elm")


def sentences(page: int) -> list[str]:
    """Five claims per page, each with its own site and figures."""
    return [
        f"Scope 1 emissions at the {site} plant {page} fell {page % 40 + 2}.{index}% to "
        f"{1000 * page + index * 17:,} tCO2e in 2023."
        for index, site in enumerate(SITES)
    ]


def report() -> list[tuple[int, str]]:
    return [(page, " ".join(sentences(page))) for page in range(1, PAGES + 1)]


def fake_model(request: dict[str, Any]) -> FakeReply:
    if request["model"] == DEDUP_MODEL:
        return FakeReply(content={"duplicate": False, "keep": 1, "reason": "different figures"})
    user = next(message["content"] for message in request["messages"] if message["role"] == "user")
    window = re.search(r"Report pages (\d+)-(\d+)", user)
    assert window is not None
    claims = [
        {"claim_text": text, "claim_type": "quantitative", "source_page": page, "source_context": text}
        for page in range(int(window.group(1)), int(window.group(2)) + 1)
        for text in sentences(page)
    ]
    return FakeReply(content={"claims": claims, "extraction_summary": "ok"})


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as fake:
        fake.handler = fake_model
        yield fake


async def extract(settings: Settings, session_factory: SessionFactory) -> tuple[list[Any], Any]:
    embedder = create_embedder(settings)
    await sync_registry(session_factory, embedder)
    llm = LLMClient(settings)
    try:
        agent = ClaimsAgent(settings, llm, embedder, KnowledgeSearch(session_factory, embedder))
        return await agent.extract(report(), trace=UsageTrace())
    finally:
        await llm.aclose()


def limited_settings(services: RunningServices, fake: FakeLLM, dedup_budget: int) -> Settings:
    return make_settings(
        services,
        **settings_for(
            fake,
            llm_model_extraction=EXTRACT_MODEL,
            llm_model_dedup=DEDUP_MODEL,
            llm_max_retries=0,
            # Thousands of dedup calls on a loaded machine: the fake's 1 s limit would time some out,
            # and these tests count calls, not timeouts.
            llm_timeout_seconds=30.0,
            claims_dedup_llm_budget=dedup_budget,
            claims_similarity_threshold=0.5,  # many candidate pairs from these alike sentences
        ),
    )


async def test_llm_claims_keep_the_density_budget_and_dedup_its_call_budget(
    services: RunningServices, session_factory: SessionFactory, fake_llm: FakeLLM
) -> None:
    settings = limited_settings(services, fake_llm, dedup_budget=7)
    claims, stats = await extract(settings, session_factory)

    budget = max(MIN_BUDGET, int(PAGES * MAX_CLAIMS_PER_PAGE))
    assert budget == 120
    found = stats.candidates - stats.dedup.exact - stats.dedup.confirmed
    assert found == PAGES * len(SITES)  # every page's claims, once (the overlap's repeats merged)
    assert len(claims) == stats.claims == budget
    assert stats.to_dict()["dropped_by_budget"] == found - budget
    assert [c.claim.source_page for c in claims] == sorted(c.claim.source_page for c in claims)

    dedup = stats.dedup
    assert dedup.candidate_pairs > 7
    assert len(fake_llm.requests_for(DEDUP_MODEL)) == 7
    assert dedup.over_llm_budget == dedup.candidate_pairs - 7
    warning = next(w for w in degradation_warnings(stats) if w["code"] == "DEDUP_FELL_BACK_TO_RULES")
    assert warning["count"] == dedup.candidate_pairs - 7 and warning["total"] == dedup.candidate_pairs
    assert "CLAIMS_DEDUP_LLM_BUDGET" in warning["message"]


async def test_a_report_within_both_budgets_is_not_cut(
    services: RunningServices, session_factory: SessionFactory, fake_llm: FakeLLM
) -> None:
    settings = limited_settings(services, fake_llm, dedup_budget=100_000)
    claims, stats = await extract(settings, session_factory)

    assert stats.dedup.over_llm_budget == 0
    assert len(fake_llm.requests_for(DEDUP_MODEL)) == stats.dedup.candidate_pairs
    assert not [w for w in degradation_warnings(stats) if w["code"] == "DEDUP_FELL_BACK_TO_RULES"]
    assert len(claims) == 120  # the claim budget still applies; the dedup budget changed nothing else
