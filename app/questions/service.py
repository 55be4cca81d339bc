"""`ask_report`: the query pipeline over one report — check, cache, classify (step 1), retrieve
(step 2), answer (step 3) — returning an answer with citations and honest caveats, or refusing with
`AskRefused`."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from redis.asyncio import Redis

from app.config import Settings
from app.db.models import Report, ReportStatus, RunStatus
from app.db.session import SessionFactory
from app.embeddings import Embedder
from app.llm import LLMClient, LLMUnavailable, UsageTrace
from app.questions.answer import extractive_answer, paragraphs_line
from app.questions.cache import answer_key, cached_answer, store_answer
from app.questions.citations import CitationList
from app.questions.classify import classify
from app.questions.index import ReadyIndex, ensure_index
from app.questions.retrieve import RetrievalInput, Retrieved, retrieve
from app.questions.search import QueryVectors
from app.questions.synthesis import UncitedAnswer, llm_answer
from app.questions.types import (
    Answer,
    AnswerMethod,
    AskProblem,
    AskRefused,
    Confidence,
    QueryType,
    ReportFacts,
)

logger = logging.getLogger(__name__)

NOT_PARSED_STATUSES = (ReportStatus.UPLOADED, ReportStatus.PARSING)
#: Fewer relevant passages than this for a search-based answer earns a caveat.
FEW_PASSAGES = 2

NOTHING_MATCHES = "No passage of the report matches this question well; it may not be covered by the report."
FEW_MATCH = "Only {count} passage of the report matches this question; the answer may be incomplete."
NOT_INDEXED_WITH_VECTORS = (
    "Semantic search was unavailable when the report was indexed; passages were found by full-text "
    "search only."
)
NOT_EMBEDDED = (
    "Semantic search is unavailable (the embedder failed); passages were found by full-text search only."
)
LLM_FAILED = "The LLM could not answer, so this answer was assembled extractively from the report's passages."
LLM_UNCITED = (
    "The LLM's answer cited none of the passages it was given, so it is not shown: this answer was "
    "assembled extractively from the report's passages."
)
NO_LLM = "Answered extractively (no LLM configured): the answer quotes the retrieved passages."
CLOSEST_ONLY = (
    "Low confidence: no passage passes the relevance threshold; the passages quoted are the closest "
    "the search found on the question's subject and may not answer it."
)
NOTHING_FOR_LLM = "No passage of the report passed the relevance threshold, so no LLM answer was written."
NEVER_ANALYSED = (
    "This report has not been analysed yet: the answer draws on its {source} only, "
    "with no verdicts or evidence."
)
STILL_RUNNING = (
    "An analysis of this report is still running: verdicts and evidence so far may be incomplete "
    "and can change."
)
RUN_FAILED = (
    "The latest analysis of this report failed before finishing: verdicts and evidence may be incomplete."
)


@dataclass(frozen=True)
class Composed:
    """An answer's text and citations, how they were made, and caveats about the making."""

    text: str
    cited: CitationList
    method: AnswerMethod
    caveats: list[str]
    degraded: bool = False  # a fallback after the LLM failed: not worth caching


@dataclass(frozen=True)
class Answered:
    """An answer, and whether it is a fallback (a failed LLM or embedder) that must not be cached."""

    answer: Answer
    degraded: bool


async def ask_report(
    session_factory: SessionFactory,
    redis: Redis,
    embedder: Embedder,
    llm: LLMClient | None,
    settings: Settings,
    report: Report | None,
    organisation_id: uuid.UUID | None,
    question: str,
) -> Answer:
    """Answer `question` about `report` for `organisation_id`, from the cache when it can.

    A fallback answer (the LLM or the embedder failed) is not cached: once they recover, the next
    ask gets the full answer rather than the degraded one for the cache's lifetime.

    Raises:
        AskRefused: INVALID_QUESTION (empty or too long), NOT_FOUND (no such report, or another
            organisation's), NOT_PARSED (the report has no pages yet).
    """
    asked = validate_question(question, settings)
    report = check_report(report, organisation_id)
    index = await ensure_index(session_factory, embedder, report.id)
    ttl = settings.ask_cache_ttl_seconds
    key = answer_key(report.id, index.state.version, organisation_id, asked) if ttl > 0 else None
    if key is not None and (hit := await cached_answer(redis, key)) is not None:
        hit.question = asked
        return hit
    answered = await answer_question(session_factory, embedder, llm, report, index, asked)
    if key is not None and not answered.degraded:
        await store_answer(redis, report.id, key, answered.answer, ttl)
    return answered.answer


def validate_question(question: str, settings: Settings) -> str:
    """The question without surrounding spaces; refused when empty or over the length limit."""
    asked = question.strip()
    if not asked:
        raise AskRefused(AskProblem.INVALID_QUESTION, "The question is empty.", "question")
    limit = settings.ask_max_question_chars
    if len(asked) > limit:
        raise AskRefused(
            AskProblem.INVALID_QUESTION, f"The question is longer than {limit} characters.", "question"
        )
    return asked


