"""One search result read for one claim: whether it is about the report's company, how it bears on
the claim (`source_analysis`), its credibility tier, and whether its quote is really in it."""

from __future__ import annotations

from dataclasses import dataclass

from app.search.results import SearchResult
from app.search.sources import QuoteCheck, SourceTexts
from app.verification.contract.investigator import InvestigationTools
from app.verification.reading.contradictions import SourceAssessment
from app.verification.reading.fact_reading import about_another_company, hold_to_same_fact
from app.verification.reading.source_analysis import RuleAssessor, analyse_source
from app.verification.records import ClaimState
from app.verification.sources.attribution import company_voice
from app.verification.sources.company_names import about_company
from app.verification.sources.credibility import TierAssignment, assign_tier, default_tier, tier_weight
from app.verification.sources.rules import is_company_word


@dataclass(frozen=True)
class SourceReading:
    """One search result read against one claim: its tier, how it bears on the claim, and its quote
    check (what `read_source` returns; the investigators turn it into findings)."""

    result: SearchResult
    query: str
    query_type: str
    tier: TierAssignment
    assessment: SourceAssessment
    quote: QuoteCheck
    llm_error: str | None = None
    #: Whether the quote is about the claim at all (`quote_relevance.bears_on_claim`).
    bears_on_claim: bool = True
    #: Why the quote is the company's own word (`attribution.company_voice`), None when it is the source's.
    company_voice: str | None = None

    @property
    def self_reported(self) -> bool:
        """Whether this is the company speaking: its own site, report or release (the tier's basis),
        or an outlet relaying its statement (`company_voice`). It never counts as independent."""
        return is_company_word(self.tier.basis, self.company_voice is not None, self.result.url)

    @property
    def weighted_confidence(self) -> float:
        """The reading's confidence scaled by the outlet's tier weight (Tier 1 keeps it whole)."""
        return round(self.assessment.confidence * tier_weight(self.tier.tier) / tier_weight(1), 3)

    @property
    def counts(self) -> bool:
        """Whether aggregation may use it: relevant, its quote not shown to be missing and bearing on
        the claim, and (for the LLM, whose reading cannot be re-run) a quote that could be checked."""
        if self.assessment.stance not in {"contradicts", "supports"} or self.quote.verified is False:
            return False
        if not self.bears_on_claim:
            return False
        return not (self.assessment.method == "llm" and self.quote.verified is None)


async def read_source(
    tools: InvestigationTools,
    texts: SourceTexts,
    rules: RuleAssessor,
    claim: ClaimState,
    company: str,
    result: SearchResult,
    query: str,
    query_type: str,
) -> SourceReading:
    """How `result`, found by `query` (of `query_type`), bears on `claim`: a source that never names
    the company is irrelevant unread; otherwise it is analysed (`analyse_source`), tiered, and its
    quote checked against the source's own text."""
    if not about_company(company, result.title, result.snippet, result.content):
        assessment, llm_tier, llm_error = _not_about(company), None, None
    elif (other := about_another_company(company, result)) is not None:
        assessment, llm_tier, llm_error = other, None, None
    else:
        assessment, llm_tier, llm_error = await analyse_source(
            tools.llm, claim, company, result, rules, tools.usage
        )
    tier = _tier(result, company, llm_tier)
    # The quote widened to its sentence, held to the claim's company, period, mood and quantity.
    assessment, checked, bears = await hold_to_same_fact(
        texts, claim["text"], company, result, assessment, rules
    )
    return SourceReading(
        result=result,
        query=query,
        query_type=query_type,
        tier=tier,
        assessment=assessment,
        quote=checked,
        llm_error=llm_error,
        bears_on_claim=bears,
        company_voice=company_voice(assessment.quote, company, assessment.stance),
    )


def _not_about(company: str) -> SourceAssessment:
    """A source that never names the report's company: it is about someone else, so it neither
    supports, contradicts nor discusses this report's claims (a library document about another firm
    would otherwise turn up as independent evidence for every report)."""
    return SourceAssessment(
        "irrelevant",
        None,
        0.0,
        f"The source does not name {company}; it is not about the company.",
        None,
        None,
    )


def _tier(result: SearchResult, company: str, llm_tier: int | None) -> TierAssignment:
    """The outlet's tier from the credibility table, else the lowest. A model's opinion of an
    unlisted outlet is recorded but never lifts it: two unknown sites the model calls Tier 2 would
    otherwise verify (or contradict) claims as two independent publishers."""
    by_rules = assign_tier(result.url, result.source_domain, result.title, result.snippet, company)
    if by_rules is not None:
        return by_rules
    tier = default_tier(result.source_domain)
    if llm_tier is None or llm_tier >= tier.tier:
        return tier
    suggestion = (
        f"; the analysis model suggested Tier {llm_tier}, which does not count for an unlisted outlet"
    )
    return TierAssignment(tier.tier, tier.basis, tier.reasoning + suggestion)
