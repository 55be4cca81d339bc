"""Run `python -m clients.cli` as a subprocess from an async test (the servers live in the test's loop)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class CliResult:
    code: int
    stdout: str
    stderr: str


def cli_env() -> dict[str, str]:
    """This environment without SIBYL_* settings, so only the arguments configure the client."""
    return {name: value for name, value in os.environ.items() if not name.startswith("SIBYL_")}


async def start_cli(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "clients.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=PROJECT,
        env=cli_env(),
    )


async def run_cli(*args: str, timeout: float = 90.0) -> CliResult:
    """Run the CLI to the end; its exit code, stdout and stderr."""
    process = await start_cli(*args)
    try:
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return CliResult(process.returncode, stdout.decode(), stderr.decode())


async def interrupt_when(
    process: asyncio.subprocess.Process, marker: str, timeout: float = 60.0
) -> CliResult:
    """Send SIGINT once a stderr line contains `marker`; the CLI's result after it."""
    assert process.stderr is not None and process.stdout is not None
    seen: list[str] = []

    async def wait_for_marker() -> None:
        while marker not in (seen[-1] if seen else ""):
            line = await process.stderr.readline()  # type: ignore[union-attr]
            assert line, f"CLI ended before {marker!r}: {''.join(seen)}"
            seen.append(line.decode())

    await asyncio.wait_for(wait_for_marker(), timeout)
    process.send_signal(signal.SIGINT)
    stdout, rest = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return CliResult(process.returncode, stdout.decode(), "".join(seen) + rest.decode())
