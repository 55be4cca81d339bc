"""The investigation loop the news/media and academic specialists share: per claim, plan queries,
search every provider, tier and read each new source, check its quote, and report per-source
findings plus a summary; answer routed info requests; post requests of its own.

A profile (`SearchProfile`) says what differs between the agents: query plans, preferred outlets,
the rules that read a source, and the evidence types of their findings.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.language.company_names import search_name
from app.search.results import SearchAPIError, SearchResponse, SearchResult
from app.search.sources import SourceTexts
from app.search.web import EvidenceSearch, url_key
from app.verification.catalog import AGENT_LABELS
from app.verification.contract.investigator import InvestigationTools
from app.verification.investigators.claim_pool import claims_at_once, each_claim
from app.verification.investigators.info_exchange import answer_request, info_request
from app.verification.investigators.search_queries import (
    PlannedQuery,
    corroboration_query,
    initial_queries,
    refined_queries,
)
from app.verification.investigators.source_findings import (
    EvidenceKinds,
    contradiction_stands,
    source_finding,
    summary_finding,
)
from app.verification.investigators.web_failures import web_failure_findings
from app.verification.reading.source_analysis import RuleAssessor
from app.verification.reading.source_reading import SourceReading, read_source
from app.verification.records import (
    ClaimState,
    FindingDraft,
    InfoRequest,
    InvestigationOutcome,
    ReinvestigationContext,
    SpecialistTask,
)
from app.verification.sources.credibility import ALWAYS_EXCLUDED_DOMAINS

#: Sources read per claim (best-ranked first), so one claim cannot take the whole time budget.
MAX_SOURCES_PER_CLAIM = 8
#: Claims searched at once when they are searched only to meet the evidence.
CORROBORATION_CONCURRENCY = 4

QueryPlanner = Callable[[ClaimState, str | None, dt.date], list[PlannedQuery]]


@dataclass(frozen=True)
class SearchProfile:
    """What one searching specialist looks for and how it reads what it finds."""

    agent: str
    kinds: EvidenceKinds
    rules: RuleAssessor
    topic: str = "general"
    plan: QueryPlanner | None = None  # None: the three query types of `search_queries` (LLM, else rules)
    posts_requests: bool = True
    include_domains: tuple[str, ...] = ()
    exclude_domains: tuple[str, ...] = ALWAYS_EXCLUDED_DOMAINS

    @property
    def label(self) -> str:
        return AGENT_LABELS[self.agent]


@dataclass
class _ClaimWork:
    """One claim's searches and evaluated sources."""

    claim: ClaimState
    queries: list[dict[str, Any]] = field(default_factory=list)
    found: list[tuple[SearchResult, PlannedQuery]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


async def investigate_with_search(
    task: SpecialistTask, tools: InvestigationTools, profile: SearchProfile
) -> InvestigationOutcome:
    """Run `profile`'s investigation over the task's claims and info requests.

    Claims are investigated several at a time (`claims_at_once`), the ones routed here for this
    agent's expertise first, then those routed only to meet the evidence. Each finished claim is
    reported (`tools.claim_checked`), so an agent that runs out of time keeps them. The outcome lists the
    findings in the task's claim order whatever order the claims finished in.
    """
    texts = tools.source_texts()
    company = search_name(task["company_name"])
    await tools.think(_opening(profile, task, tools.search))
    contexts = {entry["claim_id"]: entry.get("context") for entry in task["routing"]}
    corroborating = {
        entry["claim_id"]
        for entry in task["routing"]
        if profile.agent in entry.get("corroborating_agents", []) and not entry.get("context")
    }
    primary = [claim for claim in task["claims"] if claim["claim_id"] not in corroborating]
    only_corroborating = [claim for claim in task["claims"] if claim["claim_id"] in corroborating]

    async def check(claim: ClaimState) -> tuple[list[FindingDraft], InfoRequest | None]:
        return await _investigate_claim(
            tools, texts, profile, task, claim, contexts.get(claim["claim_id"]), company
        )

    checked = await each_claim(primary, claims_at_once(tools.settings), check)
    corroborated = await _corroborate(tools, texts, profile, task, only_corroborating, company)
    by_claim = {claim["claim_id"]: result for claim, result in zip(primary, checked, strict=True)}
    by_claim.update(
        (claim["claim_id"], (findings, None))
        for claim, findings in zip(only_corroborating, corroborated, strict=True)
    )
    outcome = InvestigationOutcome()
    for claim in task["claims"]:
        findings, request = by_claim[claim["claim_id"]]
        outcome.findings.extend(findings)
        if request is not None:
            outcome.info_requests.append(request)
    if only_corroborating:
        await tools.think(
            _corroboration_note(profile, only_corroborating, [f for found in corroborated for f in found])
        )
    for request in task["info_requests"]:
        outcome.info_responses.append(await answer_request(tools, tools.search, profile, request, company))
    await tools.searches_done(profile.agent, task["iteration"])
    return outcome


async def _investigate_claim(
    tools: InvestigationTools,
    texts: SourceTexts,
    profile: SearchProfile,
    task: SpecialistTask,
    claim: ClaimState,
    context: ReinvestigationContext | None,
    company: str,
) -> tuple[list[FindingDraft], InfoRequest | None]:
    """One claim routed here for this agent's expertise: plan (or take the judge's refined queries),
    search, read; its findings and the info request they call for, reported as finished."""
    await tools.emit("claim_investigating", {"claim_id": claim["claim_id"], "claim_text": claim["text"]})
    if context:
        planned = refined_queries(context, claim, task["company_name"])
        await tools.think(
            f"{profile.label} agent: re-investigating with the judge's {len(context['refined_queries'])} "
            f"refined quer{'y' if len(context['refined_queries']) == 1 else 'ies'}.",
            claim_id=claim["claim_id"],
        )
    else:
        planned = await _plan(profile, tools, claim, task["company_name"])
    work = await _search_all(tools, tools.search, profile, claim, planned)
    findings = await _evaluate(tools, texts, profile, work, company)
    request = info_request(task, profile, claim, findings)
    await tools.claim_checked(task, claim["claim_id"], findings, request)
    return findings, request


async def _corroborate(
    tools: InvestigationTools,
    texts: SourceTexts,
    profile: SearchProfile,
    task: SpecialistTask,
    claims: Sequence[ClaimState],
    company: str,
) -> list[list[FindingDraft]]:
    """Claims routed here only so that they meet the evidence, searched a few at a time and quietly
    (narrated only when something is found: a report's worth of empty lookups is not news); each
    claim's findings, in claim order."""
    budget = tools.settings.corroboration_web_searches_per_report if tools.search.web_enabled else 0
    plans: dict[str, list[PlannedQuery]] = {}
    for claim in claims:
        plans[claim["claim_id"]] = _corroboration_plan(claim, task["company_name"], tools.search, budget)
        budget -= sum(not query.library_only for query in plans[claim["claim_id"]])

    async def one(claim: ClaimState) -> list[FindingDraft]:
        planned = plans[claim["claim_id"]]
        work = await _search_all(tools, tools.search, profile, claim, planned, announce=False)
        findings = await _evaluate(tools, texts, profile, work, company, announce=False)
        await tools.claim_checked(task, claim["claim_id"], findings)
        return findings

    return await each_claim(claims, CORROBORATION_CONCURRENCY, one)


def _corroboration_note(
    profile: SearchProfile, claims: Sequence[ClaimState], findings: Sequence[FindingDraft]
) -> str:
    with_sources = len({finding.claim_id for finding in findings if finding.evidence_type != "none"})
    return (
        f"{profile.label} agent: searched {len(claims)} claim(s) routed to it only so that every claim meets "
        f"the evidence; {with_sources} had relevant sources."
    )


def _corroboration_plan(
    claim: ClaimState, company_name: str | None, search: EvidenceSearch, web_budget: int
) -> list[PlannedQuery]:
    """One query for a claim routed here only to meet the evidence: the library always, the web
    while the report's budget lasts; nothing when neither is searched."""
    library_only = web_budget <= 0
    if library_only and not search.library_enabled:
        return []
    return [corroboration_query(claim, company_name, library_only=library_only)]


def _opening(profile: SearchProfile, task: SpecialistTask, search: EvidenceSearch) -> str:
    providers = ", ".join(provider.name for provider in search.providers) or "none"
    inactive = "".join(f" ({reason})" for reason in search.inactive.values())
    return (
        f"{profile.label} agent: investigating {len(task['claims'])} claim(s); search providers: "
        f"{providers}{inactive}."
    )


async def _plan(
    profile: SearchProfile, tools: InvestigationTools, claim: ClaimState, company_name: str | None
) -> list[PlannedQuery]:
    today = dt.date.today()
    if profile.plan is not None:
        return profile.plan(claim, company_name, today)
    planned, note = await initial_queries(tools.llm, claim, company_name, today, tools.usage)
    if note:
        await tools.think(f"{profile.label} agent: {note}", claim_id=claim["claim_id"])
    return planned


async def _search_all(
    tools: InvestigationTools,
    search: EvidenceSearch,
    profile: SearchProfile,
    claim: ClaimState,
    planned: Sequence[PlannedQuery],
    *,
    announce: bool = True,
) -> _ClaimWork:
    """Every planned query, run concurrently; events (unless not `announce`d) are emitted in plan
    order afterwards. A failed search is always reported."""
    limit = tools.settings.search_queries_per_claim
    planned = list(planned)[:limit]
    answers = await asyncio.gather(
        *(_run(search, profile, query) for query in planned), return_exceptions=True
    )
    work = _ClaimWork(claim)
    per_query: list[list[tuple[SearchResult, PlannedQuery]]] = []
    for query, answer in zip(planned, answers, strict=True):
        if isinstance(answer, SearchAPIError):
            work.failures.append(f"{query.query_type}: {answer.message}")
            work.queries.append(
                {
                    "query": query.query,
                    "query_type": query.query_type,
                    "library_only": query.library_only,
                    "error": answer.message,
                }
            )
            await tools.emit(
                "error", {"message": f"search failed: {answer.message}", "claim_id": claim["claim_id"]}
            )
            continue
        if isinstance(answer, BaseException):
            raise answer
        work.queries.append(_query_record(query, answer))
        if announce:
            await tools.emit(
                "search_executed",
                {
                    "claim_id": claim["claim_id"],
                    "query": query.query,
                    "query_type": query.query_type,
                    "results_count": answer.total_results,
                    "providers": answer.providers,
                    "provider_errors": answer.errors,
                },
            )
        per_query.append([(result, query) for result in answer.results])
    # Interleaved by rank, so the sources read per claim come from every query type.
    seen: set[str] = set()
    for rank in range(max((len(results) for results in per_query), default=0)):
        for results in per_query:
            if rank < len(results) and url_key(results[rank][0].url) not in seen:
                seen.add(url_key(results[rank][0].url))
                work.found.append(results[rank])
    return work


async def _run(search: EvidenceSearch, profile: SearchProfile, query: PlannedQuery) -> SearchResponse:
    return await search.search(
        query.query,
        include_domains=query.include_domains or profile.include_domains,
        exclude_domains=profile.exclude_domains,
        time_range=query.time_range,
        topic=profile.topic,
        library_only=query.library_only,
    )


def _query_record(query: PlannedQuery, answer: SearchResponse) -> dict[str, Any]:
    record: dict[str, Any] = {
        "query": query.query,
        "query_type": query.query_type,
        "time_range": query.time_range,
        "method": query.method,
        "library_only": query.library_only,
        "results": answer.total_results,
        "providers": answer.providers,
    }
    if answer.errors:
        record["provider_errors"] = answer.errors
    return record


async def _evaluate(
    tools: InvestigationTools,
    texts: SourceTexts,
    profile: SearchProfile,
    work: _ClaimWork,
    company: str,
    *,
    announce: bool = True,
) -> list[FindingDraft]:
    """Per-source findings and the summary, or an error finding when every search failed. The
    summary is narrated when `announce`d, or whenever a relevant source was found."""
    claim_id = work.claim["claim_id"]
    if work.queries and all("error" in query for query in work.queries):
        message = "; ".join(work.failures)
        return [
            FindingDraft(
                claim_id=claim_id,
                evidence_type="error",
                summary=f"{profile.label} agent: every search failed ({message}); the claim was not checked.",
                supports_claim=None,
                confidence=None,
                method="error",
                details={"error": message, "queries": work.queries},
            )
        ]
    evaluated = await asyncio.gather(
        *(
            read_source(
                tools, texts, profile.rules, work.claim, company, result, query.query, query.query_type
            )
            for result, query in work.found[:MAX_SOURCES_PER_CLAIM]
        )
    )
    for item in evaluated:
        await _announce(tools, claim_id, item)
    stands = contradiction_stands(evaluated)
    findings = [
        source_finding(claim_id, item, profile.kinds, stands)
        for item in evaluated
        if item.assessment.stance != "irrelevant"
    ]
    summary = summary_finding(
        claim_id, profile.label, evaluated, profile.kinds, queries=work.queries, searched=len(work.found)
    )
    summary.details["source_available"] = tools.search.web_enabled or bool(findings)
    if work.failures:
        summary.details["failed_queries"] = work.failures
    if announce or findings:
        await tools.think(summary.summary, claim_id=claim_id)  # it names the agent
    # A claim whose web searches all failed: an error finding, not "found nothing" (see the module).
    web_enabled = tools.search.web_enabled
    return [*findings, *web_failure_findings(profile.label, summary, work.queries, web_enabled=web_enabled)]


async def _announce(tools: InvestigationTools, claim_id: str, item: SourceReading) -> None:
    await tools.emit(
        "source_evaluated",
        {
            "claim_id": claim_id,
            "source_url": item.result.url,
            "tier": item.tier.tier,
            "relevance": item.assessment.stance,
            "quote_verified": item.quote.verified,
        },
    )
    if item.assessment.stance == "contradicts" and item.counts:
        await tools.emit(
            "contradiction_detected",
            {
                "claim_id": claim_id,
                "source_url": item.result.url,
                "contradiction_type": item.assessment.contradiction_type,
                "tier": item.tier.tier,
            },
        )
