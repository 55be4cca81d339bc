"""Search queries for a claim: key terms, the three query types (company-specific, industry-wide,
controversy), time ranges, and the judge's refined queries turned into searches on
re-investigation.

Rules build every query; an LLM, when configured, may phrase the three initial queries instead
(`prompts.QUERY_SYSTEM_PROMPT`), and any failure falls back to the rules.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from pydantic import BaseModel

from app.degradation import failure_cause
from app.language.company_names import search_name
from app.language.figures import FIGURE
from app.language.key_terms import STOPWORDS
from app.language.years import YEAR
from app.llm import LLMClient, LLMUnavailable, UsageTrace
from app.llm.roles import LLMRole
from app.search.web import TimeRange
from app.verification.investigators.prompts import QUERY_SYSTEM_PROMPT, query_user_prompt
from app.verification.records import ClaimState, ReinvestigationContext
from app.verification.sources.credibility import domains_of_tiers

#: The LLM step of writing a claim's search queries (counted in the node's `UsageTrace`).
QUERY_WRITING = "query_writing"
#: Tavily refuses queries longer than this many characters.
MAX_QUERY_CHARS = 400
MAX_KEY_TERMS = 8
CONTROVERSY_TERMS = "(violation OR investigation OR lawsuit OR greenwashing OR controversy)"
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&'’-]*[A-Za-z0-9]|[A-Za-z]")
_QUOTED = re.compile(r"(?:(?<=\s)|^)'(.+?)'(?=[.\s,;]|$)|\"(.+?)\"", re.DOTALL)
#: "Scope 1/2/3" as written, its number captured.
SCOPE = re.compile(r"\bscope\s*([123])\b", re.IGNORECASE)


@dataclass(frozen=True)
class PlannedQuery:
    """One search to run for a claim, with why (`query_type`) and how it was built (`method`)."""

    query: str
    query_type: str
    time_range: TimeRange = "all"
    include_domains: tuple[str, ...] = ()
    method: str = "rules"
    library_only: bool = False  # search the evidence library alone (the web budget is spent)


class QueryPlanAnswer(BaseModel):
    company_specific: str
    industry_wide: str
    controversy: str


def key_terms(text: str, *, limit: int = MAX_KEY_TERMS, known: str = "") -> list[str]:
    """The words and figures a search for `text` should contain: scopes, figures, years, then
    content words in order of appearance (stopwords, duplicates and the words of `known`, such as
    the company name the query already has, dropped)."""
    terms: list[str] = [f"Scope {number}" for number in dict.fromkeys(SCOPE.findall(text))]
    terms += [match.group(0).strip() for match in FIGURE.finditer(text)][:2]
    terms += [match.group(0) for match in YEAR.finditer(text)][:2]
    covered = {word.lower() for term in [*terms, known] for word in term.split()}
    for match in _WORD.finditer(SCOPE.sub(" ", text)):
        word = match.group(0).strip("'’-")
        lowered = word.lower()
        owner = re.sub(r"['’]s$", "", lowered)  # "REIT's" is the company already named
        if lowered in STOPWORDS or lowered in covered or owner in covered or len(lowered) < 3:
            continue
        covered.add(lowered)
        terms.append(word)
    return terms[:limit]


def topic_terms(text: str, *, limit: int = 5, known: str = "") -> list[str]:
    """Key terms without figures and years: what the claim is about."""
    return [
        term
        for term in key_terms(text, limit=limit + 4, known=known)
        if not any(ch.isdigit() for ch in term) or term.startswith("Scope")
    ][:limit]


def claim_time_range(text: str, today: dt.date) -> TimeRange:
    """Recent metrics and future commitments look at the last year; history looks at all."""
    years = [int(match.group("year")) for match in YEAR.finditer(text) if match.group("year")]
    if not years:
        return "all"
    if max(years) >= today.year - 1:
        return "year"
    return "all"


def rule_queries(claim: ClaimState, company_name: str | None, today: dt.date) -> list[PlannedQuery]:
    """The three queries (company-specific, industry-wide, controversy) built from the claim's key
    terms."""
    company = search_name(company_name)
    terms = key_terms(claim["text"], known=company)
    topic = topic_terms(claim["text"], known=company)
    time_range = claim_time_range(claim["text"], today)
    years = [match.group(0) for match in YEAR.finditer(claim["text"])][:1]
    queries = [
        PlannedQuery(_join(company, *terms), "company_specific", time_range),
        PlannedQuery(_join(*topic, *years, "industry"), "industry_wide", time_range),
        PlannedQuery(_join(company or "company", *topic[:3], CONTROVERSY_TERMS), "controversy", "all"),
    ]
    return [query for query in queries if query.query]


def corroboration_query(claim: ClaimState, company_name: str | None, *, library_only: bool) -> PlannedQuery:
    """The one search for a claim no searching specialist was routed to (it is searched only so that
    it meets the evidence): the company and the claim's key terms, over all time."""
    company = search_name(company_name)
    terms = key_terms(claim["text"], known=company)
    return PlannedQuery(_join(company, *terms), "corroboration", "all", library_only=library_only)


