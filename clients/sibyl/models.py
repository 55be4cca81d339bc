"""Typed results: frozen dataclasses built from the API's JSON, so callers get attributes, not dicts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

JSONObject = Mapping[str, Any]

#: Report statuses that end a wait: nothing more happens without a new request.
FINAL_STATUSES = frozenset({"COMPLETED", "ERROR", "CANCELLED"})
#: Analysis statuses after which the exports show the last COMPLETED analysis instead.
UNFINISHED_ANALYSIS_STATUSES = frozenset({"ERROR", "CANCELLED"})
VERDICT_LABELS = ("VERIFIED", "UNVERIFIED", "CONTRADICTED", "INSUFFICIENT_EVIDENCE")


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True)
class AnalysisWarning:
    """Something that degraded in a run, e.g. extraction windows that fell back to rules, or a source
    of evidence no claim could meet.

    `code` is one of EXTRACTION_FELL_BACK_TO_RULES, DEDUP_FELL_BACK_TO_RULES,
    ROUTING_FELL_BACK_TO_RULES, JUDGE_REVIEW_FELL_BACK_TO_RULES (`count` of `total` units fell back),
    WEB_SEARCH_UNAVAILABLE or EVIDENCE_LIBRARY_EMPTY.
    """

    code: str
    stage: str
    message: str
    count: int = 0
    total: int = 0
    iteration: int = 0

    @classmethod
    def from_json(cls, data: JSONObject) -> AnalysisWarning:
        return cls(
            code=str(data["code"]),
            stage=str(data.get("stage") or ""),
            message=str(data.get("message") or ""),
            count=int(data.get("count") or 0),
            total=int(data.get("total") or 0),
            iteration=int(data.get("iteration") or 0),
        )


@dataclass(frozen=True)
class Analysis:
    """The latest analysis run of a report (live while it runs); `warnings` say what degraded."""

    id: str
    status: str
    pipeline_stage: str | None = None
    progress_percent: float = 0.0
    active_agents: tuple[str, ...] = ()
    iteration_count: int = 0
    claims_count: int = 0
    findings_count: int = 0
    verdicts_count: int = 0
    error_message: str | None = None
    warnings: tuple[AnalysisWarning, ...] = ()
    #: ISO 8601, when the documents select `completedAt` (the exports' fallback does).
    completed_at: str | None = None

    @classmethod
    def from_json(cls, data: JSONObject) -> Analysis:
        return cls(
            id=str(data["id"]),
            status=str(data["status"]),
            pipeline_stage=data.get("pipelineStage"),
            progress_percent=float(data.get("progressPercent") or 0.0),
            active_agents=tuple(data.get("activeAgents") or ()),
            iteration_count=int(data.get("iterationCount") or 0),
            claims_count=int(data.get("claimsCount") or 0),
            findings_count=int(data.get("findingsCount") or 0),
            verdicts_count=int(data.get("verdictsCount") or 0),
            error_message=data.get("errorMessage"),
            warnings=tuple(AnalysisWarning.from_json(item) for item in data.get("warnings") or ()),
            completed_at=data.get("completedAt"),
        )


@dataclass(frozen=True)
class Report:
    """An uploaded report and where it is in its life."""

    id: str
    status: str
    filename: str | None = None
    company_name: str | None = None
    page_count: int | None = None
    error_message: str | None = None
    analysis: Analysis | None = None
    #: Jobs that start before this report's queued one (0: it starts next); None when none waits.
    queue_position: int | None = None

    @classmethod
    def from_json(cls, data: JSONObject) -> Report:
        analysis = data.get("analysis")
        return cls(
            id=str(data["id"]),
            status=str(data["status"]),
            filename=data.get("filename"),
            company_name=data.get("companyName"),
            page_count=_int(data.get("pageCount")),
            error_message=data.get("errorMessage"),
            analysis=Analysis.from_json(analysis) if analysis else None,
            queue_position=_int(data.get("queuePosition")),
        )


@dataclass(frozen=True)
class Upload:
    """`uploadReport`'s success: the report, and False in `created` when the bytes were known."""

    report: Report
    created: bool


@dataclass(frozen=True)
class StartedAnalysis:
    """`startAnalysis`'s success: the report (now ANALYZING) and its new run."""

    report: Report
    analysis: Analysis


