"""`sibyl cancel REPORT_ID` and `sibyl delete REPORT_ID --yes`: an operator's controls over a report.

`cancel` stops the report's queued or running analysis (its worker stops within about a second; what
it stored so far stays readable). `delete` removes the report with its PDF, pages, claims, findings,
verdicts, events and runs; it is refused while an analysis runs, and asks for `--yes` since it
cannot be undone.
"""

from __future__ import annotations

import argparse
import sys

from clients.console.connect import client_for
from clients.console.outcome import EXIT_OK, EXIT_USAGE, CommandError
from clients.sibyl import documents
from clients.sibyl.errors import NotFound, raise_for_union
from clients.sibyl.ids import node_uuid
from clients.sibyl.models import Analysis


async def cancel(args: argparse.Namespace) -> int:
    """Cancel the report's analysis; exit 1 (NOT_RUNNING) when none is queued or running."""
    async with client_for(args) as client:
        data = await client.execute(documents.CANCEL_ANALYSIS, reportId=args.report_id)
    result = data["cancelAnalysis"]
    _raise(result, args.report_id)
    analysis = Analysis.from_json(result["analysis"])
    stage = analysis.pipeline_stage or "queued"
    run = node_uuid(analysis.id) or analysis.id  # the run's UUID, as the worker logs name it
    print(f"cancelled analysis {run} of report {args.report_id} at {stage}")
    return EXIT_OK


async def delete(args: argparse.Namespace) -> int:
    """Delete the report; without `--yes` nothing is sent (exit 2)."""
    if not args.yes:
        raise CommandError(
            f"deleting report {args.report_id} cannot be undone; add --yes to do it", EXIT_USAGE
        )
    async with client_for(args) as client:
        data = await client.execute(documents.DELETE_REPORT, reportId=args.report_id)
    result = data["deleteReport"]
    _raise(result, args.report_id)
    report = result["report"]
    name = report.get("companyName") or report.get("filename") or report["id"]
    runs = int(result.get("deletedAnalyses") or 0)
    print(f"deleted report {report['id']} ({name}) with {runs} analysis run(s)", file=sys.stdout)
    return EXIT_OK


def _raise(result: dict[str, object], report_id: str) -> None:
    try:
        raise_for_union(result)
    except NotFound as error:
        raise CommandError(f"no report {report_id!r} on this server", EXIT_USAGE) from error
