"""The final output of `sibyl analyze`: table, markdown and JSON, sorted by page with verdict counts."""

from __future__ import annotations

import json
from dataclasses import replace

from clients.console import export
from clients.console.render import render_json, render_markdown, render_table, shorten, verdict_counts
from clients.sibyl.models import VERDICT_LABELS, Analysis, AnalysisWarning, Claim, Report, Verdict

REPORT = Report(
    id="UmVwb3J0OjE=",
    status="COMPLETED",
    filename="northwind.pdf",
    company_name="Northwind Minerals plc",
    page_count=12,
    analysis=Analysis(id="run-1", status="COMPLETED", progress_percent=100.0, claims_count=3),
)
LONG_TEXT = "Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023, " + "a long and winding sentence " * 5
CLAIMS = [
    Claim("c3", "Water | withdrawal was 14.2 GL.", "ENVIRONMENTAL", "MEDIUM", 7, None),
    Claim("c1", LONG_TEXT, "QUANTITATIVE", "HIGH", 5, Verdict("VERIFIED", 0.87, "Matches the data annex.")),
    Claim("c2", "Net zero by 2050.", "STRATEGIC", "HIGH", 4, Verdict("CONTRADICTED", 0.6, "News disagrees.")),
]


def test_counts_list_every_label_and_unjudged_claims() -> None:
    assert verdict_counts(CLAIMS) == {
        "VERIFIED": 1,
        "UNVERIFIED": 0,
        "CONTRADICTED": 1,
        "INSUFFICIENT_EVIDENCE": 0,
        "NO_VERDICT": 1,
    }


def test_table_is_sorted_by_page_with_short_text_and_counts() -> None:
    lines = render_table(REPORT, CLAIMS).splitlines()

    header = next(line for line in lines if line.startswith("PAGE"))
    rows = lines[lines.index(header) + 1 : lines.index(header) + 4]
    assert [row.split()[0] for row in rows] == ["4", "5", "7"]
    assert rows[0].split()[1:5] == ["STRATEGIC", "HIGH", "CONTRADICTED", "0.60"]
    assert rows[2].split()[3:5] == ["-", "-"]
    assert rows[1].endswith("…") and LONG_TEXT not in rows[1]
    assert lines[-1] == (
        "3 claims: VERIFIED 1  UNVERIFIED 0  CONTRADICTED 1  INSUFFICIENT_EVIDENCE 0  NO_VERDICT 1"
    )
    assert "Northwind Minerals plc" in lines[0] and "COMPLETED" in lines[0]


def test_markdown_has_heading_summary_and_escaped_table() -> None:
    text = render_markdown(REPORT, CLAIMS)

    assert text.startswith("# Sibyl analysis: Northwind Minerals plc\n")
    assert "## Summary" in text and "| VERIFIED | 1 |" in text
    assert "| 4 | STRATEGIC | HIGH | CONTRADICTED | 0.60 | Net zero by 2050. |" in text
    assert "Water \\| withdrawal" in text


def test_json_is_one_document_with_claims_and_verdicts() -> None:
    document = json.loads(render_json(REPORT, CLAIMS))

    assert document["report"]["id"] == REPORT.id and document["report"]["pageCount"] == 12
    assert document["analysis"]["progressPercent"] == 100.0
    assert [claim["sourcePage"] for claim in document["claims"]] == [4, 5, 7]
    assert document["claims"][1]["text"] == LONG_TEXT
    assert document["claims"][1]["verdict"] == {
        "verdict": "VERIFIED",
        "confidence": 0.87,
        "reasoning": "Matches the data annex.",
        "decidingSources": [],
        "ifrsMapping": [],
    }
    assert document["claims"][1]["riskFlags"] == []
    assert document["claims"][2]["verdict"] is None
    assert document["verdictCounts"]["CONTRADICTED"] == 1


FELL_BACK = AnalysisWarning(
    "EXTRACTION_FELL_BACK_TO_RULES",
    "extracting_claims",
    "4 of 4 extraction windows fell back to rules: provider returned HTTP 500",
    count=4,
    total=4,
)
DEGRADED = replace(REPORT, analysis=replace(REPORT.analysis, warnings=(FELL_BACK,)))


def test_warnings_follow_the_verdict_counts_in_every_output() -> None:
    table = render_table(DEGRADED, CLAIMS).splitlines()
    markdown = render_markdown(DEGRADED, CLAIMS)
    document = json.loads(render_json(DEGRADED, CLAIMS))

    counts = next(index for index, line in enumerate(table) if line.startswith("3 claims:"))
    assert table[counts + 1 :] == [
        "",
        "1 warning(s):",
        "  WARNING EXTRACTION_FELL_BACK_TO_RULES: 4 of 4 extraction windows fell back to rules: "
        "provider returned HTTP 500",
    ]
    assert markdown.split("## Summary")[0].endswith(  # what degraded comes first, before any figure
        "## Warnings\n\n- **EXTRACTION_FELL_BACK_TO_RULES** (extracting_claims): 4 of 4 extraction windows "
        "fell back to rules: provider returned HTTP 500\n\n"
    )
    assert document["analysis"]["warnings"] == [
        {
            "code": "EXTRACTION_FELL_BACK_TO_RULES",
            "stage": "extracting_claims",
            "message": FELL_BACK.message,
            "count": 4,
            "total": 4,
            "iteration": 0,
        }
    ]
    assert "Warnings" not in render_markdown(REPORT, CLAIMS)
    assert json.loads(render_json(REPORT, CLAIMS))["analysis"]["warnings"] == []


def test_shorten_flattens_whitespace_and_cuts_with_an_ellipsis() -> None:
    assert shorten("a\n  b", 10) == "a b"
    assert shorten("abcdefghijkl", 6) == "abcde…"


def test_the_shared_renderer_knows_the_clients_verdict_labels() -> None:
    assert export.VERDICT_LABELS == VERDICT_LABELS
