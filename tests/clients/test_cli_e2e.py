"""`sibyl analyze` end to end: the CLI as a subprocess against the real API server and ARQ worker of
the test session, analysing a generated report with the offline (rule-based) pipeline."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clients.cli_runner import run_cli
from tests.fixtures import pdfs

VERDICTS = {"VERIFIED", "UNVERIFIED", "CONTRADICTED", "INSUFFICIENT_EVIDENCE"}
BAD_KEY = "sibyl_deadbeef_" + "x" * 43


async def test_analyze_follow_json_reports_a_verdict_for_every_claim(
    api_url: str, worker: object, api_key: str, report_pdf: str
) -> None:
    result = await run_cli(
        "analyze", report_pdf, "--follow", "--json", "--company", pdfs.COMPANY,
        "--server", api_url, "--api-key", api_key,
    )  # fmt: skip

    assert result.code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["report"]["status"] == "COMPLETED"
    assert document["report"]["companyName"] == pdfs.COMPANY
    claims = document["claims"]
    assert claims, "the synthetic report has claims"
    assert all(claim["verdict"]["verdict"] in VERDICTS for claim in claims)
    assert [claim["sourcePage"] for claim in claims] == sorted(claim["sourcePage"] for claim in claims)
    assert sum(document["verdictCounts"].values()) == len(claims)
    assert document["analysis"]["progressPercent"] == 100
    assert "uploaded northwind-2023.pdf as report" in result.stderr
    assert any(line.startswith("judge") and " claim p." in line for line in result.stderr.splitlines())
    assert "completed:" in result.stderr


async def test_analyze_markdown_reuses_an_identical_upload(
    api_url: str, worker: object, api_key: str, report_pdf: str
) -> None:
    first = await run_cli("analyze", report_pdf, "--json", "--server", api_url, "--api-key", api_key)
    second = await run_cli("analyze", report_pdf, "--markdown", "--server", api_url, "--api-key", api_key)

    assert (first.code, second.code) == (0, 0), first.stderr + second.stderr
    report_id = json.loads(first.stdout)["report"]["id"]
    assert f"already uploaded; reusing northwind-2023.pdf as report {report_id}" in second.stderr
    assert second.stdout.startswith("# Sibyl analysis: ")
    assert "## Summary" in second.stdout
    assert "| Page | Type | Priority | Verdict | Confidence | Claim |" in second.stdout


async def test_bad_key_exits_3(api_url: str, clean_db: None, report_pdf: str) -> None:
    result = await run_cli("analyze", report_pdf, "--server", api_url, "--api-key", BAD_KEY)

    assert result.code == 3, result.stderr
    assert result.stderr.startswith("sibyl: authentication failed") and "Traceback" not in result.stderr


async def test_missing_file_exits_2(api_url: str, tmp_path: Path) -> None:
    result = await run_cli("analyze", str(tmp_path / "missing.pdf"), "--server", api_url)

    assert result.code == 2
    assert result.stderr == f"sibyl: no such file: {tmp_path / 'missing.pdf'}\n"
