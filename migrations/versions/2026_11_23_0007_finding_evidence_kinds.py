"""Findings declare what they can prove: `findings.evidence_kind` (independent, internal,
disclosure, none, error), filled for existing rows by the rules of `app.verification.evidence_kinds`.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BACKFILL = """
UPDATE findings SET evidence_kind = CASE
    WHEN evidence_type = 'error' THEN 'error'
    WHEN evidence_type = 'none' THEN 'none'
    WHEN agent = 'legal' OR evidence_type IN ('ifrs_compliance', 'disclosure_gap') THEN 'disclosure'
    WHEN agent = 'data_metrics' OR evidence_type IN ('calculation', 'inconsistency') THEN 'internal'
    WHEN details ->> 'tier_basis' IN ('company_site', 'press_release') THEN 'internal'
    WHEN details ->> 'source_domain' IN (
        'prnewswire.com', 'businesswire.com', 'globenewswire.com', 'accesswire.com', 'newswire.ca'
    ) THEN 'internal'
    ELSE 'independent'
END
"""


def upgrade() -> None:
    op.add_column(
        "findings",
        sa.Column("evidence_kind", sa.String(length=16), server_default="none", nullable=False),
    )
    op.execute(BACKFILL)


def downgrade() -> None:
    op.drop_column("findings", "evidence_kind")
