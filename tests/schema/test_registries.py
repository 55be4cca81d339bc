"""The `registries` query over real HTTP: every organisation sees the same public snapshots, with a key."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.session import SessionFactory
from app.registries.importer import import_registry
from app.registries.records import RegistryKind, SnapshotOptions
from tests.app.registries import files
from tests.conftest import new_api_key
from tests.support.graphql import GraphQLClient

REGISTRIES = """
query Registries($kind: RegistryKind) {
  registries(kind: $kind) { kind publisher fileName snapshotDate period recordCount importedAt }
}
"""


@pytest.fixture
async def snapshots(
    engine: AsyncEngine, session_factory: SessionFactory, tmp_path: Path
) -> AsyncIterator[None]:
    """Two SBTi snapshots and one NGER year."""
    async with engine.begin() as connection:
        await connection.execute(text("TRUNCATE registry_snapshots CASCADE"))
    older = files.write_xlsx(tmp_path / "sbti-2026-03-05.xlsx", {"Data": files.sbti_rows()})
    newer = files.write_xlsx(tmp_path / "sbti-2026-04-02.xlsx", {"Data": files.sbti_rows(extra=1)})
    nger = files.write_csv(tmp_path / "au-nger-corporate-emissions-2021-22.csv", files.nger_rows())
    for kind, path in ((RegistryKind.SBTI, older), (RegistryKind.SBTI, newer), (RegistryKind.NGER, nger)):
        await import_registry(session_factory, kind, [path], SnapshotOptions())
    yield
    async with engine.begin() as connection:
        await connection.execute(text("TRUNCATE registry_snapshots CASCADE"))


async def test_every_organisation_lists_the_same_snapshots(
    snapshots: None, client: GraphQLClient, api_url: str, session_factory: SessionFactory
) -> None:
    other = GraphQLClient(api_url, await new_api_key(session_factory, "another-organisation"))
    try:
        mine = (await client.data(REGISTRIES))["registries"]
        theirs = (await other.data(REGISTRIES))["registries"]
        only_nger = (await other.data(REGISTRIES, kind="NGER"))["registries"]
    finally:
        await other.aclose()

    assert mine == theirs
    assert [(row["kind"], row["snapshotDate"], row["period"], row["recordCount"]) for row in mine] == [
        ("NGER", None, "2021-22", 3),
        ("SBTI", str(date(2026, 4, 2)), None, 4),
        ("SBTI", str(date(2026, 3, 5)), None, 3),
    ]
    assert mine[0]["publisher"] == "Clean Energy Regulator (Australia)"
    assert mine[0]["fileName"] == "au-nger-corporate-emissions-2021-22.csv" and mine[0]["importedAt"]
    assert only_nger == mine[:1]


async def test_registries_need_an_api_key(snapshots: None, api_url: str, api_key: str) -> None:
    anonymous = GraphQLClient(api_url)
    try:
        response = await anonymous.http.post("/graphql", json={"query": REGISTRIES})
    finally:
        await anonymous.aclose()

    assert response.status_code == 401
    assert [error["extensions"]["code"] for error in response.json()["errors"]] == ["UNAUTHENTICATED"]
