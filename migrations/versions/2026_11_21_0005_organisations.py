"""Organisations and API keys; reports and evidence documents belong to an organisation.

Rows that exist before this revision go to the built-in `local` organisation (the one that
unauthenticated local development acts for). Uniqueness by content hash becomes per organisation,
so two organisations uploading the same PDF each get their own report.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LOCAL_ORGANISATION_ID = "00000000-0000-4000-8000-000000000001"
OWNED_TABLES = ("reports", "evidence_documents")


def upgrade() -> None:
    op.create_table(
        "organisations",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_organisations")),
        sa.UniqueConstraint("name", name=op.f("uq_organisations_name")),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organisation_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["organisation_id"],
            ["organisations.id"],
            name=op.f("fk_api_keys_organisation_id_organisations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("prefix", name=op.f("uq_api_keys_prefix")),
    )
    op.create_index(op.f("ix_api_keys_organisation_id"), "api_keys", ["organisation_id"], unique=False)
    op.execute(
        f"INSERT INTO organisations (id, name) VALUES ('{LOCAL_ORGANISATION_ID}', 'local') "
        "ON CONFLICT DO NOTHING"
    )
    for table in OWNED_TABLES:
        _add_owner(table)
    op.execute(
        "UPDATE knowledge_passages SET attributes = attributes || "
        f"jsonb_build_object('organisation_id', '{LOCAL_ORGANISATION_ID}') WHERE source_type = 'evidence'"
    )


def _add_owner(table: str) -> None:
    op.add_column(table, sa.Column("organisation_id", sa.Uuid(), nullable=True))
    op.execute(f"UPDATE {table} SET organisation_id = '{LOCAL_ORGANISATION_ID}'")
    op.alter_column(table, "organisation_id", nullable=False)
    op.create_foreign_key(
        op.f(f"fk_{table}_organisation_id_organisations"),
        table,
        "organisations",
        ["organisation_id"],
        ["id"],
        ondelete="CASCADE",
    )
    op.create_index(op.f(f"ix_{table}_organisation_id"), table, ["organisation_id"], unique=False)
    op.drop_constraint(op.f(f"uq_{table}_sha256"), table, type_="unique")
    op.create_unique_constraint(op.f(f"uq_{table}_organisation_id"), table, ["organisation_id", "sha256"])


def downgrade() -> None:
    """Back to one shared pool; refused while another organisation than `local` owns data."""
    for table in OWNED_TABLES:
        op.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT 1 FROM {table} WHERE organisation_id <> "
            f"'{LOCAL_ORGANISATION_ID}') THEN RAISE EXCEPTION 'organisations other than local own "
            f"{table}; delete them (or their data) before downgrading'; END IF; END $$"
        )
    op.execute(
        "UPDATE knowledge_passages SET attributes = attributes - 'organisation_id' "
        "WHERE source_type = 'evidence'"
    )
    for table in OWNED_TABLES:
        op.drop_constraint(op.f(f"uq_{table}_organisation_id"), table, type_="unique")
        op.create_unique_constraint(op.f(f"uq_{table}_sha256"), table, ["sha256"])
        op.drop_index(op.f(f"ix_{table}_organisation_id"), table_name=table)
        op.drop_constraint(op.f(f"fk_{table}_organisation_id_organisations"), table, type_="foreignkey")
        op.drop_column(table, "organisation_id")
    op.drop_index(op.f("ix_api_keys_organisation_id"), table_name="api_keys")
    op.drop_table("api_keys")
    op.drop_table("organisations")
