"""Importing snapshots into the database: all or nothing, the same files twice change nothing, and a
newer snapshot is kept beside the older one."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.db.models import RegistryRecord, RegistrySnapshot
from app.db.session import SessionFactory
from app.registries.importer import import_registry
from app.registries.records import RegistryFileProblem, RegistryKind, SnapshotOptions
from app.registries.snapshots import list_snapshots
from tests.app.registries import files

pytestmark = pytest.mark.usefixtures("no_registries")


async def counts(session_factory: SessionFactory) -> tuple[int, int]:
    async with session_factory() as session:
        snapshots = await session.scalar(select(func.count()).select_from(RegistrySnapshot))
        records = await session.scalar(select(func.count()).select_from(RegistryRecord))
    return snapshots or 0, records or 0


def sbti_file(
    folder: Path, name: str = "sbti-companies-taking-action-2026-03-05.xlsx", extra: int = 0
) -> Path:
    return files.write_xlsx(folder / name, {"Data": files.sbti_rows(extra)})


async def test_a_snapshot_and_its_records_are_stored(session_factory: SessionFactory, tmp_path: Path) -> None:
    path = sbti_file(tmp_path)
    heard: list[tuple[int, int]] = []

    outcome = await import_registry(
        session_factory, RegistryKind.SBTI, [path], progress=lambda *p: heard.append(p)
    )

    snapshot = outcome.snapshot
    assert not outcome.already_imported
    assert (snapshot.kind, snapshot.snapshot_date, snapshot.record_count) == (
        RegistryKind.SBTI,
        date(2026, 3, 5),
        3,
    )
    assert snapshot.publisher == "Science Based Targets initiative" and snapshot.file_name == path.name
    assert heard == [(0, 0), (3, 3)]
    async with session_factory() as session:
        karoo = await session.scalar(
            select(RegistryRecord).where(RegistryRecord.normalised_name == "karoo metals")
        )
    assert karoo is not None and karoo.snapshot_id == snapshot.id and karoo.record_key == "id:40000001"
    assert karoo.identifiers["isin"] == "DE0000000001" and karoo.country == "DE"
    assert karoo.data["near_term"]["status"] == "Targets set" and karoo.data["near_term"]["year"] == 2030


async def test_the_same_file_twice_changes_nothing(session_factory: SessionFactory, tmp_path: Path) -> None:
    path = sbti_file(tmp_path)
    first = await import_registry(session_factory, RegistryKind.SBTI, [path])
    copy = tmp_path / "renamed-copy.xlsx"
    copy.write_bytes(path.read_bytes())

    again = await import_registry(session_factory, RegistryKind.SBTI, [copy])

    assert again.already_imported and again.snapshot == first.snapshot
    assert await counts(session_factory) == (1, 3)


async def test_a_newer_snapshot_is_kept_beside_the_older(
    session_factory: SessionFactory, tmp_path: Path
) -> None:
    older = await import_registry(session_factory, RegistryKind.SBTI, [sbti_file(tmp_path)])
    newer_path = sbti_file(tmp_path, "sbti-companies-taking-action-2026-04-02.xlsx", extra=2)

    newer = await import_registry(session_factory, RegistryKind.SBTI, [newer_path])

    assert not newer.already_imported and newer.snapshot.record_count == 5
    assert await counts(session_factory) == (2, 8)
    async with session_factory() as session:
        listed = await list_snapshots(session)
    assert [snapshot.snapshot_date for snapshot in listed] == [date(2026, 4, 2), date(2026, 3, 5)]
    assert older.snapshot in listed


async def test_the_same_file_may_be_two_kinds_snapshots(
    session_factory: SessionFactory, tmp_path: Path
) -> None:
    """The digest is unique per kind: a file refused as one kind does not block it as another."""
    nger = files.write_csv(tmp_path / "au-nger-corporate-emissions-2021-22.csv", files.nger_rows())

    with pytest.raises(RegistryFileProblem):
        await import_registry(session_factory, RegistryKind.SBTI, [nger])
    outcome = await import_registry(session_factory, RegistryKind.NGER, [nger])

    assert outcome.snapshot.period == "2021-22" and outcome.snapshot.record_count == 3
    assert await counts(session_factory) == (1, 3)


async def test_a_refused_file_stores_nothing(session_factory: SessionFactory, tmp_path: Path) -> None:
    rows = files.nger_rows()
    rows[3][2] = "unknown"
    path = files.write_csv(tmp_path / "au-nger-2021-22.csv", rows)

    with pytest.raises(RegistryFileProblem, match="data row 3"):
        await import_registry(session_factory, RegistryKind.NGER, [path])

    assert await counts(session_factory) == (0, 0)


async def test_a_key_listed_twice_is_refused(session_factory: SessionFactory, tmp_path: Path) -> None:
    rows = files.nger_rows()
    rows.append(list(rows[1]))
    path = files.write_csv(tmp_path / "au-nger-2021-22.csv", rows)

    with pytest.raises(RegistryFileProblem, match="lists 'abn:96004458404' .KAROO METALS LIMITED. twice"):
        await import_registry(session_factory, RegistryKind.NGER, [path])

    assert await counts(session_factory) == (0, 0)


@pytest.mark.parametrize("kind", list(RegistryKind))
async def test_every_kind_imports_once(
    session_factory: SessionFactory, tmp_path: Path, kind: RegistryKind
) -> None:
    paths = _files(kind, tmp_path)

    first = await import_registry(session_factory, kind, paths, SnapshotOptions(date(2025, 6, 11)))
    again = await import_registry(
        session_factory, kind, list(reversed(paths)), SnapshotOptions(date(2025, 6, 11))
    )

    assert not first.already_imported and again.already_imported
    assert (
        first.snapshot.record_count
        == {"sbti": 3, "net_zero_tracker": 2, "uk_ets": 8, "epa_ghgrp": 3, "nger": 3}[kind]
    )
    assert await counts(session_factory) == (1, first.snapshot.record_count)


def _files(kind: RegistryKind, folder: Path) -> list[Path]:
    if kind is RegistryKind.SBTI:
        return [files.write_xlsx(folder / "sbti.xlsx", {"Data": files.sbti_rows()})]
    if kind is RegistryKind.NET_ZERO_TRACKER:
        return [files.write_xlsx(folder / "nzt.xlsx", {"Current Snapshot": files.nzt_rows()})]
    if kind is RegistryKind.UK_ETS:
        return [files.write_xlsx(folder / "uk-ets.xlsx", {"Data": files.uk_ets_rows()})]
    if kind is RegistryKind.NGER:
        return [files.write_csv(folder / "nger-2021-22.csv", files.nger_rows())]
    return [
        files.write_xlsx(folder / "us-epa-ghgrp-2020-data-summary.xlsx", files.ghgrp_summary_sheets()),
        files.write_xlsx(folder / "us-epa-ghgrp-parent-companies.xlsx", files.ghgrp_parent_sheets()),
    ]


async def test_two_imports_of_the_same_file_at_once_store_it_once(
    session_factory: SessionFactory, tmp_path: Path
) -> None:
    path = sbti_file(tmp_path)

    outcomes = await asyncio.gather(
        import_registry(session_factory, RegistryKind.SBTI, [path]),
        import_registry(session_factory, RegistryKind.SBTI, [path]),
    )

    assert sorted(outcome.already_imported for outcome in outcomes) == [False, True]
    assert outcomes[0].snapshot == outcomes[1].snapshot
    assert await counts(session_factory) == (1, 3)
