"""Pipeline state on analysis runs and idempotent event keys.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "analysis_runs", sa.Column("max_iterations", sa.Integer(), server_default="3", nullable=False)
    )
    op.add_column(
        "analysis_runs",
        sa.Column("skip_claims_extraction", sa.Boolean(), server_default="false", nullable=False),
    )
    op.add_column(
        "analysis_runs",
        sa.Column(
            "agent_status", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False
        ),
    )
    op.add_column(
        "analysis_runs",
        sa.Column("compliance", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
    )
    op.add_column(
        "verdicts",
        sa.Column("details", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
    )
    op.add_column("events", sa.Column("dedupe_key", sa.String(length=200), nullable=True))
    op.create_unique_constraint(op.f("uq_events_report_id"), "events", ["report_id", "dedupe_key"])


def downgrade() -> None:
    op.drop_constraint(op.f("uq_events_report_id"), "events", type_="unique")
    op.drop_column("events", "dedupe_key")
    op.drop_column("verdicts", "details")
    op.drop_column("analysis_runs", "compliance")
    op.drop_column("analysis_runs", "agent_status")
    op.drop_column("analysis_runs", "skip_claims_extraction")
    op.drop_column("analysis_runs", "max_iterations")
