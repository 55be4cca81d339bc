"""`Analysis.warnings`: what degraded during a run (an LLM step that fell back to its rule path, or a
source of evidence the run could not search)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

import strawberry


@strawberry.enum(
    description="What fell back during an analysis, or could not be searched. Every LLM step has a rule "
    "path, so a provider that is down, rate-limited or refusing never stops a run; these say which results "
    "came from the rules instead, and which sources of evidence no claim could meet."
)
class AnalysisWarningCode(enum.Enum):
    EXTRACTION_FELL_BACK_TO_RULES = strawberry.enum_value(
        "EXTRACTION_FELL_BACK_TO_RULES",
        description="Page windows whose LLM answer was unusable (after retries, the repair round and the "
        "fallback model) or a refusal were read by the rule-based extractor; their claims say "
        "`method: rules`. When every window fell back, the claims are the offline run's.",
    )
    EXTRACTION_LANGUAGE_UNSUPPORTED = strawberry.enum_value(
        "EXTRACTION_LANGUAGE_UNSUPPORTED",
        description="The rule-based extractor read the report (no LLM configured, or every window fell "
        "back), but most of its pages are not in English, the only language the rules know: few or no "
        "claims says nothing about the report. The LLM extractor (LLM_API_KEY) reads other languages.",
    )
    DEDUP_FELL_BACK_TO_RULES = strawberry.enum_value(
        "DEDUP_FELL_BACK_TO_RULES",
        description="Pairs of similar claims the dedup model could not judge were merged (or kept apart) "
        "by the lexical rule: the same figures and mostly the same words.",
    )
    ROUTING_FELL_BACK_TO_RULES = strawberry.enum_value(
        "ROUTING_FELL_BACK_TO_RULES",
        description="The routing model failed, or named no known agent for some claims; those claims were "
        "sent to specialists by the routing matrix.",
    )
    JUDGE_REVIEW_FELL_BACK_TO_RULES = strawberry.enum_value(
        "JUDGE_REVIEW_FELL_BACK_TO_RULES",
        description="The judge's LLM review of claims with conflicting evidence failed; the rule verdicts "
        "stand for those claims.",
    )
    QUERY_WRITING_FELL_BACK_TO_RULES = strawberry.enum_value(
        "QUERY_WRITING_FELL_BACK_TO_RULES",
        description="The news/media and academic agents' search queries for some claims were built from "
        "the claims' key terms by rules, because the analysis model failed to write them.",
    )
    SOURCE_ANALYSIS_FELL_BACK_TO_RULES = strawberry.enum_value(
        "SOURCE_ANALYSIS_FELL_BACK_TO_RULES",
        description="Some sources the searching agents found were read against their claims by the rules "
        "(keywords and figures), because the analysis model failed; those findings say `method: rules`.",
    )
    WEB_SEARCH_FAILED = strawberry.enum_value(
        "WEB_SEARCH_FAILED",
        description="Web search is configured, but the provider failed for some queries (the message gives "
        "how many and why). A claim whose web searches all failed has an error finding from the searching "
        "agent: it was not checked on the web, so its UNVERIFIED verdict says nothing about the claim.",
    )
    WEB_SEARCH_UNAVAILABLE = strawberry.enum_value(
        "WEB_SEARCH_UNAVAILABLE",
        description="No claim was searched on the web (TAVILY_API_KEY unset, or SEARCH_PROVIDERS leaves "
        "out tavily): UNVERIFIED means nothing independent was looked at on the web, not that the claim is "
        "false.",
    )
    EVIDENCE_LIBRARY_EMPTY = strawberry.enum_value(
        "EVIDENCE_LIBRARY_EMPTY",
        description="The organisation's evidence library held no document, so no claim could meet a library "
        "source (add documents with addEvidenceDocument or `sibyl evidence import`).",
    )
    AGENT_FAILED = strawberry.enum_value(
        "AGENT_FAILED",
        description="A specialist timed out (AGENT_TIMEOUT_SECONDS) or failed. The claims it checked before "
        "that keep its findings; each claim it did not check has an error finding, and that claim's verdict "
        "reasoning names the failed agent. The message says how many claims each failed agent checked.",
    )


@strawberry.type(description="One thing that degraded during the run, with how much of it.")
class AnalysisWarning:
    code: AnalysisWarningCode = strawberry.field(
        description="What fell back, or what could not be searched (see the enum's values)."
    )
    stage: str = strawberry.field(
        description="The pipeline stage it happened in: extracting_claims, routing, investigating or judging."
    )
    message: str = strawberry.field(
        description='For a person, with the cause, e.g. "4 of 4 extraction windows fell back to rules: '
        'provider returned HTTP 500".'
    )
    count: int = strawberry.field(description="How many units fell back (windows, claims, reviews).")
    total: int = strawberry.field(description="How many units of that kind the stage had.")
    iteration: int = strawberry.field(description="The pass (0 = first) it happened in.")


def analysis_warnings(stored: Iterable[Mapping[str, Any]]) -> list[AnalysisWarning]:
    """The run's stored warnings, in the order they happened; entries of unknown code are skipped."""
    known = {code.value for code in AnalysisWarningCode}
    return [
        AnalysisWarning(
            code=AnalysisWarningCode(entry["code"]),
            stage=str(entry.get("stage") or ""),
            message=str(entry.get("message") or ""),
            count=int(entry.get("count") or 0),
            total=int(entry.get("total") or 0),
            iteration=int(entry.get("iteration") or 0),
        )
        for entry in stored
        if entry.get("code") in known
    ]
