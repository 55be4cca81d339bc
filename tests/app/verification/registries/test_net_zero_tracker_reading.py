"""The Net Zero Tracker read against net-zero claims: the company's own word, with risk signals."""

from __future__ import annotations

from app.verification.registries.net_zero_tracker import read_net_zero_tracker, risk_signals
from app.verification.registries.reader import read_registries
from tests.app.verification.registries.builders import TRACKER, tracker_record


def test_the_same_end_target_year_supports_as_the_companys_word() -> None:
    reading = read_net_zero_tracker("We aim to reach net zero by 2050.", [tracker_record()], 2023)

    assert reading is not None
    assert (reading.kind, reading.stance) == ("net_zero_tracker", "supports")
    assert "the company's own word" in reading.summary
    assert reading.record_text.startswith(
        "Net Zero Tracker (2026-01-15): Vexmoor AG — end target: Net zero by 2050 (In corporate strategy); "
        "scopes 1: Yes, 2: Yes, 3: Partial"
    )


def test_a_different_end_target_year_differs() -> None:
    reading = read_net_zero_tracker(
        "We aim to reach net zero by 2040.", [tracker_record(last_updated="2024-11-03")], 2023
    )

    assert reading is not None
    assert reading.stance == "differs"
    assert "net zero by 2050, where the claim says 2040" in reading.summary
    assert "tracker updated 2024-11-03, after the report" in reading.summary


def test_a_different_scope_differs() -> None:
    claim = "We will reach net zero across Scope 1 and 2 by 2050."

    reading = read_net_zero_tracker(claim, [tracker_record(scope3_coverage="Yes")], 2023)

    assert reading is not None
    assert reading.stance == "differs"
    assert "Scope 3 coverage 'Yes', where the claim leaves it out" in reading.summary


def test_another_kind_of_target_or_no_year_is_not_compared() -> None:
    record = tracker_record()

    assert read_net_zero_tracker("We aim to be carbon neutral by 2050.", [record], 2023) is None
    assert read_net_zero_tracker("We support the transition to net zero.", [record], 2023) is None
    assert (
        read_net_zero_tracker("Our net-zero target was validated by the SBTi in 2023.", [record], 2023)
        is None
    )
    assert read_net_zero_tracker("We aim to reach net zero by 2050.", [], 2023) is None


def test_integrity_fields_become_risk_signals_on_the_reading() -> None:
    record = tracker_record(interim_target="No target", published_plan="No", carbon_credits="Yes")

    reading = read_net_zero_tracker("We aim to reach net zero by 2050.", [record], 2023)

    assert reading is not None
    assert reading.risk_signals == ["no_interim_target", "no_published_plan", "relies_on_carbon_credits"]


def test_credits_not_excluded_is_its_own_signal_and_unknowns_raise_none() -> None:
    assert risk_signals({"carbon_credits": "Not specified"}) == ["carbon_credits_not_excluded"]
    assert risk_signals({"interim_target": None, "published_plan": None, "carbon_credits": None}) == []
    assert risk_signals(tracker_record().data) == []


def test_the_tracker_is_read_beside_the_sbti_list() -> None:
    readings = read_registries(
        "We aim to reach net zero by 2050.",
        company_name="Vexmoor AG",
        records=[tracker_record()],
        snapshots=[TRACKER],
        uncertain_kinds=frozenset(),
        report_year=2023,
    )

    assert [(reading.kind, reading.stance) for reading in readings] == [("net_zero_tracker", "supports")]
