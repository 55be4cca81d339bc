"""The `sibyl` command: run the system, migrate, manage the knowledge base, evidence and API keys,
and (from `clients`) analyse reports and ask questions through the API."""

from __future__ import annotations

import argparse
import base64
import binascii
import sys

from pydantic import ValidationError

from app.commands.corpus import add_corpus_commands
from app.commands.evidence import add_evidence_commands
from app.commands.keys import add_key_commands
from app.commands.registries import add_registry_commands
from app.config import Settings, get_settings
from app.log_setup import configure_from_settings
from clients.cli import add_client_commands  # the API client's commands (`analyze`, `ask`)


def _run(args: argparse.Namespace) -> int:
    from app.supervision.supervisor import run

    return run(get_settings())


def _migrate(args: argparse.Namespace) -> int:
    from app.db.migrate import upgrade

    upgrade(get_settings().require_database_url(), args.revision)
    return 0


def decode_id(value: str) -> str:
    """`Report <uuid>` for a GraphQL id (base64 of `Report:<uuid>`), as the logs name it; a value
    that is not such an id is returned as given (it may be a uuid already)."""
    try:
        kind, sep, key = (
            base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode().partition(":")
        )
    except (binascii.Error, UnicodeDecodeError):
        return value
    return f"{kind} {key}" if sep and kind.isidentifier() else value


def _ids(args: argparse.Namespace) -> int:
    for value in args.ids:
        print(f"{value}: {decode_id(value)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sibyl", description="Sibyl: checks sustainability reports.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="start the API and a worker (embedded Postgres/Redis if no URLs)")
    run.set_defaults(handler=_run)
    migrate = commands.add_parser("migrate", help="apply database migrations to DATABASE_URL")
    migrate.add_argument("revision", nargs="?", default="head")
    migrate.set_defaults(handler=_migrate)
    ids = commands.add_parser("ids", help="decode GraphQL ids (e.g. a report's) to the uuids in the logs")
    ids.add_argument("ids", nargs="+")
    ids.set_defaults(handler=_ids)
    add_corpus_commands(commands)
    add_evidence_commands(commands)
    add_key_commands(commands)
    add_registry_commands(commands)
    add_client_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    configure_from_settings()  # LOG_FORMAT, LOG_LEVEL_HTTP (defaults if the settings are bad)
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except ValidationError as error:
        if error.title != Settings.__name__:
            raise
        from app.supervision.preflight import settings_problems

        for line in settings_problems(error):  # one line per bad environment variable, no traceback
            print(f"sibyl: {line}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
