"""One source read against one claim: by the analysis LLM when configured, else, or when it fails,
by the rules of `contradictions`."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, Field

from app.degradation import failure_cause
from app.llm import LLMClient, LLMUnavailable, UsageTrace
from app.llm.roles import LLMRole
from app.search.results import SearchResult
from app.verification.reading.contradictions import SourceAssessment
from app.verification.reading.prompts import SOURCE_ANALYSIS_SYSTEM_PROMPT, source_analysis_user_prompt
from app.verification.records import ClaimState

#: The LLM step of reading a source against a claim (counted in the node's `UsageTrace`).
SOURCE_ANALYSIS = "source_analysis"
#: Characters of a source's text shown to the model.
MAX_SOURCE_CHARS = 4000


class RuleAssessor(Protocol):
    """A rule reader of a source: the claim, the company, the source's title, its text and the date
    it was published (ISO, for its relative years), to an assessment."""

    def __call__(
        self, claim_text: str, company: str, title: str, source_text: str, published: str | None = None
    ) -> SourceAssessment: ...


class SourceAnalysisAnswer(BaseModel):
    stance: Literal["contradicts", "supports", "neutral", "irrelevant"]
    contradiction_type: Literal["direct", "contextual", "omission", "timeline"] | None = None
    confidence: float = Field(ge=0.0, le=1.0)
    explanation: str
    quote: str = ""
    tier: int | None = Field(default=None, ge=1, le=4)


def source_text(result: SearchResult) -> str:
    """What the source says that the analysis reads: its snippet (a library passage, or the web
    provider's excerpt)."""
    return result.snippet or result.content or ""


async def analyse_source(
    llm: LLMClient | None,
    claim: ClaimState,
    company: str,
    result: SearchResult,
    rules: RuleAssessor,
    trace: UsageTrace,
) -> tuple[SourceAssessment, int | None, str | None]:
    """The assessment, the tier the LLM suggested (None by rules), and the LLM error if it failed.

    With an LLM, the reading is counted in `trace` as the `SOURCE_ANALYSIS` step, with the cause
    when the rules read the source instead (the searching agent's run warning reports it).
    """
    text = source_text(result)
    if llm is None:
        return rules(claim["text"], company, result.title, text, result.published_date), None, None
    try:
        answer = await llm.complete_json(
            LLMRole.ANALYSIS,
            system=SOURCE_ANALYSIS_SYSTEM_PROMPT,
            user=source_analysis_user_prompt(
                claim,
                company,
                title=result.title,
                url=result.url,
                published=result.published_date,
                text=text[:MAX_SOURCE_CHARS],
            ),
            schema=SourceAnalysisAnswer,
            trace=trace,
            max_tokens=1024,
            temperature=0.2,
        )
    except LLMUnavailable as exc:
        trace.record_step(SOURCE_ANALYSIS, fallback_cause=failure_cause(exc))
        return rules(claim["text"], company, result.title, text, result.published_date), None, str(exc)
    trace.record_step(SOURCE_ANALYSIS)
    contradiction_type = answer.contradiction_type if answer.stance == "contradicts" else None
    if answer.stance == "contradicts" and contradiction_type is None:
        contradiction_type = "contextual"
    assessment = SourceAssessment(
        stance=answer.stance,
        contradiction_type=contradiction_type,
        confidence=answer.confidence,
        explanation=answer.explanation.strip(),
        quote=answer.quote.strip() or None,
        signal=None,
        method="llm",
    )
    return assessment, answer.tier, None