def check_report(report: Report | None, organisation_id: uuid.UUID | None) -> Report:
    """The report if the organisation may ask about it and it has pages to answer from."""
    if report is None or (organisation_id is not None and report.organisation_id != organisation_id):
        raise AskRefused(AskProblem.NOT_FOUND, "No report has this id.", "reportId")
    if report.status in NOT_PARSED_STATUSES or not report.page_count:
        raise AskRefused(
            AskProblem.NOT_PARSED,
            f"The report is {report.status.value}; questions can be asked once it is PARSED.",
            "reportId",
        )
    return report


async def answer_question(
    session_factory: SessionFactory,
    embedder: Embedder,
    llm: LLMClient | None,
    report: Report,
    index: ReadyIndex,
    question: str,
) -> Answered:
    """Classify, retrieve and answer, without the cache."""
    trace = UsageTrace()
    classification = await classify(question, llm, trace)
    run = index.state.run
    vectors = QueryVectors(embedder if index.embedded else None)
    compliance = dict(run.compliance or {}) if run else {}
    given = RetrievalInput(question, classification, vectors, compliance)
    async with session_factory() as session:
        retrieved = await retrieve(session, report.id, given)
    facts = ReportFacts(
        filename=report.filename,
        company_name=report.company_name,
        page_count=report.page_count or 0,
        claim_count=index.state.claim_count,
        run_status=run.status if run else None,
    )
    composed = await compose(llm, question, retrieved, facts, trace)
    search_caveats = [] if index.embedded else [NOT_INDEXED_WITH_VECTORS]
    search_caveats += [NOT_EMBEDDED] if vectors.failed else []
    caveats = [*analysis_caveats(facts), *search_caveats, *retrieval_caveats(retrieved, composed.cited)]
    answer = Answer(
        question=question,
        answer=composed.text,
        query_type=classification.query_type,
        method=composed.method,
        classification_method=classification.method,
        citations=composed.cited.citations,
        caveats=[*caveats, *composed.caveats],
        generated_at=datetime.now(UTC),
        index_version=index.state.version,
        ifrs_paragraphs=list(retrieved.paragraphs),
        confidence=retrieved.confidence,
        searched=list(retrieved.searched_words),
    )
    fell_back = llm is not None and classification.method == "rules"
    return Answered(answer, composed.degraded or fell_back or vectors.failed)


async def compose(
    llm: LLMClient | None, question: str, retrieved: Retrieved, facts: ReportFacts, trace: UsageTrace
) -> Composed:
    """The LLM's answer when one is configured and answers; the extractive answer otherwise.

    A disclosure question nothing in the report addresses is answered "not addressed" without the
    LLM: there is nothing for it to cite, and nothing it could add would be grounded.
    """
    if llm is not None and _nothing_found(retrieved):
        text, cited = extractive_answer(question, retrieved, facts)
        return Composed(text, cited, "extractive", [NOTHING_FOR_LLM])
    if llm is not None:
        try:
            text, cited, caveats = await llm_answer(llm, question, retrieved, facts, trace)
            mapped = paragraphs_line(retrieved.paragraphs)
            if mapped and not all(paragraph in text for paragraph in retrieved.paragraphs):
                text = f"{text}\n{mapped}"
            return Composed(text, cited, "llm", caveats)
        except LLMUnavailable as exc:
            logger.warning("LLM answer failed, answering extractively: %s", exc)
            text, cited = extractive_answer(question, retrieved, facts)
            return Composed(text, cited, "extractive", [LLM_FAILED], degraded=True)
        except UncitedAnswer as exc:
            logger.warning("LLM answer cites no given passage, answering extractively: %s", exc)
            text, cited = extractive_answer(question, retrieved, facts)
            return Composed(text, cited, "extractive", [LLM_UNCITED], degraded=True)
    text, cited = extractive_answer(question, retrieved, facts)
    return Composed(text, cited, "extractive", [NO_LLM])


def _nothing_found(retrieved: Retrieved) -> bool:
    return retrieved.query_type is QueryType.DISCLOSURE and not any(
        passage.relevant for passage in retrieved.passages
    )


def analysis_caveats(facts: ReportFacts) -> list[str]:
    """What the state of the report's analysis means for any answer."""
    if facts.run_status is None:
        source = "pages and extracted claims" if facts.claim_count else "page text"
        return [NEVER_ANALYSED.format(source=source)]
    if facts.run_status in (RunStatus.PENDING, RunStatus.RUNNING):
        return [STILL_RUNNING]
    if facts.run_status == RunStatus.ERROR:
        return [RUN_FAILED]
    return []


def retrieval_caveats(retrieved: Retrieved, cited: CitationList) -> list[str]:
    """Caveats about what was found: too little, or verdicts the judge was unsure of."""
    caveats = []
    relevant = sum(1 for passage in retrieved.passages if passage.relevant)
    if retrieved.confidence is Confidence.LOW:
        caveats.append(CLOSEST_ONLY)
    elif retrieved.searched and relevant == 0:
        caveats.append(NOTHING_MATCHES)
    elif retrieved.searched and relevant < FEW_PASSAGES:
        caveats.append(FEW_MATCH.format(count=relevant))
    low = cited.low_confidence_count()
    if low:
        caveats.append(f"{low} of the cited verdicts have low confidence; treat them with care.")
    return caveats
