"""Report passages: the index `askReport` searches (full-text + pgvector), and its version per report.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import pgvector.sqlalchemy
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "report_passages",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("analysis_run_id", sa.Uuid(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("claim_id", sa.Uuid(), nullable=True),
        sa.Column("page_number", sa.Integer(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("attributes", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.Vector(), nullable=True),
        sa.Column("embedding_model", sa.String(length=128), nullable=True),
        sa.Column(
            "search_vector",
            postgresql.TSVECTOR(),
            sa.Computed("to_tsvector('english', text)", persisted=True),
            nullable=False,
        ),
        sa.CheckConstraint(
            "kind IN ('page', 'claim', 'finding', 'verdict')", name=op.f("ck_report_passages_kind")
        ),
        sa.ForeignKeyConstraint(
            ["analysis_run_id"],
            ["analysis_runs.id"],
            name=op.f("fk_report_passages_analysis_run_id_analysis_runs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["claim_id"], ["claims.id"], name=op.f("fk_report_passages_claim_id_claims"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["report_id"],
            ["reports.id"],
            name=op.f("fk_report_passages_report_id_reports"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_passages")),
    )
    op.create_index(op.f("ix_report_passages_report_id"), "report_passages", ["report_id"], unique=False)
    op.create_index(
        "ix_report_passages_search_vector",
        "report_passages",
        ["search_vector"],
        unique=False,
        postgresql_using="gin",
    )
    op.create_table(
        "report_passage_indexes",
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("version", sa.String(length=255), nullable=False),
        sa.Column("embedding_model", sa.String(length=128), nullable=True),
        sa.Column("passage_count", sa.Integer(), nullable=False),
        sa.Column("built_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"],
            ["reports.id"],
            name=op.f("fk_report_passage_indexes_report_id_reports"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("report_id", name=op.f("pk_report_passage_indexes")),
    )


def downgrade() -> None:
    op.drop_table("report_passage_indexes")
    op.drop_index("ix_report_passages_search_vector", table_name="report_passages")
    op.drop_index(op.f("ix_report_passages_report_id"), table_name="report_passages")
    op.drop_table("report_passages")
