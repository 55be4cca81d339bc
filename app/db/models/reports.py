"""Uploaded reports, their stored bytes and their parsed pages."""

from __future__ import annotations

import enum
import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    Enum,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import Mapped, deferred, mapped_column

from app.db.base import Base, Timestamped


class ReportStatus(enum.StrEnum):
    """Where a report is in its life: uploaded, parsed, analysed, or failed."""

    UPLOADED = "UPLOADED"
    PARSING = "PARSING"
    PARSED = "PARSED"
    ANALYZING = "ANALYZING"
    COMPLETED = "COMPLETED"
    ERROR = "ERROR"
    #: Its latest analysis was cancelled by an operator (`cancelAnalysis`).
    CANCELLED = "CANCELLED"


class Report(Timestamped, Base):
    """One uploaded sustainability report (unique per organisation by the SHA-256 of its bytes)."""

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("organisation_id", "sha256"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    organisation_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("organisations.id", ondelete="CASCADE"), index=True
    )
    filename: Mapped[str] = mapped_column(String(255))
    company_name: Mapped[str | None] = mapped_column(String(255))
    #: The company's identifiers, if the uploader gave them: registry matching tries them first.
    isin: Mapped[str | None] = mapped_column(String(12))
    lei: Mapped[str | None] = mapped_column(String(20))
    sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[ReportStatus] = mapped_column(
        Enum(ReportStatus, native_enum=False, length=16, name="report_status"),
        default=ReportStatus.UPLOADED,
        index=True,
    )
    error_message: Mapped[str | None] = mapped_column(Text)
    # Parse jobs started for this report; past MAX_JOB_ATTEMPTS it is left in ERROR (a poison file).
    parse_attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    page_count: Mapped[int | None] = mapped_column(Integer)
    parsed_markdown: Mapped[str | None] = deferred(mapped_column(Text))
    last_event_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    parsed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class ReportFile(Base):
    """The uploaded PDF bytes, kept apart so report queries never load them."""

    __tablename__ = "report_files"

    report_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("reports.id", ondelete="CASCADE"), primary_key=True
    )
    content: Mapped[bytes] = mapped_column(LargeBinary)


class ReportPage(Base):
    """The text of one page (1-based `number`) as parsed from the PDF."""

    __tablename__ = "report_pages"

    report_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("reports.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
