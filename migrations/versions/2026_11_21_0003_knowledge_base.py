"""Knowledge base passages (full-text + pgvector) and claim-extraction stats on analysis runs.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import pgvector.sqlalchemy
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEARCH_VECTOR = (
    "to_tsvector('english', title || ' ' || summary || ' ' || "
    "coalesce(attributes->>'keywords', '') || ' ' || coalesce(official_text, ''))"
)


def upgrade() -> None:
    op.create_table(
        "knowledge_passages",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("source_type", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("official_text", sa.Text(), nullable=True),
        sa.Column("attributes", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("embedding", pgvector.sqlalchemy.Vector(), nullable=True),
        sa.Column("embedding_model", sa.String(length=128), nullable=True),
        sa.Column(
            "search_vector", postgresql.TSVECTOR(), sa.Computed(SEARCH_VECTOR, persisted=True), nullable=False
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_knowledge_passages")),
        sa.UniqueConstraint("source_type", "key", name=op.f("uq_knowledge_passages_source_type")),
    )
    op.create_index(
        op.f("ix_knowledge_passages_source_type"), "knowledge_passages", ["source_type"], unique=False
    )
    op.create_index(
        "ix_knowledge_passages_search_vector",
        "knowledge_passages",
        ["search_vector"],
        unique=False,
        postgresql_using="gin",
    )
    op.add_column(
        "analysis_runs",
        sa.Column(
            "extraction_stats", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False
        ),
    )


def downgrade() -> None:
    op.drop_column("analysis_runs", "extraction_stats")
    op.drop_index("ix_knowledge_passages_search_vector", table_name="knowledge_passages")
    op.drop_index(op.f("ix_knowledge_passages_source_type"), table_name="knowledge_passages")
    op.drop_table("knowledge_passages")
