"""`sibyl registry import|list`: import a public registry's download, list the stored snapshots.

Refusals (a missing column, an unknown file, a missing date or period) are one line on stderr and
exit status 2; progress goes to stderr too, so stdout holds only the result.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from pathlib import Path

from app.commands.database import run_with_database
from app.config import Settings, get_settings
from app.db.session import SessionFactory
from app.registries.dating import check_period
from app.registries.importer import ImportOutcome, import_registry
from app.registries.progress import ProgressLine
from app.registries.records import RegistryFileProblem, RegistryKind, SnapshotOptions
from app.registries.snapshots import SnapshotSummary, list_snapshots


def add_registry_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `sibyl registry import|list`."""
    registry = commands.add_parser(
        "registry", help="public registries (SBTi, Net Zero Tracker, UK ETS, GHGRP, NGER)"
    )
    actions = registry.add_subparsers(dest="action", required=True)
    add = actions.add_parser("import", help="import one snapshot of a registry from its download(s)")
    add.add_argument("kind", choices=[kind.value for kind in RegistryKind], help="which registry")
    add.add_argument(
        "files", nargs="+", type=Path, help="the file(s): epa_ghgrp takes the summary and parents"
    )
    add.add_argument(
        "--snapshot-date", metavar="YYYY-MM-DD", help="when the file was published, if its name does not say"
    )
    add.add_argument(
        "--period", metavar="P", help="reporting period (2020, 2021-22), if the file does not say"
    )
    add.set_defaults(handler=_import)
    listing = actions.add_parser("list", help="the imported snapshots")
    listing.set_defaults(handler=_list)


def _import(args: argparse.Namespace) -> int:
    try:
        options = SnapshotOptions(
            _date(args.snapshot_date), check_period(args.period) if args.period else None
        )
    except RegistryFileProblem as exc:
        return _refuse(str(exc))
    kind, files = RegistryKind(args.kind), list(args.files)

    async def run(factory: SessionFactory, settings: Settings) -> int:
        return await import_files(factory, kind, files, options)

    return run_with_database(get_settings(), run)


def _list(args: argparse.Namespace) -> int:
    async def run(factory: SessionFactory, settings: Settings) -> int:
        return await print_snapshots(factory)

    return run_with_database(get_settings(), run)


def _date(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RegistryFileProblem(f"--snapshot-date {value!r} is not a date (YYYY-MM-DD).") from None


def _refuse(message: str) -> int:
    print(f"sibyl registry: {message}", file=sys.stderr, flush=True)
    return 2


async def import_files(
    session_factory: SessionFactory, kind: RegistryKind, files: list[Path], options: SnapshotOptions
) -> int:
    """Import one snapshot and say what happened: 0 imported or already there, 2 refused."""
    started = time.monotonic()
    line = ProgressLine(f"{kind.value}: ", sys.stderr)
    try:
        outcome = await import_registry(session_factory, kind, files, options, line.update)
    except RegistryFileProblem as exc:
        line.close()
        return _refuse(str(exc))
    line.close()
    print(_outcome(outcome, time.monotonic() - started))
    return 0


def _outcome(outcome: ImportOutcome, seconds: float) -> str:
    snapshot = outcome.snapshot
    if outcome.already_imported:
        when = f"{snapshot.imported_at:%Y-%m-%d %H:%M}"
        return f"already imported: {_describe(snapshot)} (on {when}); nothing changed"
    return f"imported {_describe(snapshot)} in {seconds:.1f} s"


def _describe(snapshot: SnapshotSummary) -> str:
    dated = snapshot.snapshot_date.isoformat() if snapshot.snapshot_date else "undated"
    period = f", period {snapshot.period}" if snapshot.period else ""
    records = f"{snapshot.record_count:,} records"
    return f"{snapshot.kind.value} snapshot {dated}{period}: {records} from {snapshot.file_name}"


async def print_snapshots(session_factory: SessionFactory) -> int:
    """One line per stored snapshot: kind, date, period, records, files, when imported."""
    async with session_factory() as session:
        snapshots = await list_snapshots(session)
    if not snapshots:
        print("no registry imported yet: `sibyl registry import KIND FILE` imports one")
    for snapshot in snapshots:
        dated = snapshot.snapshot_date.isoformat() if snapshot.snapshot_date else "----------"
        print(
            f"{snapshot.kind.value:<16} {dated}  {snapshot.period or '-':<9} "
            f"{snapshot.record_count:>7,} records  {snapshot.file_name}  "
            f"(imported {snapshot.imported_at:%Y-%m-%d %H:%M})"
        )
    print(f"{len(snapshots)} snapshot(s)")
    return 0
