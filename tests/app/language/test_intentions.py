"""One intention vocabulary, at the strengths its readers ask for."""

from __future__ import annotations

import re

import pytest

from app.language.intentions import (
    FORECAST,
    FORWARD_LOOKING,
    FUTURE_ACTION,
    FUTURE_COMMITMENT,
    FUTURE_LEVEL,
    INTENTION,
    INTENTION_TO,
    TARGET,
)

SENTENCES = (
    "We will cut Scope 1 emissions 30% by 2030.",
    "We aim to source 100% renewable electricity.",
    "We hope to halve water use.",
    "We are committed to net zero.",
    "The plant is to be closed next year.",
    "Costs are expected to rise.",
    "We are on track to meet the goal.",
    "Our ambition is net zero by 2050.",
    "This would lower emissions.",
    "We are working towards zero waste.",
    "Scope 1 emissions fell 8% to 2.3 Mt in 2023.",
    "Our plants recycled 40% of their waste.",
    "Emissions were 2.1 Mt, on our pathway to net zero.",
    "The outlook for 2024 is 1.9 Mt.",
)


def _found(pattern: re.Pattern[str]) -> set[str]:
    return {sentence for sentence in SENTENCES if pattern.search(sentence)}


@pytest.mark.parametrize(
    ("narrower", "wider"),
    [
        (INTENTION_TO, FUTURE_ACTION),
        (FUTURE_ACTION, FUTURE_COMMITMENT),
        (FUTURE_ACTION, INTENTION),
        (FUTURE_LEVEL, FORWARD_LOOKING),
    ],
)
def test_each_strength_keeps_what_the_narrower_one_finds(
    narrower: re.Pattern[str], wider: re.Pattern[str]
) -> None:
    assert _found(narrower) < _found(wider)


def test_an_intention_to_act_is_will_or_a_verb_of_intending() -> None:
    assert _found(INTENTION_TO) == {SENTENCES[0], SENTENCES[1], SENTENCES[2]}


def test_a_commitment_or_an_expectation_is_a_future_action() -> None:
    assert _found(FUTURE_ACTION) - _found(INTENTION_TO) == {SENTENCES[3], SENTENCES[4], SENTENCES[6]}


def test_any_wording_of_intent_counts_as_an_intention_but_a_reported_change_does_not() -> None:
    found = _found(INTENTION)
    assert {SENTENCES[5], SENTENCES[7], SENTENCES[8], SENTENCES[9]} <= found
    assert not found & {SENTENCES[10], SENTENCES[11], SENTENCES[12]}


def test_a_wish_sets_no_target() -> None:
    assert not TARGET.search("We hope to halve water use.")
    assert not TARGET.search("We will continue to engage suppliers.")
    assert TARGET.search("We will halve water use.") and TARGET.search("a target of 30%")


def test_a_forecast_is_told_from_a_commitment() -> None:
    assert _found(FORECAST) == {SENTENCES[5], SENTENCES[13]}


def test_progress_towards_a_target_looks_ahead_but_still_reports_a_level() -> None:
    pathway = "Emissions were 2.1 Mt, on our pathway to net zero."
    assert FORWARD_LOOKING.search(pathway) and not FUTURE_LEVEL.search(pathway)
    assert not FORWARD_LOOKING.search("Our plants recycled 40% of their waste.")
