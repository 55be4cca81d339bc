"""An analysis's log lines name its report (so an operator can find a user's report in the
log), in text and JSON; a specialist stopped by a lost database connection writes one WARNING line,
no traceback."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from app.db.session import SessionFactory
from app.events import EventLog
from app.log_setup import make_handler
from app.pipeline.specialists import load_investigators
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import InvestigationTools
from app.verification.records import InvestigationOutcome, SpecialistTask
from tests.conftest import make_settings
from tests.support.pipeline import pipeline_runner, seed_report
from tests.support.services import RunningServices

CLAIMS = [
    {
        "text": f"Our Osprey {site} site follows the 2023 anti-bribery law.",
        "claim_type": "legal_governance",
        "page": 1,
    }
    for site in ("north", "south")
]


async def _database_gone(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """A plugin investigator whose database connection is refused (as when Postgres is killed)."""
    raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")


@pytest.fixture
def log_streams() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    text, structured = io.StringIO(), io.StringIO()
    handlers = [make_handler("text", stream=text), make_handler("json", stream=structured)]
    app_logger = logging.getLogger("app")
    level = app_logger.level
    app_logger.setLevel(logging.INFO)
    for handler in handlers:
        app_logger.addHandler(handler)
    yield text, structured
    for handler in handlers:
        app_logger.removeHandler(handler)
    app_logger.setLevel(level)


async def test_agent_lines_name_the_report_and_a_lost_database_is_one_warning(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    log_streams: tuple[io.StringIO, io.StringIO],
) -> None:
    settings = make_settings(services, tavily_api_key=None)
    agents = {**load_investigators(settings), "legal": _database_gone}
    seeded = await seed_report(session_factory, CLAIMS, pages=1)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        await runner.run(started.run.id)

    text, structured = (stream.getvalue() for stream in log_streams)
    [stopped] = [line for line in text.splitlines() if "legal agent" in line]
    assert " WARNING app.pipeline.specialists: legal agent stopped: database unreachable (" in stopped
    assert stopped.endswith(f"(report {seeded.report_id})")
    assert "Traceback" not in text
    [entry] = [json.loads(line) for line in structured.splitlines() if "legal agent" in line]
    assert entry["run_id"] == str(started.run.id)
    assert entry["report_id"] == str(seeded.report_id)
    assert "exception" not in entry
