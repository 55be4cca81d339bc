"""The values the question pipeline passes between its steps, and its one expected error."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

PassageKind = Literal["page", "claim", "finding", "verdict"]
AnswerMethod = Literal["llm", "extractive"]
ClassificationMethod = Literal["llm", "rules"]

#: The judge's verdict labels, worst first (the order answers list them in).
VERDICT_LABELS = ("contradicted", "unverified", "insufficient_evidence", "verified")
#: Below this confidence a cited verdict earns a caveat (the judge's own "low" threshold).
LOW_CONFIDENCE = 0.6


class QueryType(enum.StrEnum):
    """What a question asks for; it decides what retrieval favours and how the answer is built."""

    VERDICT_SUMMARY = "VERDICT_SUMMARY"
    CLAIM_LOOKUP = "CLAIM_LOOKUP"
    EVIDENCE = "EVIDENCE"
    COMPLIANCE = "COMPLIANCE"
    DISCLOSURE = "DISCLOSURE"
    GENERAL = "GENERAL"


class Confidence(enum.StrEnum):
    """How surely the passages a disclosure answer quotes answer the question."""

    HIGH = "HIGH"  # a passage holds most of the question's subject, in its sense
    MEDIUM = "MEDIUM"  # passages pass the relevance threshold and hold its core concept
    LOW = "LOW"  # no passage passes the threshold: the closest ones found that touch its subject
    NONE = "NONE"  # no passage holds the question's subject at all: "not addressed"


class AskProblem(enum.StrEnum):
    """Why a question is not answered (the GraphQL error codes)."""

    NOT_FOUND = "NOT_FOUND"
    INVALID_QUESTION = "INVALID_QUESTION"
    NOT_PARSED = "NOT_PARSED"


class AskRefused(Exception):
    """An expected refusal: resolvers turn it into an `AskReportError`."""

    def __init__(self, problem: AskProblem, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Entities:
    """What the question names that retrieval can filter on exactly (found by rules, always)."""

    labels: tuple[str, ...] = ()  # verdict labels, e.g. ("contradicted",)
    paragraphs: tuple[str, ...] = ()  # IFRS paragraph ids, e.g. ("S2.29",)
    standards: tuple[str, ...] = ()  # "S1" / "S2" named without a paragraph
    statuses: tuple[str, ...] = ()  # compliance statuses, e.g. ("unsupported",)
    pages: tuple[int, ...] = ()
    stance: Literal["supports", "contradicts"] | None = None
    terms: tuple[str, ...] = ()  # free-text topics the LLM extracted


@dataclass(frozen=True)
class Classification:
    """The question's type, its entities and how they were found."""

    query_type: QueryType
    entities: Entities
    method: ClassificationMethod


@dataclass(frozen=True)
class Passage:
    """One retrieved passage of the report's index; `score` is its fused, type-weighted rank score
    and `relevant` says whether it matched the question at all (not merely ranked)."""

    id: uuid.UUID
    kind: PassageKind
    text: str
    page_number: int | None
    claim_id: uuid.UUID | None
    attributes: dict[str, Any]
    score: float = 0.0
    relevant: bool = True


@dataclass(frozen=True)
class Citation:
    """A passage an answer relies on: the claim (if any), the page, a short excerpt."""

    kind: PassageKind
    claim_id: uuid.UUID | None
    page_number: int | None
    excerpt: str
    score: float


@dataclass
class Answer:
    """What `ask_report` returns; `cached` is set when it was served from Redis; `ifrs_paragraphs` are
    the IFRS S1/S2 paragraphs a disclosure question maps to (empty for other questions)."""

    question: str
    answer: str
    query_type: QueryType
    method: AnswerMethod
    classification_method: ClassificationMethod
    citations: list[Citation]
    caveats: list[str]
    generated_at: datetime
    index_version: str
    cached: bool = False
    ifrs_paragraphs: list[str] = field(default_factory=list)
    confidence: Confidence | None = None  # disclosure answers only (`Confidence`)
    searched: list[str] = field(default_factory=list)  # what a disclosure search looked for


@dataclass(frozen=True)
class ReportFacts:
    """What an answer may say about the report as a whole, and the state of its latest analysis."""

    filename: str
    company_name: str | None
    page_count: int
    claim_count: int
    run_status: str | None  # None: never analysed
