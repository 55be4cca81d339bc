"""The question-answering index of a report: its page text, claims, findings and verdicts as passages.

`askReport` searches these rows (pgvector + full text, like the knowledge base) instead of the source
tables, so one hybrid query ranks a page chunk against a verdict's reasoning. The rows are derived
data: `report_passage_indexes` remembers which state of the report (latest run, its status and
counts) they were built from, and the index is rebuilt lazily when that state changes.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import CheckConstraint, Computed, DateTime, ForeignKey, Index, Integer, String, Text, func
from sqlalchemy.dialects.postgresql import JSONB, TSVECTOR
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.models.knowledge import TEXT_SEARCH_CONFIG

#: What a passage holds: a chunk of page text, a claim, a specialist's finding or a judge's verdict.
PASSAGE_KINDS = ("page", "claim", "finding", "verdict")


class ReportPassage(Base):
    """One searchable passage of a report; `attributes` carries what answers quote besides the text
    (verdict label and confidence, finding agent and stance, claim type and IFRS paragraphs)."""

    __tablename__ = "report_passages"
    __table_args__ = (
        CheckConstraint("kind IN ('page', 'claim', 'finding', 'verdict')", name="kind"),
        Index("ix_report_passages_search_vector", "search_vector", postgresql_using="gin"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    report_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("reports.id", ondelete="CASCADE"), index=True)
    analysis_run_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("analysis_runs.id", ondelete="CASCADE")
    )
    kind: Mapped[str] = mapped_column(String(16))
    claim_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("claims.id", ondelete="CASCADE"))
    page_number: Mapped[int | None] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    attributes: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    embedding: Mapped[list[float] | None] = mapped_column(Vector())
    embedding_model: Mapped[str | None] = mapped_column(String(128))
    search_vector: Mapped[str] = mapped_column(
        TSVECTOR, Computed(f"to_tsvector('{TEXT_SEARCH_CONFIG}', text)", persisted=True)
    )


class ReportPassageIndex(Base):
    """Which state of a report its passages were built from (`version`), and with which embedder
    (`embedding_model` is None when embedding failed and only full-text search works)."""

    __tablename__ = "report_passage_indexes"

    report_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("reports.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[str] = mapped_column(String(255))
    embedding_model: Mapped[str | None] = mapped_column(String(128))
    passage_count: Mapped[int] = mapped_column(Integer)
    built_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
