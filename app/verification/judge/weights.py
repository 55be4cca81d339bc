"""The Judge's fixed tables: which specialists each claim type expects (the routing matrix), how
much each specialist's word counts per claim type, and how credible each specialist's evidence is.
They feed the evidence score (`evaluation`), never what a verdict may say (`grounding`)."""

from __future__ import annotations

from app.verification.catalog import AGENT_LABELS as SHORT_LABELS
from app.verification.catalog import DEFAULT_MATRIX, FALLBACK_AGENTS
from app.verification.records import SPECIALISTS

KNOWN_AGENTS: tuple[str, ...] = SPECIALISTS

AGENT_LABELS: dict[str, str] = {agent: f"{label} agent" for agent, label in SHORT_LABELS.items()}

#: The judge expects to hear from the agents the routing matrix sends a claim type to.
EXPECTED_AGENTS: dict[str, tuple[str, ...]] = DEFAULT_MATRIX
DEFAULT_EXPECTED_AGENTS: tuple[str, ...] = FALLBACK_AGENTS

AGENT_WEIGHTS: dict[str, dict[str, float]] = {
    "geographic": {"geography": 0.6, "legal": 0.2, "news_media": 0.1, "academic": 0.05, "data_metrics": 0.05},
    "quantitative": {
        "data_metrics": 0.5,
        "legal": 0.3,
        "academic": 0.1,
        "news_media": 0.05,
        "geography": 0.05,
    },
    "legal_governance": {
        "legal": 0.7,
        "news_media": 0.15,
        "academic": 0.1,
        "geography": 0.03,
        "data_metrics": 0.02,
    },
    "strategic": {"legal": 0.4, "academic": 0.3, "news_media": 0.2, "data_metrics": 0.05, "geography": 0.05},
    "environmental": {
        "academic": 0.4,
        "geography": 0.3,
        "data_metrics": 0.2,
        "legal": 0.05,
        "news_media": 0.05,
    },
}
DEFAULT_AGENT_WEIGHTS: dict[str, float] = {
    "legal": 0.3,
    "academic": 0.2,
    "news_media": 0.2,
    "geography": 0.15,
    "data_metrics": 0.15,
}
UNKNOWN_AGENT_WEIGHT = 0.5

AGENT_BASE_QUALITY: dict[str, float] = {
    "geography": 0.9,  # satellite imagery is direct evidence
    "legal": 0.95,  # IFRS standard text is authoritative
    "news_media": 0.7,  # scaled by the source tier below
    "academic": 0.85,  # peer-reviewed research
    "data_metrics": 0.9,  # mathematical consistency is objective
}
UNKNOWN_AGENT_QUALITY = 0.5

NEWS_TIER_MULTIPLIER: dict[int, float] = {1: 1.0, 2: 0.8, 3: 0.6, 4: 0.3}
DEFAULT_NEWS_TIER = 3

CONFIDENCE_MULTIPLIER: dict[str, float] = {"high": 1.0, "medium": 0.7, "low": 0.4}
UNKNOWN_CONFIDENCE_MULTIPLIER = 0.5


def agent_label(agent: str) -> str:
    """A specialist's name as people read it ("news_media" -> "News/Media agent")."""
    return AGENT_LABELS.get(agent, f"{agent} agent")


def expected_agents(claim_type: str) -> tuple[str, ...]:
    """The specialists that should investigate a claim of this type (Legal alone by default)."""
    return EXPECTED_AGENTS.get(claim_type, DEFAULT_EXPECTED_AGENTS)


def agent_weights(claim_type: str) -> dict[str, float]:
    """Each specialist's relevance weight for a claim type; the weights sum to 1."""
    return dict(AGENT_WEIGHTS.get(claim_type, DEFAULT_AGENT_WEIGHTS))


def agent_weight(claim_type: str, agent: str) -> float:
    """One specialist's weight for a claim type; an agent outside the table weighs 0.5."""
    return agent_weights(claim_type).get(agent, UNKNOWN_AGENT_WEIGHT)


def confidence_band(confidence: float | None) -> str | None:
    """A finding's 0..1 confidence as a level: >= 0.75 high, >= 0.5 medium, else low."""
    if confidence is None:
        return None
    if confidence >= 0.75:
        return "high"
    if confidence >= 0.5:
        return "medium"
    return "low"


def confidence_multiplier(confidence: float | None) -> float:
    """How much a finding's confidence scales its quality: 1.0 / 0.7 / 0.4, or 0.5 if unknown."""
    band = confidence_band(confidence)
    return UNKNOWN_CONFIDENCE_MULTIPLIER if band is None else CONFIDENCE_MULTIPLIER[band]


def base_quality(agent: str, source_tier: object = DEFAULT_NEWS_TIER) -> float:
    """How credible a specialist's evidence is before its confidence is considered.

    News/Media evidence is scaled by its source tier (1 best .. 4 blogs); an unknown tier counts
    as the default tier 3.
    """
    quality = AGENT_BASE_QUALITY.get(agent, UNKNOWN_AGENT_QUALITY)
    if agent == "news_media":
        multiplier = NEWS_TIER_MULTIPLIER.get(source_tier) if isinstance(source_tier, int) else None
        quality *= NEWS_TIER_MULTIPLIER[DEFAULT_NEWS_TIER] if multiplier is None else multiplier
    return quality
