"""The GraphQL enums of claims and verdicts, and their mapping to the lower-case stored values."""

from __future__ import annotations

import enum

import strawberry

from app.verification.records import SPECIALISTS
from schema.errors import ErrorCode, client_error
from schema.types.enum_values import describe_values


@describe_values(
    GEOGRAPHIC="About a place: where a site or project is, land use, restoration or deforestation in a "
    "named region, water drawn in a named basin. The geography agent locates it.",
    QUANTITATIVE="A figure that can be recomputed or compared: emissions, percentages, intensities, "
    "year-on-year changes, targets stated as numbers.",
    LEGAL_GOVERNANCE="Who oversees what and under which rules: board and committee duties, policies, "
    "compliance statements, pay linked to climate performance.",
    STRATEGIC="What the company plans or has committed to: transition plans, future targets, "
    "investment pledges, timelines, scenario results.",
    ENVIRONMENTAL="What the company does for the environment, without a figure to recompute: renewable "
    "energy, waste, biodiversity, water stewardship, circularity.",
)
@strawberry.enum(description="What kind of statement a claim is.")
class ClaimType(enum.Enum):
    GEOGRAPHIC = "geographic"
    QUANTITATIVE = "quantitative"
    LEGAL_GOVERNANCE = "legal_governance"
    STRATEGIC = "strategic"
    ENVIRONMENTAL = "environmental"


@describe_values(
    HIGH="Central to the report's story and checkable: specific figures, core climate metrics, claims "
    "that would be material greenwashing if false.",
    MEDIUM="Partly checkable: qualitative claims with some concrete element, governance and process "
    "claims, commitments with a date.",
    LOW="Hard to check from public sources: general statements, commitments without a metric, claims "
    "only the company's own records could confirm.",
)
@strawberry.enum(description="How much a claim matters to a reader of the report.")
class Priority(enum.Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@describe_values(
    VERIFIED="Independent sources corroborate the claim: one Tier 1–2 source, or two independent "
    "publishers of Tier 1–3, each with a sentence found in the source that bears on the claim, and "
    "nothing contradicts it (no independent contradiction, even a weak one, and no internal one). Tiers "
    "come from the credibility table, never from a model's opinion.",
    UNVERIFIED="No independent evidence about the claim was found: not a sign that it is false. The "
    "honest default when nothing could be searched (offline, empty evidence library).",
    CONTRADICTED="Independent sources strong enough to count contradict the claim, or the report "
    "certainly contradicts itself (a stated change its own figures cannot produce, or one metric and "
    "year with two values on two pages).",
    INSUFFICIENT_EVIDENCE="Some evidence about the claim exists, but it is below the bar for VERIFIED or "
    "CONTRADICTED, or it points both ways.",
)
@strawberry.enum(
    description="The judge's verdict on a claim, decided from independent evidence only: IFRS "
    "disclosure coverage, the report agreeing with itself and the company's own channels never verify a "
    "claim."
)
class VerdictLabel(enum.Enum):
    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    CONTRADICTED = "contradicted"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence"


@strawberry.enum(
    description="What a finding can prove about its claim. Only INDEPENDENT evidence can verify a claim; "
    "INTERNAL evidence can show the report contradicts itself but never that it is true; DISCLOSURE "
    "(IFRS coverage) says how completely the report discloses, never whether a claim is true."
)
class EvidenceKind(enum.Enum):
    INDEPENDENT = strawberry.enum_value(
        "independent",
        description="A source other than the reporting company: news, research, registries, satellite "
        "imagery, documents in the evidence library; with its publisher, date and quote check.",
    )
    INTERNAL = strawberry.enum_value(
        "internal",
        description="The report checked against itself (arithmetic, the same metric on two pages), or "
        "the company's own word elsewhere (its website, its press releases).",
    )
    DISCLOSURE = strawberry.enum_value(
        "disclosure", description="IFRS S1/S2 requirement coverage by the legal agent."
    )
    CONTEXT = strawberry.enum_value(
        "context",
        description="Where the claim is, not whether it is true: a place located in the gazetteer with no "
        "imagery to compare. It never supports or contradicts a claim.",
    )
    NONE = strawberry.enum_value("none", description="The agent looked and honestly found nothing.")
    ERROR = strawberry.enum_value("error", description="The agent failed; this check is missing.")


def evidence_kind(stored: str | None) -> EvidenceKind:
    """The enum of a stored kind; a value this version does not know reads as NONE (proves nothing)."""
    try:
        return EvidenceKind(stored)
    except ValueError:
        return EvidenceKind.NONE


@strawberry.enum(
    description="A greenwashing risk pattern found in a claim, after the EU rules on environmental claims "
    "(Directive (EU) 2024/825), detected by rules. A flag is a reason to look harder, not a finding that "
    "the claim is false."
)
class RiskFlagKind(enum.Enum):
    GENERIC_ENVIRONMENTAL_CLAIM = strawberry.enum_value(
        "generic_environmental_claim",
        description="A broad label of environmental virtue (eco-friendly, green, environmentally friendly, "
        "sustainable, climate friendly) applied to the company, its products or operations, with no specific "
        "performance a reader could verify (a figure, a recognised certification) in the claim or around "
        "it. The judge never verifies such a claim.",
    )
    OFFSET_BASED_NEUTRALITY = strawberry.enum_value(
        "offset_based_neutrality",
        description="A carbon-neutral, climate-neutral or net-zero claim that rests on offsets or purchased "
        "credits rather than on cutting the company's own emissions.",
    )
    FUTURE_COMMITMENT_WITHOUT_PLAN = strawberry.enum_value(
        "future_commitment_without_plan",
        description="A long-term environmental commitment (2030 or later) with no interim target or "
        "implementation plan on the same subject in the claim or anywhere in the report.",
    )
    SELF_DECLARED_LABEL = strawberry.enum_value(
        "self_declared_label",
        description="A label, seal, standard or certification of the company's own, or one naming no "
        "recognised third-party certification scheme. The judge never verifies such a claim.",
    )


def risk_flag_kind(stored: str | None) -> RiskFlagKind | None:
    """The enum of a stored kind; None for a kind this version does not know (the flag is skipped)."""
    try:
        return RiskFlagKind(stored)
    except ValueError:
        return None


@describe_values(
    PAGE="By page, and on each page in reading order.",
    PRIORITY="HIGH first, then MEDIUM, then LOW; within each priority, as PAGE.",
)
@strawberry.enum(
    description="How to order a report's claims: PAGE (by page, and on each page in reading order) or "
    "PRIORITY (high first, then medium, then low; within each, as PAGE)."
)
class ClaimOrder(enum.Enum):
    PAGE = "page"
    PRIORITY = "priority"


def specialist_argument(agent: str) -> str:
    """`agent` if it names a specialist, else INVALID_ARGUMENT listing them: a misspelt agent
    (`NEWS_MEDIA`, `newsMedia`) must not read as "no claims" or "no findings"."""
    if agent not in SPECIALISTS:
        raise client_error(
            ErrorCode.INVALID_ARGUMENT,
            f"Unknown agent {agent!r}; one of {', '.join(SPECIALISTS)}.",
            argument="agent",
        )
    return agent


#: Sort rank of each stored priority (PRIORITY ordering: high first).
PRIORITY_RANK = {"high": 0, "medium": 1, "low": 2}
