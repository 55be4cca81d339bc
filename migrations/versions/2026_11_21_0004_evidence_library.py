"""Evidence library: documents users add; their passages go to `knowledge_passages`.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "evidence_documents",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("source_url", sa.Text(), nullable=True),
        sa.Column("source_domain", sa.String(length=255), nullable=True),
        sa.Column("published_date", sa.Date(), nullable=True),
        sa.Column("media_type", sa.String(length=64), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("char_count", sa.Integer(), nullable=False),
        sa.Column("chunk_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evidence_documents")),
        sa.UniqueConstraint("sha256", name=op.f("uq_evidence_documents_sha256")),
    )
    op.create_index(
        op.f("ix_evidence_documents_source_domain"), "evidence_documents", ["source_domain"], unique=False
    )


def downgrade() -> None:
    op.execute("DELETE FROM knowledge_passages WHERE source_type = 'evidence'")
    op.drop_index(op.f("ix_evidence_documents_source_domain"), table_name="evidence_documents")
    op.drop_table("evidence_documents")
