"""Analysis runs and what they produce: claims, routing, findings and verdicts."""

from __future__ import annotations

import enum
import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, Timestamped


class RunStatus(enum.StrEnum):
    """Where an analysis run is in its life (its job queued, leased and running, or over)."""

    #: Created, its job queued (or re-queued by `resumeAnalysis` or startup recovery).
    PENDING = "PENDING"
    #: A worker holds its lease and runs its graph.
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    #: It failed, or gave up after its retries; `resumeAnalysis` may start it again.
    ERROR = "ERROR"
    #: An operator stopped it (`cancelAnalysis`): never leased or swept again unless resumed by hand.
    CANCELLED = "CANCELLED"


class AnalysisRun(Timestamped, Base):
    """One run of the pipeline over a report; its id is the LangGraph thread id."""

    __tablename__ = "analysis_runs"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    report_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("reports.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16), default=RunStatus.PENDING)
    pipeline_stage: Mapped[str | None] = mapped_column(String(64))
    iteration_count: Mapped[int] = mapped_column(Integer, default=0)
    max_iterations: Mapped[int] = mapped_column(Integer, default=3, server_default="3")
    skip_claims_extraction: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    agent_status: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    compliance: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    extraction_stats: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    usage: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    error_message: Mapped[str | None] = mapped_column(Text)
    # What degraded during the run (e.g. extraction windows that fell back to rules), as typed entries.
    warnings: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list, server_default="[]")
    # Pipeline jobs started for this run; past MAX_JOB_ATTEMPTS it is left in ERROR (a poison run).
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_owner: Mapped[str | None] = mapped_column(String(128))
    lease_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Claim(Timestamped, Base):
    """A verifiable statement extracted from a report, located on its source page."""

    __tablename__ = "claims"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    report_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("reports.id", ondelete="CASCADE"), index=True)
    analysis_run_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("analysis_runs.id", ondelete="SET NULL"), index=True
    )
    text: Mapped[str] = mapped_column(Text)
    claim_type: Mapped[str] = mapped_column(String(32))
    priority: Mapped[str] = mapped_column(String(16))
    source_page: Mapped[int] = mapped_column(Integer)
    # The other pages stating the same claim, ascending (`app.claims.dedup`): a repeat is one claim.
    also_on_pages: Mapped[list[int]] = mapped_column(ARRAY(Integer), default=list, server_default="{}")
    # Where the claim's text starts in its page's compared text (`normalize_for_match`): reading order.
    page_offset: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    source_context: Mapped[str | None] = mapped_column(Text)
    ifrs_paragraphs: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    reasoning: Mapped[str | None] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(32))
    # Greenwashing risk flags (kind, trigger phrase, explanation) found by app.claims.risk_flags.
    risk_flags: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list, server_default="[]")


class RoutingAssignment(Timestamped, Base):
    """The orchestrator's decision to send one claim to one agent in one cycle."""

    __tablename__ = "routing_assignments"
    __table_args__ = (UniqueConstraint("analysis_run_id", "claim_id", "agent", "iteration"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    analysis_run_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("analysis_runs.id", ondelete="CASCADE"), index=True
    )
    claim_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("claims.id", ondelete="CASCADE"))
    agent: Mapped[str] = mapped_column(String(32))
    iteration: Mapped[int] = mapped_column(Integer, default=0)
    reasoning: Mapped[str | None] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(32))


class Finding(Timestamped, Base):
    """Evidence one specialist found (or honestly did not find) about a claim."""

    __tablename__ = "findings"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    analysis_run_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("analysis_runs.id", ondelete="CASCADE"), index=True
    )
    claim_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("claims.id", ondelete="CASCADE"), index=True
    )
    agent: Mapped[str] = mapped_column(String(32))
    evidence_type: Mapped[str] = mapped_column(String(32))
    # What the finding can prove: independent, internal, disclosure, none or error.
    evidence_kind: Mapped[str] = mapped_column(String(16), server_default="none")
    summary: Mapped[str] = mapped_column(Text)
    details: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    supports_claim: Mapped[bool | None] = mapped_column(Boolean)
    confidence: Mapped[float | None] = mapped_column(Float)
    iteration: Mapped[int] = mapped_column(Integer, default=0)
    method: Mapped[str] = mapped_column(String(32))


class Verdict(Timestamped, Base):
    """The judge's verdict on a claim in one cycle; the last cycle's is final."""

    __tablename__ = "verdicts"
    __table_args__ = (UniqueConstraint("analysis_run_id", "claim_id", "iteration"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    analysis_run_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("analysis_runs.id", ondelete="CASCADE"), index=True
    )
    claim_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("claims.id", ondelete="CASCADE"), index=True)
    verdict: Mapped[str] = mapped_column(String(32))
    reasoning: Mapped[str] = mapped_column(Text)
    ifrs_mapping: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    confidence: Mapped[float | None] = mapped_column(Float)
    iteration: Mapped[int] = mapped_column(Integer, default=0)
    is_final: Mapped[bool] = mapped_column(Boolean, default=False)
    method: Mapped[str] = mapped_column(String(32))
    # The judge's evaluation behind the verdict (four dimensions, synthesis, any LLM review).
    details: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
