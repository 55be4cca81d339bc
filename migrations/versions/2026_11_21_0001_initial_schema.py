"""Initial schema: reports, files, pages, analysis runs, claims, routing, findings, verdicts, events.

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-21 15:11:14.838242
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.create_table(
        "reports",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("company_name", sa.String(length=255), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "UPLOADED",
                "PARSING",
                "PARSED",
                "ANALYZING",
                "COMPLETED",
                "ERROR",
                name="report_status",
                native_enum=False,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("error_message", sa.Text(), nullable=True),
        sa.Column("page_count", sa.Integer(), nullable=True),
        sa.Column("parsed_markdown", sa.Text(), nullable=True),
        sa.Column("last_event_seq", sa.Integer(), server_default="0", nullable=False),
        sa.Column("parsed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
        sa.UniqueConstraint("sha256", name=op.f("uq_reports_sha256")),
    )
    op.create_index(op.f("ix_reports_status"), "reports", ["status"], unique=False)
    op.create_table(
        "analysis_runs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("pipeline_stage", sa.String(length=64), nullable=True),
        sa.Column("iteration_count", sa.Integer(), nullable=False),
        sa.Column("usage", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("error_message", sa.Text(), nullable=True),
        sa.Column("lease_owner", sa.String(length=128), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"], ["reports.id"], name=op.f("fk_analysis_runs_report_id_reports"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_analysis_runs")),
    )
    op.create_index(op.f("ix_analysis_runs_report_id"), "analysis_runs", ["report_id"], unique=False)
    op.create_table(
        "report_files",
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"], ["reports.id"], name=op.f("fk_report_files_report_id_reports"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("report_id", name=op.f("pk_report_files")),
    )
    op.create_table(
        "report_pages",
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["report_id"], ["reports.id"], name=op.f("fk_report_pages_report_id_reports"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("report_id", "number", name=op.f("pk_report_pages")),
    )
    op.create_table(
        "claims",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("analysis_run_id", sa.Uuid(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("claim_type", sa.String(length=32), nullable=False),
        sa.Column("priority", sa.String(length=16), nullable=False),
        sa.Column("source_page", sa.Integer(), nullable=False),
        sa.Column("source_context", sa.Text(), nullable=True),
        sa.Column("ifrs_paragraphs", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("reasoning", sa.Text(), nullable=True),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["analysis_run_id"],
            ["analysis_runs.id"],
            name=op.f("fk_claims_analysis_run_id_analysis_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["report_id"], ["reports.id"], name=op.f("fk_claims_report_id_reports"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claims")),
    )
    op.create_index(op.f("ix_claims_analysis_run_id"), "claims", ["analysis_run_id"], unique=False)
    op.create_index(op.f("ix_claims_report_id"), "claims", ["report_id"], unique=False)
    op.create_table(
        "events",
        sa.Column("report_id", sa.Uuid(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("analysis_run_id", sa.Uuid(), nullable=True),
        sa.Column("event_type", sa.String(length=64), nullable=False),
        sa.Column("agent_name", sa.String(length=64), nullable=True),
        sa.Column("data", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["analysis_run_id"],
            ["analysis_runs.id"],
            name=op.f("fk_events_analysis_run_id_analysis_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["report_id"], ["reports.id"], name=op.f("fk_events_report_id_reports"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("report_id", "seq", name=op.f("pk_events")),
    )
    op.create_index(op.f("ix_events_analysis_run_id"), "events", ["analysis_run_id"], unique=False)
    op.create_table(
        "findings",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("analysis_run_id", sa.Uuid(), nullable=False),
        sa.Column("claim_id", sa.Uuid(), nullable=True),
        sa.Column("agent", sa.String(length=32), nullable=False),
        sa.Column("evidence_type", sa.String(length=32), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("details", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("supports_claim", sa.Boolean(), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=True),
        sa.Column("iteration", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["analysis_run_id"],
            ["analysis_runs.id"],
            name=op.f("fk_findings_analysis_run_id_analysis_runs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["claim_id"], ["claims.id"], name=op.f("fk_findings_claim_id_claims"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_findings")),
    )
    op.create_index(op.f("ix_findings_analysis_run_id"), "findings", ["analysis_run_id"], unique=False)
    op.create_index(op.f("ix_findings_claim_id"), "findings", ["claim_id"], unique=False)
    op.create_table(
        "routing_assignments",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("analysis_run_id", sa.Uuid(), nullable=False),
        sa.Column("claim_id", sa.Uuid(), nullable=False),
        sa.Column("agent", sa.String(length=32), nullable=False),
        sa.Column("iteration", sa.Integer(), nullable=False),
        sa.Column("reasoning", sa.Text(), nullable=True),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["analysis_run_id"],
            ["analysis_runs.id"],
            name=op.f("fk_routing_assignments_analysis_run_id_analysis_runs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["claim_id"],
            ["claims.id"],
            name=op.f("fk_routing_assignments_claim_id_claims"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_routing_assignments")),
        sa.UniqueConstraint(
            "analysis_run_id",
            "claim_id",
            "agent",
            "iteration",
            name=op.f("uq_routing_assignments_analysis_run_id"),
        ),
    )
    op.create_index(
        op.f("ix_routing_assignments_analysis_run_id"),
        "routing_assignments",
        ["analysis_run_id"],
        unique=False,
    )
    op.create_table(
        "verdicts",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("analysis_run_id", sa.Uuid(), nullable=False),
        sa.Column("claim_id", sa.Uuid(), nullable=False),
        sa.Column("verdict", sa.String(length=32), nullable=False),
        sa.Column("reasoning", sa.Text(), nullable=False),
        sa.Column("ifrs_mapping", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=True),
        sa.Column("iteration", sa.Integer(), nullable=False),
        sa.Column("is_final", sa.Boolean(), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["analysis_run_id"],
            ["analysis_runs.id"],
            name=op.f("fk_verdicts_analysis_run_id_analysis_runs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["claim_id"], ["claims.id"], name=op.f("fk_verdicts_claim_id_claims"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verdicts")),
        sa.UniqueConstraint(
            "analysis_run_id", "claim_id", "iteration", name=op.f("uq_verdicts_analysis_run_id")
        ),
    )
    op.create_index(op.f("ix_verdicts_analysis_run_id"), "verdicts", ["analysis_run_id"], unique=False)
    op.create_index(op.f("ix_verdicts_claim_id"), "verdicts", ["claim_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_verdicts_claim_id"), table_name="verdicts")
    op.drop_index(op.f("ix_verdicts_analysis_run_id"), table_name="verdicts")
    op.drop_table("verdicts")
    op.drop_index(op.f("ix_routing_assignments_analysis_run_id"), table_name="routing_assignments")
    op.drop_table("routing_assignments")
    op.drop_index(op.f("ix_findings_claim_id"), table_name="findings")
    op.drop_index(op.f("ix_findings_analysis_run_id"), table_name="findings")
    op.drop_table("findings")
    op.drop_index(op.f("ix_events_analysis_run_id"), table_name="events")
    op.drop_table("events")
    op.drop_index(op.f("ix_claims_report_id"), table_name="claims")
    op.drop_index(op.f("ix_claims_analysis_run_id"), table_name="claims")
    op.drop_table("claims")
    op.drop_table("report_pages")
    op.drop_table("report_files")
    op.drop_index(op.f("ix_analysis_runs_report_id"), table_name="analysis_runs")
    op.drop_table("analysis_runs")
    op.drop_index(op.f("ix_reports_status"), table_name="reports")
    op.drop_table("reports")
