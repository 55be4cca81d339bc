"""`sibyl analyze report.pdf`: upload (or reuse), wait for parsing, analyse, follow, print verdicts."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from clients.console.connect import client_for
from clients.console.display import Display
from clients.console.follow import Follower
from clients.console.outcome import (
    EXIT_CANCELLED,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_TIMED_OUT,
    EXIT_USAGE,
    CommandError,
)
from clients.console.render import RENDERERS
from clients.sibyl.client import SibylClient
from clients.sibyl.errors import MutationFailed, WaitTimeout
from clients.sibyl.models import FINAL_STATUSES, Report

PDF_MAGIC = b"%PDF-"
READY_STATUSES = frozenset({"PARSED", "ANALYZING", "COMPLETED", "ERROR", "CANCELLED"})
QUIET_POLL_SECONDS = 1.0


@dataclass
class RunState:
    """What the command knows so far; read by the Ctrl-C handler to say where the work continues."""

    report_id: str | None = None
    analysing: bool = False


def read_pdf(path_text: str) -> bytes:
    """The file's bytes, or a usage error if it is missing, empty or not a PDF (checked before any
    request, in the server's words where it has them)."""
    path = Path(path_text)
    if not path.is_file():
        raise CommandError(f"no such file: {path_text}", EXIT_USAGE)
    content = path.read_bytes()
    if not content:
        raise CommandError(f"the file is empty: {path_text}", EXIT_USAGE)
    if not content.startswith(PDF_MAGIC):
        raise CommandError(f"not a PDF: {path_text}", EXIT_USAGE)
    return content


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


async def _upload(client: SibylClient, args: argparse.Namespace, content: bytes, display: Display) -> Report:
    try:
        upload = await client.upload_report(content, args.company, filename=Path(args.file).name)
    except MutationFailed as error:
        raise CommandError(f"upload refused ({error.code}): {error.message}", EXIT_USAGE) from error
    verb = "uploaded" if upload.created else "already uploaded; reusing"
    display.line(f"{'report'.ljust(12)} {verb} {Path(args.file).name} as report {upload.report.id}")
    return upload.report


async def _start(client: SibylClient, report: Report, args: argparse.Namespace, display: Display) -> None:
    """Start the analysis, or follow the one already running."""
    if report.status == "ERROR" and report.page_count is None:
        raise CommandError(f"parsing failed: {report.error_message or 'unknown error'}", EXIT_FAILED)
    if report.status != "ANALYZING":
        try:
            await client.start_analysis(report.id, skip_claims_extraction=args.skip_claims)
            return
        except MutationFailed as error:
            if error.code != "ALREADY_RUNNING":
                raise CommandError(f"analysis not started ({error.code}): {error.message}") from error
    display.line(f"{'report'.ljust(12)} an analysis is already running; following it")


async def _wait(
    client: SibylClient,
    args: argparse.Namespace,
    display: Display,
    report_id: str,
    after_sequence: int,
    deadline: float | None,
) -> Report:
    if args.follow:
        return await Follower(client, report_id, display).run(after_sequence, deadline)
    return await client.wait_for_status(report_id, FINAL_STATUSES, _remaining(deadline), QUIET_POLL_SECONDS)


def _timed_out(report_id: str, error: WaitTimeout, timeout: float) -> str:
    """The timeout's one line: the seconds the user asked for (not the remainder), the report's status."""
    status = f" is still {error.status}" if error.status else ""
    seconds = f"{timeout:.0f}" if timeout >= 10 else f"{timeout:.1f}".removesuffix(".0")
    return f"timed out after {seconds} s: report {report_id}{status}; it continues on the server."


async def analyze(args: argparse.Namespace, content: bytes, state: RunState) -> int:
    """Run `analyze` on the PDF's bytes; returns the exit code (expected failures raise CommandError)."""
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    display = Display(sys.stderr)
    async with client_for(args, display.line) as client:
        report = await _upload(client, args, content, display)
        state.report_id = report.id
        try:
            report = await client.wait_for_status(report.id, READY_STATUSES, _remaining(deadline))
            after = await client.last_event_sequence(report.id) if args.follow else 0
            await _start(client, report, args, display)
            state.analysing = True
            report = await _wait(client, args, display, report.id, after, deadline)
        except WaitTimeout as error:
            raise CommandError(_timed_out(report.id, error, args.timeout), EXIT_TIMED_OUT) from error
        claims = await client.claims(report.id, order_by="PAGE")
    sys.stdout.write(RENDERERS[args.output](report, claims))
    if report.status == "ERROR":
        message = (report.analysis.error_message if report.analysis else None) or report.error_message
        print(f"sibyl: analysis failed: {message or 'unknown error'}", file=sys.stderr)
        return EXIT_FAILED
    if report.status == "CANCELLED":
        message = (report.analysis.error_message if report.analysis else None) or report.error_message
        print(f"sibyl: analysis cancelled: {message or 'by an operator'}", file=sys.stderr)
        return EXIT_CANCELLED
    return EXIT_OK


def interrupted_message(state: RunState) -> str:
    """What Ctrl-C leaves behind, so the user knows the server keeps working."""
    if state.report_id is None:
        return "interrupted."
    if state.analysing:
        return f"interrupted; the analysis continues on the server (report {state.report_id})."
    return f"interrupted; report {state.report_id} stays on the server."
