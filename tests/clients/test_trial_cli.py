"""Trial s22's CLI and export findings: exit codes as README documents them, an empty file and a report
without claims said in words, reading order within a page, and exports that keep the evidence."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from clients.console.export import NO_CLAIMS, render_json, render_markdown
from clients.console.outcome import EXIT_TIMED_OUT
from clients.console.render import render_table
from clients.sibyl.models import Analysis, AnalysisWarning, Claim, Report
from tests.clients.cli_runner import run_cli
from tests.clients.fake_sibyl import REPORT_ID, FakeSibyl, report_json, serve_fake

REPORT = Report(
    id="UmVwb3J0OjI=",
    status="COMPLETED",
    filename="harbour.pdf",
    company_name="Harbour Freight Co",
    page_count=3,
    analysis=Analysis(id="run-2", status="COMPLETED", progress_percent=100.0),
)
LONG_TEXT = "Our fleet's fuel use per tonne-kilometre fell 9% between 2019 and 2023, " + "as stated. " * 20
CLAIM_JSON = {
    "id": "claim-a",
    "text": LONG_TEXT,
    "claimType": "QUANTITATIVE",
    "priority": "HIGH",
    "sourcePage": 2,
    "riskFlags": [
        {
            "kind": "GENERIC_ENVIRONMENTAL_CLAIM",
            "phrase": "eco-friendly",
            "explanation": "A label only.",
        }
    ],
    "verdict": {
        "verdict": "CONTRADICTED",
        "confidence": 0.71,
        "reasoning": "The port authority's 2024 bulletin gives a 4% fall.",
        "decidingSources": [
            {
                "findingId": "RmluZGluZzox",
                "agent": "news_media",
                "side": "CONTRADICTS",
                "publisher": "port-authority.example",
                "evidenceKind": "INDEPENDENT",
                "title": "Annual freight bulletin",
                "url": "https://port-authority.example/bulletin",
                "publishedDate": "2024-03-02",
                "tier": 2,
                "tierBasis": "DOMAIN",
                "method": "rules",
                "quote": "Fuel intensity fell 4%.",
                "quoteVerified": True,
                "pages": [],
                "summary": "The source states a different figure.",
                "registry": None,
            }
        ],
    },
}
NO_SEARCH = AnalysisWarning("WEB_SEARCH_UNAVAILABLE", "investigating", "Web search was not configured.")


@pytest.fixture
def pdf(tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(b"%PDF-1.7\n% a stand-in the fake never parses\n")
    return str(path)


async def test_ask_about_an_unknown_report_is_bad_input() -> None:
    refused = {"__typename": "AskReportError", "code": "NOT_FOUND", "message": "No such report."}
    async with serve_fake(FakeSibyl(ask_result=refused)) as fake:
        result = await run_cli("ask", "nonsense", "hi", "--server", fake.url)

    assert (result.code, result.stderr) == (2, "sibyl: question refused (NOT_FOUND): No such report.\n")


async def test_a_timeout_is_not_a_failed_analysis_and_says_whole_seconds(pdf: str) -> None:
    running = report_json("ANALYZING", 30.0, "investigating")
    async with serve_fake(FakeSibyl(reports=[running])) as fake:
        result = await run_cli("analyze", pdf, "--timeout", "1", "--server", fake.url)

    assert result.code == EXIT_TIMED_OUT == 5
    assert result.stderr.splitlines()[-1] == (
        f"sibyl: timed out after 1 s: report {REPORT_ID} is still ANALYZING; it continues on the server."
    )


async def test_an_empty_file_is_called_empty(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")

    result = await run_cli("analyze", str(empty), "--server", "http://127.0.0.1:9")

    assert (result.code, result.stderr) == (2, f"sibyl: the file is empty: {empty}\n")


async def test_a_report_without_claims_says_so_instead_of_an_empty_table(pdf: str) -> None:
    async with serve_fake(FakeSibyl(reports=[report_json("COMPLETED", 100.0, "completed")])) as fake:
        result = await run_cli("analyze", pdf, "--server", fake.url)

    assert result.code == 0, result.stderr
    assert NO_CLAIMS == "No verifiable claims were found in the report."
    assert NO_CLAIMS in result.stdout and "PAGE" not in result.stdout
    assert NO_CLAIMS in render_markdown(REPORT, []) and "| Page |" not in render_markdown(REPORT, [])
    assert NO_CLAIMS not in render_table(
        replace(REPORT, status="ERROR"), []
    )  # a failed run found nothing yet


def test_claims_on_one_page_keep_the_apis_reading_order() -> None:
    later = Claim("c-later", "A target of zero waste.", "STRATEGIC", "LOW", 4)
    earlier = Claim("c-earlier", "Zero spills in 2023.", "QUANTITATIVE", "HIGH", 4)
    first_page = Claim("c-first", "Water use fell.", "QUANTITATIVE", "HIGH", 1)
    claims = [first_page, earlier, later]  # as the API returns them with orderBy: PAGE

    table = render_table(REPORT, [earlier, later, first_page]).splitlines()
    document = json.loads(render_json(REPORT, [earlier, later, first_page]))

    rows = [line for line in table if line[:1].isdigit()]
    assert [row.split()[-1] for row in rows[1:3]] == ["2023.", "waste."]
    assert [claim["id"] for claim in document["claims"]] == ["c-first", "c-earlier", "c-later"]
    assert render_markdown(REPORT, claims).index("Zero spills") < render_markdown(REPORT, claims).index(
        "zero waste"
    )


def test_markdown_export_keeps_full_text_reasoning_sources_flags_and_warnings_first() -> None:
    claim = Claim.from_json(CLAIM_JSON)
    report = replace(REPORT, analysis=replace(REPORT.analysis, warnings=(NO_SEARCH,)))

    markdown = render_markdown(report, [claim])

    assert " ".join(LONG_TEXT.split()) in markdown
    assert markdown.index("WEB_SEARCH_UNAVAILABLE") < markdown.index("## Summary")
    assert "**Reasoning.** The port authority's 2024 bulletin gives a 4% fall." in markdown
    assert (
        "- **contradicts** — port-authority.example: Annual freight bulletin (tier 2 from the domain table, "
        "2024-03-02, read by the rule reader) <https://port-authority.example/bulletin> — “Fuel intensity "
        "fell 4%.” (quote found in the source)"
    ) in markdown
    assert "- GENERIC_ENVIRONMENTAL_CLAIM (“eco-friendly”): A label only." in markdown
    assert "### 1. Page 2 — CONTRADICTED (0.71)" in markdown


def test_json_export_keeps_risk_flags_and_deciding_sources() -> None:
    document = json.loads(render_json(REPORT, [Claim.from_json(CLAIM_JSON)]))

    exported = document["claims"][0]
    assert exported["riskFlags"] == CLAIM_JSON["riskFlags"]
    assert exported["verdict"]["decidingSources"] == CLAIM_JSON["verdict"]["decidingSources"]  # type: ignore[index]
