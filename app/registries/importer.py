"""Importing a registry snapshot: parse its file(s), store the snapshot and its records in one transaction.

The same file(s) imported twice change nothing: a snapshot is unique per kind by the SHA-256 of its
files (in any order), so the second import returns the first's snapshot. Nothing is ever half
imported, and a newer snapshot is stored beside the older ones (claims are checked against the
snapshot of their time). Records are written with COPY in batches (several times faster than
batched INSERTs for the 14,000 SBTi rows); a progress callback hears after each batch.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import orjson
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import RegistryRecord as RecordRow
from app.db.models import RegistrySnapshot
from app.db.session import SessionFactory
from app.registries.kinds import RegistrySpec, registry_spec
from app.registries.records import (
    Details,
    ParsedRecord,
    ParsedSnapshot,
    RegistryFileProblem,
    RegistryKind,
    SnapshotOptions,
    details_text,
)
from app.registries.snapshots import SnapshotSummary, find_snapshot

#: Records per COPY: large enough to be quick, small enough for a progress bar to move.
BATCH_SIZE = 2000
#: The columns COPY fills (the id is the table's identity).
COPY_COLUMNS = (
    "snapshot_id",
    "record_key",
    "entity_name",
    "normalised_name",
    "identifiers",
    "country",
    "period",
    "data",
)
#: Told (records stored, records in all) as the import goes; (0, 0) while the files are read.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ImportOutcome:
    """The snapshot imported, or the one these files were already imported as (`already_imported`)."""

    snapshot: SnapshotSummary
    already_imported: bool


async def import_registry(
    session_factory: SessionFactory,
    kind: RegistryKind,
    paths: Sequence[Path],
    options: SnapshotOptions | None = None,
    progress: Progress | None = None,
) -> ImportOutcome:
    """Import one snapshot of `kind` from `paths`.

    Raises:
        RegistryFileProblem: A file is missing, unreadable, not of this registry, or lacks a date
            or period the kind needs; nothing is stored.
    """
    spec = registry_spec(kind, paths)
    digest = await asyncio.to_thread(files_sha256, paths)
    async with session_factory() as session:
        existing = await find_snapshot(session, kind, digest)
    if existing is not None:
        return ImportOutcome(existing, already_imported=True)
    if progress is not None:
        progress(0, 0)
    parsed = await asyncio.to_thread(spec.parse, paths, options or SnapshotOptions())
    check_unique_keys(parsed)
    try:
        async with session_factory() as session, session.begin():
            stored = await _store(session, spec, paths, digest, parsed, progress)
    except IntegrityError:
        async with session_factory() as session:  # the same files, imported meanwhile by another process
            existing = await find_snapshot(session, kind, digest)
        if existing is None:
            raise
        return ImportOutcome(existing, already_imported=True)
    return ImportOutcome(stored, already_imported=False)


def files_sha256(paths: Sequence[Path]) -> str:
    """The SHA-256 of one file, or of the sorted digests of several (so their order does not matter).

    Raises:
        RegistryFileProblem: A path is not a readable file.
    """
    digests = []
    for path in paths:
        if not path.is_file():
            raise RegistryFileProblem(f"{path} does not exist or is not a file.")
        with path.open("rb") as handle:
            digests.append(hashlib.file_digest(handle, "sha256").hexdigest())
    if len(digests) == 1:
        return digests[0]
    return hashlib.sha256("".join(sorted(digests)).encode()).hexdigest()


def check_unique_keys(parsed: ParsedSnapshot) -> None:
    """Refuse a snapshot in which two records share a key (the registry listed an entity twice).

    Raises:
        RegistryFileProblem: Naming the first key found twice.
    """
    seen: set[str] = set()
    for record in parsed.records:
        if record.record_key in seen:
            raise RegistryFileProblem(
                f"the file lists {record.record_key!r} ({record.entity_name}) twice; "
                "a registry record must be unique."
            )
        seen.add(record.record_key)


async def _store(
    session: AsyncSession,
    spec: RegistrySpec,
    paths: Sequence[Path],
    digest: str,
    parsed: ParsedSnapshot,
    progress: Progress | None,
) -> SnapshotSummary:
    snapshot = RegistrySnapshot(
        kind=spec.kind.value,
        publisher=spec.publisher,
        file_name=", ".join(path.name for path in paths),
        sha256=digest,
        snapshot_date=parsed.snapshot_date,
        period=parsed.period,
        record_count=len(parsed.records),
    )
    session.add(snapshot)
    await session.flush()
    connection = await (await session.connection()).get_raw_connection()
    driver = connection.driver_connection  # asyncpg's, in the session's transaction
    if driver is None:
        raise RuntimeError("the session's connection has no driver connection")
    total = len(parsed.records)
    for start in range(0, total, BATCH_SIZE):
        rows = [_row(snapshot.id, record) for record in parsed.records[start : start + BATCH_SIZE]]
        await driver.copy_records_to_table(RecordRow.__tablename__, records=rows, columns=COPY_COLUMNS)
        if progress is not None:
            progress(start + len(rows), total)
    await session.refresh(snapshot)
    return SnapshotSummary.of(snapshot)


def _row(snapshot_id: uuid.UUID, record: ParsedRecord[Details]) -> tuple[object, ...]:
    """A record in `COPY_COLUMNS` order (JSONB as JSON text, as the driver's codec takes it)."""
    return (
        snapshot_id,
        record.record_key,
        record.entity_name,
        record.normalised_name,
        orjson.dumps(dict(record.identifiers)).decode(),
        record.country,
        record.period,
        details_text(record.details),
    )
