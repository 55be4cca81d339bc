"""The SBTi list read against claims of validation, commitment, no targets, and a target's parts."""

from __future__ import annotations

from collections.abc import Sequence

from app.registries.matched import MatchedRecord, SnapshotRef
from app.verification.registries.reader import read_registries
from app.verification.registries.records import RegistryReading
from tests.app.verification.registries.builders import ALL_SNAPSHOTS, OLD_SBTI, sbti_record

VALIDATED = "Vexmoor's near-term targets were approved by the Science Based Targets initiative."
NOT_ADOPTED = "We have not adopted Science Based Targets."
COMMITTED = "In 2021 we committed to set science-based targets."


def read(
    claim: str,
    records: Sequence[MatchedRecord],
    *,
    report_year: int | None = 2023,
    uncertain: frozenset[str] = frozenset(),
    snapshots: Sequence[SnapshotRef] = ALL_SNAPSHOTS,
) -> list[RegistryReading]:
    return read_registries(
        claim,
        company_name="Vexmoor AG",
        records=records,
        snapshots=snapshots,
        uncertain_kinds=uncertain,
        report_year=report_year,
    )


def only(readings: list[RegistryReading]) -> RegistryReading:
    assert len(readings) == 1, readings
    return readings[0]


def test_a_claim_of_validation_with_targets_set_is_supported_and_cited() -> None:
    reading = only(read(VALIDATED, [sbti_record(net_zero="Targets set")]))

    assert (reading.kind, reading.stance, reading.coverage) == ("sbti", "supports", None)
    assert reading.summary.startswith("SBTi Companies Taking Action (2026-03-05) lists Vexmoor AG (id:77)")
    assert reading.record_text == (
        "SBTi Companies Taking Action (2026-03-05): Vexmoor AG — near-term: Targets set (1.5°C, FY2031); "
        'net-zero: Targets set (2050); "Vexmoor commits to reduce absolute scope 1 and 2 GHG emissions 72% '
        "by FY2031 from a FY2018 base year. Vexmoor also commits to reduce absolute scope 3 GHG emissions "
        '28% within the same timeframe."; updated 2021-04-12'
    )


def test_a_claim_of_validation_where_only_a_commitment_is_recorded_is_contradicted() -> None:
    for status in ("Committed", "Commitment removed"):
        reading = only(read(VALIDATED, [sbti_record(status, wording=None)]))

        assert reading.stance == "contradicts"
        assert f'SBTi records "{status}"' in reading.summary


def test_a_record_that_changed_after_the_report_is_no_contradiction() -> None:
    record = sbti_record("Commitment removed", wording=None, updated="2024-09-19")

    reading = only(read(VALIDATED, [record]))

    assert reading.stance == "changed_after_report"
    assert 'SBTi now records "Commitment removed" (updated 2024-09-19, after the report)' in reading.summary


def test_a_list_taken_before_the_report_year_ended_cannot_contradict() -> None:
    old = sbti_record("Committed", wording=None, snapshot=OLD_SBTI)

    assert read(VALIDATED, [old]) == []
    assert read(VALIDATED, [], snapshots=[OLD_SBTI]) == []


def test_an_unknown_report_year_decides_nothing_against_the_claim() -> None:
    assert read(VALIDATED, [sbti_record("Committed", wording=None)], report_year=None) == []


def test_an_absent_company_contradicts_a_claim_of_validation_unless_the_match_was_uncertain() -> None:
    reading = only(read(VALIDATED, []))

    assert reading.stance == "contradicts"
    assert reading.records == []
    assert reading.record_text == "SBTi Companies Taking Action (2026-03-05): no entry for Vexmoor AG"
    assert read(VALIDATED, [], uncertain=frozenset({"sbti"})) == []


def test_uncertain_candidates_besides_a_committed_match_leave_validation_undecided() -> None:
    assert read(VALIDATED, [sbti_record("Committed", wording=None)], uncertain=frozenset({"sbti"})) == []


def test_the_furthest_record_of_several_is_the_one_read() -> None:
    records = [sbti_record("Committed", wording=None, confidence=0.99), sbti_record("Targets set")]

    assert only(read(VALIDATED, records)).stance == "supports"


def test_a_commitment_is_supported_by_a_commitment_or_validated_targets_and_absence_decides_nothing() -> None:
    assert only(read(COMMITTED, [sbti_record("Committed", wording=None)])).stance == "supports"
    assert only(read(COMMITTED, [sbti_record("Targets set")])).stance == "supports"
    assert read(COMMITTED, []) == []
    assert read(COMMITTED, [sbti_record("Commitment removed", wording=None)]) == []


def test_a_negative_claim_is_contradicted_by_targets_set_before_the_report() -> None:
    reading = only(read(NOT_ADOPTED, [sbti_record("Targets set")]))

    assert reading.stance == "contradicts"
    assert "where the claim says none were set" in reading.summary


def test_a_negative_claim_and_targets_set_after_the_report_is_a_change() -> None:
    reading = only(read(NOT_ADOPTED, [sbti_record("Targets set", updated="2025-02-01")]))

    assert reading.stance == "changed_after_report"


