"""Step 2: what each kind of question needs from the report's index and latest run.

The question type biases retrieval: a verdict summary reads every verdict and counts labels, an
evidence question finds the claim meant and then pulls all of its findings, a compliance question
reads the run's IFRS compliance map, a disclosure question searches the report's own sentence windows
(expanded with the IFRS requirement it maps to, see `disclosure`) before the claims on its topic, a
lookup ranks the report's own words (claims, page text).
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.knowledge.registry import is_under
from app.questions.disclosure import search_disclosure
from app.questions.search import QueryVectors, SearchQuery, fetch_passages, hybrid_search, search_words
from app.questions.types import (
    VERDICT_LABELS,
    Classification,
    Confidence,
    Entities,
    Passage,
    PassageKind,
    QueryType,
)

#: How much each passage kind counts for each question type (multiplies the fused score).
KIND_WEIGHTS: dict[QueryType, dict[str, float]] = {
    QueryType.VERDICT_SUMMARY: {"verdict": 1.5, "claim": 1.0, "finding": 0.6, "page": 0.5},
    QueryType.CLAIM_LOOKUP: {"claim": 1.3, "page": 1.2, "verdict": 0.8, "finding": 0.5},
    QueryType.EVIDENCE: {"finding": 1.5, "verdict": 1.2, "claim": 0.9, "page": 0.4},
    QueryType.COMPLIANCE: {"claim": 1.2, "verdict": 1.2, "finding": 0.8, "page": 0.6},
    QueryType.DISCLOSURE: {"page": 1.3, "claim": 1.0, "verdict": 0.6, "finding": 0.4},
    QueryType.GENERAL: {"claim": 1.0, "page": 1.0, "verdict": 1.0, "finding": 0.8},
}
#: Most passages an answer lists or hands to the LLM.
MAX_PASSAGES = 8
#: Compliance statuses, worst first; listed by default: the ones that need attention.
COMPLIANCE_STATUSES = ("contradicted", "unsupported", "no_claims", "partially_supported", "supported")
DEFAULT_COMPLIANCE_FOCUS = ("contradicted", "unsupported", "no_claims")
#: Words a verdict question uses that are not its topic.
VERDICT_WORDS = (
    "contradicted contradiction contradictions verified unverified insufficient corroborated disproven "
    "overall all any were was are is been not outcome results judged judge greenwashing true false"
).split()


@dataclass
class Retrieved:
    """Everything the answer step needs: passages to cite (best first) and structured facts."""

    query_type: QueryType
    passages: list[Passage] = field(default_factory=list)
    verdict_counts: Counter[str] = field(default_factory=Counter)
    focus_labels: tuple[str, ...] = ()
    verdict_by_claim: dict[uuid.UUID, Passage] = field(default_factory=dict)
    compliance: dict[str, dict[str, Any]] = field(default_factory=dict)
    compliance_counts: Counter[str] = field(default_factory=Counter)
    compliance_assessed: bool = True
    topic: str = ""
    target_claims: list[Passage] = field(default_factory=list)
    searched: bool = False  # the passages are search hits (so how many matched says something)
    overview: bool = False  # nothing matched an overview question: the key claims stand in
    paragraphs: tuple[str, ...] = ()  # IFRS paragraphs a disclosure question maps to
    confidence: Confidence | None = None  # how surely a disclosure search's passages answer
    searched_words: tuple[str, ...] = ()  # what a disclosure search looked for


@dataclass(frozen=True)
class RetrievalInput:
    """The question, how it was classified, and what the report has to offer."""

    question: str
    classification: Classification
    vectors: QueryVectors
    compliance: dict[str, Any]

    @property
    def entities(self) -> Entities:
        return self.classification.entities

    async def query(
        self, extra_noise: tuple[str, ...] = (), kinds: tuple[PassageKind, ...] | None = None
    ) -> SearchQuery:
        """The search for this question: its words without noise (plus the LLM's topic terms)."""
        words = search_words(" ".join([self.question, *self.entities.terms]), extra_noise)
        vector = await self.vectors.of(words)
        return SearchQuery(words=words, vector=vector, embedder_name=self.vectors.name, kinds=kinds)


async def retrieve(session: AsyncSession, report_id: uuid.UUID, given: RetrievalInput) -> Retrieved:
    """The passages and facts for the question's type."""
    query_type = given.classification.query_type
    if query_type is QueryType.VERDICT_SUMMARY:
        return await _verdict_summary(session, report_id, given)
    if query_type is QueryType.EVIDENCE:
        return await _evidence(session, report_id, given)
    if query_type is QueryType.COMPLIANCE:
        return await _compliance(session, report_id, given)
    if query_type is QueryType.DISCLOSURE and not given.entities.pages:
        return await _disclosure(session, report_id, given)
    return await _lookup(session, report_id, given, query_type)


async def _verdict_summary(session: AsyncSession, report_id: uuid.UUID, given: RetrievalInput) -> Retrieved:
    """Label counts over every claim; the claims with the asked-for (or worst present) label listed,
    narrowed to the question's topic when it names one ("which emissions claims ...")."""
    verdicts = await fetch_passages(session, report_id, kinds=["verdict"])
    counts = Counter(str(passage.attributes.get("label")) for passage in verdicts)
    labels = given.entities.labels or _worst_present(counts)
    result = Retrieved(QueryType.VERDICT_SUMMARY, verdict_counts=counts, focus_labels=labels)
    query = await given.query(tuple(VERDICT_WORDS), kinds=("verdict", "claim"))
    if query.words:
        hits = await hybrid_search(session, report_id, query, KIND_WEIGHTS[QueryType.VERDICT_SUMMARY], 40)
        topical_claims = list(dict.fromkeys(hit.claim_id for hit in hits if hit.relevant and hit.claim_id))
        if topical_claims:
            by_claim = {passage.claim_id: passage for passage in verdicts}
            result.topic = query.words
            verdicts = [by_claim[claim_id] for claim_id in topical_claims if claim_id in by_claim]
    if given.entities.labels or not result.topic:
        verdicts = [passage for passage in verdicts if passage.attributes.get("label") in labels]
    else:
        result.focus_labels = ()  # a topic without a label: every verdict on it
    result.passages = verdicts[: MAX_PASSAGES * 2]
    return result


async def _evidence(session: AsyncSession, report_id: uuid.UUID, given: RetrievalInput) -> Retrieved:
    """The claim the question is about (best-ranked claim, finding or verdict), then its verdict and
    every finding on it, the asked-for stance first."""
    weights = KIND_WEIGHTS[QueryType.EVIDENCE]
    hits = await hybrid_search(
        session, report_id, await given.query(kinds=("claim", "finding", "verdict")), weights
    )
    claim_ids = list(dict.fromkeys(hit.claim_id for hit in hits if hit.relevant and hit.claim_id))[:2]
    if not claim_ids:
        return await _lookup(session, report_id, given, QueryType.EVIDENCE)
    related = await fetch_passages(
        session, report_id, claim_ids=claim_ids, kinds=["claim", "verdict", "finding"]
    )
    result = Retrieved(QueryType.EVIDENCE)
    result.target_claims = [passage for passage in related if passage.kind == "claim"]
    result.verdict_by_claim = {p.claim_id: p for p in related if p.kind == "verdict" and p.claim_id}
    findings = [passage for passage in related if passage.kind == "finding"]
    findings.sort(key=lambda passage: _evidence_order(passage, given.entities))
    result.passages = [*result.verdict_by_claim.values(), *findings][: MAX_PASSAGES * 2]
    return result


async def _compliance(session: AsyncSession, report_id: uuid.UUID, given: RetrievalInput) -> Retrieved:
    """The run's per-paragraph compliance map, filtered to what the question names, with the claims
    mapped to each listed paragraph. Without an assessment, the paragraphs claims map to."""
    compliance = {key: dict(value) for key, value in given.compliance.items() if isinstance(value, dict)}
    result = Retrieved(QueryType.COMPLIANCE, compliance_assessed=bool(compliance))
    claims = await fetch_passages(session, report_id, kinds=["claim"])
    if not compliance:
        compliance = _claimed_paragraphs(claims)
    result.compliance_counts = Counter(str(entry.get("status")) for entry in compliance.values())
    selected = _select_paragraphs(compliance, given.entities, assessed=result.compliance_assessed)
    result.compliance = selected
    wanted = {str(claim_id) for entry in selected.values() for claim_id in entry.get("claim_ids", [])}
    result.passages = [claim for claim in claims if str(claim.claim_id) in wanted]
    verdicts = await fetch_passages(
        session, report_id, kinds=["verdict"], claim_ids=[p.claim_id for p in result.passages if p.claim_id]
    )
    result.verdict_by_claim = {p.claim_id: p for p in verdicts if p.claim_id}
    return result


async def _disclosure(session: AsyncSession, report_id: uuid.UUID, given: RetrievalInput) -> Retrieved:
    """The report's windows that address the question (only those: nothing else is quoted as if it
    did), then the extracted claims on its topic with their verdicts."""
    found = await search_disclosure(session, report_id, given.question, given.entities.terms, given.vectors)
    result = Retrieved(
        QueryType.DISCLOSURE,
        passages=[*found.windows, *found.claims],
        searched=True,
        paragraphs=found.expansion.paragraph_ids,
        confidence=found.confidence,
        searched_words=found.searched,
    )
    claim_ids = [claim.claim_id for claim in found.claims if claim.claim_id]
    if claim_ids:
        verdicts = await fetch_passages(session, report_id, kinds=["verdict"], claim_ids=claim_ids)
        result.verdict_by_claim = {p.claim_id: p for p in verdicts if p.claim_id}
    return result


async def _lookup(
    session: AsyncSession, report_id: uuid.UUID, given: RetrievalInput, query_type: QueryType
) -> Retrieved:
    """The best-ranked passages of every kind (the report's own words weigh most for a lookup),
    restricted to the pages the question names, with the verdicts of the claims found. A lookup
    that no passage matches in its own words ("Fleet fuel consumed and percentage renewable?") is
    searched again as a disclosure question, in the wording reports use, before anything is said
    to be missing from the report."""
    pages = given.entities.pages
    if pages:
        hits = await fetch_passages(session, report_id, kinds=["page", "claim"], pages=pages)
    else:
        hits = await hybrid_search(
            session, report_id, await given.query(), KIND_WEIGHTS[query_type], limit=24
        )
        if query_type is QueryType.CLAIM_LOOKUP and not any(hit.relevant for hit in hits):
            return await _disclosure(session, report_id, given)
    overview = query_type is QueryType.GENERAL and not any(hit.relevant for hit in hits)
    if overview:
        hits = await _overview_passages(session, report_id)
    shown_claims = {hit.claim_id for hit in hits if hit.kind == "claim"}
    hits = [hit for hit in hits if not (hit.kind == "verdict" and hit.claim_id in shown_claims)]
    result = Retrieved(query_type, passages=hits[:MAX_PASSAGES], searched=not pages, overview=overview)
    claim_ids = [hit.claim_id for hit in result.passages if hit.kind == "claim" and hit.claim_id]
    if claim_ids:
        verdicts = await fetch_passages(session, report_id, kinds=["verdict"], claim_ids=claim_ids)
        result.verdict_by_claim = {p.claim_id: p for p in verdicts if p.claim_id}
    if query_type is QueryType.GENERAL:
        verdicts = await fetch_passages(session, report_id, kinds=["verdict"])
        result.verdict_counts = Counter(str(passage.attributes.get("label")) for passage in verdicts)
    return result


async def _overview_passages(session: AsyncSession, report_id: uuid.UUID) -> list[Passage]:
    """What an overview quotes when the question names no topic: the claims with the worst verdicts,
    else the first claims, else the opening of the report."""
    order = {label: index for index, label in enumerate(VERDICT_LABELS)}
    verdicts = await fetch_passages(session, report_id, kinds=["verdict"])
    if verdicts:
        return sorted(
            verdicts, key=lambda p: (order.get(str(p.attributes.get("label")), 9), p.page_number or 0)
        )
    return await fetch_passages(session, report_id, kinds=["claim"]) or await fetch_passages(
        session, report_id, kinds=["page"], pages=[1]
    )


def _worst_present(counts: Counter[str]) -> tuple[str, ...]:
    """The label a summary lists when the question names none: contradicted, else the worst present."""
    for label in VERDICT_LABELS:
        if counts[label]:
            return (label,)
    return ("contradicted",)


def _evidence_order(passage: Passage, entities: Entities) -> tuple[int, float]:
    supports = passage.attributes.get("supports_claim")
    wanted = {"contradicts": False, "supports": True}.get(entities.stance or "")
    first = 0 if entities.stance and supports is wanted else 1 if supports is not None else 2
    return first, -float(passage.attributes.get("confidence") or 0.0)


def _claimed_paragraphs(claims: list[Passage]) -> dict[str, dict[str, Any]]:
    """Paragraph -> the claims mapped to it, from the claims alone (no verdicts, so no status)."""
    paragraphs: dict[str, dict[str, Any]] = {}
    for claim in claims:
        for paragraph_id in claim.attributes.get("ifrs") or []:
            entry = paragraphs.setdefault(
                paragraph_id, {"status": "not_assessed", "claims": 0, "claim_ids": []}
            )
            entry["claims"] += 1
            entry["claim_ids"].append(str(claim.claim_id))
    return dict(sorted(paragraphs.items()))


def _select_paragraphs(
    compliance: dict[str, dict[str, Any]], entities: Entities, *, assessed: bool
) -> dict[str, dict[str, Any]]:
    """The paragraphs the question names (or under them, or of a named standard), with the statuses
    it names (by default the ones needing attention)."""
    selected = compliance
    if entities.paragraphs:
        selected = {k: v for k, v in selected.items() if any(is_under(k, p) for p in entities.paragraphs)}
    elif entities.standards:
        selected = {k: v for k, v in selected.items() if k.split(".")[0] in entities.standards}
    if assessed and not entities.paragraphs:  # a named paragraph is shown whatever its status
        statuses = set(entities.statuses or DEFAULT_COMPLIANCE_FOCUS)
        if "unsupported" in statuses:  # "unsupported" or "gaps": a paragraph without claims is one too
            statuses.add("no_claims")
        selected = {k: v for k, v in selected.items() if v.get("status") in statuses}
    order = {status: index for index, status in enumerate(COMPLIANCE_STATUSES)}
    return dict(
        sorted(selected.items(), key=lambda item: (order.get(str(item[1].get("status")), 9), item[0]))
    )