@dataclass(frozen=True)
class RegistryRecord:
    """Whose public registry records a deciding source rests on (`VerdictSource.registry`; the
    registry's title, snapshot date and record keys are the source's title, date and URL):
    `registry` is SBTI, NET_ZERO_TRACKER, UK_ETS, EPA_GHGRP or NGER; `match_basis` how the company was
    matched (isin, lei, name, parent_company, confirmed; absent for no entry); `coverage` full,
    partial or None."""

    registry: str
    entity_names: tuple[str, ...] = ()
    match_basis: str = ""
    coverage: str | None = None

    @classmethod
    def from_json(cls, data: JSONObject | None) -> RegistryRecord | None:
        if not data:
            return None
        return cls(
            registry=str(data.get("registry") or ""),
            entity_names=tuple(str(name) for name in data.get("entityNames") or ()),
            match_basis=str(data.get("matchBasis") or ""),
            coverage=data.get("coverage"),
        )


@dataclass(frozen=True)
class VerdictSource:
    """A source a verdict rests on (`Verdict.decidingSources`): which way it bears on the claim, who
    said it, when and where, how its tier and stance were decided, and whether its quote was found.

    `side` is SUPPORTS, WEAKLY_SUPPORTS, CONTRADICTS or WEAKLY_CONTRADICTS ("" from a server that does
    not say); `tier_basis` DOMAIN, COMPANY_SITE, PRESS_RELEASE, REGISTRY, MODEL or DEFAULT (None:
    internal check or not recorded); `method` the finding's (rules, llm); `summary` the finding in a
    sentence, for a check of the report against itself what it found; `registry` the registry
    records a registry's finding rests on.
    """

    publisher: str
    evidence_kind: str = ""
    title: str | None = None
    url: str | None = None
    published_date: str | None = None
    tier: int | None = None
    quote: str | None = None
    pages: tuple[int, ...] = ()
    side: str = ""
    tier_basis: str | None = None
    method: str | None = None
    quote_verified: bool | None = None
    summary: str = ""
    agent: str = ""
    finding_id: str | None = None
    registry: RegistryRecord | None = None

    @classmethod
    def from_json(cls, data: JSONObject) -> VerdictSource:
        verified = data.get("quoteVerified")
        return cls(
            publisher=str(data.get("publisher") or ""),
            evidence_kind=str(data.get("evidenceKind") or ""),
            title=data.get("title"),
            url=data.get("url"),
            published_date=data.get("publishedDate"),
            tier=_int(data.get("tier")),
            quote=data.get("quote"),
            pages=tuple(int(page) for page in data.get("pages") or ()),
            side=str(data.get("side") or ""),
            tier_basis=data.get("tierBasis"),
            method=data.get("method"),
            quote_verified=None if verified is None else bool(verified),
            summary=str(data.get("summary") or ""),
            agent=str(data.get("agent") or ""),
            finding_id=data.get("findingId"),
            registry=RegistryRecord.from_json(data.get("registry")),
        )


@dataclass(frozen=True)
class IfrsMapping:
    """An IFRS paragraph as the judge maps a verdict to it (`Verdict.ifrsMapping`): `source` is claim
    (extraction) or legal; `status` the Legal agent's disclosure coverage (not evidence of truth)."""

    paragraph_id: str
    source: str = ""
    status: str | None = None
    relationship: str = ""

    @classmethod
    def from_json(cls, data: JSONObject) -> IfrsMapping:
        return cls(
            paragraph_id=str(data.get("paragraphId") or ""),
            source=str(data.get("source") or ""),
            status=data.get("status"),
            relationship=str(data.get("relationship") or ""),
        )


