"""Findings that only locate a claim's places are `context`, not `independent`, evidence: a place
found in the gazetteer with no imagery to compare says where the claim is, not whether it is true.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 03:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("UPDATE findings SET evidence_kind = 'context' WHERE evidence_type = 'location_resolved'")


def downgrade() -> None:
    op.execute("UPDATE findings SET evidence_kind = 'independent' WHERE evidence_type = 'location_resolved'")
