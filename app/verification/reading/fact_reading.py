"""A source's reading held to the same fact as the claim (`same_fact`), for the model and the rules.

`source_reading.read_source` hands every reading here after the quote check: the quote is widened to
its whole sentence(s) in the source (`QuoteCheck.sentence`), the sentence must bear on the claim
(`quote_relevance.bears_on_claim`) and state the same fact (`same_fact.not_same_fact`). A reading that
fails is kept as a finding, as "neutral" with the reason ("…, so this source decides nothing") and
the signal `not_same_fact:<kind>`, so the finding and the verdict agree that it decides nothing.

The rule reader picks its strongest sentence; when that one is about another company, year or
quantity, the next strongest may still be the claim's fact ("Nordavia Mining reported 9.8 Mt.
Nordavia Metals reported 14.2 Mt."), so the rules read the source again without it (at most
`MAX_RULE_RETRIES` times). A model's reading cannot be re-run that way; its sentence decides or not.
"""

from __future__ import annotations

from dataclasses import replace

from app.language.sentences import split_sentences
from app.search.results import SearchResult
from app.search.sources import QuoteCheck, SourceTexts
from app.verification.reading.contradictions import SourceAssessment
from app.verification.reading.quote_relevance import bears_on_claim
from app.verification.reading.same_fact import NotSameFact, not_same_fact
from app.verification.reading.source_analysis import RuleAssessor, source_text
from app.verification.reading.statements import LATER_IS_THE_POINT
from app.verification.sources.company_mentions import names_only_others

#: How many set-aside sentences the rule reader may read a source again without.
MAX_RULE_RETRIES = 4
_DECIDING = {"supports", "contradicts"}


def about_another_company(company: str, result: SearchResult) -> SourceAssessment | None:
    """An "irrelevant" reading for a source that names only other companies sharing the company's
    first word ("Nordavia Mining" for "Nordavia Metals"), else None."""
    other = names_only_others(company, result.title, result.snippet, result.content)
    if other is None:
        return None
    return SourceAssessment(
        "irrelevant",
        None,
        0.0,
        f"The source is about {other}, not {company}.",
        None,
        "not_same_fact:other_company",
    )


async def hold_to_same_fact(
    texts: SourceTexts,
    claim: str,
    company: str,
    result: SearchResult,
    assessment: SourceAssessment,
    rules: RuleAssessor,
) -> tuple[SourceAssessment, QuoteCheck, bool]:
    """The reading to record, its quote check, and whether its quote bears on the claim (see the
    module docstring)."""
    if assessment.stance == "irrelevant":
        return assessment, QuoteCheck(None, "not relevant; not checked"), True
    checked = await texts.check(result, assessment.quote)
    if assessment.stance not in _DECIDING:
        return assessment, checked, bears_on_claim(claim, company, assessment.quote, assessment.stance)
    assessment = replace(assessment, quote=checked.sentence or assessment.quote)
    failed = _why_not(claim, company, result, assessment)
    if failed is None:
        return assessment, checked, bears_on_claim(claim, company, assessment.quote, assessment.stance)
    if assessment.method == "rules":
        retried = _rules_without(claim, company, result, assessment, rules)
        if retried is not None:
            return retried, await texts.check(result, retried.quote), True
    return _decides_nothing(assessment, failed), checked, True


def _why_not(
    claim: str, company: str, result: SearchResult, assessment: SourceAssessment
) -> NotSameFact | None:
    return not_same_fact(
        claim,
        company,
        assessment.quote or "",
        assessment.stance,
        published=result.published_date,
        title=result.title,
        goes_on=assessment.signal in LATER_IS_THE_POINT,
    )


def _rules_without(
    claim: str, company: str, result: SearchResult, first: SourceAssessment, rules: RuleAssessor
) -> SourceAssessment | None:
    """The rule reader's next reading that states the claim's fact, its set-aside sentences removed;
    None when none does."""
    title, text = result.title, source_text(result)
    current = first
    for _ in range(MAX_RULE_RETRIES):
        title, text = _without(current.quote or "", title, text)
        current = rules(claim, company, title, text, result.published_date)
        if current.stance not in _DECIDING:
            return None
        if _why_not(claim, company, result, current) is None and bears_on_claim(
            claim, company, current.quote, current.stance
        ):
            return current
    return None


def _without(sentence: str, title: str, text: str) -> tuple[str, str]:
    """The title and text with `sentence` set aside."""
    if title.strip() == sentence.strip():
        return "", text
    kept = [item.text for item in split_sentences(1, text) if item.text.strip() != sentence.strip()]
    return title, " ".join(kept)


def _decides_nothing(assessment: SourceAssessment, failed: NotSameFact) -> SourceAssessment:
    """The reading kept as "neutral", saying what it read and why that decides nothing."""
    reader = "The analysis model" if assessment.method == "llm" else "The rule reader"
    side = "supporting" if assessment.stance == "supports" else "contradicting"
    explanation = (
        f"{reader} read the source as {side} the claim ({assessment.explanation.rstrip('.')}), but "
        f"{failed.reason}, so this source decides nothing."
    )
    return SourceAssessment(
        "neutral",
        None,
        assessment.confidence,
        explanation,
        assessment.quote,
        f"not_same_fact:{failed.kind}",
        assessment.method,
    )
