"""The density budget for claims an LLM found: the same cap, and the same ranking, as the rules'.

The rule extractor keeps at most `MAX_CLAIMS_PER_PAGE` per page (and `MIN_BUDGET` for any report)
through `app.claims.rules.within_budget`; an LLM reading a long report window by window has no such
limit (a 495-page report read that way can yield 990 claims), and every claim costs the specialists
and the judge. The LLM path's final claims go through that same function: each claim is ranked as a
rule claim with the same text would be (`app.claims.ranking`), and each claim type keeps its share.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.claims.candidates import CandidateClaim
from app.claims.ranking import rank_score
from app.claims.rules import RuleClaim, within_budget
from app.claims.worthiness import check_worthiness


def within_density_budget(claims: Sequence[CandidateClaim], page_count: int) -> list[CandidateClaim]:
    """The best-ranked `claims` the rules' density budget allows for `page_count` pages, in order."""
    ranked = [_as_rule_claim(claim) for claim in claims]
    kept = {id(claim) for claim in within_budget(ranked, page_count)}
    return [claim for claim, proxy in zip(claims, ranked, strict=True) if id(proxy) in kept]


def _as_rule_claim(claim: CandidateClaim) -> RuleClaim:
    score, signals = check_worthiness(claim.text)
    return RuleClaim(
        text=claim.text,
        claim_type=claim.claim_type,
        priority=claim.priority,
        source_page=claim.source_page,
        source_context=claim.source_context,
        reasoning=claim.reasoning,
        score=score,
        signals=signals,
        rank=rank_score(claim.text, score),
    )
