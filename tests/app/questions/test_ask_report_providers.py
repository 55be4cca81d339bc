"""`ask_report` with real provider clients against local fakes speaking the real protocols: an LLM
that classifies and answers (its citations checked), an LLM that fails, and embeddings that fail."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import Report, ReportPassage, ReportPassageIndex
from app.db.session import SessionFactory
from app.embeddings import Embedder, HashingEmbedder, create_embedder
from app.llm import LLMClient
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions import Answer, QueryType, ask_report
from app.questions.service import LLM_FAILED, NOT_EMBEDDED, NOT_INDEXED_WITH_VECTORS
from tests.app.questions.conftest import ANSWER_MODEL, ROUTE_MODEL
from tests.app.questions.seed import NET_ZERO, REUTERS, TAILINGS, add_run, page_windows, seed_report
from tests.conftest import make_settings
from tests.support.fake_embeddings import FakeEmbeddingReply, FakeEmbeddings, fake_embeddings_server
from tests.support.fake_llm import FakeLLM, FakeReply
from tests.support.services import RunningServices

pytestmark = pytest.mark.usefixtures("clean_db")

QUESTION = "What evidence contradicts the net-zero claim?"


@pytest.fixture
async def fake_embeddings() -> AsyncIterator[FakeEmbeddings]:
    async with fake_embeddings_server() as fake:
        yield fake


async def ask(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    report_id: uuid.UUID,
    question: str,
    *,
    llm: LLMClient | None = None,
    embedder: Embedder | None = None,
) -> Answer:
    async with session_factory() as session:
        report = await session.get(Report, report_id)
    return await ask_report(
        session_factory,
        redis,
        embedder or HashingEmbedder(384),
        llm,
        settings,
        report,
        LOCAL_ORGANISATION_ID,
        question,
    )


def passage_label(user_prompt: str, needle: str) -> str:
    """The id ("P3") under which the prompt shows the passage containing `needle`."""
    for block in user_prompt.split("\n\n"):
        match = re.match(r"\[(P\d+)\] (\w+)", block)
        if match and needle in block:
            return match.group(1)
    raise AssertionError(f"no passage with {needle!r} in the prompt")


def scripted_llm(request: dict[str, Any]) -> FakeReply:
    """Classifies as EVIDENCE; answers citing the Reuters finding, a passage id never given, and the
    verdict."""
    system, user = (message["content"] for message in request["messages"][:2])
    if request["model"] == ROUTE_MODEL:
        return FakeReply(
            content={"reasoning": "asks for evidence", "query_type": "evidence", "terms": ["net-zero"]}
        )
    reuters = passage_label(user, "Reuters reported")
    verdict = next(label for label in re.findall(r"\[(P\d+)\] verdict", user))
    answer = (
        f"Reuters reported that the net-zero date was pushed back to 2050 [{reuters}][P99]. "
        f"The judge found the claim contradicted [{verdict}, P42]."
    )
    return FakeReply(
        content={
            "reasoning": "one credible news source contradicts the claim",
            "answer": answer,
            "citations": [reuters, "P99", verdict],
            "caveats": ["Only one news source contradicts the claim."],
        }
    )


async def test_with_an_llm_the_question_is_classified_and_answered_with_checked_citations(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)
    fake_llm.handler = scripted_llm

    answer = await ask(session_factory, redis, settings, seeded.report_id, QUESTION, llm=llm)

    assert (answer.method, answer.classification_method) == ("llm", "llm")
    assert answer.query_type is QueryType.EVIDENCE
    assert answer.answer == (
        "Reuters reported that the net-zero date was pushed back to 2050 [1]. The judge found the claim "
        "contradicted [2]."
    )
    assert [(c.kind, c.claim_id, c.page_number) for c in answer.citations] == [
        ("finding", seeded.claims["net_zero"], 2),
        ("verdict", seeded.claims["net_zero"], 2),
    ]
    assert answer.citations[0].excerpt == REUTERS
    assert "Only one news source contradicts the claim." in answer.caveats
    assert not any("extractive" in caveat for caveat in answer.caveats)
    route, synthesis = fake_llm.requests
    assert route["model"] == ROUTE_MODEL and synthesis["model"] == ANSWER_MODEL
    assert NET_ZERO in synthesis["messages"][1]["content"]
    assert "Cite only ids that appear in the passages" in " ".join(
        synthesis["messages"][0]["content"].split()
    )


@pytest.mark.parametrize(
    "reply",
    [
        FakeReply(status=500, body='{"error": "down"}'),
        FakeReply(content="I would rather not answer in JSON."),
    ],
    ids=["http-500", "not-json"],
)
async def test_when_the_llm_fails_the_rules_classify_and_the_answer_is_extractive(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    llm: LLMClient,
    fake_llm: FakeLLM,
    reply: FakeReply,
) -> None:
    seeded = await seed_report(session_factory)
    fake_llm.handler = lambda request: reply

    answer = await ask(session_factory, redis, settings, seeded.report_id, QUESTION, llm=llm)

    assert (answer.method, answer.classification_method) == ("extractive", "rules")
    assert answer.query_type is QueryType.EVIDENCE
    assert LLM_FAILED in answer.caveats
    assert REUTERS in answer.answer
    assert {c.claim_id for c in answer.citations} == {seeded.claims["net_zero"]}
    assert {request["model"] for request in fake_llm.requests} == {ROUTE_MODEL, ANSWER_MODEL}


async def test_an_index_built_while_embeddings_are_down_is_searched_by_full_text(
    session_factory: SessionFactory,
    redis: Redis,
    services: RunningServices,
    fake_embeddings: FakeEmbeddings,
) -> None:
    seeded = await seed_report(session_factory)
    settings = api_embedding_settings(services, fake_embeddings)
    fake_embeddings.script(*[FakeEmbeddingReply(status=400)] * 5)  # 400 is final: no retries

    answer = await ask(
        session_factory,
        redis,
        settings,
        seeded.report_id,
        "tailings dam inspection",
        embedder=create_embedder(settings),
    )
    async with session_factory() as session:
        stored = await session.get(ReportPassageIndex, seeded.report_id)
        vectors = list(
            await session.scalars(
                select(ReportPassage.embedding_model).where(ReportPassage.report_id == seeded.report_id)
            )
        )

    assert answer.citations[0].excerpt == TAILINGS and answer.citations[0].page_number == 6
    assert NOT_INDEXED_WITH_VECTORS in answer.caveats
    assert stored is not None and stored.embedding_model is None
    assert set(vectors) == {None}
    assert len(fake_embeddings.requests) == 1  # the question is not embedded for an index without vectors


async def test_a_question_the_embedder_cannot_embed_is_searched_by_full_text(
    session_factory: SessionFactory,
    redis: Redis,
    services: RunningServices,
    fake_embeddings: FakeEmbeddings,
) -> None:
    seeded = await seed_report(session_factory)
    settings = api_embedding_settings(services, fake_embeddings)
    embedder = create_embedder(settings)
    first = await ask(
        session_factory, redis, settings, seeded.report_id, "Who oversees climate risk?", embedder=embedder
    )
    fake_embeddings.script(FakeEmbeddingReply(status=400))

    answer = await ask(
        session_factory, redis, settings, seeded.report_id, "tailings dam inspection", embedder=embedder
    )

    assert NOT_EMBEDDED not in first.caveats and first.citations[0].page_number == 5
    assert NOT_EMBEDDED in answer.caveats
    assert answer.citations[0].excerpt == TAILINGS


async def test_a_rebuild_embeds_only_the_passages_that_changed(
    session_factory: SessionFactory,
    redis: Redis,
    services: RunningServices,
    fake_embeddings: FakeEmbeddings,
) -> None:
    seeded = await seed_report(session_factory)
    settings = api_embedding_settings(services, fake_embeddings)
    embedder = create_embedder(settings)
    await ask(
        session_factory, redis, settings, seeded.report_id, "tailings dam inspection", embedder=embedder
    )
    first_build = [len(request["input"]) for request in fake_embeddings.requests]
    fake_embeddings.requests.clear()

    await add_run(session_factory, seeded, {"net_zero": "verified", "water": "contradicted"})
    answer = await ask(
        session_factory,
        redis,
        settings,
        seeded.report_id,
        "Which claims were contradicted?",
        embedder=embedder,
    )

    # every distinct passage text (repeated filler windows are embedded once), then the question's words
    assert first_build[0] == len(set(page_windows())) + 5 + 5 + 3
    rebuild = [request["input"] for request in fake_embeddings.requests]
    assert len(rebuild[0]) == 2 and all(
        text.startswith("Verdict ") for text in rebuild[0]
    )  # the new verdicts
    assert {c.claim_id for c in answer.citations} == {seeded.claims["water"]}
    async with session_factory() as session:
        missing = await session.scalar(
            select(func.count())
            .select_from(ReportPassage)
            .where(ReportPassage.report_id == seeded.report_id, ReportPassage.embedding.is_(None))
        )
    assert missing == 0


def api_embedding_settings(services: RunningServices, fake: FakeEmbeddings) -> Settings:
    return make_settings(
        services,
        embedding_provider="api",
        embedding_api_key="test-key",
        embedding_base_url=fake.url,
        embedding_dimensions=256,
        llm_max_retries=0,
    )
