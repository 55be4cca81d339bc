"""`sibyl registry import|list` as a user runs them, against the test database."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.config import Settings
from tests.app.registries import files

pytestmark = pytest.mark.usefixtures("no_registries")


def sibyl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


async def test_import_then_again_then_list(settings: Settings, tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": settings.require_database_url()}
    nger = files.write_csv(tmp_path / "au-nger-corporate-emissions-2021-22.csv", files.nger_rows())
    summary = files.write_xlsx(tmp_path / "us-epa-ghgrp-2020-data-summary.xlsx", files.ghgrp_summary_sheets())
    parents = files.write_xlsx(tmp_path / "us-epa-ghgrp-parent-companies.xlsx", files.ghgrp_parent_sheets())

    first = await asyncio.to_thread(sibyl, env, "registry", "import", "nger", str(nger))
    again = await asyncio.to_thread(sibyl, env, "registry", "import", "nger", str(nger))
    ghgrp = await asyncio.to_thread(sibyl, env, "registry", "import", "epa_ghgrp", str(summary), str(parents))
    listing = await asyncio.to_thread(sibyl, env, "registry", "list")

    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("imported nger snapshot undated, period 2021-22: 3 records from au-nger-")
    assert "[" in first.stderr and "3/3 records" in first.stderr
    assert again.returncode == 0 and again.stdout.startswith("already imported: nger snapshot")
    assert again.stdout.rstrip().endswith("nothing changed")
    assert ghgrp.returncode == 0, ghgrp.stderr
    assert "epa_ghgrp snapshot undated, period 2020: 3 records" in ghgrp.stdout
    lines = listing.stdout.splitlines()
    assert listing.returncode == 0 and lines[-1] == "2 snapshot(s)"
    assert lines[0].startswith("epa_ghgrp") and lines[1].startswith("nger") and "2021-22" in lines[1]


async def test_refusals_are_one_line_and_exit_2(settings: Settings, tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": settings.require_database_url()}
    nger = files.write_csv(tmp_path / "nger.csv", files.nger_rows())
    missing_column = files.write_xlsx(
        tmp_path / "sbti-2026-03-05.xlsx",
        {"Data": files.without(files.SBTI_HEADER, files.sbti_rows(), "near_term_status")},
    )

    no_period = await asyncio.to_thread(sibyl, env, "registry", "import", "nger", str(nger))
    bad_date = await asyncio.to_thread(
        sibyl, env, "registry", "import", "sbti", str(nger), "--snapshot-date", "5/3/26"
    )
    column = await asyncio.to_thread(sibyl, env, "registry", "import", "sbti", str(missing_column))
    absent = await asyncio.to_thread(
        sibyl, env, "registry", "import", "uk_ets", str(tmp_path / "nothing.xlsx")
    )

    for result, says in (
        (no_period, "nger.csv does not state its reporting period: give it with --period 2021-22."),
        (bad_date, "--snapshot-date '5/3/26' is not a date (YYYY-MM-DD)."),
        (column, "sbti-2026-03-05.xlsx (sheet 'Data') lacks the column(s) near_term_status that the SBTi"),
        (absent, "nothing.xlsx does not exist or is not a file."),
    ):
        assert result.returncode == 2, result.stdout + result.stderr
        refusal = [line for line in result.stderr.splitlines() if line.startswith("sibyl registry: ")]
        assert len(refusal) == 1 and says in refusal[0], result.stderr
        assert result.stdout == ""
