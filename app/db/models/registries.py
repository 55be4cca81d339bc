"""Public registries (SBTi, Net Zero Tracker, UK ETS, US EPA GHGRP, Australia's NGER) as imported.

A snapshot is one download of one registry, unique per kind by the SHA-256 of its file(s), so
importing the same file twice changes nothing and a newer download is kept beside the older ones.
Registries are public data, shared by every organisation: no organisation column.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base


class RegistrySnapshot(Base):
    """One imported download of a registry."""

    __tablename__ = "registry_snapshots"
    __table_args__ = (UniqueConstraint("kind", "sha256"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    kind: Mapped[str] = mapped_column(String(32))  # an `app.registries.RegistryKind` value
    publisher: Mapped[str] = mapped_column(Text)
    file_name: Mapped[str] = mapped_column(Text)  # the file(s) imported, joined with ", "
    sha256: Mapped[str] = mapped_column(String(64))
    snapshot_date: Mapped[date | None] = mapped_column(Date)
    period: Mapped[str | None] = mapped_column(String(32))  # "2020", "2021-22", "2021-2024"
    imported_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), nullable=False
    )
    record_count: Mapped[int] = mapped_column(Integer)


class RegistryRecord(Base):
    """One entity (or entity and year) of a snapshot; `data` holds the kind's typed details as JSON.

    The unique (snapshot_id, record_key) also serves lookups by snapshot.
    """

    __tablename__ = "registry_records"
    __table_args__ = (
        UniqueConstraint("snapshot_id", "record_key"),
        Index("ix_registry_records_normalised_name", "normalised_name"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    snapshot_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("registry_snapshots.id", ondelete="CASCADE"))
    record_key: Mapped[str] = mapped_column(Text)
    entity_name: Mapped[str] = mapped_column(Text)
    normalised_name: Mapped[str] = mapped_column(Text)
    identifiers: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict, server_default="{}")
    country: Mapped[str | None] = mapped_column(String(2))  # ISO 3166-1 alpha-2
    period: Mapped[str | None] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")


class RegistryMatchDecision(Base):
    """An organisation's word on one registry entity matched to one of its reports.

    Registries are shared, but whether "Siemens Aktiengesellschaft" is the company behind a report is
    the report owner's call: a decision belongs to the report (and so to its organisation), and is
    read on the report's next analysis. `entity_key` is `app.registries.matching.EntityMatch.entity_key`.
    """

    __tablename__ = "registry_match_decisions"

    report_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("reports.id", ondelete="CASCADE"), primary_key=True
    )
    entity_key: Mapped[str] = mapped_column(Text, primary_key=True)
    confirmed: Mapped[bool] = mapped_column(Boolean)
    decided_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), nullable=False
    )
