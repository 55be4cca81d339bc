"""Which claims registries can decide, sentence by sentence, and what happens with no registry."""

from __future__ import annotations

import pytest

from app.registries.matched import MatchedRecord
from app.verification.registries.reader import about_registries, read_registries
from tests.app.verification.registries.builders import nger_record, sbti_record, tracker_record, uk_ets_record

SENTENCES = [
    (
        "Vexmoor has committed to reducing Scope 1 and 2 emissions by 90% by 2030 compared to 2019, "
        "a target validated by the SBTi.",
        True,
    ),
    ("Our Scope 1 emissions in FY2022 were 7.1 million tonnes CO2-e across our Australian operations.", True),
    ("We have not adopted Science Based Targets.", True),
    ("We aim to reach net zero by 2050.", True),
    ("We joined the Science Based Targets initiative in 2021.", True),
    ("We target a 42% reduction in absolute Scope 1 and 2 emissions by 2030 from 2020 levels.", True),
    ("Scope 1 emissions were 2.3 Mt CO2e in 2022.", True),
    ("Our Scope 1 and 2 emissions in 2021-22 were 5.2 Mt CO2e.", True),
    ("Scope 1 emissions were 2.3 Mt CO2e.", False),
    ("Scope 3 emissions were 12.3 Mt CO2e in 2022.", False),
    ("Our targets are aligned with SBTi criteria.", False),
    ("Our targets will be submitted to the SBTi for validation in 2024.", False),
    ("We support the transition to net zero.", False),
    ("We aim to reduce Scope 1 and 2 emissions by 50% by 2030.", False),
    ("Our Scope 1 and 2 emissions intensity fell to 0.3 t CO2e per tonne in 2022.", False),
    ("We reduced Scope 1 emissions by 0.3 Mt in 2022.", False),
    ("We help our customers reach net zero by 2050.", False),
    ("Revenue grew 12% to €4.1 billion in 2023.", False),
]


@pytest.mark.parametrize(("sentence", "answer"), SENTENCES)
def test_about_registries(sentence: str, answer: bool) -> None:
    assert about_registries(sentence) is answer


def test_no_snapshot_no_record_no_reading() -> None:
    for claim in ("We have not adopted Science Based Targets.", SENTENCES[1][0]):
        assert (
            read_registries(
                claim,
                company_name="Vexmoor AG",
                records=[],
                snapshots=[],
                uncertain_kinds=frozenset(),
                report_year=2023,
            )
            == []
        )


def read(claim: str, records: list[MatchedRecord]) -> list[tuple[str, str]]:
    readings = read_registries(
        claim,
        company_name="Vexmoor AG",
        records=records,
        snapshots=[record.snapshot for record in records],
        uncertain_kinds=frozenset(),
        report_year=2023,
    )
    return [(reading.kind, reading.stance) for reading in readings]


def test_each_registry_reads_its_own_records() -> None:
    targets = "We aim to reach net zero by 2050, and our targets are validated by the SBTi."
    emissions = "Our Scope 1 emissions in FY2022 were 7.1 Mt CO2e across our Australian operations."
    records = [
        sbti_record("Targets set", net_zero="Targets set"),
        tracker_record(),
        nger_record(7_080_000, 1),
        uk_ets_record(9_000_000, operator="OP1", year=2022, installation="Kiln 1"),
    ]

    assert read(targets, records) == [("sbti", "supports"), ("net_zero_tracker", "supports")]
    assert read(emissions, records) == [("nger", "supports")]
