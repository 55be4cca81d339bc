"""`sibyl analyze --follow` rides out a database blip (`SERVICE_UNAVAILABLE`) and an API restart:
it retries with backoff, resumes the event stream after the last event it showed, fetches the final
table with the same retry, and exits 4 (never 1) when the server stays away past --retry-seconds."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from app.supervision.embedded.redis import free_port
from tests.clients.cli_runner import CliResult, start_cli
from tests.clients.fake_sibyl import FakeSibyl, claim_json, event, report_json, serve_fake

KEY = "sibyl_0123abcd_" + "r" * 43
CLAIM = "5b0c5f55-0000-4000-8000-00000000000a"


@pytest.fixture
def pdf(tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(b"%PDF-1.7\n% a stand-in the fake never parses\n")
    return str(path)


def running_analysis() -> FakeSibyl:
    """A report whose analysis runs (the test decides when it completes) with two events so far."""
    return FakeSibyl(
        api_key=KEY,
        reports=[report_json("PARSED"), report_json("ANALYZING", 40.0, "investigating")],
        existing_event_sequences=[1, 2],
        events=[
            event(3, "claim_routed", "orchestrator", claim_id=CLAIM, assigned_agents=["legal"]),
            event(4, "agent_started", "legal", claim_id=CLAIM),
        ],
        claims=[claim_json(1, 5, "VERIFIED")],
    )


def complete(fake: FakeSibyl) -> None:
    """The analysis finishes: a verdict and the closing event, and the report is COMPLETED."""
    fake.events += [
        event(5, "verdict_issued", "judge", claim_id=CLAIM, verdict="verified", confidence="high"),
        event(6, "pipeline_completed", None, total_verdicts=1),
    ]
    fake.reports = [report_json("COMPLETED", 100.0, "completed")]


class Cli:
    """A running CLI whose stderr is read line by line, so a test can act at a given moment."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []

    async def wait_for(self, marker: str, timeout: float = 30.0) -> None:
        async def read() -> None:
            assert self.process.stderr is not None
            while not any(marker in line for line in self.lines):
                line = await self.process.stderr.readline()
                assert line, f"CLI ended before {marker!r}: {''.join(self.lines)}"
                self.lines.append(line.decode())

        await asyncio.wait_for(read(), timeout)

    async def result(self, timeout: float = 60.0) -> CliResult:
        stdout, rest = await asyncio.wait_for(self.process.communicate(), timeout)
        assert self.process.returncode is not None
        return CliResult(self.process.returncode, stdout.decode(), "".join(self.lines) + rest.decode())


async def follow(fake: FakeSibyl, pdf: str, *extra: str) -> Cli:
    return Cli(await start_cli("analyze", pdf, "--follow", "--server", fake.url, "--api-key", KEY, *extra))


async def test_follow_retries_service_unavailable_and_fetches_the_final_table(pdf: str) -> None:
    async with serve_fake(running_analysis()) as fake:
        cli = await follow(fake, pdf)
        await cli.wait_for("legal        started")
        fake.unavailable = {"Report": 3, "Claims": 2}  # the database is away for a moment
        complete(fake)
        result = await cli.result()

    assert result.code == 0, result.stderr
    assert "server unavailable (The database is unavailable; retry shortly.)" in result.stderr
    assert fake.unavailable == {"Report": 0, "Claims": 0}, "every unavailable answer was retried"
    assert "claims: VERIFIED 1" in result.stdout, "the final table, fetched through the outage"


async def test_follow_survives_an_api_restart_and_resumes_events_after_the_last_seen(pdf: str) -> None:
    port = free_port()
    fake = running_analysis()
    async with serve_fake(fake, port):
        cli = await follow(fake, pdf)
        await cli.wait_for("legal        started")
    stopped_at = time.monotonic()  # the API is down (its WebSocket and HTTP connections are gone)
    await asyncio.sleep(2.0)
    complete(fake)
    async with serve_fake(fake, port):
        result = await cli.result()

    assert result.code == 0, result.stderr
    assert "server unreachable" in result.stderr and "retrying for up to 30 s" in result.stderr
    assert fake.subscriptions[0]["variables"]["afterSequence"] == 2
    assert fake.subscriptions[-1]["variables"]["afterSequence"] == 4, "resumed after the last event shown"
    assert result.stderr.count("legal        started") == 1
    assert result.stderr.count("judge        VERIFIED") == 1
    assert "live events unavailable" not in result.stderr
    assert "claims: VERIFIED 1" in result.stdout
    assert time.monotonic() - stopped_at < 30


async def test_follow_exits_4_once_the_server_stays_away_past_the_retry_window(pdf: str) -> None:
    async with serve_fake(running_analysis()) as fake:
        cli = await follow(fake, pdf, "--retry-seconds", "2")
        await cli.wait_for("legal        started")
        fake.unavailable = {"*": 1000}
        unavailable = await cli.result()

    async with serve_fake(running_analysis()) as fake:
        cli = await follow(fake, pdf, "--retry-seconds", "2")
        await cli.wait_for("legal        started")
    gone_at = time.monotonic()
    gone = await cli.result()

    assert unavailable.code == 4, unavailable.stderr
    assert unavailable.stderr.splitlines()[-1].startswith(
        "sibyl: server unavailable: The database is unavailable"
    )
    assert "still failing after 2 s of retries" in unavailable.stderr
    assert gone.code == 4, gone.stderr
    assert gone.stderr.splitlines()[-1].startswith("sibyl: server unreachable:")
    assert "retrying for up to 2 s" in gone.stderr
    assert time.monotonic() - gone_at < 15
