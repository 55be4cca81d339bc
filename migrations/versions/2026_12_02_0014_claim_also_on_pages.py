"""Claims keep the other pages that state them: a statement repeated on several pages is one claim.

Existing claims get no other pages (an empty array), as if each was stated once; a new extraction
fills them.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 20:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "claims",
        sa.Column("also_on_pages", postgresql.ARRAY(sa.Integer()), nullable=False, server_default="{}"),
    )


def downgrade() -> None:
    op.drop_column("claims", "also_on_pages")
