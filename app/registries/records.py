"""The typed records every registry parser produces, and the one refusal they raise.

A parser turns a registry's file(s) into a `ParsedSnapshot`: what kind of registry it is, the
snapshot date and reporting period the file states, and one `ParsedRecord` per entity (or per
entity and year). Each record's `details` is the kind's own dataclass (`SbtiTargets`,
`NgerEmissions`, ...); the importer stores it as JSON with `details_json`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import orjson

from app.language.company_names import normalise_name


class RegistryKind(enum.StrEnum):
    """The public registries Sibyl imports (the value is what the command line and the database say)."""

    SBTI = "sbti"  # SBTi Companies Taking Action: validated and committed climate targets
    NET_ZERO_TRACKER = "net_zero_tracker"  # Net Zero Tracker: companies' own net-zero targets
    UK_ETS = "uk_ets"  # UK ETS compliance report: verified emissions per installation and year
    EPA_GHGRP = "epa_ghgrp"  # US EPA GHGRP: facility emissions and their parent companies
    NGER = "nger"  # Australia NGER: controlling corporations' Scope 1 and Scope 2


class RegistryFileProblem(ValueError):
    """A file that cannot be imported as the registry asked for; the message is one sentence for the user."""


@dataclass(frozen=True)
class SnapshotOptions:
    """What the user says about a snapshot where the file itself may be silent."""

    snapshot_date: date | None = None
    period: str | None = None


class Details(Protocol):
    """A kind's own record dataclass."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


D = TypeVar("D", bound=Details, covariant=True)


@dataclass(frozen=True)
class ParsedRecord(Generic[D]):
    """One entity (or entity and year) of a registry.

    `record_key` is stable within the registry across snapshots, so later snapshots can be compared
    record by record; `identifiers` holds whatever public ids the registry gives (isin, lei, abn...);
    `country` is an ISO 3166-1 alpha-2 code where the registry's country could be resolved.
    """

    record_key: str
    entity_name: str
    details: D
    identifiers: Mapping[str, str] = field(default_factory=dict)
    country: str | None = None
    period: str | None = None

    @property
    def normalised_name(self) -> str:
        return normalise_name(self.entity_name)


@dataclass(frozen=True)
class ParsedSnapshot:
    """Everything read from one snapshot's file(s), before it is stored."""

    kind: RegistryKind
    snapshot_date: date | None
    period: str | None
    records: Sequence[ParsedRecord[Details]]


def details_text(details: Details) -> str:
    """A record's details as the JSON stored: keys as the dataclass names them, dates as ISO strings.

    orjson serialises dataclasses and dates natively, about ten times faster than
    `dataclasses.asdict`, which deep-copies every value first.
    """
    return orjson.dumps(details).decode()


def details_json(details: Details) -> dict[str, Any]:
    """A record's details as the JSON values stored (see `details_text`)."""
    return dict(orjson.loads(details_text(details)))
