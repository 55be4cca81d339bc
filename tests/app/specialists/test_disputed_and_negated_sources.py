"""A source sentence that states a claim's figure without standing behind it never supports the claim
(trial s24, bugs 1, 2, 2b and 10 of the rule reader of sources).

- it disputes the figure it reports ("claims … but an audit found", "a figure researchers say is
  understated", "rejected the company's statement that"): never support; another figure for the same
  quantity in the sentence contradicts;
- it negates it ("did not invest EUR 85 million", "did not cut", "no reduction"): never support; a
  denied direction contradicts a claim of that direction; a second figure contradicts;
- it gives the claim's figure for the opposite change ("rose 25%" against "reduced by 25%"): a
  contradiction, never support;
- a relative change ("rose 6%") is not an absolute one ("6 percentage points") nor a share ("71% of
  …"), and a share of total energy is not a share of electricity.
"""

from __future__ import annotations

import pytest

from app.verification.reading.change_mood import denied_change, figure_direction, reported_direction
from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.denials import disputes, negated

COMPANY = "Kestrel Alloys"
TITLE = "Kestrel Alloys under scrutiny"
SCOPE3 = "Our Scope 3 emissions were 9.6 Mt CO2e in 2024."
SCOPE1_CUT = "We cut our Scope 1 emissions by 8% in 2024."
SCOPE2_CUT = "We reduced our Scope 2 emissions by 25% in 2024 by moving to renewable power contracts."
RENEWABLE = (
    "Renewable electricity supplied 71% of our electricity use in 2024, up 6 percentage points from 2023."
)
INVESTED = "We invested EUR 85 million in furnace upgrades in 2024."


def _read(claim: str, source: str) -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, TITLE, source)
    return assessment.stance, assessment.signal


# --- bug 1: a source that repeats the claim's figure to dispute it -------------------------------


def test_a_disputed_figure_with_the_disputers_own_figure_contradicts() -> None:
    source = (
        "Kestrel Alloys claims renewable electricity supplied 71% of its electricity use in 2024, but a "
        "campaign group's audit found the true share was nearer 45%."
    )
    assert _read(RENEWABLE, source) == ("contradicts", "numeric_mismatch")
    rejected = (
        "Inspectors rejected the company's statement that its Scope 3 emissions were 9.6 Mt CO2e in 2024 "
        "and put them at 13 Mt CO2e."
    )
    assert _read(SCOPE3, rejected) == ("contradicts", "numeric_mismatch")


@pytest.mark.parametrize(
    "source",
    [
        "Kestrel Alloys put its Scope 3 emissions at 9.6 Mt CO2e in 2024, a figure researchers say is "
        "understated by a quarter.",
        "Inspectors rejected the company's statement that its Scope 3 emissions were 9.6 Mt CO2e in 2024.",
        "It is not true that Kestrel Alloys emitted 9.6 Mt CO2e of Scope 3 emissions in 2024.",
        "Kestrel Alloys reported Scope 3 emissions of 9.6 Mt CO2e in 2024, contrary to its supplier data.",
        # the figure in one sentence, the dispute in the next: the source does not stand behind it
        "Kestrel Alloys reported Scope 3 emissions of 9.6 Mt CO2e in 2024. Researchers disputed the "
        "company's Scope 3 figure.",
    ],
)
def test_a_disputed_figure_without_another_never_supports(source: str) -> None:
    assert _read(SCOPE3, source)[0] == "neutral"


def test_what_counts_as_a_dispute() -> None:
    assert disputes("Kestrel Alloys claims 71%, but an audit found the true share was nearer 45%.")
    assert disputes("a figure analysts say is overstated")
    assert disputes("The regulator challenged the company's emissions figures.")
    # an assurance statement, a plain report and "actual spend" dispute nothing
    assert not disputes("We are not aware of any material misstatements in the Scope 3 emissions of 9.6 Mt.")
    assert not disputes("Kestrel Alloys reported Scope 3 emissions of 9.6 Mt CO2e in 2024.")
    assert not disputes("Our actual spend on decarbonisation was EUR 85 million in 2024.")
    assert _read(SCOPE3, "Kestrel Alloys reported Scope 3 emissions of 9.6 Mt CO2e in 2024.") == (
        "supports",
        "same_figure",
    )


# --- bug 2: negation ------------------------------------------------------------------------------


def test_a_negated_figure_never_supports_and_a_second_figure_contradicts() -> None:
    negated_only = "Kestrel Alloys did not invest EUR 85 million in furnace upgrades in 2024."
    assert _read(INVESTED, negated_only)[0] == "neutral"
    with_finding = (
        "Kestrel Alloys did not invest EUR 85 million in furnace upgrades in 2024; inspectors found EUR 30 "
        "million."
    )
    assert _read(INVESTED, with_finding) == ("contradicts", "numeric_mismatch")
    depots = "Kestrel Alloys did not fit LED lighting at 212 depots in 2024, staff said."
    assert _read("We fitted LED lighting at 212 depots in 2024.", depots)[0] == "neutral"


@pytest.mark.parametrize(
    "source",
    [
        "Kestrel Alloys did not cut its Scope 1 emissions in 2024, the regulator said.",
        "Kestrel Alloys has not reduced its Scope 1 emissions in 2024.",
        "There was no reduction in Kestrel Alloys' Scope 1 emissions in 2024.",
        "Kestrel Alloys failed to lower its Scope 1 emissions in 2024, the regulator said.",
    ],
)
def test_a_denied_direction_contradicts_a_claim_of_that_direction(source: str) -> None:
    assert _read(SCOPE1_CUT, source) == ("contradicts", "denied_change")


