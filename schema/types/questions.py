"""`askReport`: questions about one report, answered with citations (types, error, result union)."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Annotated

import strawberry
from strawberry.relay import GlobalID

from app.questions import Answer, AskProblem, AskRefused, Confidence, ask_report
from app.questions import Citation as CitationValue
from app.questions import QueryType as QueryTypeValue
from schema.context import Context
from schema.limits.input_limits import QUESTION_CHARS
from schema.types.reports_lookup import find_report


@strawberry.enum(
    description="What a question asks for; it decides what retrieval favours and the answer's shape."
)
class QueryType(enum.Enum):
    VERDICT_SUMMARY = strawberry.enum_value(
        QueryTypeValue.VERDICT_SUMMARY.value,
        description='Which claims got which verdict ("Which claims were contradicted?").',
    )
    CLAIM_LOOKUP = strawberry.enum_value(
        QueryTypeValue.CLAIM_LOOKUP.value,
        description='What the report says on a topic ("What does the report say about scope 3?").',
    )
    EVIDENCE = strawberry.enum_value(
        QueryTypeValue.EVIDENCE.value,
        description='The evidence for or against a claim ("What evidence contradicts the net-zero claim?").',
    )
    COMPLIANCE = strawberry.enum_value(
        QueryTypeValue.COMPLIANCE.value,
        description='IFRS S1/S2 paragraphs and how well claims support them ("Which S2 paragraphs are '
        'unsupported?").',
    )
    DISCLOSURE = strawberry.enum_value(
        QueryTypeValue.DISCLOSURE.value,
        description="Whether, where and how the report discloses a practice, strategy, governance body, "
        'risk, target or metric ("Does the company report the climate scenarios it used?", "What process '
        'does the company use to identify climate risks?", "Which governance body is responsible for '
        "climate?\"): answered from the report's own sentences with their pages first, then the claims on "
        "the topic, ending with the answer's `confidence`. When no passage passes the relevance threshold, "
        "the closest passages that hold the question's subject are quoted with LOW confidence; only when "
        'no passage holds the subject at all is the answer "not addressed", with no citation, naming '
        "what was searched (`searched`).",
    )
    GENERAL = strawberry.enum_value(
        QueryTypeValue.GENERAL.value, description="Anything else, such as an overview of the report."
    )


@strawberry.enum(description="How surely the passages quoted answer a DISCLOSURE question.")
class AnswerConfidence(enum.Enum):
    HIGH = strawberry.enum_value(
        Confidence.HIGH.value,
        description="A quoted passage holds most of what the question asks about, in its sense.",
    )
    MEDIUM = strawberry.enum_value(
        Confidence.MEDIUM.value,
        description="The quoted passages pass the relevance threshold and hold the question's core "
        "concept, but none holds most of it.",
    )
    LOW = strawberry.enum_value(
        Confidence.LOW.value,
        description="No passage passes the relevance threshold: the quoted passages are the closest "
        "found on the question's subject and may not answer it.",
    )
    NONE = strawberry.enum_value(
        Confidence.NONE.value,
        description='No passage holds the question\'s subject: the answer is "not addressed", citing '
        "nothing.",
    )


@strawberry.enum(description="Why a question was not answered.")
class AskReportErrorCode(enum.Enum):
    NOT_FOUND = strawberry.enum_value(
        AskProblem.NOT_FOUND.value, description="No report with this id is visible to the caller."
    )
    INVALID_QUESTION = strawberry.enum_value(
        AskProblem.INVALID_QUESTION.value, description="The question is empty or too long."
    )
    NOT_PARSED = strawberry.enum_value(
        AskProblem.NOT_PARSED.value, description="The report has no pages yet (not PARSED)."
    )


@strawberry.type(description="A passage of the report an answer relies on.")
class Citation:
    kind: str = strawberry.field(description="claim, finding, verdict or page.")
    claim_id: strawberry.ID | None = strawberry.field(
        description="Global id of the claim the passage is about (claims, findings, verdicts); "
        "null for page text."
    )
    page_number: int | None = strawberry.field(
        description="The report page the passage is on (a claim's source page)."
    )
    excerpt: str = strawberry.field(
        description="The cited words: the claim, the verdict's reasoning, the finding's "
        "summary, or the page sentences that matter to the question."
    )
    score: float = strawberry.field(
        description="Relevance relative to the best passage found (1.0); 1.0 for passages picked by an exact "
        "filter (a verdict label, an IFRS paragraph)."
    )

    @classmethod
    def from_value(cls, citation: CitationValue) -> Citation:
        claim_id = GlobalID("Claim", str(citation.claim_id)) if citation.claim_id else None
        return cls(
            kind=citation.kind,
            claim_id=strawberry.ID(str(claim_id)) if claim_id else None,
            page_number=citation.page_number,
            excerpt=citation.excerpt,
            score=citation.score,
        )


@strawberry.type(description="An answer to a question about a report, with its citations and caveats.")
class ReportAnswer:
    question: str = strawberry.field(description="The question as asked (trimmed).")
    answer: str = strawberry.field(
        description="The answer; markers like [2] point into `citations` (1-based)."
    )
    query_type: QueryType = strawberry.field(description="How the question was understood.")
    method: str = strawberry.field(description="How the answer was written: llm or extractive.")
    classification_method: str = strawberry.field(
        description="How the question was classified: llm or rules."
    )
    citations: list[Citation] = strawberry.field(
        description="The passages the answer cites, in marker order."
    )
    caveats: list[str] = strawberry.field(
        description="What limits the answer: analysis not finished, few matching passages, low-confidence "
        "verdicts, search or LLM unavailable."
    )
    cached: bool = strawberry.field(description="True when served from the answer cache.")
    ifrs_paragraphs: list[str] = strawberry.field(
        description="The IFRS S1/S2 paragraphs (registry ids such as S2.22) a DISCLOSURE question maps to, "
        "best first; empty for other questions or when no requirement matches."
    )
    confidence: AnswerConfidence | None = strawberry.field(
        description="How surely the quoted passages answer a DISCLOSURE question; null for other types."
    )
    searched: list[str] = strawberry.field(
        description="The words a DISCLOSURE search looked for: the question's own topic words, the "
        "wordings reports use for them and the mapped IFRS requirement's words, as a reader would write "
        'them (a "not addressed" answer names them too); empty for other types.'
    )
    generated_at: datetime = strawberry.field(
        description="When the answer was produced (cached answers keep theirs)."
    )

    @classmethod
    def from_answer(cls, answer: Answer) -> ReportAnswer:
        return cls(
            question=answer.question,
            answer=answer.answer,
            query_type=QueryType(answer.query_type.value),
            method=answer.method,
            classification_method=answer.classification_method,
            citations=[Citation.from_value(citation) for citation in answer.citations],
            caveats=list(answer.caveats),
            cached=answer.cached,
            generated_at=answer.generated_at,
            ifrs_paragraphs=list(answer.ifrs_paragraphs),
            confidence=AnswerConfidence(answer.confidence.value) if answer.confidence else None,
            searched=list(answer.searched),
        )


@strawberry.type(description="The question was not answered; nothing was computed.")
class AskReportError:
    code: AskReportErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault.")


AskReportResult = Annotated[
    ReportAnswer | AskReportError,
    strawberry.union(
        "AskReportResult",
        description="ReportAnswer, or AskReportError saying why the question was not answered (select "
        "`__typename`).",
    ),
]


@strawberry.type
class QuestionQuery:
    @strawberry.field(
        description="Ask a question about one parsed report: its claims, verdicts, evidence and IFRS "
        "compliance. Answers cite the report's passages and are cached until the report changes."
    )
    async def ask_report(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID, strawberry.argument(description="The report's global id or UUID.")
        ],
        question: Annotated[
            str,
            strawberry.argument(
                description="The question, in plain words. At most ASK_MAX_QUESTION_CHARS characters "
                f"({QUESTION_CHARS:,} unless the operator changed it); a longer one is INVALID_QUESTION."
            ),
        ],
    ) -> AskReportResult:
        services = info.context.services
        report = await find_report(info, report_id)
        try:
            answer = await ask_report(
                services.session_factory,
                services.arq,
                services.embedder,
                services.llm,
                services.settings,
                report,
                info.context.organisation_id,
                question,
            )
        except AskRefused as exc:
            return AskReportError(
                code=AskReportErrorCode(exc.problem.value), message=exc.message, field=exc.field
            )
        return ReportAnswer.from_answer(answer)
