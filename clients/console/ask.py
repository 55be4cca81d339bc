"""`sibyl ask REPORT_ID "question"`: one question about an analysed report, answered with citations."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from clients.console.connect import client_for
from clients.console.outcome import EXIT_FAILED, EXIT_OK, EXIT_USAGE, CommandError
from clients.sibyl.errors import NOT_FOUND_CODES, MutationFailed
from clients.sibyl.models import Answer

#: Refusals caused by what the user typed (an unknown report id, an unusable question): exit 2.
BAD_INPUT_CODES = NOT_FOUND_CODES | {"INVALID_QUESTION"}


def render_answer(answer: Answer) -> str:
    """The answer, then its citations and caveats, as plain text."""
    lines = [answer.answer, ""]
    for number, citation in enumerate(answer.citations, 1):
        where = f"p.{citation.page_number}" if citation.page_number is not None else citation.kind
        lines.append(f"[{number}] {where}: {' '.join(citation.excerpt.split())}")
    lines += [f"note: {caveat}" for caveat in answer.caveats]
    return "\n".join(lines).rstrip() + "\n"


async def ask(args: argparse.Namespace) -> int:
    """Ask the question; a refused question (not found, invalid, not parsed) is a one-line error."""
    async with client_for(args) as client:
        try:
            answer = await client.ask(args.report_id, args.question)
        except MutationFailed as error:
            code = EXIT_USAGE if error.code in BAD_INPUT_CODES else EXIT_FAILED
            raise CommandError(f"question refused ({error.code}): {error.message}", code) from error
    sys.stdout.write(json.dumps(asdict(answer), indent=2) + "\n" if args.json else render_answer(answer))
    return EXIT_OK
