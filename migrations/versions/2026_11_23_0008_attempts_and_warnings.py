"""Job attempts (reports.parse_attempts, analysis_runs.attempts), so a file or run that keeps
killing its worker is tried a bounded number of times; and analysis_runs.warnings, what degraded
during a run.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 19:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("reports", sa.Column("parse_attempts", sa.Integer(), server_default="0", nullable=False))
    op.add_column("analysis_runs", sa.Column("attempts", sa.Integer(), server_default="0", nullable=False))
    op.add_column(
        "analysis_runs",
        sa.Column("warnings", postgresql.JSONB(astext_type=sa.Text()), server_default="[]", nullable=False),
    )


def downgrade() -> None:
    op.drop_column("analysis_runs", "warnings")
    op.drop_column("analysis_runs", "attempts")
    op.drop_column("reports", "parse_attempts")
