"""claims.risk_flags: greenwashing risk flags found on a claim (generic wording, offset-based
neutrality, future commitments without a plan, self-declared labels), each with its kind, the
phrase that triggered it and a short explanation.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 21:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "claims",
        sa.Column("risk_flags", postgresql.JSONB(astext_type=sa.Text()), server_default="[]", nullable=False),
    )


def downgrade() -> None:
    op.drop_column("claims", "risk_flags")
