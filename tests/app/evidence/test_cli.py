"""`sibyl evidence import|list` as a user runs them, against the test database."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

from sqlalchemy import select

from app.config import Settings
from app.db.models import EvidenceDocument
from app.db.session import SessionFactory
from tests.fixtures import pdfs
from tests.support.evidence import article


def sibyl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


def library_folder(root: Path) -> Path:
    """A folder of evidence: good files of each type, a sidecar, a duplicate, a bad file, a stray one."""
    folder = root / "evidence"
    (folder / "pdfs").mkdir(parents=True)
    text = article(["Karoo Metals was fined for the tailings spill."])
    (folder / "fine.txt").write_text(text)
    (folder / "copy-of-fine.txt").write_text(text)
    (folder / "spill.html").write_text(
        "<html><head><title>Page title</title></head><body><p>Tailings reached the river.</p></body></html>"
    )
    (folder / "spill.html.json").write_text(
        json.dumps(
            {
                "title": "Sidecar title",
                "source_url": "https://www.example.org/spill",
                "published_date": "2023-05-06",
            }
        )
    )
    (folder / "notes.md").write_text("# Site visit\n\nThe dam wall showed seepage.")
    (folder / "pdfs" / "notice.pdf").write_bytes(
        pdfs.make_report_pdf([["Notice of violation to Karoo Metals."]])
    )
    (folder / "pdfs" / "broken.pdf").write_bytes(pdfs.corrupt_pdf())
    (folder / "ignored.docx").write_bytes(b"PK\x03\x04 not imported from folders")
    return folder


async def test_import_reports_each_file_and_fails_if_any_failed(
    clean_db: None, settings: Settings, session_factory: SessionFactory, tmp_path: Path
) -> None:
    env = {**os.environ, "DATABASE_URL": settings.require_database_url(), "EMBEDDING_PROVIDER": "hashing"}
    folder = library_folder(tmp_path)

    result = await asyncio.to_thread(
        sibyl, env, "evidence", "import", str(folder), "--published-date", "2024-01-02"
    )
    listing = await asyncio.to_thread(sibyl, env, "evidence", "list")

    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    status = {Path(line.split()[1].rstrip(":")).name: line.split()[0] for line in lines[:-1]}
    assert status == {
        "copy-of-fine.txt": "added",
        "fine.txt": "duplicate",
        "notes.md": "added",
        "broken.pdf": "error",
        "notice.pdf": "added",
        "spill.html": "added",
    }
    assert lines[-1] == "4 added, 1 duplicate, 1 failed"
    assert listing.returncode == 0
    assert "Sidecar title" in listing.stdout and "example.org" in listing.stdout
    assert listing.stdout.splitlines()[-1] == "4 document(s)"
    async with session_factory() as session:
        documents = {row.title: row for row in await session.scalars(select(EvidenceDocument))}
    assert documents["Sidecar title"].published_date == date(2023, 5, 6)
    assert documents["Sidecar title"].source_url == "https://www.example.org/spill"
    assert documents["Site visit"].published_date == date(2024, 1, 2)
    assert documents["Notice of violation to Karoo Metals."].media_type == "application/pdf"


async def test_import_of_good_files_succeeds_and_bad_arguments_are_explained(
    clean_db: None, settings: Settings, tmp_path: Path
) -> None:
    env = {**os.environ, "DATABASE_URL": settings.require_database_url(), "EMBEDDING_PROVIDER": "hashing"}
    good = tmp_path / "a.txt"
    good.write_text("Water samples exceeded the permitted limits.")
    bad_sidecar = tmp_path / "b.txt"
    bad_sidecar.write_text("Another document.")
    (tmp_path / "b.txt.json").write_text(json.dumps({"headline": "typo"}))

    ok = await asyncio.to_thread(sibyl, env, "evidence", "import", str(good))
    mixed = await asyncio.to_thread(
        sibyl, env, "evidence", "import", str(bad_sidecar), str(tmp_path / "missing")
    )
    bad_date = await asyncio.to_thread(
        sibyl, env, "evidence", "import", str(good), "--published-date", "01/02/2024"
    )

    assert ok.returncode == 0 and ok.stdout.splitlines()[-1] == "1 added, 0 duplicate, 0 failed"
    assert mixed.returncode == 1
    assert "unknown keys headline" in mixed.stdout and "no such file or folder" in mixed.stdout
    assert bad_date.returncode == 2 and "YYYY-MM-DD" in bad_date.stdout
