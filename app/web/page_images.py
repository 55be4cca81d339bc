"""Rendered report pages for the dashboard: organisation-scoped look-ups, the PDF on disk for the
document processes, and an in-memory cache of the PNGs.

A page image is the same for everyone allowed to see it, so it is cached by (report, page,
highlighted claim, scale) in a byte-bounded LRU; the organisation check always runs first, so the
cache never answers a caller who may not see the report. The PDF is written once per process to a
private temporary folder and handed to the document process by path: rendering page after page of
a large report does not copy its bytes between processes each time.
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select

from app.config import Settings
from app.db.models import Claim, Report, ReportFile
from app.db.session import SessionFactory
from app.documents.page_images import PageImage, render_page
from app.documents.processes import document_processes

MIN_SCALE = 0.25
MAX_SCALE = 4.0
DEFAULT_SCALE = 1.5


@dataclass(frozen=True)
class ImageKey:
    report_id: uuid.UUID
    page: int
    claim_id: uuid.UUID | None
    scale: float


@dataclass(frozen=True)
class PageTarget:
    """What a request may render: the caller's report and, when asked, one of its claims."""

    report_id: uuid.UUID
    sha256: str
    page_count: int
    highlight_texts: list[str]
    organisation_id: uuid.UUID | None = None  # whose document slots the render counts against


class ImageCache:
    """PNG bytes by key, least recently used dropped first once over `max_bytes` (thread-safe)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[ImageKey, PageImage] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: ImageKey) -> PageImage | None:
        with self._lock:
            image = self._entries.get(key)
            if image is not None:
                self._entries.move_to_end(key)
            return image

    def put(self, key: ImageKey, image: PageImage) -> None:
        if len(image.png) > self.max_bytes:
            return
        with self._lock:
            previous = self._entries.pop(key, None)
            self.size -= len(previous.png) if previous else 0
            self._entries[key] = image
            self.size += len(image.png)
            while self.size > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self.size -= len(dropped.png)


async def find_target(
    session_factory: SessionFactory,
    organisation_id: uuid.UUID,
    report_id: uuid.UUID,
    claim_id: uuid.UUID | None,
) -> PageTarget | None:
    """The report if the organisation may see it and it has pages, with the claim's text to mark;
    None when either is unknown to the caller (another organisation's looks the same)."""
    async with session_factory() as session:
        report = await session.scalar(
            select(Report).where(Report.id == report_id, Report.organisation_id == organisation_id)
        )
        if report is None or not report.page_count:
            return None
        texts: list[str] = []
        if claim_id is not None:
            claim = await session.scalar(
                select(Claim).where(Claim.id == claim_id, Claim.report_id == report.id)
            )
            if claim is None:
                return None
            texts = [text for text in (claim.text, claim.source_context) if text]
        return PageTarget(report.id, report.sha256, report.page_count, texts, organisation_id)


class PageImages:
    """Renders and caches report page images for one API process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.cache = ImageCache(settings.page_image_cache_mb * 1024 * 1024)
        self._folder: Path | None = None
        self._lock = threading.Lock()

    async def image(
        self,
        session_factory: SessionFactory,
        target: PageTarget,
        page: int,
        claim_id: uuid.UUID | None,
        scale: float,
    ) -> tuple[PageImage, bool]:
        """The page's PNG and whether it came from the cache.

        Raises:
            LookupError: the report's file is gone.
            PdfRejected, DocumentCrashed, DocumentTimedOut, DocumentFailed: rendering failed.
        """
        key = ImageKey(target.report_id, page, claim_id, scale)
        cached = self.cache.get(key)
        if cached is not None:
            return cached, True
        path = await self._pdf_path(session_factory, target)
        processes = document_processes(self.settings)
        image = await processes.call(
            render_page, str(path), page, scale, target.highlight_texts, organisation=target.organisation_id
        )
        self.cache.put(key, image)
        return image, False

    async def _pdf_path(self, session_factory: SessionFactory, target: PageTarget) -> Path:
        path = self._pdf_folder() / f"{target.sha256}.pdf"
        if not path.exists():
            async with session_factory() as session:
                content = await session.scalar(
                    select(ReportFile.content).where(ReportFile.report_id == target.report_id)
                )
            if content is None:
                raise LookupError(f"report {target.report_id} has no stored file")
            await asyncio.to_thread(_write_atomically, path, content)
        return path

    def _pdf_folder(self) -> Path:
        with self._lock:
            if self._folder is None:
                self._folder = Path(tempfile.mkdtemp(prefix="sibyl-pages-"))
                atexit.register(shutil.rmtree, self._folder, True)
            return self._folder


def _write_atomically(path: Path, content: bytes) -> None:
    """Readers never see half a file: write beside it, then rename over it."""
    partial = path.with_suffix(f".{uuid.uuid4().hex}.part")
    partial.write_bytes(content)
    partial.replace(path)
