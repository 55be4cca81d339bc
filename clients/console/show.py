"""`sibyl export REPORT_ID`: an analysed report's verdicts again, without analysing it again.

`sibyl analyze report.pdf --markdown` on a report already uploaded starts a new analysis; this
prints the latest one as it stands (a table, `--markdown` or `--json`, the same renderers as
`analyze` and the API's `Report.export`). When the latest analysis failed or was cancelled, the
last completed one is printed instead, with a one-line note (`clients.console.fallback`).
"""

from __future__ import annotations

import argparse
import sys

from clients.console.connect import client_for
from clients.console.fallback import completed_or_latest, with_note
from clients.console.outcome import EXIT_OK, EXIT_USAGE, CommandError
from clients.console.render import RENDERERS
from clients.sibyl.errors import NotFound


async def export(args: argparse.Namespace) -> int:
    """Print the report's latest analysis (or its last completed one, when the latest failed or was
    cancelled); an unknown report id is bad input (exit 2)."""
    async with client_for(args) as client:
        try:
            report = await client.report(args.report_id)
        except NotFound as error:
            raise CommandError(f"no report {args.report_id!r} on this server", EXIT_USAGE) from error
        claims = await client.claims(report.id, order_by="PAGE")
        shown = await completed_or_latest(client.execute, report, claims)
    rendered = RENDERERS[args.output](shown.report, shown.claims)
    sys.stdout.write(with_note(args.output, rendered, shown.note, report.analysis))
    return EXIT_OK
