"""What the judge's evaluation of one claim's evidence holds (`app.verification.judge.evaluation`),
dimension by dimension: plain JSON-serialisable dicts, stored with the verdict."""

from __future__ import annotations

from typing import Literal, TypedDict

from app.verification.judge.grounding import Grounding

Stance = Literal["supports", "contradicts", "inconclusive"]


class Sufficiency(TypedDict):
    sufficiency: str
    source_count: int
    supporting_agents: list[str]
    contradicting_agents: list[str]
    has_contradictions: bool


class SupportCounts(TypedDict):
    support: int
    contradict: int
    inconclusive: int


class Consistency(TypedDict):
    consistency: str
    has_contradictions: bool
    weak_contradictions: int
    support_ratio: float
    contradict_ratio: float
    support_counts: SupportCounts
    supporting_agents: list[str]
    contradicting_agents: list[str]


class FindingScore(TypedDict):
    finding_id: str
    agent_name: str
    score: float


class Quality(TypedDict):
    quality: str
    avg_quality_score: float
    finding_scores: list[FindingScore]


class Completeness(TypedDict):
    completeness: str
    completeness_score: float
    expected_agents: list[str]
    investigated_agents: list[str]
    missing_agents: list[str]
    errored_agents: list[str]


class AgentContribution(TypedDict):
    findings_count: int
    supporting: int
    contradicting: int
    inconclusive: int
    weight: float
    primary_support: Stance


class Synthesis(TypedDict):
    weighted_support: float
    weighted_contradiction: float
    agent_contributions: dict[str, AgentContribution]


class Evaluation(TypedDict):
    sufficiency: Sufficiency
    consistency: Consistency
    quality: Quality
    completeness: Completeness
    dimension_scores: dict[str, float]
    overall_score: float
    synthesis: Synthesis
    grounding: Grounding
