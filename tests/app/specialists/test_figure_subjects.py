"""A source contradicts a claim only with a figure for the same thing
(app/verification/reading/figure_subjects.py).

The false contradictions these tests pin down were found by `bench.verdict_quality`: one news
sentence stating a company's emissions in tonnes of CO2e for a year was read against every claim of
the report with tonnes of CO2e for that year (avoided emissions, commuting, supplier reductions)
and made each of them INSUFFICIENT_EVIDENCE, "a different figure for the same quantity".
"""

from __future__ import annotations

import pytest

from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.figure_subjects import (
    percent_measure,
    qualifiers,
    role,
    same_percentage,
    same_role,
    share_base,
    subject_words,
)

COMPANY = "Ardent Metals"
TITLE = "Ardent Metals results examined"
NEWS = "Ardent Metals said its emissions fell to 350 thousand metric tons of CO2e in fiscal 2023."


def role_of(text: str, figure: str) -> str | None:
    start = text.index(figure)
    return role(text, start, start + len(figure))


@pytest.mark.parametrize(
    ("text", "figure", "expected"),
    [
        ("We reduced Scope 1 emissions by 32 kt in 2023.", "32 kt", "change"),
        ("Emissions fell 8% in 2023.", "8%", "change"),
        ("An 8% cut in water use.", "8%", "change"),
        ("A reduction of about 12 kt CO2e.", "12 kt", "change"),
        ("Emissions were down 6.1% on the year.", "6.1%", "change"),
        ("Emissions fell to 350 kt in 2023.", "350 kt", "level"),
        ("Emissions rose from 420 kt in 2018 to 450 kt.", "420 kt", "level"),
        ("Emissions rose from 420 kt in 2018 to 450 kt.", "450 kt", "level"),
        ("The figure came to 32 kt.", "32 kt", None),
        ("Scope 1 emissions were 2.3 Mt in 2023.", "2.3 Mt", None),
    ],
)
def test_role_reads_change_amounts_and_levels(text: str, figure: str, expected: str | None) -> None:
    assert role_of(text, figure) == expected


def test_an_unsaid_role_may_be_either_but_change_and_level_never_meet() -> None:
    assert same_role(None, "level") and same_role("change", None) and same_role("level", "level")
    assert not same_role("change", "level")


def test_qualifiers_and_subject_words() -> None:
    assert qualifiers("We helped our customers avoid 190 Mt CO2e.") == {"avoided"}
    assert qualifiers("Employee commuting came to 105 kt CO2e.") == {"commuting"}
    assert qualifiers("Our Scope 1 emissions were 2.3 Mt.") == frozenset()
    assert subject_words({"metric", "ton", "co2e", "fiscal", "emission"}) == {"emission"}


@pytest.mark.parametrize(
    "claim",
    [
        "In fiscal 2023, we helped our customers avoid 190 million metric tons of CO2e emissions.",
        "In total, we calculated emissions from category 3.7, Employee Commuting, at 105 thousand metric "
        "tons of CO2e in 2023.",
        "Our suppliers cut their emissions by 464 thousand metric tons of CO2e in 2023.",
        "This led to annual savings of 3,300 metric tons of CO2 in 2023.",
        "Compared to fiscal 2022, we reduced our Scope 1 and Scope 2 emissions in 2023 by 32 thousand "
        "metric tons of CO2e.",
    ],
)
def test_a_company_wide_figure_does_not_contradict_other_quantities(claim: str) -> None:
    assessment = assess_by_rules(claim, COMPANY, TITLE, NEWS)
    assert assessment.stance != "contradicts", assessment


def test_sharing_only_units_is_not_sharing_a_topic() -> None:
    claim = "Our smelters used 4,100 thousand metric tons of CO2e in fiscal 2023."
    source = "Ardent Metals shipped 380 thousand metric tons of CO2e worth of credits in fiscal 2023."
    assert assess_by_rules(claim, COMPANY, TITLE, source).stance != "contradicts"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Our Scope 1 emissions were 2.3 Mt CO2e in 2023.",
            "Ardent Metals's Scope 1 emissions were in fact 2.9 Mt CO2e in 2023, filings show.",
        ),
        (
            "We reduced our Scope 1 emissions by 8% in 2023.",
            "Ardent Metals cut its Scope 1 emissions by only 3% in 2023, filings show.",
        ),
        (
            "We helped customers avoid 190 Mt CO2e in 2023.",
            "Ardent Metals's customers avoided only 40 Mt CO2e in 2023, an audit found.",
        ),
        (
            "Emissions fell to 350 kt CO2e in 2023.",
            "Ardent Metals's emissions rose to 410 kt CO2e in 2023.",
        ),
    ],
)
def test_the_same_quantity_still_contradicts(claim: str, source: str) -> None:
    assessment = assess_by_rules(claim, COMPANY, TITLE, source)
    assert assessment.stance == "contradicts", assessment


def test_a_segments_figure_is_not_the_whole_scope() -> None:
    """A shipping figure of Scope 3 said nothing against the whole Scope 3 (bench.verdict_quality
    after the labelled set was rebuilt: one planted document made four claims CONTRADICTED)."""
    source = (
        "Ardent Metals's Scope 3 emissions from shipping and logistics were 12 Mt CO2e in 2023, records show."
    )
    for claim in (
        "Our Scope 3 emissions were 578 Mt CO2e in 2023, of which 94% come from customers processing "
        "our products.",
        "Our Scope 1 and 2 emissions were 32.6 Mt CO2e in 2023.",
    ):
        assert assess_by_rules(claim, COMPANY, TITLE, source).stance != "contradicts"
    own = "Our Scope 3 emissions from shipping and logistics were 9.2 Mt CO2e in 2023."
    assert assess_by_rules(own, COMPANY, TITLE, source).stance == "contradicts"


def test_purchased_energy_is_not_the_supply_chain() -> None:
    assert qualifiers("Clean energy was 19% of our purchased energy in 2022.") == frozenset()
    assert qualifiers("Scope 3 purchased goods and services came to 4 Mt.") == {"supply chain"}


def _percent(text: str, figure: str) -> tuple[str | None, frozenset[str]]:
    start = text.index(figure)
    return percent_measure(text, start, start + len(figure))


def test_a_percentages_kind_and_base() -> None:
    """Trial s24 #10: "rose 9%" was compared with "64% of electricity", and "64% of total energy use"
    verified "64% of electricity use"."""
    share = "Renewables made up 64% of our total electricity use in 2023."
    assert role_of(share, "64%") is None  # "made up" is no change
    assert _percent(share, "64%") == ("share", frozenset({"electricity"}))
    assert _percent("Its renewable share rose 9% in 2023.", "9%") == ("change", frozenset())
    assert _percent("Its renewable share rose to 64% in 2023.", "64%") == ("share", frozenset())
    assert share_base("64% of the Group's power consumption", 3) == {"electricity"}
    assert share_base("64% of its total energy use, including fuels", 3) == {"energy"}
    assert not same_percentage(_percent(share, "64%"), ("change", frozenset()))
    assert not same_percentage(("share", frozenset({"electricity"})), ("share", frozenset({"energy"})))
    assert same_percentage(
        ("share", frozenset({"operational", "emissions"})), ("share", frozenset({"emissions"}))
    )
    assert same_percentage(("share", frozenset()), (None, frozenset({"energy"})))