@dataclass(frozen=True)
class RiskFlag:
    """A greenwashing risk pattern found in a claim by rules: a reason to look harder, not a finding."""

    kind: str
    phrase: str
    explanation: str

    @classmethod
    def from_json(cls, data: JSONObject) -> RiskFlag:
        return cls(str(data["kind"]), str(data.get("phrase") or ""), str(data.get("explanation") or ""))


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict: the label, the judge's confidence, why, the sources that decided it, and the
    IFRS paragraphs it speaks to."""

    verdict: str
    confidence: float | None
    reasoning: str
    deciding_sources: tuple[VerdictSource, ...] = ()
    ifrs_mapping: tuple[IfrsMapping, ...] = ()

    @classmethod
    def from_json(cls, data: JSONObject) -> Verdict:
        return cls(
            str(data["verdict"]),
            _float(data.get("confidence")),
            str(data.get("reasoning") or ""),
            tuple(VerdictSource.from_json(item) for item in data.get("decidingSources") or ()),
            tuple(IfrsMapping.from_json(item) for item in data.get("ifrsMapping") or ()),
        )


@dataclass(frozen=True)
class Claim:
    """An extracted claim with its final verdict (None until judged) and its risk flags."""

    id: str
    text: str
    claim_type: str
    priority: str
    source_page: int
    verdict: Verdict | None = None
    risk_flags: tuple[RiskFlag, ...] = ()

    @classmethod
    def from_json(cls, data: JSONObject) -> Claim:
        verdict = data.get("verdict")
        return cls(
            id=str(data["id"]),
            text=str(data["text"]),
            claim_type=str(data["claimType"]),
            priority=str(data["priority"]),
            source_page=int(data["sourcePage"]),
            verdict=Verdict.from_json(verdict) if verdict else None,
            risk_flags=tuple(RiskFlag.from_json(item) for item in data.get("riskFlags") or ()),
        )


@dataclass(frozen=True)
class ClaimPage:
    """One page of `Report.claims`: the claims and where to continue."""

    claims: list[Claim]
    total_count: int
    has_next_page: bool
    end_cursor: str | None


@dataclass(frozen=True)
class Citation:
    """What an answer rests on: a claim, finding, verdict or page excerpt."""

    kind: str
    excerpt: str
    score: float
    claim_id: str | None = None
    page_number: int | None = None

    @classmethod
    def from_json(cls, data: JSONObject) -> Citation:
        return cls(
            kind=str(data["kind"]),
            excerpt=str(data["excerpt"]),
            score=float(data.get("score") or 0.0),
            claim_id=data.get("claimId"),
            page_number=_int(data.get("pageNumber")),
        )


@dataclass(frozen=True)
class Answer:
    """`askReport`'s answer with its citations and caveats."""

    question: str
    answer: str
    query_type: str
    method: str
    cached: bool
    citations: list[Citation] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: JSONObject) -> Answer:
        return cls(
            question=str(data["question"]),
            answer=str(data["answer"]),
            query_type=str(data["queryType"]),
            method=str(data["method"]),
            cached=bool(data.get("cached")),
            citations=[Citation.from_json(item) for item in data.get("citations") or ()],
            caveats=[str(item) for item in data.get("caveats") or ()],
        )


@dataclass(frozen=True)
class StreamEvent:
    """One event of a report's log: `sequence` is its place in the log (1, 2, 3, …; resume after
    it), `id` its global id (unique across reports); `data` keys are as the emitting agent wrote them."""

    sequence: int
    event_type: str
    agent_name: str | None
    data: dict[str, Any]
    timestamp: str
    id: str = ""

    @classmethod
    def from_json(cls, data: JSONObject) -> StreamEvent:
        payload = data.get("data")
        return cls(
            sequence=int(data["sequence"]),
            event_type=str(data["eventType"]),
            agent_name=data.get("agentName"),
            data=dict(payload) if isinstance(payload, Mapping) else {},
            timestamp=str(data.get("timestamp") or ""),
            id=str(data.get("id") or ""),
        )

    def get(self, *keys: str) -> Any:
        """The first of `keys` present in `data` (events mix snake_case and camelCase keys)."""
        for key in keys:
            if key in self.data:
                return self.data[key]
        return None


@dataclass(frozen=True)
class IssuedVerdict:
    """A verdict as `verdictIssued` delivers it, with the claim it judges."""

    id: str
    report_id: str
    verdict: str
    confidence: float | None
    reasoning: str
    iteration: int
    is_final: bool
    claim_id: str
    claim_text: str

    @classmethod
    def from_json(cls, data: JSONObject) -> IssuedVerdict:
        claim = data.get("claim") or {}
        return cls(
            id=str(data["id"]),
            report_id=str(data["reportId"]),
            verdict=str(data["verdict"]),
            confidence=_float(data.get("confidence")),
            reasoning=str(data.get("reasoning") or ""),
            iteration=int(data.get("iteration") or 0),
            is_final=bool(data.get("isFinal")),
            claim_id=str(claim.get("id", "")),
            claim_text=str(claim.get("text", "")),
        )
