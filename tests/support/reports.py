"""Helpers for tests that upload reports and wait on them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from app.documents.pdf import open_pdf, read_pages
from tests.support.graphql import GraphQLClient

SHARED_REPORTS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sustainability-reports"

REPORT_STATE = """
query State($id: ID!) { report(id: $id) { id status errorMessage pageCount } }
"""


def shared_report_paths() -> list[Path]:
    """The real report PDFs beside the project, if `../shared` is there."""
    return sorted(SHARED_REPORTS.glob("*.pdf")) if SHARED_REPORTS.is_dir() else []


def report_pages(path: Path) -> list[tuple[int, str]]:
    """A PDF's `(page number, text)` pairs, read exactly as the parser stores them."""
    with open_pdf(path.read_bytes()) as document:
        return read_pages(document, 1, document.page_count)


async def wait_for_status(
    client: GraphQLClient, report_id: str, *statuses: str, timeout: float = 90.0
) -> dict[str, Any]:
    """Poll until the report reaches one of `statuses`; returns its state."""
    deadline = time.monotonic() + timeout
    while True:
        report = (await client.data(REPORT_STATE, id=report_id))["report"]
        if report["status"] in statuses:
            return dict(report)
        assert time.monotonic() < deadline, f"report stuck in {report['status']}"
        await asyncio.sleep(0.1)
