"""The query-writing prompt of the specialists that search for evidence (news/media and academic);
the prompt that reads a found source is `app.verification.reading.prompts`."""

from __future__ import annotations

from app.verification.records import ClaimState

QUERY_SYSTEM_PROMPT = (
    "You write web search queries that test a sustainability report's claim against public sources. "
    "Given a claim, write three queries of at most 20 words each: "
    "1. company_specific: news about the company and this claim (key figures, dates, places); "
    "2. industry_wide: the sector's trends or benchmarks on the claim's topic; "
    "3. controversy: negative coverage, investigations, lawsuits, enforcement or greenwashing "
    "accusations about the company on this topic (use OR between alternatives). "
    'Answer with JSON only: {"company_specific": str, "industry_wide": str, "controversy": str}'
)


def query_user_prompt(claim: ClaimState, company: str) -> str:
    paragraphs = ", ".join(entry["paragraph_id"] for entry in claim.get("ifrs_paragraphs") or []) or "none"
    return (
        f"Company: {company or 'unknown'}\n"
        f"Claim: {claim['text']}\n"
        f"Claim type: {claim['claim_type']}\n"
        f"IFRS paragraphs: {paragraphs}"
    )
