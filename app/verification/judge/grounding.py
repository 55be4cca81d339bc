"""What a verdict may say, decided from independent evidence only (docs/decisions.md).

A verdict is read by auditors as a statement about the claim's truth, so a specialist's support
counts only when it is independent evidence: counting every supporting finding would call a claim
"verified" because it merely mentions an IFRS topic. So here:

- VERIFIED needs independent corroboration: a Tier 1–2 source, or two independent publishers of
  Tier 1–3, supporting the claim with a sentence that passed the quote check and bears on the claim
  (states its figure, or its subject: `app.verification.reading.quote_relevance`) — and nothing that
  contradicts it (no independent contradiction, not even one below the bar, and no internal one).
  Tiers come from the credibility table only (a model's opinion never lifts an unlisted outlet), and
  publishers carrying the same quote word for word, copies credited to one wire and rewordings of
  one story are one voice (`voices`).
- CONTRADICTED needs a counting independent contradiction (the contradiction bar: one Tier 1
  source, two of Tier 1–2 or three of Tier 1–3, one vote per voice; a contradicting source says
  `supports_claim: false` however weak, and the bar is applied here) or a certain
  internal one: a stated change its stated values cannot produce beyond rounding, or the same
  metric and year stated with two different values on two pages. A clash of two pages is the
  exception when independent evidence reaching the VERIFIED bar backs this claim's value: the claim
  is then INSUFFICIENT_EVIDENCE (backed, but not stated consistently) and the other page's claim
  stays CONTRADICTED (`clashes`).
- INSUFFICIENT_EVIDENCE: some evidence about the claim exists but falls below the bar, or is mixed.
- UNVERIFIED: no independent evidence about the claim was found (the honest default offline with
  an empty evidence library).

Disclosure findings (IFRS coverage) never support or contradict; internal consistency alone never
verifies; the company's own word is not independent wherever it is printed (its site, a press
release, its own report or CDP response, an outlet relaying its statement), and when it contradicts
the report it is an internal doubt, not an independent contradiction; satellite imagery around
a named town is indirect, so it can make a verdict INSUFFICIENT_EVIDENCE but never decides it.

`ground` returns a JSON-serialisable summary of the deciding sources, stored with the verdict and
used for its reasoning; what that summary permits a verdict to say is `decision`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from app.verification.contract import CheckFinding, FindingEvidence
from app.verification.evidence_kinds import evidence_of, kind_of
from app.verification.judge.clashes import clash_outweighed, clash_sentence
from app.verification.judge.ordering import CITATION_LISTS, citation_key, in_content_order
from app.verification.records import Finding, latest_findings
from app.verification.sources.rules import contradiction_bar_reached
from app.verification.sources.voices import group_voices

#: Internal checks whose failure is certain (pure arithmetic or a flat disagreement of the report
#: with itself), so they contradict a claim on their own.
CERTAIN_INTERNAL_CHECKS = frozenset({"percent_change", "cross_page"})
#: Independent findings that are measurements near the claim's place rather than statements about it.
INDIRECT_EVIDENCE_TYPES = frozenset({"satellite_ndvi"})
#: Agents whose observations are indirect whatever their evidence type (imagery around a named town).
INDIRECT_AGENTS = frozenset({"geography"})
STRONG_TIER = 2  # a single source of this tier or better corroborates on its own
COUNTED_TIER = 3  # sources of this tier or better count towards two independent publishers
MIN_PUBLISHERS = 2
QUOTE_CHARS = 240
#: The tier basis of an analysis model's guess, which stored findings may carry: it never counts,
#: since a model's opinion never decides a tier.
MODEL_TIER_BASIS = "llm"
#: Tier bases that come from a table of record, so one Tier 1–2 source of them corroborates alone:
#: the credibility table's domains, and the public registries of record (docs/decisions.md).
RECORD_TIER_BASES = frozenset({"domain", "registry"})


class SourceCitation(TypedDict):
    """One source a verdict rests on, as a reader needs it to check the verdict."""

    finding_id: str
    agent: str
    kind: str
    publisher: str
    title: str | None
    url: str | None
    published_date: str | None
    tier: int | None
    tier_basis: str | None  # how the tier was decided: domain, company_site, press_release, llm, default
    voice: str | None  # who speaks: the wire a copy credits, else the publisher (`voices.voice_of`)
    quote: str | None
    quote_verified: bool | None
    summary: str
    pages: list[int]
    method: str | None  # how the finding read the source: rules or llm
    check: str | None  # the data/metrics check of an internal finding (percent_change, cross_page, ...)
    #: The registry record(s) read (`contract.RegistryCitation`), only on a registry's findings.
    registry: NotRequired[dict[str, Any]]


class Grounding(TypedDict):
    """The evidence behind a verdict, sorted by what it can prove."""

    corroborating: list[SourceCitation]  # independent support that passes the bar's conditions
    weak_support: list[SourceCitation]  # independent support below the bar (tier, quote, indirect)
    contradicting: list[SourceCitation]  # counting independent contradictions
    weak_contradiction: list[SourceCitation]  # independent contradictions below the contradiction bar
    internal_contradictions: list[SourceCitation]  # certain ones
    internal_doubts: list[SourceCitation]  # internal contradictions that are not certain
    internally_consistent: list[SourceCitation]
    self_reported: list[SourceCitation]  # the company's own site or press releases
    disclosure: list[str]  # the legal agent's coverage lines, for the reasoning only
    independent_publishers: list[str]
    corroborated: bool
    clashes: list[str]  # "The report states two values for <metric> <year>: …" (`clashes`)
    clash_outweighed: bool  # the only contradictions are clashes, and independent evidence backs this value
    searched: list[str]  # what the searching agents looked in (for an honest "nothing found")


# --- reading one finding -------------------------------------------------------------------------


def _publisher(evidence: FindingEvidence) -> str:
    if evidence.source_domain:
        return evidence.source_domain
    title = evidence.source_title
    return f"evidence library: {title}" if title else "evidence library"


def cite(finding: Finding) -> SourceCitation:
    """The citation of one finding (a source finding's publisher, date, URL and quote)."""
    evidence = evidence_of(finding)
    quote = evidence.snippet if evidence.source_url else None
    citation: SourceCitation = {
        "finding_id": finding["finding_id"],
        "agent": finding["agent_name"],
        "kind": kind_of(finding),
        "publisher": _publisher(evidence) if evidence.source_url else finding["agent_name"],
        "voice": evidence.voice,
        "title": evidence.source_title,
        "url": evidence.source_url,
        "published_date": evidence.published_date,
        "tier": evidence.source_tier,
        "tier_basis": evidence.tier_basis,
        "quote": quote[:QUOTE_CHARS] if quote else None,
        "quote_verified": evidence.quote_verified,
        "summary": finding["summary"],
        "pages": evidence.report_pages,
        "method": finding.get("method"),
        "check": evidence.check,
    }
    if evidence.registry is not None:
        citation["registry"] = evidence.registry
    return citation


def is_source_finding(finding: Finding) -> bool:
    """A finding about one source (not a searching agent's summary of several)."""
    return evidence_of(finding).about_one_source


def _stance(finding: Finding) -> str | None:
    """ "supports" / "contradicts" as the source reads, whether or not it reaches a bar."""
    evidence = evidence_of(finding)
    if evidence.quote_verified is False:
        return None  # a quote not in its source carries no weight at all
    if finding["supports_claim"] is False or evidence.contradicts_claim:
        return "contradicts"
    if finding["supports_claim"] is True or evidence.stance == "supports":
        return "supports"
    return None


def _corroborates(finding: Finding) -> bool:
    """Support that may count towards VERIFIED: a checked quote from a Tier 1–3 source."""
    evidence = evidence_of(finding)
    tier = evidence.source_tier
    return (
        finding["supports_claim"] is True
        and evidence.quote_verified is True
        and evidence.quote_bears_on_claim
        and evidence.tier_basis != MODEL_TIER_BASIS
        and tier is not None
        and tier <= COUNTED_TIER
        and finding["evidence_type"] not in INDIRECT_EVIDENCE_TYPES
    )


def _searched(findings: Iterable[Finding]) -> list[str]:
    places = [
        "the web" if provider != "library" else "the evidence library"
        for finding in findings
        for provider in evidence_of(finding).search_providers
    ]
    return sorted(set(places))


# --- the whole claim -----------------------------------------------------------------------------


def current(findings: Sequence[Finding]) -> list[Finding]:
    """The findings that stand after every pass: a source read again in a later pass counts once
    (its latest reading), and the legal agent's latest assessment replaces its earlier ones."""
    kept: list[Finding] = []
    read: set[tuple[str, str]] = set()
    for finding in latest_findings(sorted(findings, key=lambda item: item["iteration"]), _identity):
        key = _identity(finding)
        if key is not None and key[1]:
            if key in read:
                continue
            read.add(key)
        kept.append(finding)
    return kept


def _identity(finding: Finding) -> tuple[str, str] | None:
    """What a later pass's finding replaces: the same agent's reading of the same source, or the
    legal agent's assessment of the claim (None: every finding stands)."""
    evidence = evidence_of(finding)
    if evidence.about_one_source:
        return finding["agent_name"], evidence.source_url or ""
    if kind_of(finding) == "disclosure":
        return finding["agent_name"], ""
    return None


def _bar_met(corroborating: Sequence[SourceCitation]) -> bool:
    """One Tier 1–2 source whose tier comes from the domain table (not a model's guess), or two
    independent publishers."""
    strong = any(
        source["tier"] is not None
        and source["tier"] <= STRONG_TIER
        and source["tier_basis"] in RECORD_TIER_BASES
        for source in corroborating
    )
    return strong or len(voices(corroborating)) >= MIN_PUBLISHERS


def ground(findings: Sequence[Finding]) -> Grounding:
    """Sort one claim's findings by what they can prove (see the module docstring)."""
    grounding: Grounding = {
        "corroborating": [],
        "weak_support": [],
        "contradicting": [],
        "weak_contradiction": [],
        "internal_contradictions": [],
        "internal_doubts": [],
        "internally_consistent": [],
        "self_reported": [],
        "disclosure": [],
        "independent_publishers": [],
        "corroborated": False,
        "clashes": [],
        "clash_outweighed": False,
        "searched": _searched(findings),
    }
    for finding in current(in_content_order(findings)):
        _file(grounding, finding)
        sentence = clash_sentence(finding)
        if sentence is not None and sentence not in grounding["clashes"]:
            grounding["clashes"].append(sentence)
    for key in CITATION_LISTS:
        grounding[key].sort(key=citation_key)  # type: ignore[literal-required]
    _apply_contradiction_bar(grounding)
    grounding["independent_publishers"] = sorted(
        {
            source["publisher"]
            for source in [*grounding["corroborating"], *grounding["contradicting"]]
            if source["url"] is not None
        }
    )
    grounding["corroborated"] = _bar_met(grounding["corroborating"])
    grounding["clash_outweighed"] = clash_outweighed(grounding)
    return grounding


def _file(grounding: Grounding, finding: Finding) -> None:
    """Put one finding where it belongs in `grounding` (or nowhere, if it proves nothing)."""
    kind = kind_of(finding)
    if kind == "disclosure":
        if finding["claim_id"] is not None:
            grounding["disclosure"].append(finding["summary"])
        return
    if kind == "internal" and finding["agent_name"] == "data_metrics":
        _file_internal(grounding, finding)
        return
    evidence = evidence_of(finding)
    if evidence.about_one_source and evidence.self_reported:
        # The company's own word, whatever kind an investigator declared for it.
        # Saying something else elsewhere shows the report inconsistent (an internal doubt), never false.
        stance = _stance(finding)
        if stance is not None:
            grounding["internal_doubts" if stance == "contradicts" else "self_reported"].append(cite(finding))
        return
    indirect = finding["evidence_type"] in INDIRECT_EVIDENCE_TYPES or finding["agent_name"] in INDIRECT_AGENTS
    if kind != "independent" or not (evidence.about_one_source or indirect):
        return
    stance = _stance(finding)
    unchecked_llm = finding["method"] == "llm" and evidence.quote_verified is None
    if stance == "contradicts":
        # Provisionally counting; `_apply_contradiction_bar` keeps them only if together they reach it.
        counting = not indirect and not unchecked_llm
        grounding["contradicting" if counting else "weak_contradiction"].append(cite(finding))
    elif stance == "supports":
        grounding["corroborating" if _corroborates(finding) and not indirect else "weak_support"].append(
            cite(finding)
        )


def voices(sources: Sequence[SourceCitation]) -> list[list[SourceCitation]]:
    """The sources grouped by who is speaking: one publisher is one voice, and publishers carrying
    the same quote word for word are one voice too (a syndicated or copied text is not a second,
    independent confirmation), as are copies credited to one wire and rewordings of one story
    (`app.verification.sources.voices.group_voices`)."""
    return group_voices(sources)


def _best_tier_by_voice(sources: Sequence[SourceCitation]) -> list[int]:
    """Each voice's best tier from the credibility table (a tier a model guessed, which stored
    findings may carry, is no tier: a model's opinion never decides a tier)."""
    tiers = [
        [s["tier"] for s in voice if s["tier"] is not None and s["tier_basis"] != MODEL_TIER_BASIS]
        for voice in voices(sources)
    ]
    return [min(voice) for voice in tiers if voice]


def contradiction_stands(sources: Sequence[SourceCitation]) -> bool:
    """The contradiction bar over every agent's sources, one vote per voice (`voices`): a Tier 1
    source, two of Tier 1–2, or three of Tier 1–3."""
    return contradiction_bar_reached(_best_tier_by_voice(sources))


def _apply_contradiction_bar(grounding: Grounding) -> None:
    """Contradictions count only together, after every pass: a source flagged counting in one pass
    next to another that a later pass read differently is re-weighed here."""
    if not contradiction_stands(grounding["contradicting"]):
        grounding["weak_contradiction"] = [*grounding["contradicting"], *grounding["weak_contradiction"]]
        grounding["contradicting"] = []


def _file_internal(grounding: Grounding, finding: Finding) -> None:
    check = CheckFinding.from_details(finding["details"])
    if finding["supports_claim"] is False:
        certain = check.check in CERTAIN_INTERNAL_CHECKS
        grounding["internal_contradictions" if certain else "internal_doubts"].append(cite(finding))
    elif finding["supports_claim"] is True or check.consistent:
        grounding["internally_consistent"].append(cite(finding))


def stored_grounding(verdict_details: Mapping[str, Any]) -> Mapping[str, Any]:
    """The `Grounding` a stored verdict's details keep under its evaluation (empty when none)."""
    return (verdict_details.get("evaluation") or {}).get("grounding") or {}
