"""When a report's latest analysis failed or was cancelled, export the last COMPLETED one instead.

A re-run that fails would otherwise hide a good earlier analysis: the exports read the latest run,
so they showed "ERROR" and no verdicts while the completed run's verdicts were still stored. Here
the exports (`sibyl export`, and the API's `Report.export` through the same code) fetch the last
COMPLETED run (`Report.analyses`) with its verdicts, show its verdicts on the report's claims, and
say so in one line. When no completed run exists, or a new claim extraction replaced the claims it
judged, the latest run is shown as it is.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from clients.console.export import shorten
from clients.sibyl import documents
from clients.sibyl.models import UNFINISHED_ANALYSIS_STATUSES, Analysis, Claim, Report, Verdict

#: Runs a GraphQL document with variables and returns its `data` (the client's or the schema's).
Execute = Callable[..., Awaitable[Mapping[str, Any]]]

#: Verdicts fetched per query (the largest `Analysis.verdicts` page).
VERDICT_PAGE = 200
#: Longest failure message the note quotes.
NOTE_CAUSE_CHARS = 120


@dataclasses.dataclass(frozen=True)
class Shown:
    """What an export renders: the report (with the analysis shown), its claims, and a note when the
    analysis shown is not the latest."""

    report: Report
    claims: Sequence[Claim]
    note: str | None = None


async def completed_or_latest(execute: Execute, report: Report, claims: Sequence[Claim]) -> Shown:
    """The latest analysis, or the last COMPLETED one when the latest ended in ERROR or CANCELLED."""
    latest = report.analysis
    if latest is None or latest.status not in UNFINISHED_ANALYSIS_STATUSES:
        return Shown(report, claims)
    found = await _completed_run(execute, report.id)
    if found is None:
        return Shown(report, claims)
    completed, verdicts = found
    if not any(claim.id in verdicts for claim in claims):
        return Shown(report, claims)  # its claims were replaced: nothing of it left to show
    shown = [dataclasses.replace(claim, verdict=verdicts.get(claim.id)) for claim in claims]
    return Shown(dataclasses.replace(report, analysis=completed), shown, fallback_note(latest, completed))


async def _completed_run(execute: Execute, report_id: str) -> tuple[Analysis, dict[str, Verdict]] | None:
    verdicts: dict[str, Verdict] = {}
    offset = 0
    while True:
        data = await execute(documents.COMPLETED_ANALYSIS, id=report_id, first=VERDICT_PAGE, offset=offset)
        runs = (data.get("report") or {}).get("analyses") or []
        if not runs:
            return None
        page = runs[0].get("verdicts") or []
        verdicts.update({str(item["claim"]["id"]): Verdict.from_json(item) for item in page})
        if len(page) < VERDICT_PAGE:
            return Analysis.from_json(runs[0]), verdicts
        offset += len(page)


def fallback_note(latest: Analysis, completed: Analysis) -> str:
    """One line: why the latest analysis is not shown, and which one is."""
    happened = "was cancelled" if latest.status == "CANCELLED" else "failed"
    cause = f" ({shorten(latest.error_message, NOTE_CAUSE_CHARS)})" if latest.error_message else ""
    return f"the latest analysis {happened}{cause}; showing the analysis completed on {_when(completed)}"


def _when(analysis: Analysis) -> str:
    if not analysis.completed_at:
        return "an earlier date"
    try:
        moment = datetime.fromisoformat(analysis.completed_at)
    except ValueError:
        return analysis.completed_at
    return moment.strftime("%Y-%m-%d %H:%M %Z").strip()


def with_note(output: str, rendered: str, note: str | None, latest: Analysis | None) -> str:
    """`rendered` (a table, markdown or JSON export) with the fallback note, if any, in it."""
    if note is None:
        return rendered
    if output == "json":
        document = json.loads(rendered)
        latest_json = (
            None
            if latest is None
            else {
                "id": latest.id,
                "status": latest.status,
                "errorMessage": latest.error_message,
            }
        )
        document = {"note": note, "latestAnalysis": latest_json, **document}
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    lines = rendered.split("\n")
    insert = [f"> Note: {note}", ""] if output == "markdown" else [f"NOTE: {note}"]
    at = 2 if output == "markdown" else 1
    return "\n".join(lines[:at] + insert + lines[at:])