def test_a_denied_direction_is_read_only_against_its_own_subject_and_period() -> None:
    # another scope, another year, a claim of the other direction: nothing
    assert _read(SCOPE1_CUT, "Kestrel Alloys did not cut its Scope 3 emissions in 2024.")[0] != "contradicts"
    assert _read(SCOPE1_CUT, "Kestrel Alloys did not cut its Scope 1 emissions in 2021.")[0] != "contradicts"
    rose = "Our Scope 1 emissions rose 5% in 2024."
    assert _read(rose, "Kestrel Alloys did not cut its Scope 1 emissions in 2024.")[0] == "neutral"
    # and a claim that denies a change is contradicted by a source reporting it
    assert _read(
        "Our Scope 1 emissions did not increase in 2024.",
        "Kestrel Alloys' Scope 1 emissions rose 4% in 2024.",
    ) == (
        "contradicts",
        "denied_change",
    )


@pytest.mark.parametrize(
    "source",
    [
        "Kestrel Alloys cut its Scope 1 emissions by 8% in 2024, not only through fuel switching.",
        "Kestrel Alloys, which did not respond to questions, cut Scope 1 emissions by 8% in 2024.",
    ],
)
def test_a_negation_elsewhere_in_the_sentence_leaves_the_figure_asserted(source: str) -> None:
    assert _read(SCOPE1_CUT, source) == ("supports", "same_figure")


def test_negation_reading() -> None:
    text = "Kestrel Alloys did not invest EUR 85 million in 2024; inspectors found EUR 30 million."
    assert negated(text, text.index("EUR 85"))
    assert not negated(text, text.index("EUR 30"))
    assert reported_direction("Kestrel Alloys did not cut its Scope 1 emissions.") is None
    assert denied_change("Kestrel Alloys did not cut its Scope 1 emissions.") == "decrease"
    assert denied_change("There was no increase in water use.") == "increase"
    # "net zero" and "not only" deny nothing
    assert denied_change("We define net zero as reducing emissions by 90%.") is None
    assert reported_direction("Emissions fell 8%, not only in Europe.") == "decrease"


# --- bug 2b: the claim's figure for the opposite change --------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "Kestrel Alloys said its Scope 2 emissions rose 25% in 2024 as furnaces ran longer.",
        "Kestrel Alloys' Scope 2 emissions increased 25% in 2024.",
        "Kestrel Alloys reported that Scope 2 emissions went up by 25% last year, to 0.4 Mt.",
        "Kestrel Alloys reported a 25% rise in Scope 2 emissions for 2024.",
    ],
)
def test_the_same_percentage_in_the_opposite_direction_contradicts(source: str) -> None:
    assert _read(SCOPE2_CUT, source) == ("contradicts", "opposite_direction")


def test_the_same_percentage_in_the_same_direction_still_supports() -> None:
    assert _read(SCOPE2_CUT, "Kestrel Alloys' Scope 2 emissions fell 25% in 2024.") == (
        "supports",
        "same_figure",
    )


def test_a_figures_direction() -> None:
    def direction(text: str, figure: str) -> str | None:
        start = text.index(figure)
        return figure_direction(text, start, start + len(figure))

    assert direction(SCOPE2_CUT, "25%") == "decrease"
    assert direction("Scope 2 emissions went up by 25% last year, to 0.4 Mt.", "25%") == "increase"
    assert direction("a 25% rise in Scope 2 emissions", "25%") == "increase"
    assert direction("Emissions fell 12% to 2.3 Mt, from 2.6 Mt in 2023.", "2.6 Mt") is None
    assert direction(RENEWABLE, "71%") is None  # "supplied" / "made up" report no change


# --- bug 10: percent, percentage points, and the base of a share -----------------------------------


def test_a_relative_change_is_not_a_share_or_percentage_points() -> None:
    relative = "Kestrel Alloys said the renewable share of its electricity rose 6% in 2024."
    assert _read(RENEWABLE, relative)[0] == "neutral"  # neither 71% nor 6 percentage points
    points = "The renewable share of our electricity rose 6 percentage points in 2024."
    assert (
        _read(points, "Kestrel Alloys' renewable electricity share rose 6 percent in 2024.")[0] == "neutral"
    )
    assert _read(points, "Kestrel Alloys' renewable electricity share rose 6 percentage points in 2024.") == (
        "supports",
        "same_figure",
    )
    # the 71% level supports; the relative 6% beside it neither supports nor contradicts
    to_level = "Kestrel Alloys said the renewable share of its electricity rose 6% in 2024 to 71%."
    assert _read(RENEWABLE, to_level) == ("supports", "same_figure")
    assert _read(RENEWABLE, "Kestrel Alloys said its electricity use rose 6% in 2024.")[0] != "supports"


def test_a_share_of_energy_is_not_a_share_of_electricity() -> None:
    energy = "Kestrel Alloys said renewables supplied 71% of its total energy use in 2024, including fuels."
    assert _read(RENEWABLE, energy)[0] == "neutral"
    power = "Kestrel Alloys said renewable power supplied 71% of its electricity consumption in 2024."
    assert _read(RENEWABLE, power) == ("supports", "same_figure")
    lower = "Kestrel Alloys said renewables supplied 66% of its electricity use in 2024."
    assert _read(RENEWABLE, lower) == ("contradicts", "numeric_mismatch")
