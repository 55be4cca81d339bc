"""The prompt that reads one found source against one claim (`source_analysis`)."""

from __future__ import annotations

from app.verification.records import ClaimState

SOURCE_ANALYSIS_SYSTEM_PROMPT = (
    "You compare a public source with a claim from a company's sustainability report. Decide whether "
    "the source contradicts the claim, supports it, is relevant but neutral, or is irrelevant (about "
    "another company or topic). Contradiction types: direct (states the opposite or a different "
    "figure), contextual (context that undermines the claim), omission (reveals material information "
    "the claim leaves out, such as an investigation or lawsuit), timeline (contradicts dates or "
    "deadlines). Support or contradiction needs the same fact: the same company (not another firm "
    "sharing a word of its name), the same year or period, an achieved outcome rather than a forecast, "
    "target or condition (unless the claim itself states a target), and the same quantity (Scope 3 is "
    "not the total of all scopes). A source that repeats the figure in order to reject or doubt it does "
    "not support it. Quote the whole sentence of the source your judgement rests on, copied exactly "
    "from the source text given, never a fragment of it; never paraphrase the quote. Also say which "
    "credibility tier the outlet is: "
    "1 investigative journalism, regulators' enforcement, court records; 2 established news, trade "
    "press, government or academic publications; 3 press releases, wire services, company sites, "
    "analysts; 4 blogs, social media, unknown sites. "
    'Answer with JSON only: {"stance": "contradicts"|"supports"|"neutral"|"irrelevant", '
    '"contradiction_type": "direct"|"contextual"|"omission"|"timeline"|null, "confidence": 0.0-1.0, '
    '"explanation": str (2-3 sentences on how the source relates to the claim), "quote": str, '
    '"tier": 1|2|3|4}'
)


def source_analysis_user_prompt(
    claim: ClaimState, company: str, *, title: str, url: str, published: str | None, text: str
) -> str:
    return (
        f"Company: {company or 'unknown'}\n"
        f"Claim: {claim['text']}\n"
        f"Claim type: {claim['claim_type']}\n"
        f"Claim context: {claim.get('source_context') or ''}\n\n"
        f"Source title: {title}\nSource URL: {url}\nPublished: {published or 'unknown'}\n"
        f"Source text:\n{text}"
    )