async def llm_queries(
    llm: LLMClient, claim: ClaimState, company_name: str | None, today: dt.date, trace: UsageTrace
) -> list[PlannedQuery]:
    """The three queries phrased by the analysis model; `LLMUnavailable` when it gives none."""
    answer = await llm.complete_json(
        LLMRole.ANALYSIS,
        system=QUERY_SYSTEM_PROMPT,
        user=query_user_prompt(claim, search_name(company_name)),
        schema=QueryPlanAnswer,
        trace=trace,
        max_tokens=512,
        temperature=0.2,
    )
    time_range = claim_time_range(claim["text"], today)
    planned = [
        PlannedQuery(_clip(answer.company_specific), "company_specific", time_range, method="llm"),
        PlannedQuery(_clip(answer.industry_wide), "industry_wide", time_range, method="llm"),
        PlannedQuery(_clip(answer.controversy), "controversy", "all", method="llm"),
    ]
    planned = [query for query in planned if query.query]
    if not planned:
        raise LLMUnavailable(LLMRole.ANALYSIS.value, {llm.model_for(LLMRole.ANALYSIS): "empty queries"})
    return planned


async def initial_queries(
    llm: LLMClient | None, claim: ClaimState, company_name: str | None, today: dt.date, trace: UsageTrace
) -> tuple[list[PlannedQuery], str | None]:
    """LLM queries when an LLM answers, else the rule queries; the second item notes a fallback.

    With an LLM, the attempt is counted in `trace` as the `QUERY_WRITING` step, with the cause
    when the rules wrote the queries (the searching agent's run warning reports it).
    """
    if llm is not None:
        try:
            planned = await llm_queries(llm, claim, company_name, today, trace)
        except LLMUnavailable as exc:
            trace.record_step(QUERY_WRITING, fallback_cause=failure_cause(exc))
            return rule_queries(
                claim, company_name, today
            ), f"LLM query construction failed ({exc}); rules used"
        trace.record_step(QUERY_WRITING)
        return planned, None
    return rule_queries(claim, company_name, today), None


def refined_queries(
    context: ReinvestigationContext, claim: ClaimState, company_name: str | None
) -> list[PlannedQuery]:
    """The judge's refined queries as searches: the quoted claim's key terms with the company,
    over all time unless the gap asks for recent sources, restricted to Tier 1–2 outlets when the
    judge asks for them."""
    company = search_name(company_name)
    gap = context["evidence_gap"] or ""
    planned: list[PlannedQuery] = []
    for refined in context["refined_queries"]:
        quoted = next((a or b for a, b in _QUOTED.findall(refined)), None)
        base = _join(company, *key_terms(quoted, known=company)) if quoted else _clip(refined)
        recent = re.search(r"\brecent\b", f"{refined} {gap}", re.IGNORECASE)
        planned.append(
            PlannedQuery(
                base,
                "judge_refined",
                "year" if recent else "all",
                tuple(domains_of_tiers([1, 2])) if re.search(r"tier\s*1", refined, re.IGNORECASE) else (),
            )
        )
        if re.search(r"contradict", f"{refined} {gap}", re.IGNORECASE):
            topic = topic_terms(quoted or claim["text"], known=company)
            planned.append(
                PlannedQuery(_join(company, *topic[:3], CONTROVERSY_TERMS), "judge_refined", "all")
            )
    unique = {query.query: query for query in planned if query.query}
    return list(unique.values())


def _join(*parts: str) -> str:
    return _clip(" ".join(part for part in parts if part))


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_QUERY_CHARS else flat[:MAX_QUERY_CHARS].rsplit(" ", 1)[0]
