"""Adding a document to the evidence library: validate, extract, de-duplicate, chunk, store, embed.

A document and its passages are written in one transaction, so a search never sees half a
document; embedding comes after the commit and may fail (an embeddings API down) without losing
the document: its passages are searchable by full text at once and get vectors on the next add,
the next worker start or `sibyl corpus reindex`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import uuid
from dataclasses import dataclass
from datetime import date
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.config import Settings
from app.db.models import EvidenceDocument
from app.db.models.evidence import EVIDENCE_SOURCE_TYPE
from app.db.session import SessionFactory
from app.documents.processes import document_processes
from app.documents.text import TextLimit
from app.embeddings import Embedder, EmbeddingUnavailable
from app.evidence.chunks import Chunk, split_into_chunks
from app.evidence.errors import EvidenceProblem, EvidenceRejected
from app.evidence.extract import (
    MARKDOWN,
    PDF,
    PLAIN,
    Extracted,
    extract,
    media_type_of,
    normalise_text,
    pdf_text,
)
from app.evidence.fields import (
    MAX_SOURCE_URL_CHARS,
    MAX_TITLE_CHARS,
    checked_filename,
    clean_filename,
    clean_source_url,
    clean_title,
    parse_published_date,
    source_domain,
)
from app.knowledge.store import PassageDraft, embed_stale, stage_passages
from app.net.fetch import FetchFailed, FetchPolicy, FetchRefused, fetch
from app.organisations.keys import LOCAL_ORGANISATION_ID

logger = logging.getLogger(__name__)

__all__ = [
    "EvidenceOutcome",
    "EvidenceProblem",
    "EvidenceRejected",
    "add_evidence_document",
    "find_by_sha256",
    "passage_drafts",
]

#: A first line up to this long reads as the document's heading (a longer one is cut to it).
HEADING_CHARS = 150


@dataclass(frozen=True)
class EvidenceOutcome:
    """The stored document, and whether it was already in the library (same extracted text)."""

    document: EvidenceDocument
    duplicate: bool


@dataclass(frozen=True)
class _Source:
    """Where the text came from: extracted content plus what is known of the original."""

    extracted: Extracted
    filename: str | None
    source_url: str | None


async def add_evidence_document(
    session_factory: SessionFactory,
    embedder: Embedder,
    settings: Settings,
    *,
    title: str | None = None,
    text: str | None = None,
    content: bytes | None = None,
    filename: str | None = None,
    content_type: str | None = None,
    source_url: str | None = None,
    published_date: date | str | None = None,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
) -> EvidenceOutcome:
    """Store a document given as `text`, as file `content`, or (with neither) fetched from `source_url`.

    Args:
        title: The document's title; else its HTML/PDF title, its first line, or the filename.
        text: The document's text (plain or, with a `.md` filename, markdown).
        content: A file's bytes (PDF, HTML, plain text, markdown); not together with `text`.
        filename: The file's name (helps recognise the type; kept for reference).
        content_type: The declared media type of `content`, if any.
        source_url: Where the document was published; fetched only when no text or file is given.
        published_date: When it was published (a date or `YYYY-MM-DD`).
        organisation_id: Whose library the document joins (only that organisation's agents search it).

    Raises:
        EvidenceRejected: The input is unacceptable or unreachable; nothing was stored.
    """
    published = parse_published_date(published_date)
    wanted_title = clean_title(title)
    url = clean_source_url(source_url)
    source = await _read_source(settings, text, content, filename, content_type, url, organisation_id)
    body = normalise_text(source.extracted.text)
    if not body:
        field = "text" if text is not None else "file" if content is not None else "sourceUrl"
        raise EvidenceRejected(
            EvidenceProblem.EMPTY_TEXT, "No text could be extracted from the document.", field
        )
    digest = hashlib.sha256(body.encode()).hexdigest()
    existing = await find_by_sha256(session_factory, digest, organisation_id)
    if existing is not None:
        return EvidenceOutcome(existing, duplicate=True)
    chunks = split_into_chunks(body, settings.evidence_chunk_chars)
    document = EvidenceDocument(
        organisation_id=organisation_id,
        title=wanted_title or _fallback_title(source.extracted.title, body, source.filename),
        source_url=source.source_url,
        source_domain=source_domain(source.source_url),
        published_date=published,
        media_type=source.extracted.media_type,
        filename=source.filename,
        text=body,
        sha256=digest,
        char_count=len(body),
        chunk_count=len(chunks),
    )
    stored = await _store(session_factory, document, chunks)
    if stored is not document:
        return EvidenceOutcome(stored, duplicate=True)
    await _embed(session_factory, embedder)
    return EvidenceOutcome(document, duplicate=False)


async def _read_source(
    settings: Settings,
    text: str | None,
    content: bytes | None,
    filename: str | None,
    content_type: str | None,
    url: str | None,
    organisation_id: uuid.UUID,
) -> _Source:
    """The extracted text of whichever input was given, with size limits applied before any parsing."""
    name = checked_filename(filename)
    limit = settings.evidence_max_document_bytes
    if text is not None and content is not None:
        raise EvidenceRejected(
            EvidenceProblem.CONFLICTING_INPUT, "Give the document's text or its file, not both.", "text"
        )
    if text is not None:
        if len(text.encode()) > limit:
            raise _too_large("text", limit)
        suffix = PurePosixPath((name or "").lower()).suffix
        media_type = MARKDOWN if suffix in (".md", ".markdown") else PLAIN
        return _Source(Extracted(media_type, text), name, url)
    if content is not None:
        if not content:
            raise EvidenceRejected(EvidenceProblem.EMPTY_TEXT, "The file is empty.", "file")
        if len(content) > limit:
            raise _too_large("file", limit)
        extracted = await _extract(settings, content, name, content_type, "file", organisation_id)
        return _Source(extracted, name, url)
    if url is not None:
        return await _fetch_source(settings, url, organisation_id)
    raise EvidenceRejected(
        EvidenceProblem.NO_INPUT, "Give the document's text, a file, or a source URL to fetch it from."
    )


async def _fetch_source(settings: Settings, url: str, organisation_id: uuid.UUID) -> _Source:
    """Fetch `url` through the SSRF-guarded fetcher, capped at the library's size limit too."""
    policy = FetchPolicy.from_settings(settings)
    limit = settings.evidence_max_document_bytes
    policy = dataclasses.replace(policy, max_bytes=min(policy.max_bytes, limit))
    try:
        fetched = await fetch(url, policy)
    except FetchRefused as exc:
        if exc.code == "too_large":
            raise _too_large("sourceUrl", policy.max_bytes) from exc
        raise EvidenceRejected(
            EvidenceProblem.URL_REFUSED, f"Sibyl does not fetch this URL: {exc.message}", "sourceUrl"
        ) from exc
    except FetchFailed as exc:
        raise EvidenceRejected(
            EvidenceProblem.URL_UNREACHABLE, f"The URL could not be fetched ({exc}).", "sourceUrl"
        ) from exc
    name = clean_filename(PurePosixPath(urlsplit(fetched.url).path).name)
    if not fetched.body:
        raise EvidenceRejected(EvidenceProblem.EMPTY_TEXT, "The URL returned an empty page.", "sourceUrl")
    extracted = await _extract(
        settings, fetched.body, name, fetched.content_type, "sourceUrl", organisation_id
    )
    return _Source(extracted, name, _stored_url(fetched.url, url))


def _stored_url(final: str, asked: str) -> str | None:
    """The URL the fetch ended at (after redirects), unless a redirect made it longer than the limit
    a user's own URL must keep: then the URL asked for, which was checked."""
    if len(final) > MAX_SOURCE_URL_CHARS:
        return asked
    return clean_source_url(final)


async def _extract(
    settings: Settings,
    content: bytes,
    filename: str | None,
    content_type: str | None,
    field: str,
    organisation_id: uuid.UUID,
) -> Extracted:
    media_type = media_type_of(content, filename, content_type, field)
    if media_type == PDF:
        return await pdf_text(
            content,
            field,
            document_processes(settings),
            organisation=organisation_id,
            text_limit=TextLimit.from_settings(settings),
        )
    return await asyncio.to_thread(extract, content, media_type, content_type, field)


def _too_large(field: str, limit: int) -> EvidenceRejected:
    return EvidenceRejected(
        EvidenceProblem.TOO_LARGE,
        f"The document is larger than the limit of {limit / 1_048_576:.1f} MB ({limit} bytes).",
        field,
    )


async def _store(
    session_factory: SessionFactory, document: EvidenceDocument, chunks: list[Chunk]
) -> EvidenceDocument:
    """Insert the document and its passages atomically; on a concurrent duplicate, the winner."""
    try:
        async with session_factory() as session, session.begin():
            session.add(document)
            await session.flush()
            await stage_passages(session, passage_drafts(document, chunks))
    except IntegrityError:
        raced = await find_by_sha256(session_factory, document.sha256, document.organisation_id)
        if raced is None:
            raise
        return raced
    return document


async def _embed(session_factory: SessionFactory, embedder: Embedder) -> None:
    try:
        await embed_stale(session_factory, embedder)
    except EmbeddingUnavailable as exc:
        logger.warning(
            "evidence passages stored without vectors (searchable by full text until embedded): %s", exc
        )


def passage_drafts(document: EvidenceDocument, chunks: list[Chunk]) -> list[PassageDraft]:
    """One knowledge-base passage per chunk, carrying what a search hit must tell about its document."""
    published = document.published_date.isoformat() if document.published_date else None
    return [
        PassageDraft(
            source_type=EVIDENCE_SOURCE_TYPE,
            key=f"{document.id}/{chunk.index}",
            title=document.title,
            summary=chunk.text,
            attributes={
                "document_id": str(document.id),
                "organisation_id": str(document.organisation_id),
                "chunk_index": chunk.index,
                "source_url": document.source_url,
                "source_domain": document.source_domain,
                "published_date": published,
                "char_start": chunk.start,
                "char_end": chunk.end,
            },
        )
        for chunk in chunks
    ]


async def find_by_sha256(
    session_factory: SessionFactory, digest: str, organisation_id: uuid.UUID
) -> EvidenceDocument | None:
    """The document whose normalised text has this SHA-256, if the organisation's library holds it."""
    async with session_factory() as session:
        return await session.scalar(
            select(EvidenceDocument).where(
                EvidenceDocument.organisation_id == organisation_id, EvidenceDocument.sha256 == digest
            )
        )


def _fallback_title(own_title: str | None, text: str, filename: str | None) -> str:
    """The document's own title, else a heading-like first line, else the filename, else the first line cut.

    A first line longer than a heading is a paragraph: the filename names the document better.
    """
    if own_title:
        return own_title[:MAX_TITLE_CHARS]
    first_line = " ".join(text.split("\n", 1)[0].split()).lstrip("#").strip()
    if first_line and len(first_line) <= HEADING_CHARS:
        return first_line
    if filename:
        return filename
    if first_line:
        return first_line[:HEADING_CHARS].rsplit(" ", 1)[0] + "…"
    return "Untitled document"
