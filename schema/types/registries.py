"""The `registries` query: the public registry snapshots Sibyl has imported (shared by every organisation)."""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Annotated

import strawberry

from app.registries.records import RegistryKind as Kind
from app.registries.snapshots import SnapshotSummary, list_snapshots
from schema.context import Context


@strawberry.enum(description="A public registry Sibyl imports and checks claims against.")
class RegistryKind(enum.Enum):
    SBTI = strawberry.enum_value(
        Kind.SBTI.value,
        description="SBTi Companies Taking Action: each company's near-term, long-term and net-zero target "
        "status (validated, committed, removed), classification, target year and wording. Proves "
        "(INDEPENDENT, Tier 1) a target's validation and its validated scope, percentage, base year and "
        "target year; a record changed after the report decides nothing.",
    )
    NET_ZERO_TRACKER = strawberry.enum_value(
        Kind.NET_ZERO_TRACKER.value,
        description="Net Zero Tracker: companies' own end targets (net zero or other), interim targets, "
        "published plans and use of carbon credits. Compiled from the companies' own statements: the "
        "company's word (INTERNAL), an internal doubt at most; its integrity fields raise risk flags.",
    )
    UK_ETS = strawberry.enum_value(
        Kind.UK_ETS.value,
        description="UK ETS compliance report: verified emissions (t CO2e) of each installation and aircraft "
        "operator by year, with its surrender status. INDEPENDENT, Tier 1, a lower bound on Scope 1 for that "
        "year: a lower claimed total contradicts; it verifies a claim about UK installations only.",
    )
    EPA_GHGRP = strawberry.enum_value(
        Kind.EPA_GHGRP.value,
        description="US EPA Greenhouse Gas Reporting Program: facilities' reported emissions for a year, "
        "with their parent companies' ownership shares. INDEPENDENT, Tier 1, a lower bound on Scope 1 for "
        "that year (times the shares): a lower claimed total contradicts; it verifies a claim about US "
        "facilities only.",
    )
    NGER = strawberry.enum_value(
        Kind.NGER.value,
        description="Australia's NGER corporate data: each controlling corporation's Scope 1 and Scope 2 "
        "emissions (t CO2-e) and net energy for a financial year (1 July to 30 June). INDEPENDENT, Tier 1, a "
        "lower bound on Scope 1 and Scope 2 for that year: a lower claimed total contradicts; it verifies a "
        "claim about Australian operations only; a calendar year is another period.",
    )


@strawberry.type(description="One imported download of a public registry.")
class RegistrySnapshot:
    kind: RegistryKind = strawberry.field(description="Which registry.")
    publisher: str = strawberry.field(description="Who publishes the registry.")
    file_name: str = strawberry.field(description="The file(s) imported, comma-separated.")
    snapshot_date: date | None = strawberry.field(
        description="When the registry published this download (from the file, its name or the importer)."
    )
    period: str | None = strawberry.field(
        description="The reporting period the data covers: a year (`2020`), a financial year (`2021-22`) or "
        "a span (`2021-2024`); null for lists of targets."
    )
    record_count: int = strawberry.field(description="Entities (or entity-years) the snapshot holds.")
    imported_at: datetime = strawberry.field(description="When the snapshot was imported into Sibyl.")

    @classmethod
    def of(cls, snapshot: SnapshotSummary) -> RegistrySnapshot:
        return cls(
            kind=RegistryKind[snapshot.kind.name],
            publisher=snapshot.publisher,
            file_name=snapshot.file_name,
            snapshot_date=snapshot.snapshot_date,
            period=snapshot.period,
            record_count=snapshot.record_count,
            imported_at=snapshot.imported_at,
        )


@strawberry.type
class RegistryQuery:
    @strawberry.field(
        description="The public registry snapshots imported (`sibyl registry import`), by kind and newest "
        "first; the same for every organisation."
    )
    async def registries(
        self,
        info: strawberry.Info[Context],
        kind: Annotated[
            RegistryKind | None, strawberry.argument(description="Only this registry's snapshots.")
        ] = None,
    ) -> list[RegistrySnapshot]:
        info.context.organisation_id  # noqa: B018 - a caller with an API key only, like every query
        async with info.context.read_sessions() as session:
            snapshots = await list_snapshots(session, Kind[kind.name] if kind else None)
        return [RegistrySnapshot.of(snapshot) for snapshot in snapshots]