def test_a_negative_claim_is_supported_by_absence_a_commitment_or_its_removal() -> None:
    assert only(read(NOT_ADOPTED, [])).stance == "supports"
    assert only(read(NOT_ADOPTED, [sbti_record("Committed", wording=None)])).stance == "supports"
    assert only(read(NOT_ADOPTED, [sbti_record("Commitment removed", wording=None)])).stance == "supports"
    assert read(NOT_ADOPTED, [], uncertain=frozenset({"sbti"})) == []


def test_planned_validation_and_mere_alignment_are_no_claims() -> None:
    for claim in (
        "Our targets will be submitted to the SBTi for validation in 2024.",
        "Our targets are aligned with SBTi criteria.",
    ):
        assert read(claim, [sbti_record("Committed", wording=None)]) == []
        assert read(claim, []) == []


def test_a_claim_about_the_net_zero_target_needs_the_net_zero_frame_set() -> None:
    claim = "Our net-zero target has been validated by the SBTi."

    assert read(claim, [sbti_record("Targets set", net_zero="Committed")]) == []
    assert only(read(claim, [sbti_record("Targets set", net_zero="Targets set")])).stance == "supports"


TARGET = "We will reduce absolute Scope 1 and 2 GHG emissions {pct} by {year} from a FY2018 base year"


def test_a_stated_target_equal_to_the_validated_wording_is_supported() -> None:
    claim = TARGET.format(pct="72%", year="2031") + ", a target validated by the SBTi."

    reading = only(read(claim, [sbti_record()]))

    assert reading.stance == "supports"
    assert "The validated target is Scope 1+2 72% by 2031 from 2018, as claimed." in reading.summary


def test_a_scope_3_target_takes_the_same_timeframe_from_the_wording() -> None:
    claim = "Our science-based target is to reduce absolute Scope 3 emissions 28% by 2031 from 2018."

    assert only(read(claim, [sbti_record()])).stance == "supports"


def test_a_different_percentage_or_target_year_contradicts_a_target_presented_as_validated() -> None:
    for pct, year in (("65%", "2031"), ("72%", "2030")):
        claim = TARGET.format(pct=pct, year=year) + ", approved by the SBTi."

        reading = only(read(claim, [sbti_record()]))

        assert reading.stance == "contradicts", claim
        assert (
            "The validated target is Scope 1+2 72% by 2031 from 2018, where the claim says" in reading.summary
        )


def test_a_percentage_within_its_written_precision_agrees() -> None:
    wording = (
        "Vexmoor commits to reduce absolute scope 1 and 2 GHG emissions 72.4% by 2031 from a 2018 base year."
    )
    claim = TARGET.format(pct="72%", year="2031") + ", validated by the SBTi."

    assert only(read(claim, [sbti_record(wording=wording)])).stance == "supports"


def test_a_long_term_target_the_wording_does_not_spell_out_is_not_contradicted() -> None:
    claim = "Our SBTi-validated long-term target: cut absolute Scope 1 and 2 emissions 90% by 2045 from 2018."

    assert read(claim, [sbti_record(long_term="Targets set")]) == []
    assert only(read(claim, [sbti_record()])).stance == "contradicts"


def test_a_target_not_presented_as_validated_is_only_ever_supported() -> None:
    record = sbti_record()

    assert read(TARGET.format(pct="65%", year="2031") + ".", [record]) == []
    assert only(read(TARGET.format(pct="72%", year="2031") + ".", [record])).stance == "supports"


def test_another_base_year_is_not_comparable_and_withholds_the_validation_support() -> None:
    claim = "We will cut Scope 1 and 2 emissions 72% by 2031 against a 2019 baseline, validated by the SBTi."

    assert read(claim, [sbti_record()]) == []


def test_a_differing_wording_updated_after_the_report_is_a_change() -> None:
    claim = TARGET.format(pct="65%", year="2031") + ", validated by the SBTi."

    reading = only(read(claim, [sbti_record(updated="2024-09-19")]))

    assert reading.stance == "changed_after_report"
    assert (
        "SBTi now records the target Scope 1+2 72% by 2031 from 2018 (updated 2024-09-19, after the report)."
        in reading.summary
    )


def test_a_differing_target_with_an_unknown_report_year_is_not_supported_by_the_status() -> None:
    claim = TARGET.format(pct="65%", year="2031") + ", validated by the SBTi."

    assert read(claim, [sbti_record()], report_year=None) == []


def test_progress_toward_a_validated_target_is_no_target_to_contradict() -> None:
    claim = "By 2023 we had cut Scope 1 and 2 emissions 37% against 2018 under our SBTi-validated target."

    reading = only(read(claim, [sbti_record()]))

    assert reading.stance == "supports"
    assert "where the claim says" not in reading.summary


def test_other_companies_sbti_status_is_not_the_companys() -> None:
    for claim in (
        "70% of our suppliers have SBTi-validated targets.",
        "Companies that do not have science-based targets face rising costs.",
    ):
        assert read(claim, []) == []
        assert read(claim, [sbti_record()]) == []


def test_approval_or_validation_by_someone_else_is_no_sbti_validation() -> None:
    for claim in (
        "We have science-based targets, and our emissions data was validated by an external assurer.",
        "Our board approved science-based targets in 2022.",
    ):
        assert read(claim, []) == [], claim
