"""Public registries: imported snapshots and their records, shared by every organisation.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "registry_snapshots",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("publisher", sa.Text(), nullable=False),
        sa.Column("file_name", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("snapshot_date", sa.Date(), nullable=True),
        sa.Column("period", sa.String(length=32), nullable=True),
        sa.Column("imported_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("record_count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registry_snapshots")),
        sa.UniqueConstraint("kind", "sha256", name=op.f("uq_registry_snapshots_kind")),
    )
    op.create_table(
        "registry_records",
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("snapshot_id", sa.Uuid(), nullable=False),
        sa.Column("record_key", sa.Text(), nullable=False),
        sa.Column("entity_name", sa.Text(), nullable=False),
        sa.Column("normalised_name", sa.Text(), nullable=False),
        sa.Column(
            "identifiers", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False
        ),
        sa.Column("country", sa.String(length=2), nullable=True),
        sa.Column("period", sa.String(length=32), nullable=True),
        sa.Column("data", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
        sa.ForeignKeyConstraint(
            ["snapshot_id"],
            ["registry_snapshots.id"],
            name=op.f("fk_registry_records_snapshot_id_registry_snapshots"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registry_records")),
        sa.UniqueConstraint("snapshot_id", "record_key", name=op.f("uq_registry_records_snapshot_id")),
    )
    op.create_index(
        "ix_registry_records_normalised_name", "registry_records", ["normalised_name"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_registry_records_normalised_name", table_name="registry_records")
    op.drop_table("registry_records")
    op.drop_table("registry_snapshots")
