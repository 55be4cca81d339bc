"""Fixtures shared by the client tests that run the CLI against the session's API and worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures import pdfs
from tests.support.package_worker import worker

__all__ = ["report_pdf", "worker"]


@pytest.fixture
def report_pdf(tmp_path: Path) -> str:
    """The generated report, written where the CLI can read it."""
    path = tmp_path / "northwind-2023.pdf"
    path.write_bytes(pdfs.synthetic_report().pdf)
    return str(path)
