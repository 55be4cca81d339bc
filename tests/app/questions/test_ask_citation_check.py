"""An LLM answer is shown only for what its citations back: statements citing passages the model was
not given are dropped, an answer citing none of its passages falls back to the extractive answer, and
fallback answers are not cached (real Postgres and Redis, a fake LLM over HTTP)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from redis.asyncio import Redis

from app.config import Settings
from app.db.models import Report
from app.db.session import SessionFactory
from app.embeddings import HashingEmbedder
from app.llm import LLMClient
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions import Answer, ask_report
from app.questions.service import LLM_FAILED, LLM_UNCITED
from app.questions.synthesis import DROPPED_STATEMENTS, UNCITED_STATEMENTS, UNKNOWN_CITATIONS
from tests.app.questions.conftest import ROUTE_MODEL
from tests.app.questions.seed import REUTERS, seed_report
from tests.support.fake_llm import FakeLLM, FakeReply

pytestmark = pytest.mark.usefixtures("clean_db")

QUESTION = "What evidence contradicts the net-zero claim?"
UNBACKED = "All of the company's emissions claims were verified by Reuters and the BBC"


async def ask(
    session_factory: SessionFactory, redis: Redis, settings: Settings, report_id: uuid.UUID, llm: LLMClient
) -> Answer:
    async with session_factory() as session:
        report = await session.get(Report, report_id)
    return await ask_report(
        session_factory, redis, HashingEmbedder(384), llm, settings, report, LOCAL_ORGANISATION_ID, QUESTION
    )


def answering(write: Callable[[str], str], caveats: list[str] | None = None) -> Callable[..., FakeReply]:
    """A fake LLM that classifies as EVIDENCE and answers with `write(user_prompt)`."""

    def handler(request: dict[str, Any]) -> FakeReply:
        if request["model"] == ROUTE_MODEL:
            return FakeReply(
                content={"reasoning": "evidence", "query_type": "EVIDENCE", "terms": ["net-zero"]}
            )
        user = request["messages"][1]["content"]
        text = write(user)
        cited = re.findall(r"P\d+", text)
        return FakeReply(content={"answer": text, "citations": cited, "caveats": caveats or []})

    return handler


def label_of(user: str, needle: str) -> str:
    """The id ("P3") under which the prompt shows the passage containing `needle`."""
    for block in user.split("\n\n"):
        match = re.match(r"\[(P\d+)\] ", block)
        if match and needle in block:
            return match.group(1)
    raise AssertionError(f"no passage with {needle!r} in the prompt")


async def test_an_answer_citing_only_a_passage_it_was_not_given_falls_back_to_the_extractive_answer(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)
    fake_llm.handler = answering(lambda user: f"{UNBACKED} [P99].")

    answer = await ask(session_factory, redis, settings, seeded.report_id, llm)

    assert answer.method == "extractive"
    assert LLM_UNCITED in answer.caveats
    assert "BBC" not in answer.answer and REUTERS in answer.answer
    assert answer.citations and {c.claim_id for c in answer.citations} == {seeded.claims["net_zero"]}
    assert not re.search(r"\[P\d+\]", answer.answer)


async def test_an_answer_in_a_marker_format_never_shown_falls_back_too(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)
    fake_llm.handler = answering(lambda user: f"{UNBACKED} [1]. The judge agreed [2].")

    answer = await ask(session_factory, redis, settings, seeded.report_id, llm)

    assert (answer.method, LLM_UNCITED in answer.caveats) == ("extractive", True)
    assert "BBC" not in answer.answer


async def test_statements_citing_only_unknown_passages_are_dropped_and_dangling_markers_removed(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)

    def write(user: str) -> str:
        reuters = label_of(user, "Reuters reported")
        return (
            f"Reuters reported that the target date moved to 2050 [{reuters}][P99]. {UNBACKED}. "
            "Regulators confirmed it [P42].\n"
            "- The company denies any delay [3].\n"
            f"- The claim is contradicted ({reuters}).\n"
            "The passages do not say why."
        )

    fake_llm.handler = answering(write, caveats=["One news source only."])

    answer = await ask(session_factory, redis, settings, seeded.report_id, llm)

    assert answer.method == "llm"
    assert answer.answer == (
        "Reuters reported that the target date moved to 2050 [1].\n"
        "- The claim is contradicted [1].\n"
        "The passages do not say why."
    )
    assert [c.claim_id for c in answer.citations] == [seeded.claims["net_zero"]]
    assert answer.citations[0].excerpt == REUTERS
    assert DROPPED_STATEMENTS.format(count=3) in answer.caveats
    assert UNCITED_STATEMENTS.format(count=1) in answer.caveats
    assert "One news source only." in answer.caveats


async def test_an_unknown_marker_beside_a_given_one_is_removed_with_a_caveat(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)
    fake_llm.handler = answering(
        lambda user: f"The date moved to 2050 [{label_of(user, 'Reuters reported')}, P99]."
    )

    answer = await ask(session_factory, redis, settings, seeded.report_id, llm)

    assert (answer.method, answer.answer) == ("llm", "The date moved to 2050 [1].")
    assert UNKNOWN_CITATIONS in answer.caveats
    assert not any("statement" in caveat for caveat in answer.caveats)


async def test_a_fallback_answer_is_not_cached_so_the_recovered_llm_answers_next(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)
    fake_llm.handler = lambda request: FakeReply(status=500, body='{"error": "down"}')
    degraded = await ask(session_factory, redis, settings, seeded.report_id, llm)
    fake_llm.handler = answering(
        lambda user: f"The date moved to 2050 [{label_of(user, 'Reuters reported')}]."
    )

    recovered = await ask(session_factory, redis, settings, seeded.report_id, llm)
    again = await ask(session_factory, redis, settings, seeded.report_id, llm)

    assert (degraded.method, LLM_FAILED in degraded.caveats) == ("extractive", True)
    assert (recovered.method, recovered.cached) == ("llm", False)
    assert recovered.answer == "The date moved to 2050 [1]."
    assert (again.method, again.cached, again.answer) == ("llm", True, recovered.answer)


async def test_an_uncited_fallback_is_not_cached_either(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)
    fake_llm.handler = answering(lambda user: f"{UNBACKED} [P99].")

    first = await ask(session_factory, redis, settings, seeded.report_id, llm)
    second = await ask(session_factory, redis, settings, seeded.report_id, llm)

    assert (first.method, second.method, second.cached) == ("extractive", "extractive", False)
    assert len(fake_llm.requests) == 4  # both asks classified and answered by the LLM


async def test_passages_listed_but_never_cited_inline_do_not_back_an_answer(
    session_factory: SessionFactory, redis: Redis, settings: Settings, llm: LLMClient, fake_llm: FakeLLM
) -> None:
    seeded = await seed_report(session_factory)

    def handler(request: dict[str, Any]) -> FakeReply:
        if request["model"] == ROUTE_MODEL:
            return FakeReply(content={"reasoning": "evidence", "query_type": "EVIDENCE", "terms": []})
        reuters = label_of(request["messages"][1]["content"], "Reuters reported")
        return FakeReply(content={"answer": f"{UNBACKED}.", "citations": [reuters]})

    fake_llm.handler = handler

    answer = await ask(session_factory, redis, settings, seeded.report_id, llm)

    assert (answer.method, LLM_UNCITED in answer.caveats) == ("extractive", True)
    assert "BBC" not in answer.answer
