"""What Sibyl knows of each registry kind: its publisher, the files one snapshot takes, its parser."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.registries.epa_ghgrp import parse_epa_ghgrp
from app.registries.net_zero_tracker import parse_net_zero_tracker
from app.registries.nger import parse_nger
from app.registries.records import ParsedSnapshot, RegistryFileProblem, RegistryKind, SnapshotOptions
from app.registries.sbti import parse_sbti
from app.registries.uk_ets import parse_uk_ets

Parser = Callable[[Sequence[Path], SnapshotOptions], ParsedSnapshot]


@dataclass(frozen=True)
class RegistrySpec:
    """One registry kind."""

    kind: RegistryKind
    title: str
    publisher: str
    files: tuple[str, ...]  # what each file of a snapshot is, for messages
    parse: Parser


SPECS = {
    spec.kind: spec
    for spec in (
        RegistrySpec(
            RegistryKind.SBTI,
            "SBTi Companies Taking Action",
            "Science Based Targets initiative",
            ("the Companies Taking Action export (.xlsx)",),
            parse_sbti,
        ),
        RegistrySpec(
            RegistryKind.NET_ZERO_TRACKER,
            "Net Zero Tracker",
            "Net Zero Tracker (Energy and Climate Intelligence Unit, Data-Driven EnviroLab, NewClimate "
            "Institute, Oxford Net Zero)",
            ("the companies export (.xlsx)",),
            parse_net_zero_tracker,
        ),
        RegistrySpec(
            RegistryKind.UK_ETS,
            "UK ETS compliance report",
            "UK ETS Authority (UK Emissions Trading Registry)",
            ("the compliance report (.xlsx)",),
            parse_uk_ets,
        ),
        RegistrySpec(
            RegistryKind.EPA_GHGRP,
            "US EPA Greenhouse Gas Reporting Program",
            "US Environmental Protection Agency",
            ("the data summary (.xlsx)", "the parent companies workbook (.xlsx)"),
            parse_epa_ghgrp,
        ),
        RegistrySpec(
            RegistryKind.NGER,
            "NGER corporate emissions and energy data",
            "Clean Energy Regulator (Australia)",
            ("the corporate emissions and energy data (.csv)",),
            parse_nger,
        ),
    )
}


def registry_spec(kind: RegistryKind, paths: Sequence[Path]) -> RegistrySpec:
    """The kind's spec, once the number of files fits it.

    Raises:
        RegistryFileProblem: Too many or too few files for the kind.
    """
    spec = SPECS[kind]
    if len(paths) != len(spec.files):
        wanted = " and ".join(spec.files)
        raise RegistryFileProblem(
            f"{kind.value} takes {len(spec.files)} file(s), {wanted}; {len(paths)} given."
        )
    return spec
