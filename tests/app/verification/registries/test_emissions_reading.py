"""UK ETS, GHGRP and NGER read against claimed emission levels: same period, lower bound, precision."""

from __future__ import annotations

from collections.abc import Sequence

from app.registries.matched import MatchedRecord
from app.verification.registries.emissions import read_emissions
from app.verification.registries.records import RegistryReading
from tests.app.verification.registries.builders import ghgrp_record, nger_record, uk_ets_record

AUSTRALIAN = "Our Scope 1 emissions in FY2022 were 7.1 million tonnes CO2-e across our Australian operations."


def only(readings: Sequence[RegistryReading]) -> RegistryReading:
    assert len(readings) == 1, readings
    return readings[0]


def uk(*amounts: int, year: int = 2022) -> list[MatchedRecord]:
    return [
        uk_ets_record(amount, operator=f"OP{index}", year=year, installation=f"Kiln {index}")
        for index, amount in enumerate(amounts, start=1)
    ]


def test_nger_agreeing_with_a_claim_of_the_australian_operations_supports_fully() -> None:
    reading = only(read_emissions("nger", AUSTRALIAN, [nger_record(7_080_000, 410_000)]))

    assert (reading.stance, reading.coverage) == ("supports", "full")
    assert "Wombara Resources Ltd (abn:11111111111): Scope 1 7,080,000 t CO2e" in reading.summary
    assert reading.record_text == (
        "NGER corporate emissions and energy data (2021-22), 2021-22: Wombara Resources Ltd "
        "(abn:11111111111): Scope 1 7,080,000 t CO2e, Scope 2 410,000 t CO2e"
    )


def test_a_claim_below_the_registry_beyond_its_precision_is_contradicted() -> None:
    reading = only(read_emissions("nger", AUSTRALIAN, [nger_record(7_300_000, 410_000)]))

    assert (reading.stance, reading.coverage) == ("contradicts", "partial")
    assert "is below the 7,300,000 t CO2e" in reading.summary
    assert "Wombara Resources Ltd (abn:11111111111)" in reading.summary


def test_a_group_claim_above_the_registry_is_only_consistent() -> None:
    claim = "Our Scope 1 emissions in FY2022 were 7.1 million tonnes CO2-e."

    reading = only(read_emissions("nger", claim, [nger_record(6_000_000, 410_000)]))

    assert (reading.stance, reading.coverage) == ("consistent", "partial")
    assert (
        "consistent with the NGER corporate emissions and energy data (2021-22), which covers "
        "6,000,000 t CO2e of the claimed 7,100,000 t CO2e"
    ) in reading.summary


def test_the_nger_year_is_the_financial_year_however_written() -> None:
    record = [nger_record(7_080_000, 410_000)]
    for period in ("FY22", "2021-22", "2021/22", "the year ended 30 June 2022"):
        claim = f"Our Scope 1 emissions for {period} were 7.1 Mt CO2e across our Australian operations."
        assert only(read_emissions("nger", claim, record)).stance == "supports", period


def test_another_period_or_no_period_decides_nothing() -> None:
    record = [nger_record(9_000_000, 410_000)]
    for claim in (
        "Our Scope 1 emissions in 2022 were 7.1 Mt CO2e across our Australian operations.",
        "Our Scope 1 emissions in FY2021 were 7.1 Mt CO2e across our Australian operations.",
        "Our Scope 1 emissions for the year ended 31 March 2022 were 7.1 Mt CO2e.",
        "Our Scope 1 emissions were 7.1 Mt CO2e across our Australian operations.",
    ):
        assert read_emissions("nger", claim, record) == [], claim


def test_scope_3_and_other_parts_of_the_company_decide_nothing() -> None:
    record = [nger_record(9_000_000, 410_000)]
    for claim in (
        "Our Scope 3 emissions in FY2022 were 7.1 Mt CO2e.",
        "Scope 1 emissions at our Pilbara mine were 1.1 Mt CO2e in FY2022.",
        "Our Scope 1 emissions in FY2022 were 7.1 Mt CO2e across our Chilean operations.",
        "Scope 1 and Scope 2 emissions were 7.1 Mt and 0.4 Mt respectively in FY2022.",
        "We reduced Scope 1 emissions by 0.3 Mt in FY2022.",
        "Scope 1 emissions were approximately 7.1 Mt in FY2022.",
        "We aim to cut Scope 1 emissions to 7.1 Mt by FY2022.",
    ):
        assert read_emissions("nger", claim, record) == [], claim


