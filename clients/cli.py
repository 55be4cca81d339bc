"""The client side of the `sibyl` command: `sibyl analyze report.pdf --follow`, `sibyl ask`,
`sibyl export`, `sibyl cancel` and `sibyl delete`.

`add_client_commands` plugs these into the main `sibyl` parser; `python -m clients.cli` runs them on
their own. Only the network is used: nothing of the server is imported.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from clients.console.analyze import RunState, analyze, interrupted_message, read_pdf
from clients.console.ask import ask
from clients.console.connect import DEFAULT_RETRY_SECONDS, RETRY_ENV
from clients.console.control import cancel, delete
from clients.console.outcome import EXIT_INTERRUPTED, CommandError, describe_failure
from clients.console.show import export

DEFAULT_TIMEOUT_SECONDS = 3600.0
CHATTY_LOGGERS = ("httpx", "httpcore", "websockets")


def _fail(message: str) -> None:
    print(f"sibyl: {message}", file=sys.stderr)


def _run(main: Callable[[], Coroutine[Any, Any, int]], on_interrupt: Callable[[], str]) -> int:
    """Run a command's coroutine; expected failures become one line and an exit code, not a traceback."""
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        _fail(on_interrupt())
        return EXIT_INTERRUPTED
    except Exception as error:  # describe_failure re-raises what it does not expect
        code, message = describe_failure(error)
        _fail(message)
        return code


def _analyze(args: argparse.Namespace) -> int:
    state = RunState()
    try:
        content = read_pdf(args.file)
    except CommandError as error:
        _fail(str(error))
        return error.exit_code
    return _run(lambda: analyze(args, content, state), lambda: interrupted_message(state))


def _ask(args: argparse.Namespace) -> int:
    return _run(lambda: ask(args), lambda: "interrupted.")


def _export(args: argparse.Namespace) -> int:
    return _run(lambda: export(args), lambda: "interrupted.")


def _cancel(args: argparse.Namespace) -> int:
    return _run(lambda: cancel(args), lambda: "interrupted.")


def _delete(args: argparse.Namespace) -> int:
    return _run(lambda: delete(args), lambda: "interrupted.")


def _positive_seconds(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _add_connection_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", metavar="URL", help="API base URL (default: SIBYL_API_URL or local)")
    parser.add_argument("--api-key", metavar="KEY", help="API key (default: SIBYL_API_KEY)")
    parser.add_argument(
        "--retry-seconds",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="keep retrying this long when the server is unreachable or unavailable "
        f"(default: {RETRY_ENV} or {DEFAULT_RETRY_SECONDS:g}; 0 gives up at once, exit 4)",
    )
    parser.add_argument(
        "--no-persisted-queries",
        dest="persisted_queries",
        action="store_false",
        help="send full GraphQL documents instead of automatic persisted queries (their hashes)",
    )


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", dest="output", action="store_const", const="json", help="one JSON document")
    output.add_argument("--markdown", dest="output", action="store_const", const="markdown", help="markdown")
    parser.set_defaults(output="table")


def _add_analyze(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "analyze", help="upload a report PDF to a Sibyl server, analyse it and print the verdicts"
    )
    parser.add_argument("file", help="the report PDF")
    parser.add_argument("--company", metavar="NAME", help="the reporting company")
    parser.add_argument("--follow", action="store_true", help="show live progress and agent activity")
    parser.add_argument("--skip-claims", action="store_true", help="reuse the report's stored claims")
    _add_output_options(parser)
    parser.set_defaults(handler=_analyze)
    parser.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=DEFAULT_TIMEOUT_SECONDS,
        metavar="SECONDS",
        help=f"stop waiting after this long (default {DEFAULT_TIMEOUT_SECONDS:g}); the server carries on",
    )
    _add_connection_options(parser)


def _add_ask(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("ask", help="ask a question about an analysed report")
    parser.add_argument("report_id", metavar="REPORT_ID", help="the report's id")
    parser.add_argument("question", help="the question, in quotes")
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.set_defaults(handler=_ask)
    _add_connection_options(parser)


def _add_export(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "export", help="print an analysed report's verdicts again (table, --markdown or --json), no new run"
    )
    parser.add_argument("report_id", metavar="REPORT_ID", help="the report's id")
    _add_output_options(parser)
    parser.set_defaults(handler=_export)
    _add_connection_options(parser)


def _add_controls(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "cancel",
        help="stop a report's queued or running analysis (it becomes CANCELLED; results so far stay)",
    )
    parser.add_argument("report_id", metavar="REPORT_ID", help="the report's id")
    parser.set_defaults(handler=_cancel)
    _add_connection_options(parser)
    parser = commands.add_parser(
        "delete", help="delete a report with its PDF, claims, verdicts, events and runs (not while analysing)"
    )
    parser.add_argument("report_id", metavar="REPORT_ID", help="the report's id")
    parser.add_argument("--yes", action="store_true", help="really delete (it cannot be undone)")
    parser.set_defaults(handler=_delete)
    _add_connection_options(parser)


def add_client_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `analyze`, `ask`, `export`, `cancel` and `delete` on a `sibyl` parser's subcommands
    (handlers return exit codes)."""
    _add_analyze(commands)
    _add_ask(commands)
    _add_export(commands)
    _add_controls(commands)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sibyl", description="Client for a Sibyl server.")
    add_client_commands(parser.add_subparsers(dest="command", required=True))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv` and run the command; returns the exit code (argparse exits 2 on bad usage)."""
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
