"""`sibyl cancel`, `sibyl delete` and a followed analysis that gets cancelled (exit 6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from strawberry import relay

from app.config import Settings
from app.db.models import AnalysisRun, Report
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.analysis import open_analysis_run
from tests.clients.cli_runner import run_cli
from tests.clients.fake_sibyl import FakeSibyl, event, report_json, serve_fake
from tests.support.pipeline import seed_report

KEY = "sibyl_0123abcd_" + "k" * 43


@pytest.fixture
def pdf(tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(b"%PDF-1.7\n% a stand-in the fake never parses\n")
    return str(path)


async def test_followed_analysis_that_is_cancelled_exits_6(pdf: str) -> None:
    message = "Analysis cancelled at investigating (pass 1); what it stored so far stays readable."
    fake = FakeSibyl(
        api_key=KEY,
        reports=[
            report_json("PARSED"),
            report_json("ANALYZING", 40.0, "investigating"),
            report_json("CANCELLED", 40.0, "investigating", analysis_error=message, error_message=message),
        ],
        events=[event(1, "run_cancelled", None, message=message, stage="investigating")],
    )
    async with serve_fake(fake):
        result = await run_cli("analyze", pdf, "--follow", "--server", fake.url, "--api-key", KEY)

    assert result.code == 6, result.stderr
    assert f"pipeline     {message}" in result.stderr
    assert f"sibyl: analysis cancelled: {message}" in result.stderr
    assert "Traceback" not in result.stderr


async def test_cancel_and_delete_commands(
    api_url: str, api_key: str, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    seeded = await seed_report(session_factory)
    report_id = str(relay.GlobalID("Report", str(seeded.report_id)))
    options = ("--server", api_url, "--api-key", api_key, "--retry-seconds", "0")
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)

    busy = await run_cli("delete", report_id, "--yes", *options)
    assert busy.code == 1 and "ANALYSIS_RUNNING" in busy.stderr, busy.stderr
    cancelled = await run_cli("cancel", report_id, *options)
    assert cancelled.code == 0, cancelled.stderr
    assert f"cancelled analysis {started.run.id}" in cancelled.stdout
    again = await run_cli("cancel", report_id, *options)
    assert again.code == 1 and "NOT_RUNNING" in again.stderr
    unsure = await run_cli("delete", report_id, *options)
    assert unsure.code == 2 and "--yes" in unsure.stderr
    deleted = await run_cli("delete", report_id, "--yes", *options)
    assert deleted.code == 0, deleted.stderr
    assert "with 1 analysis run(s)" in deleted.stdout
    async with session_factory() as session:
        assert await session.get(Report, seeded.report_id) is None
        assert await session.get(AnalysisRun, started.run.id) is None
    gone = await run_cli("delete", report_id, "--yes", *options)
    assert gone.code == 2 and "no report" in gone.stderr