def test_a_scope_1_and_2_total_is_bounded_by_nger_scope_2_only_when_location_based() -> None:
    record = [nger_record(7_000_000, 500_000)]
    location = "Our Scope 1 and 2 (location-based) emissions in FY2022 were 7.2 Mt CO2e."
    unstated = "Our Scope 1 and 2 emissions in FY2022 were 7.2 Mt CO2e."

    assert only(read_emissions("nger", location, record)).stance == "contradicts"
    assert only(read_emissions("nger", unstated, record)).stance == "consistent"


def test_a_market_based_scope_2_below_nger_decides_nothing() -> None:
    claim = "Our Scope 2 (market-based) emissions in FY2022 were 120 kt CO2e."

    assert read_emissions("nger", claim, [nger_record(7_000_000, 500_000)]) == []


def test_a_missing_figure_lowers_nothing_and_cannot_support() -> None:
    records = [nger_record(7_080_000, 0), nger_record(None, None, key="abn:22222222222", name="Wombara Gas")]

    reading = only(read_emissions("nger", AUSTRALIAN, records))

    assert reading.stance == "consistent"


def test_the_precision_rule_for_uk_ets() -> None:
    claim = "Our Scope 1 emissions were 2.3 Mt CO2e in 2022."

    assert only(read_emissions("uk_ets", claim, uk(1_200_000, 1_140_000))).stance == "consistent"
    reading = only(read_emissions("uk_ets", claim, uk(1_200_000, 1_210_000)))
    assert reading.stance == "contradicts"
    assert "Harrowgate Cement plc — Kiln 2 (OP2/2022): 1,210,000 t CO2e verified" in reading.summary


def test_uk_ets_supports_a_claim_of_the_uk_sites_and_sums_only_the_claimed_year() -> None:
    claim = "In 2022, Scope 1 emissions across our UK sites totalled 2.3 Mt CO2e."
    records = uk(1_200_000, 1_140_000) + uk(5_000_000, year=2021)

    reading = only(read_emissions("uk_ets", claim, records))

    assert (reading.stance, reading.coverage) == ("supports", "full")
    assert len(reading.records) == 2


def test_a_record_matched_twice_counts_once() -> None:
    claim = "Our Scope 1 emissions were 2.3 Mt CO2e in 2022."

    assert only(read_emissions("uk_ets", claim, uk(1_300_000) * 2)).stance == "consistent"


def test_uk_ets_is_a_lower_bound_on_a_scope_1_and_2_total_but_never_its_whole() -> None:
    records = uk(1_200_000, 1_140_000)

    below = "Scope 1 and 2 emissions across our UK sites were 2.1 Mt CO2e in 2022."
    equal = "Scope 1 and 2 emissions across our UK sites were 2.3 Mt CO2e in 2022."
    assert only(read_emissions("uk_ets", below, records)).stance == "contradicts"
    assert only(read_emissions("uk_ets", equal, records)).stance == "consistent"
    assert read_emissions("uk_ets", "Scope 2 emissions were 2.3 Mt CO2e in 2022.", records) == []


def test_an_australian_claim_is_not_held_against_uk_installations() -> None:
    assert read_emissions("uk_ets", AUSTRALIAN.replace("FY2022", "2022"), uk(9_000_000)) == []


def test_one_reading_per_period() -> None:
    claim = "Scope 1 emissions were 2.3 Mt in 2022 (2021: 2.5 Mt)."
    records = uk(1_200_000, 1_140_000) + uk(2_600_000, year=2021)

    readings = read_emissions("uk_ets", claim, records)

    assert sorted((reading.records[0].period, reading.stance) for reading in readings) == [
        ("2021", "contradicts"),
        ("2022", "consistent"),
    ]


def test_ghgrp_counts_a_facility_at_the_companys_share() -> None:
    records = [
        ghgrp_record(400_000, facility="1000001", name="Kessler Ridge Plant", share=0.5),
        ghgrp_record(100_000, facility="1000002", name="Dunmore Station", share=None),
    ]
    supported = "Scope 1 emissions from our US facilities were 300 kt CO2e in 2020."
    below = "Scope 1 emissions from our US facilities were 250 kt CO2e in 2020."

    assert only(read_emissions("epa_ghgrp", supported, records)).stance == "supports"
    reading = only(read_emissions("epa_ghgrp", below, records))
    assert reading.stance == "contradicts"
    assert "Kessler Ridge Plant (1000001): 400,000 t CO2e direct × 50% = 200,000 t CO2e" in reading.summary


def test_a_fiscal_year_is_not_a_ghgrp_calendar_year() -> None:
    records = [ghgrp_record(400_000, facility="1000001", name="Kessler Ridge Plant", share=None)]

    assert read_emissions("epa_ghgrp", "Our Scope 1 emissions in FY2020 were 100 kt CO2e.", records) == []
