"""`sibyl analyze` as a subprocess against the scripted server: outputs, progress lines and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clients.cli_runner import interrupt_when, run_cli, start_cli
from tests.clients.fake_sibyl import REPORT_ID, FakeSibyl, claim_json, event, report_json, serve_fake

KEY = "sibyl_0123abcd_" + "k" * 43
CLAIM_UUID = "5b0c5f55-0000-4000-8000-000000000001"


@pytest.fixture
def pdf(tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(b"%PDF-1.7\n% a stand-in the fake never parses\n")
    return str(path)


def analysed_report() -> FakeSibyl:
    """A report that parses, runs through two progress steps and completes with two verdicts."""
    extracted = [{"claim_id": CLAIM_UUID, "text": "Scope 1 emissions fell 6.1%.", "source_page": 5}]
    return FakeSibyl(
        api_key=KEY,
        reports=[
            report_json("PARSING"),
            report_json("PARSED"),
            report_json("ANALYZING", 10.0, "extracting_claims"),
            report_json("ANALYZING", 60.0, "investigating", active_agents=["legal"]),
            report_json("COMPLETED", 100.0, "completed"),
        ],
        existing_event_sequences=[1, 2, 3],
        events=[
            event(3, "parse_completed", None, pageCount=12),
            event(4, "claims_extracted", "claims", chunk=1, chunks=1, pages=[1, 9], claims=extracted),
            event(5, "claim_routed", "orchestrator", claim_id=CLAIM_UUID, assigned_agents=["legal"]),
            event(6, "verdict_issued", "judge", claim_id=CLAIM_UUID, verdict="verified", confidence="high"),
            event(7, "pipeline_completed", None, total_verdicts=2),
        ],
        claims=[claim_json(2, 9, "CONTRADICTED"), claim_json(1, 5, "VERIFIED")],
    )


async def test_follow_json_streams_activity_and_prints_one_document(pdf: str) -> None:
    async with serve_fake(analysed_report()) as fake:
        result = await run_cli("analyze", pdf, "--follow", "--json", "--server", fake.url, "--api-key", KEY)

    assert result.code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["report"]["status"] == "COMPLETED"
    assert [claim["sourcePage"] for claim in document["claims"]] == [5, 9]
    assert document["claims"][0]["verdict"]["verdict"] == "VERIFIED"
    assert "judge        VERIFIED claim p.5" in result.stderr
    assert "progress" in result.stderr and "100%" in result.stderr and "\r" not in result.stderr
    assert "parse_completed" not in result.stderr  # events before the analysis are not replayed
    assert fake.subscriptions[0]["variables"]["afterSequence"] == 3
    assert "StartAnalysis" in fake.operations()


async def test_without_follow_waits_quietly_and_prints_the_table(pdf: str) -> None:
    async with serve_fake(analysed_report()) as fake:
        result = await run_cli("analyze", pdf, "--server", fake.url, "--api-key", KEY)

    assert result.code == 0, result.stderr
    assert "progress" not in result.stderr and not fake.subscriptions
    assert "PAGE  TYPE" in result.stdout
    assert "2 claims: VERIFIED 1  UNVERIFIED 0  CONTRADICTED 1  INSUFFICIENT_EVIDENCE 0" in result.stdout


async def test_warnings_are_shown_live_after_the_table_and_in_json(pdf: str) -> None:
    message = "4 of 4 extraction windows fell back to rules: provider returned HTTP 500"
    warning = {"code": "EXTRACTION_FELL_BACK_TO_RULES", "stage": "extracting_claims", "message": message,
               "count": 4, "total": 4, "iteration": 0}  # fmt: skip
    degraded = analysed_report()
    degraded.reports[-1] = report_json("COMPLETED", 100.0, "completed", warnings=[warning])
    degraded.events.insert(1, event(4, "warning", "claims", **warning))

    async with serve_fake(degraded) as fake:
        table = await run_cli("analyze", pdf, "--follow", "--server", fake.url, "--api-key", KEY)
    async with serve_fake(analysed_report()) as fake:
        fake.reports = [report_json("COMPLETED", 100.0, "completed", warnings=[warning])]
        as_json = await run_cli("analyze", pdf, "--json", "--server", fake.url, "--api-key", KEY)

    assert table.code == 0, table.stderr
    assert f"claims       WARNING {message}" in table.stderr
    assert table.stdout.splitlines()[-2:] == [
        "1 warning(s):",
        f"  WARNING EXTRACTION_FELL_BACK_TO_RULES: {message}",
    ]
    assert json.loads(as_json.stdout)["analysis"]["warnings"] == [warning]


async def test_markdown_output(pdf: str) -> None:
    async with serve_fake(analysed_report()) as fake:
        result = await run_cli("analyze", pdf, "--markdown", "--server", fake.url, "--api-key", KEY)

    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# Sibyl analysis: Northwind Minerals plc")
    assert "| 5 | QUANTITATIVE | HIGH | VERIFIED | 0.80 |" in result.stdout


async def test_an_already_uploaded_running_report_is_followed_not_restarted(pdf: str) -> None:
    fake = analysed_report()
    fake.upload_result = {"__typename": "UploadReportSuccess", "created": False, "report": fake.reports[0]}
    fake.reports[1] = report_json("ANALYZING", 5.0, "routing")
    async with serve_fake(fake):
        result = await run_cli("analyze", pdf, "--follow", "--server", fake.url, "--api-key", KEY)

    assert result.code == 0, result.stderr
    assert "reusing" in result.stderr and "already running" in result.stderr
    assert "StartAnalysis" not in fake.operations()


async def test_bad_key_exits_3_with_one_line(pdf: str) -> None:
    async with serve_fake(analysed_report()) as fake:
        result = await run_cli("analyze", pdf, "--server", fake.url, "--api-key", "sibyl_wrong")

    assert result.code == 3
    assert result.stderr.startswith("sibyl: authentication failed") and result.stderr.count("\n") == 1


async def test_parse_error_exits_1_with_the_reason(pdf: str) -> None:
    unreadable = report_json("ERROR", page_count=None, error_message="Bad xref")
    fake = FakeSibyl(reports=[report_json("PARSING"), unreadable])
    async with serve_fake(fake):
        result = await run_cli("analyze", pdf, "--follow", "--server", fake.url)

    assert result.code == 1
    assert "sibyl: parsing failed: Bad xref" in result.stderr and "Traceback" not in result.stderr


async def test_analysis_error_prints_results_and_exits_1(pdf: str) -> None:
    failed = report_json("ERROR", 40.0, "investigating", analysis_error="worker lost")
    fake = FakeSibyl(reports=[report_json("PARSED"), failed])
    async with serve_fake(fake):
        result = await run_cli("analyze", pdf, "--json", "--server", fake.url)

    assert result.code == 1
    assert json.loads(result.stdout)["report"]["status"] == "ERROR"
    assert "sibyl: analysis failed: worker lost" in result.stderr


async def test_upload_refused_by_the_server_is_an_input_error(pdf: str) -> None:
    refused = {"__typename": "UploadReportError", "code": "NO_TEXT_LAYER", "message": "Scanned."}
    async with serve_fake(FakeSibyl(upload_result=refused)) as fake:
        result = await run_cli("analyze", pdf, "--server", fake.url)

    assert result.code == 2
    assert result.stderr == "sibyl: upload refused (NO_TEXT_LAYER): Scanned.\n"


async def test_missing_file_non_pdf_and_unreachable_server(tmp_path: Path, pdf: str) -> None:
    text_file = tmp_path / "notes.txt"
    text_file.write_text("hello")

    missing = await run_cli("analyze", str(tmp_path / "nope.pdf"), "--server", "http://127.0.0.1:9")
    not_pdf = await run_cli("analyze", str(text_file), "--server", "http://127.0.0.1:9")
    unreachable = await run_cli("analyze", pdf, "--server", "http://127.0.0.1:9", "--retry-seconds", "1")
    usage = await run_cli("analyze", pdf, "--json", "--markdown")
    bad_url = await run_cli("analyze", pdf, "--server", "localhost:8000")

    assert (missing.code, not_pdf.code, unreachable.code, usage.code, bad_url.code) == (2, 2, 4, 2, 2)
    assert bad_url.stderr.startswith("sibyl: invalid server URL 'localhost:8000'")
    assert missing.stderr == f"sibyl: no such file: {tmp_path / 'nope.pdf'}\n"
    assert "not a PDF" in not_pdf.stderr
    assert "server unreachable" in unreachable.stderr and "retrying for up to 1 s" in unreachable.stderr
    assert unreachable.stderr.splitlines()[-1].startswith("sibyl: server unreachable:")


async def test_ctrl_c_exits_130_and_says_the_analysis_continues(pdf: str) -> None:
    fake = FakeSibyl(reports=[report_json("PARSED"), report_json("ANALYZING", 20.0, "investigating")])
    async with serve_fake(fake):
        process = await start_cli("analyze", pdf, "--follow", "--server", fake.url)
        result = await interrupt_when(process, "progress")

    assert result.code == 130
    assert f"the analysis continues on the server (report {REPORT_ID})" in result.stderr
    assert "Traceback" not in result.stderr


async def test_ask_prints_the_answer_with_numbered_citations() -> None:
    answer = {
        "__typename": "ReportAnswer", "question": "Scope 1?", "answer": "Scope 1 fell 6.1%.",
        "queryType": "FACTUAL", "method": "extractive", "cached": False, "caveats": ["No LLM configured."],
        "citations": [{"kind": "page", "pageNumber": 5, "excerpt": "Scope 1  emissions fell", "score": 0.9}],
    }  # fmt: skip
    async with serve_fake(FakeSibyl(ask_result=answer)) as fake:
        text = await run_cli("ask", REPORT_ID, "Scope 1?", "--server", fake.url)
        fake.ask_result = {"__typename": "AskReportError", "code": "INVALID_QUESTION", "message": "Short."}
        refused = await run_cli("ask", REPORT_ID, "?", "--server", fake.url)

    assert text.code == 0, text.stderr
    assert text.stdout == "Scope 1 fell 6.1%.\n\n[1] p.5: Scope 1 emissions fell\nnote: No LLM configured.\n"
    assert (refused.code, refused.stderr) == (2, "sibyl: question refused (INVALID_QUESTION): Short.\n")
