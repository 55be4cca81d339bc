"""Accepting an uploaded report: validate, de-duplicate by content, store atomically."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from pathlib import PurePath

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.config import Settings
from app.db.models import Report, ReportFile, ReportStatus
from app.db.session import SessionFactory
from app.documents.inspection import inspect_in_process
from app.events import EventLog
from app.registries.identifiers import InvalidIdentifier, clean_isin, clean_lei

MAX_NAME_LENGTH = 255


@dataclass(frozen=True)
class UploadOutcome:
    report: Report
    created: bool


class InvalidUpload(ValueError):
    """A field other than the file itself is unacceptable."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def clean_filename(filename: str | None) -> str:
    name = PurePath((filename or "").replace("\\", "/")).name.strip()
    return (name or "report.pdf")[:MAX_NAME_LENGTH]


def clean_identifiers(isin: str | None, lei: str | None) -> dict[str, str | None]:
    """The company's ISIN and LEI as stored (upper case, no spaces; None when not given)."""
    cleaned: dict[str, str | None] = {}
    for field, value, clean in (("isin", isin, clean_isin), ("lei", lei, clean_lei)):
        try:
            cleaned[field] = clean(value)
        except InvalidIdentifier as exc:
            raise InvalidUpload(field, str(exc)) from exc
    return cleaned


def clean_company_name(company_name: str | None) -> str | None:
    if company_name is None:
        return None
    name = " ".join(company_name.split())
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidUpload("companyName", f"The company name is longer than {MAX_NAME_LENGTH} characters.")
    return name or None


async def accept_upload(
    session_factory: SessionFactory,
    event_log: EventLog,
    settings: Settings,
    *,
    filename: str | None,
    content: bytes,
    company_name: str | None,
    organisation_id: uuid.UUID,
    isin: str | None = None,
    lei: str | None = None,
) -> UploadOutcome:
    """Store a new report of `organisation_id`, or return its report already holding these bytes.

    Raises:
        PdfRejected: the bytes are not an acceptable PDF; nothing was stored.
        InvalidUpload: another field is unacceptable; nothing was stored.
    """
    company = clean_company_name(company_name)
    identifiers = clean_identifiers(isin, lei)
    info = await inspect_in_process(settings, content, organisation_id)
    digest = hashlib.sha256(content).hexdigest()
    existing = await find_by_sha256(session_factory, organisation_id, digest)
    if existing is not None:
        return UploadOutcome(existing, created=False)
    report = Report(
        organisation_id=organisation_id,
        filename=clean_filename(filename),
        company_name=company,
        **identifiers,
        sha256=digest,
        size_bytes=len(content),
        status=ReportStatus.UPLOADED,
        page_count=info.page_count,
    )
    try:
        async with event_log.transaction() as transaction:
            transaction.session.add(report)
            await transaction.session.flush()
            transaction.session.add(ReportFile(report_id=report.id, content=content))
            await transaction.emit(
                report.id,
                "report_uploaded",
                {"filename": report.filename, "sizeBytes": len(content), "pageCount": info.page_count},
            )
    except IntegrityError:
        raced = await find_by_sha256(session_factory, organisation_id, digest)
        if raced is None:
            raise
        return UploadOutcome(raced, created=False)
    return UploadOutcome(report, created=True)


async def find_by_sha256(
    session_factory: SessionFactory, organisation_id: uuid.UUID, digest: str
) -> Report | None:
    async with session_factory() as session:
        return await session.scalar(
            select(Report).where(Report.organisation_id == organisation_id, Report.sha256 == digest)
        )
