"""Claims keep where they start on their page, so a page's claims list in reading order.

Existing claims get the position of their text in their page's text (whitespace and case aside;
0 when it is not found there, which sorts them first on the page as before by id).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("claims", sa.Column("page_offset", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        """
        UPDATE claims SET page_offset = GREATEST(
            strpos(
                lower(regexp_replace(report_pages.text, '\\s+', ' ', 'g')),
                lower(regexp_replace(claims.text, '\\s+', ' ', 'g'))
            ) - 1,
            0
        )
        FROM report_pages
        WHERE report_pages.report_id = claims.report_id AND report_pages.number = claims.source_page
        """
    )


def downgrade() -> None:
    op.drop_column("claims", "page_offset")
