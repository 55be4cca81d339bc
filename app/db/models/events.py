"""The per-report event log that feeds live subscriptions and replays."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, Timestamped


class Event(Timestamped, Base):
    """One event; `seq` runs 1, 2, 3, … per report with no gaps."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("report_id", "dedupe_key"),)

    report_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("reports.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    analysis_run_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("analysis_runs.id", ondelete="SET NULL"), index=True
    )
    event_type: Mapped[str] = mapped_column(String(64))
    agent_name: Mapped[str | None] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    # Set by pipeline nodes so that a node re-run after a crash does not record its events twice.
    dedupe_key: Mapped[str | None] = mapped_column(String(200))
