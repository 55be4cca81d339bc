"""Reports carry the company's ISIN and LEI; organisations settle uncertain registry matches per report.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 08:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("reports", sa.Column("isin", sa.String(length=12), nullable=True))
    op.add_column("reports", sa.Column("lei", sa.String(length=20), nullable=True))
    op.create_table(
        "registry_match_decisions",
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("entity_key", sa.Text(), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"],
            ["reports.id"],
            name=op.f("fk_registry_match_decisions_report_id_reports"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("report_id", "entity_key", name=op.f("pk_registry_match_decisions")),
    )


def downgrade() -> None:
    op.drop_table("registry_match_decisions")
    op.drop_column("reports", "lei")
    op.drop_column("reports", "isin")
