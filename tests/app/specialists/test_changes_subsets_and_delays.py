"""Leftovers of trial s24 in the rule reader of sources (bugs 9 and 14): a verdict must mean what it
says.

- a source stating another change amount for the same quantity ("fell 9% to 410 kt") does not state
  the claim's figure ("410 kt, down 5%"), even though the levels agree: it contradicts;
- a total broken down in a clause ("…, mostly from customers processing iron ore") is not the
  processing part the claim is about: no "different figure for the same quantity";
- "slipped", "shelved" are delay words against a commitment;
- a sentence about renewable power purchases says nothing of an emissions claim's direction;
- a different figure for the previous year is compared with the claim's figure of that year, and the
  reason names the two figures.
"""

from __future__ import annotations

from app.verification.reading.contradictions import SourceAssessment, assess_by_rules
from app.verification.reading.figure_subjects import own_qualifiers, speaks_of_emissions

COMPANY = "Harlow Smelting"
TITLE = "Harlow Smelting results"
SCOPE2_LEVELS = "Scope 2 emissions were 620 kt CO2e in 2024, down 4% from 700 kt CO2e in 2023."
SCOPE2_RIGHT = "Scope 2 emissions were 620 kt CO2e in 2024, down 11% from 700 kt CO2e in 2023."
PROCESSING = "In 2024, Scope 3 processing emissions related to our bauxite rose from 212Mt to 219Mt CO2e."
COMMITMENT = "We remain committed to building 2GW of wind and solar capacity at our Queensland sites."
SCOPE2_CUT = "We reduced our Scope 2 emissions by 30% in 2024 by moving to renewable power."


def _assess(claim: str, source: str) -> SourceAssessment:
    return assess_by_rules(claim, COMPANY, TITLE, source)


def _read(claim: str, source: str) -> tuple[str, str | None]:
    assessment = _assess(claim, source)
    return assessment.stance, assessment.signal


# --- another change amount with the same level --------------------------------------------------


def test_a_source_with_the_same_level_but_another_change_contradicts() -> None:
    source = "Harlow Smelting's Scope 2 emissions fell 11% to 620 kt CO2e in 2024."
    assessment = _assess(SCOPE2_LEVELS, source)
    assert (assessment.stance, assessment.signal) == ("contradicts", "numeric_mismatch")
    assert "11%" in assessment.explanation and "4%" in assessment.explanation


def test_a_source_repeating_the_whole_sentence_with_another_change_contradicts() -> None:
    source = (
        "Harlow Smelting's Scope 2 emissions were 620 kt CO2e in 2024, down 11% from 700 kt CO2e in 2023."
    )
    assert _read(SCOPE2_LEVELS, source) == ("contradicts", "numeric_mismatch")


def test_a_source_with_the_same_level_and_the_same_change_still_supports() -> None:
    source = "Harlow Smelting's Scope 2 emissions fell 11% to 620 kt CO2e in 2024."
    assert _read(SCOPE2_RIGHT, source) == ("supports", "same_figure")


def test_a_change_within_rounding_still_supports() -> None:
    source = "Harlow Smelting's Scope 2 emissions fell 11.4% to 620 kt CO2e in 2024."
    assert _read(SCOPE2_RIGHT, source) == ("supports", "same_figure")


# --- a breakdown of a total is not the part ------------------------------------------------------


def test_a_total_broken_down_by_processing_is_not_the_processing_part() -> None:
    source = (
        "Harlow Smelting said its Scope 3 emissions were 480 million tonnes of CO2 equivalent in 2024, "
        "mostly from customers processing bauxite."
    )
    assert own_qualifiers(source) == frozenset()
    assert _read(PROCESSING, source)[1] != "numeric_mismatch"


def test_a_source_about_the_processing_part_still_contradicts() -> None:
    source = (
        "Harlow Smelting's Scope 3 processing emissions related to its bauxite reached 260Mt CO2e in 2024."
    )
    assert _read(PROCESSING, source) == ("contradicts", "numeric_mismatch")


# --- delay words ---------------------------------------------------------------------------------


def test_a_slipped_build_out_contradicts_a_commitment() -> None:
    source = "Harlow Smelting's planned 2GW wind and solar build-out in Queensland has slipped again."
    assert _read(COMMITMENT, source) == ("contradicts", "timeline")


def test_a_shelved_build_out_contradicts_a_commitment() -> None:
    source = "Harlow Smelting has shelved its planned 2GW wind and solar build-out in Queensland."
    assert _read(COMMITMENT, source) == ("contradicts", "timeline")


def test_a_figure_that_slipped_to_a_level_is_no_delay() -> None:
    source = "Harlow Smelting's Queensland wind and solar output slipped to 1.2 TWh during the drought."
    assert _read(COMMITMENT, source)[1] != "timeline"


# --- a sentence that is not about emissions -------------------------------------------------------


def test_rising_renewable_purchases_do_not_contradict_an_emissions_cut() -> None:
    source = "Harlow Smelting's renewable power purchases rose 30% last year."
    assert _read(SCOPE2_CUT, source)[0] != "contradicts"
    assert not speaks_of_emissions(source) and speaks_of_emissions(SCOPE2_CUT)


def test_rising_scope2_emissions_still_contradict_an_emissions_cut() -> None:
    source = "Harlow Smelting's Scope 2 emissions rose last year despite its renewable power purchases."
    assert _read(SCOPE2_CUT, source) == ("contradicts", "opposite_direction")


# --- the previous year's figure ------------------------------------------------------------------


def test_a_previous_year_figure_is_compared_with_the_claims_figure_for_that_year() -> None:
    source = "Harlow Smelting said its Scope 2 emissions were 730 kt CO2e in 2023."
    assessment = _assess(SCOPE2_LEVELS, source)
    assert (assessment.stance, assessment.signal) == ("contradicts", "numeric_mismatch")
    assert "730 kt" in assessment.explanation
    assert "700 kt CO2e for 2023" in assessment.explanation


def test_the_previous_years_figure_as_claimed_supports() -> None:
    source = "Harlow Smelting said its Scope 2 emissions were 700 kt CO2e in 2023."
    assert _read(SCOPE2_LEVELS, source) == ("supports", "same_figure")


def test_a_change_from_another_baseline_year_is_no_contradiction() -> None:
    source = "Harlow Smelting's Scope 2 emissions were 620 kt CO2e in 2024, down 35% from 2019 levels."
    assert _read(SCOPE2_LEVELS, source) == ("supports", "same_figure")


def test_a_sports_court_is_no_litigation_but_a_court_case_is() -> None:
    claim = "We reduced our greenhouse gas emissions while supporting the communities where we operate."
    court = "Harlow Smelting funded a multi-sport court for the communities near its greenhouse gas plant."
    sued = "Harlow Smelting was taken to court over its greenhouse gas emissions reporting."
    assert _read(claim, court)[1] != "enforcement"
    assert _read(claim, sued) == ("contradicts", "enforcement")
