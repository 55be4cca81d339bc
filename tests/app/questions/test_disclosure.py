"""Disclosure questions against a generated report with planted passages (real Postgres and Redis,
offline hashing embedder): the planted sentences are found and cited with their pages, the IFRS
paragraph the question maps to is carried, and a topic the report never covers is "not addressed"
with no citation, with or without an LLM."""

from __future__ import annotations

import re
from typing import Any

import pytest
from redis.asyncio import Redis

from app.config import Settings
from app.db.models import Report
from app.db.session import SessionFactory
from app.embeddings import HashingEmbedder
from app.llm import LLMClient
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions import Answer, QueryType, ask_report
from app.questions.answer import NOT_ADDRESSED
from app.questions.service import NOTHING_FOR_LLM, NOTHING_MATCHES
from tests.app.questions.conftest import ANSWER_MODEL, ROUTE_MODEL
from tests.fixtures.disclosure_report import (
    ANALYST_QUESTIONS,
    ASSOCIATIONS,
    BOARD,
    CARBON_PRICE,
    SCENARIO_QUESTION,
    SCENARIOS,
    TAILINGS_QUESTION,
    DisclosureReport,
    disclosure_report,
    store_report,
)
from tests.support.fake_llm import FakeLLM, FakeReply

pytestmark = pytest.mark.usefixtures("clean_db")

EMBEDDER = HashingEmbedder(384)


@pytest.fixture(scope="module")
def generated() -> DisclosureReport:
    return disclosure_report()


async def ask(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    report: Report,
    question: str,
    llm: LLMClient | None = None,
) -> Answer:
    return await ask_report(
        session_factory, redis, EMBEDDER, llm, settings, report, LOCAL_ORGANISATION_ID, question
    )


@pytest.mark.parametrize(
    ("question", "sentence", "paragraph"),
    [
        (SCENARIO_QUESTION, SCENARIOS, "S2.22"),
        ("Does the company engage with industry associations on climate policy?", ASSOCIATIONS, None),
        ("Does the company use an internal carbon price?", CARBON_PRICE, "S2.29(f)"),
        ("How does the board oversee climate risks?", BOARD, "S2.6"),
    ],
)
async def test_planted_disclosures_are_quoted_and_cited_with_their_pages(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    generated: DisclosureReport,
    question: str,
    sentence: str,
    paragraph: str | None,
) -> None:
    report = await store_report(session_factory, generated)

    answer = await ask(session_factory, redis, settings, report, question)

    page = generated.planted[sentence]
    assert answer.query_type is QueryType.DISCLOSURE
    assert answer.method == "extractive"
    first = answer.citations[0]
    assert (first.kind, first.page_number) == ("page", page)
    assert sentence in first.excerpt
    assert f'- Page {page}: "' in answer.answer and "[1]" in answer.answer
    assert re.search(
        rf"^These passages appear to address this \(pages? [\d, ]*\b{page}\b[\d, ]*\):", answer.answer
    )
    assert len({c.page_number for c in answer.citations}) <= 3
    if paragraph is not None:
        assert paragraph in answer.ifrs_paragraphs
        assert (
            f"IFRS requirement this question maps to: {paragraph} "
            in answer.answer.replace("requirements", "requirement")
            or paragraph in answer.answer
        )


@pytest.mark.parametrize(("question", "sentence"), list(ANALYST_QUESTIONS.items()))
async def test_analyst_wording_finds_passages_worded_otherwise_through_the_vocabulary(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    generated: DisclosureReport,
    question: str,
    sentence: str,
) -> None:
    """The question and the planted sentence share (almost) no words: "pay ... tied" is found as
    "incentive ... depends on", "sites ... exposed ... hazards" as "depots ... flooding exposure",
    "other firms in its sector" as "trade associations"."""
    report = await store_report(session_factory, generated)

    answer = await ask(session_factory, redis, settings, report, question)

    assert answer.query_type is QueryType.DISCLOSURE
    first = answer.citations[0]
    assert (first.kind, first.page_number) == ("page", generated.planted[sentence])
    assert sentence in first.excerpt


async def test_a_topic_the_report_never_covers_is_not_addressed_and_cites_nothing(
    session_factory: SessionFactory, redis: Redis, settings: Settings, generated: DisclosureReport
) -> None:
    report = await store_report(session_factory, generated)

    answer = await ask(session_factory, redis, settings, report, TAILINGS_QUESTION)

    assert answer.query_type is QueryType.DISCLOSURE
    assert answer.answer.startswith(NOT_ADDRESSED)
    assert answer.citations == []
    assert NOTHING_MATCHES in answer.caveats


def disclosure_llm(request: dict[str, Any]) -> FakeReply:
    """Classifies as DISCLOSURE; answers citing the passage that holds the scenario sentence."""
    user = request["messages"][1]["content"]
    if request["model"] == ROUTE_MODEL:
        return FakeReply(content={"reasoning": "asks what is disclosed", "query_type": "disclosure"})
    label = next(
        match.group(1)
        for block in user.split("\n\n")
        if (match := re.search(r"\[(P\d+)\] page", block)) and "1.5°C scenario" in block
    )
    return FakeReply(
        content={
            "answer": f"Yes: the strategy was tested against 1.5°C and 3°C scenarios [{label}].",
            "citations": [label],
        }
    )


async def test_the_llm_answer_cites_the_retrieved_sentences_and_carries_the_paragraph(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    generated: DisclosureReport,
    llm: LLMClient,
    fake_llm: FakeLLM,
) -> None:
    report = await store_report(session_factory, generated)
    fake_llm.handler = disclosure_llm

    answer = await ask(session_factory, redis, settings, report, SCENARIO_QUESTION, llm=llm)

    assert (answer.method, answer.classification_method) == ("llm", "llm")
    assert answer.query_type is QueryType.DISCLOSURE
    assert answer.answer.startswith("Yes: the strategy was tested against 1.5°C and 3°C scenarios [1].")
    assert "S2.22" in answer.answer and "S2.22" in answer.ifrs_paragraphs
    assert [(c.kind, c.page_number) for c in answer.citations] == [("page", generated.planted[SCENARIOS])]
    synthesis = fake_llm.requests_for(ANSWER_MODEL)[0]
    assert "IFRS requirement the question maps to: S2.22" in synthesis["messages"][1]["content"]


async def test_with_an_llm_an_uncovered_topic_is_still_not_addressed_without_asking_it_to_answer(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    generated: DisclosureReport,
    llm: LLMClient,
    fake_llm: FakeLLM,
) -> None:
    report = await store_report(session_factory, generated)
    fake_llm.handler = disclosure_llm

    answer = await ask(session_factory, redis, settings, report, TAILINGS_QUESTION, llm=llm)

    assert answer.answer.startswith(NOT_ADDRESSED) and answer.citations == []
    assert answer.method == "extractive" and NOTHING_FOR_LLM in answer.caveats
    assert fake_llm.requests_for(ANSWER_MODEL) == []
