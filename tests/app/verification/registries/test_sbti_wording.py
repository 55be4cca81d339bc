"""Wordings of real reports and real SBTi records that the readers must take as they are meant."""

from __future__ import annotations

import pytest

from app.verification.registries.claim_statements import SbtiStatement, sbti_statement
from app.verification.registries.claim_targets import read_targets
from app.verification.registries.reader import read_registries
from tests.app.verification.registries.builders import ALL_SNAPSHOTS, sbti_record

OTHERS = "In addition, Brenhold and Tarsk have committed to the SBTi's Net-Zero Standard."


@pytest.mark.parametrize(
    ("sentence", "company", "statement"),
    [
        ("The SBTi confirmed that our Group meets the requirements for limiting warming to 1.5 °C.",
         "Vexmoor AG", SbtiStatement.VALIDATED),
        ("The Science Based Targets initiative (SBTi) confirmed to the Vexmoor Group that it is fulfilling "
         "the conditions for a 1.5 °C path.", "Vexmoor AG", SbtiStatement.VALIDATED),
        # Other named companies' status is not the reporting company's.
        (OTHERS, "Vexmoor AG", None),
        ("Tarsk also received SBTi certification of its target in the reporting year.", "Vexmoor AG", None),
        (OTHERS, None, None),
        # The company itself, however it names itself.
        ("Vexmoor has committed to the SBTi.", "Vexmoor AG", SbtiStatement.COMMITTED),
        ("The Vexmoor Group has committed to the SBTi.", "Vexmoor AG", SbtiStatement.COMMITTED),
        ("We have committed to set science-based targets.", "Vexmoor AG", SbtiStatement.COMMITTED),
    ],
)  # fmt: skip
def test_whose_sbti_status_a_sentence_states(
    sentence: str, company: str | None, statement: SbtiStatement | None
) -> None:
    assert sbti_statement(sentence, company) == statement


def test_a_footnote_marker_ends_the_target_sentence() -> None:
    wording = (
        "Vexmoor commits to reduce absolute scope 1 and 2 GHG emissions 54.6% by 2033 from a 2022 base "
        "year.* Vexmoor also commits that 60.0% of its suppliers by emissions will have science-based "
        "targets by 2028."
    )

    [target, *_] = read_targets(wording)

    assert (target.percent, target.target_year, target.base_year) == (54.6, 2033, 2022)


def test_a_net_zero_commitment_is_borne_out_by_the_net_zero_frame_only() -> None:
    claim = "Vexmoor has committed to the SBTi's Net-Zero Standard."

    def stances(net_zero: str | None) -> list[str]:
        record = sbti_record(near_term="Targets set", net_zero=net_zero)
        readings = read_registries(
            claim, company_name="Vexmoor AG", records=[record], snapshots=ALL_SNAPSHOTS,
            uncertain_kinds=frozenset(), report_year=2023,
        )  # fmt: skip
        return [reading.stance for reading in readings]

    assert stances(None) == []
    assert stances("Committed") == ["supports"]


def test_a_validation_beside_a_goal_of_the_companys_own_bears_out_only_part_of_the_claim() -> None:
    claim = (
        "We have gone beyond our validated Science-Based Target: our own framework sets a goal for all "
        "our plants to achieve a Net Zero1 carbon footprint by 2030."
    )

    readings = read_registries(
        claim, company_name="Vexmoor AG", records=[sbti_record(net_zero="Targets set")],
        snapshots=ALL_SNAPSHOTS, uncertain_kinds=frozenset(), report_year=2023,
    )  # fmt: skip

    assert [reading.stance for reading in readings] == []  # the net-zero frame says 2050, not 2030


@pytest.mark.parametrize(
    ("sentence", "years"),
    [
        ("We aim to reach net zero across our operations by 2045.", [2045]),
        ("We aim to achieve net carbon neutrality by 2050.", [2050]),
        # A goal for part of the company, or of something else, is not its end target.
        ("Our plants, buildings and vehicle fleet are to reach a net zero carbon footprint by 2030.", []),
        ("We also aim to achieve net zero emissions in our supply chain by 2050.", []),
        ("We pledged that 10% of our chartered fleet will run on net zero fuel by 2030.", []),
        ("About 53% of our sales are to steel producers with targets to reach net zero by 2050.", []),
    ],
)
def test_only_a_company_wide_goal_is_the_end_target_the_tracker_records(
    sentence: str, years: list[int]
) -> None:
    from app.verification.registries.claim_statements import end_targets

    assert [target.year for target in end_targets(sentence)] == years
    assert end_targets(sentence, company_wide=False) or not years
