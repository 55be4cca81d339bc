"""`ask_report` against real Postgres and Redis, with the offline hashing embedder and no LLM: what
each kind of question cites, the index and its version, the cache, refusals and caveats."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.asyncio import Redis
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import Report, ReportPassage, ReportPassageIndex, ReportStatus
from app.db.session import SessionFactory
from app.embeddings import HashingEmbedder
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions import Answer, AskProblem, AskRefused, QueryType, ask_report, forget_answers
from app.questions.index import ensure_index
from app.questions.service import NOTHING_MATCHES
from app.questions.windows import page_sentences, sentence_windows
from tests.app.questions.seed import (
    BOARD,
    NET_ZERO,
    PAGES,
    REUTERS,
    SCOPE_3,
    TAILINGS,
    add_run,
    page_windows,
    seed_report,
)

pytestmark = pytest.mark.usefixtures("clean_db")

EMBEDDER = HashingEmbedder(384)


async def ask(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    report_id: uuid.UUID,
    question: str,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
) -> Answer:
    async with session_factory() as session:
        report = await session.get(Report, report_id)
    return await ask_report(
        session_factory, redis, EMBEDDER, None, settings, report, organisation_id, question
    )


def cited_claims(answer: Answer) -> set[uuid.UUID]:
    return {citation.claim_id for citation in answer.citations if citation.claim_id}


async def test_verdict_summary_counts_labels_and_cites_the_contradicted_claim_with_its_page(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)

    answer = await ask(session_factory, redis, settings, seeded.report_id, "Which claims were contradicted?")

    assert answer.query_type is QueryType.VERDICT_SUMMARY
    assert answer.method == "extractive" and answer.classification_method == "rules"
    assert (
        "5 claims have a verdict: 1 contradicted, 1 unverified, 1 insufficient evidence and 2 verified."
        in answer.answer
    )
    assert NET_ZERO in answer.answer and "CONTRADICTED" in answer.answer
    assert [(c.kind, c.claim_id, c.page_number) for c in answer.citations] == [
        ("verdict", seeded.claims["net_zero"], 2)
    ]
    assert answer.citations[0].excerpt.startswith("CONTRADICTED: Claim is CONTRADICTED.")  # the final pass
    assert "[1]" in answer.answer
    assert not answer.cached
    assert any("extractively" in caveat for caveat in answer.caveats)


async def test_a_topic_question_cites_the_page_and_claim_that_state_it(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)

    answer = await ask(
        session_factory, redis, settings, seeded.report_id, "What does the report say about scope 3?"
    )

    assert answer.query_type is QueryType.CLAIM_LOOKUP
    assert answer.citations[0].page_number == 3
    assert seeded.claims["scope_3"] in cited_claims(answer)
    assert SCOPE_3 in answer.answer
    assert "INSUFFICIENT EVIDENCE" in answer.answer  # the claim's verdict is shown with it
    assert any("low confidence" in caveat for caveat in answer.caveats)  # that verdict is 0.45
    assert {c.page_number for c in answer.citations} <= {3}


async def test_long_pages_are_windowed_and_a_fact_at_the_end_is_found_on_its_page(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)

    answer = await ask(session_factory, redis, settings, seeded.report_id, "Was the tailings dam inspected?")
    async with session_factory() as session:
        page_6 = await session.scalar(
            select(func.count())
            .select_from(ReportPassage)
            .where(ReportPassage.report_id == seeded.report_id, ReportPassage.page_number == 6)
        )

    # ~2,300 characters in sentence windows of ~420 that overlap by about half
    assert page_6 == len(sentence_windows(page_sentences(6, PAGES[5]))) >= 5
    assert answer.citations[0].kind == "page" and answer.citations[0].page_number == 6
    assert answer.citations[0].excerpt == TAILINGS


async def test_an_evidence_question_finds_the_claim_then_lists_its_contradicting_evidence_first(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)

    answer = await ask(
        session_factory, redis, settings, seeded.report_id, "What evidence contradicts the net-zero claim?"
    )

    assert answer.query_type is QueryType.EVIDENCE
    assert cited_claims(answer) == {seeded.claims["net_zero"]}
    kinds = [citation.kind for citation in answer.citations]
    assert kinds[:3] == ["claim", "verdict", "finding"]
    assert answer.answer.index("Evidence contradicting it:") < answer.answer.index("Inconclusive findings:")
    assert REUTERS in answer.answer and "https://reuters.com/acme" in answer.answer
    assert "CONTRADICTED (confidence 0.82)" in answer.answer


async def test_a_compliance_question_reads_the_runs_map_and_cites_the_claims_behind_it(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)

    answer = await ask(
        session_factory, redis, settings, seeded.report_id, "Which IFRS S2 paragraphs are unsupported?"
    )

    assert answer.query_type is QueryType.COMPLIANCE
    assert "IFRS paragraphs assessed: 5 (1 contradicted, 2 unsupported, 2 supported)." in answer.answer
    assert "S2.29(a)(iii)" in answer.answer
    assert "S1.46" not in answer.answer  # an S1 paragraph: the question asks about S2
    assert "S2.29(a)(i):" not in answer.answer  # supported
    assert [(c.claim_id, c.page_number) for c in answer.citations] == [(seeded.claims["scope_3"], 3)]


@pytest.mark.parametrize(
    ("question", "query_type", "claims", "pages", "says"),
    [
        ("Which emissions claims were verified?", QueryType.VERDICT_SUMMARY, ["scope_1"], [3], "VERIFIED"),
        (
            "What did the judge say about the water claim?",
            QueryType.VERDICT_SUMMARY,
            ["water"],
            [4],
            "UNVERIFIED",
        ),
        ("Is S2.29(a) met?", QueryType.COMPLIANCE, ["scope_3", "scope_1"], [3], "unsupported"),
        ("What does page 4 say?", QueryType.CLAIM_LOOKUP, ["water"], [4], "412 megalitres"),
        ("What is the company's water use?", QueryType.CLAIM_LOOKUP, ["water"], [4], "412 megalitres"),
        (
            "Summarise this report",
            QueryType.GENERAL,
            ["net_zero", "water", "scope_3", "scope_1", "board"],
            [2, 4, 3, 3, 5],
            "Key claims, worst verdicts first:",
        ),
    ],
)
async def test_what_each_question_cites(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    question: str,
    query_type: QueryType,
    claims: list[str],
    pages: list[int],
    says: str,
) -> None:
    seeded = await seed_report(session_factory)

    answer = await ask(session_factory, redis, settings, seeded.report_id, question)

    assert answer.query_type is query_type
    cited = [c.claim_id for c in answer.citations if c.claim_id]
    assert list(dict.fromkeys(cited)) == [seeded.claims[name] for name in claims]
    assert list(dict.fromkeys(c.page_number for c in answer.citations)) == list(dict.fromkeys(pages))
    assert says in answer.answer


async def test_answers_are_cached_until_forgotten(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)
    question = "Which claims were contradicted?"

    first = await ask(session_factory, redis, settings, seeded.report_id, question)
    second = await ask(
        session_factory, redis, settings, seeded.report_id, "  which claims were CONTRADICTED "
    )
    forgotten = await forget_answers(redis, seeded.report_id)
    third = await ask(session_factory, redis, settings, seeded.report_id, question)

    assert (first.cached, second.cached, third.cached) == (False, True, False)
    assert second.answer == first.answer and second.citations == first.citations
    assert second.generated_at == first.generated_at and second.question == "which claims were CONTRADICTED"
    assert forgotten == 1
    assert third.generated_at > first.generated_at
    assert await forget_answers(redis, seeded.report_id) == 1
    assert await forget_answers(redis, uuid.uuid4()) == 0


async def test_no_cache_when_the_ttl_is_zero(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)
    uncached = settings.model_copy(update={"ask_cache_ttl_seconds": 0})

    await ask(session_factory, redis, uncached, seeded.report_id, "Which claims were contradicted?")
    again = await ask(session_factory, redis, uncached, seeded.report_id, "Which claims were contradicted?")

    assert not again.cached
    assert await redis.keys("sibyl:ask*") == []


async def test_a_new_analysis_changes_the_index_version_and_the_answer(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)
    question = "Which claims were contradicted?"
    before = await ask(session_factory, redis, settings, seeded.report_id, question)

    await add_run(session_factory, seeded, {"net_zero": "verified", "water": "contradicted"})
    after = await ask(session_factory, redis, settings, seeded.report_id, question)

    assert after.index_version != before.index_version
    assert not after.cached
    assert cited_claims(before) == {seeded.claims["net_zero"]}
    assert cited_claims(after) == {seeded.claims["water"]}
    assert "2 claims have a verdict: 1 contradicted and 1 verified." in after.answer


async def test_the_index_is_built_once_when_two_first_questions_race(
    session_factory: SessionFactory, settings: Settings
) -> None:
    seeded = await seed_report(session_factory)

    results = await asyncio.gather(
        *(ensure_index(session_factory, EMBEDDER, seeded.report_id) for _ in range(4))
    )
    again = await ensure_index(session_factory, EMBEDDER, seeded.report_id)
    async with session_factory() as session:
        rows = await session.scalar(
            select(func.count()).select_from(ReportPassage).where(ReportPassage.report_id == seeded.report_id)
        )
        stored = await session.get(ReportPassageIndex, seeded.report_id)

    assert sum(result.rebuilt for result in results) == 1
    assert not again.rebuilt and again.embedded
    assert stored is not None and rows == stored.passage_count
    # page windows, 5 claims, 5 final verdicts, 3 findings (the provider error is left out)
    assert rows == len(page_windows()) + 5 + 5 + 3


async def test_a_report_never_analysed_is_answered_from_its_pages_with_a_caveat(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory, status=ReportStatus.PARSED, run_status=None)

    lookup = await ask(session_factory, redis, settings, seeded.report_id, "Who oversees climate risk?")
    verdicts = await ask(
        session_factory, redis, settings, seeded.report_id, "Which claims were contradicted?"
    )

    assert lookup.citations[0].kind == "page" and lookup.citations[0].page_number == 5
    assert BOARD in lookup.answer
    assert "has not been analysed yet" in lookup.caveats[0]
    assert verdicts.answer == "No claim of this report has a verdict yet."
    assert verdicts.citations == []


async def test_a_running_analysis_and_an_unmatched_question_earn_caveats(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    seeded = await seed_report(session_factory, status=ReportStatus.ANALYZING, run_status="RUNNING")

    answer = await ask(session_factory, redis, settings, seeded.report_id, "quantum chromodynamics lattice")

    assert "still running" in answer.caveats[0]
    assert NOTHING_MATCHES in answer.caveats
    assert "does not appear to address this" in answer.answer
    assert answer.citations == []


@pytest.mark.parametrize(
    ("question", "message"),
    [("", "empty"), ("   \n\t ", "empty"), ("x" * 1001, "longer than 1000 characters")],
)
async def test_empty_or_too_long_questions_are_refused(
    session_factory: SessionFactory, redis: Redis, settings: Settings, question: str, message: str
) -> None:
    seeded = await seed_report(session_factory)

    with pytest.raises(AskRefused) as refused:
        await ask(session_factory, redis, settings, seeded.report_id, question)

    assert refused.value.problem is AskProblem.INVALID_QUESTION
    assert refused.value.field == "question" and message in refused.value.message


async def test_unparsed_unknown_and_foreign_reports_are_refused(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    unparsed = await seed_report(session_factory, status=ReportStatus.UPLOADED, pages=[], run_status=None)
    seeded = await seed_report(session_factory)

    with pytest.raises(AskRefused) as not_parsed:
        await ask(session_factory, redis, settings, unparsed.report_id, "Anything?")
    with pytest.raises(AskRefused) as foreign:
        await ask(
            session_factory, redis, settings, seeded.report_id, "Anything?", organisation_id=uuid.uuid4()
        )
    with pytest.raises(AskRefused) as unknown:
        await ask_report(
            session_factory, redis, EMBEDDER, None, settings, None, LOCAL_ORGANISATION_ID, "Anything?"
        )

    assert (not_parsed.value.problem, not_parsed.value.field) == (AskProblem.NOT_PARSED, "reportId")
    assert (foreign.value.problem, foreign.value.field) == (AskProblem.NOT_FOUND, "reportId")
    assert unknown.value.problem is AskProblem.NOT_FOUND
