"""Only certain contradictions: currencies, unit renderings, other people's figures, other years."""

from __future__ import annotations

import pytest

from app.language.figures import parse_figures
from app.verification.checks.metric_checks import (
    check_of_which,
    check_percent_change,
    check_sanity,
    check_target,
)
from app.verification.checks.metric_index import MetricIndex, check_cross_page
from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.figures import attributed_elsewhere

COMPANY = "Acme"
CLAIM = "Scope 1 and 2 emissions totalled 16.2 Mt CO2e in 2021."

# --- figures -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("US$5.7 billion", "USD"),
        ("USD 5.7 billion", "USD"),
        ("C$7.5 billion", "CAD"),
        ("A$111 million", "AUD"),
        ("HK$3 million", "HKD"),
        ("€1.2 billion", "EUR"),
        ("EUR 1.2 billion", "EUR"),
        ("£900 million", "GBP"),
        ("$5.7 billion", "$"),
    ],
)
def test_currency_amounts_keep_their_currency(text: str, currency: str) -> None:
    [figure] = parse_figures(f"It invested {text} in total.")
    assert (figure.dimension, figure.currency) == ("currency", currency)


def test_figures_of_two_currencies_are_not_the_same_kind() -> None:
    usd, cad, euro, eur = parse_figures("US$5.7 billion, C$7.5 billion, €1 billion and EUR 1 billion")
    assert not usd.same_kind(cad)
    assert euro.same_kind(eur)
    [mass] = parse_figures("2.3 Mt")
    assert not mass.same_kind(usd)


@pytest.mark.parametrize(
    ("text", "co2e"),
    [
        ("16.2 million tonnes of CO2e", True),
        ("16.2 million metric tons of carbon dioxide equivalent", True),
        ("16.2 MtCO2e", True),
        ("16,200 kt CO2e", True),
        ("16.2 million tonnes", False),
    ],
)
def test_paraphrased_masses_read_as_the_same_quantity(text: str, co2e: bool) -> None:
    [figure] = parse_figures(f"Emissions were {text} in 2021.")
    assert figure.base == pytest.approx(16.2e6) and figure.co2e is co2e


def test_mt_in_capitals_is_ambiguous() -> None:
    [capitals] = parse_figures("12,000 MT CO2e")
    [mega] = parse_figures("12 Mt CO2e")
    assert capitals.ambiguous and not mega.ambiguous


# --- unit conversions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Capital expenditure was US$5.7 billion (C$7.5 billion) in 2023.",
        "Capital expenditure was €3.0 billion (£2.6 billion) in 2023.",
        "Capital expenditure was USD 5.7 billion or CAD 7.5 billion in 2023.",
        "Capital expenditure was US$5.7 billion ($7.5 billion) in 2023.",
    ],
)
def test_amounts_in_two_currencies_are_never_compared(text: str) -> None:
    assert check_sanity(text, 4) == []


def test_same_currency_renderings_are_still_checked() -> None:
    [right] = check_sanity("Capital expenditure was $5.7 billion ($5,700 million) in 2023.", 4)
    assert right.check == "unit_conversion" and right.details["consistent"] is True
    [wrong] = check_sanity("Capital expenditure was US$5.7 billion (US$570 million) in 2023.", 4)
    assert wrong.supports_claim is False


@pytest.mark.parametrize(
    "text",
    [
        "Emissions were 2.3 Mt (2.5 Mt in 2022).",
        "Emissions were 2.3 Mt (2,500 kt in 2022).",
        "Emissions were 2.3 Mt (2.5 Mt).",
        "Emissions were 12,000 MT CO2e (12 kt CO2e).",
        "Emissions were 2.3 Mt CO2e or 0.5 t per employee.",
    ],
)
def test_unit_mismatches_are_reported_only_when_certain(text: str) -> None:
    assert [result for result in check_sanity(text, 4) if result.supports_claim is False] == []


# --- whose figure it is --------------------------------------------------------------------------

THIRD_PARTY_TARGETS = [
    "Global energy system emissions would decrease by 70 per cent by 2050 from 2020 levels; "
    "emissions were already reduced 12% by 2023.",
    "In the IEA Net Zero Emissions by 2050 Scenario, emissions are reduced by 40% by 2030 from 2022.",
    "According to the IPCC, emissions must be cut by 43% by 2030 from 2019 levels.",
    "A 1.5°C pathway requires the sector to reduce emissions by 45% by 2030 from 2010.",
    "A new national scheme plays a role in reducing Canada's emissions by 40% below 2005 levels by 2030.",
    "The world needs to reduce emissions by 45% by 2030 from 2010 levels.",
]
COMPANY_TARGETS = [
    "We aim to reduce our Scope 1 and 2 emissions by 50% by 2030 from 2018.",
    "We aim to reduce our Scope 1 and 2 emissions by 50% by 2030 from 2018, in line with a 1.5°C pathway.",
    "Globally, we aim to reduce our emissions by 30% by 2030 from 2019.",
    "Compared with 2019, by 2030 the Group wants to reduce its Scope 1 and 2 emissions by 70%.",
    "Our targets are aligned with the IEA Net Zero scenario: we will reduce emissions by 42% by 2030 "
    "against a 2019 baseline.",
    "Acme has set a target to reduce the emissions of its global operations by 25% by 2030 from 2020.",
]


@pytest.mark.parametrize("text", THIRD_PARTY_TARGETS)
def test_scenario_world_and_third_party_figures_are_not_company_targets(text: str) -> None:
    assert check_target(text, 6) is None


@pytest.mark.parametrize("text", COMPANY_TARGETS)
def test_company_targets_are_still_checked(text: str) -> None:
    result = check_target(text, 6)
    assert result is not None and result.check == "target_arithmetic"


def test_attribution_looks_at_the_figures_clause() -> None:
    text = "Scope 1 emissions were 2.3 Mt CO2e in 2023, below the industry average of 3.1 Mt CO2e."
    own, average = parse_figures(text)
    assert not attributed_elsewhere(text, own.start)
    assert attributed_elsewhere(text, average.start)
    hypothetical = "Under the IEA scenario, our Scope 3 emissions would fall 30% by 2030."
    assert attributed_elsewhere(hypothetical, hypothetical.index("30%"))


def test_cross_page_ignores_scenario_and_world_figures() -> None:
    index = MetricIndex(
        [
            (3, "Our Scope 1 emissions were 2.30 Mt CO2e in 2023."),
            (
                8,
                "Under the IEA Sustainable Development Scenario, Scope 1 emissions were 2.9 Mt CO2e in 2023.",
            ),
            (9, "The world's Scope 1 emissions were 3.3 Mt CO2e in 2023."),
        ]
    )
    assert check_cross_page("Our Scope 1 emissions were 2.30 Mt CO2e in 2023.", 3, index) is None
    assert index.size == 1


def test_cross_page_compares_an_ambiguous_unit_only_with_itself() -> None:
    index = MetricIndex(
        [
            (3, "Our Scope 1 emissions were 12,000 MT CO2e in 2023."),
            (9, "Our Scope 1 emissions were 12 kt CO2e in 2023."),
        ]
    )
    assert check_cross_page("Our Scope 1 emissions were 12,000 MT CO2e in 2023.", 3, index) is None


# --- percentage changes and parts ----------------------------------------------------------------


def test_percent_change_skips_a_share_and_a_from_that_names_a_source() -> None:
    text = (
        "In 2023, emissions from the smelters were 4.2 Mt CO2e or 12% of total emissions "
        "(compared to 4.1 Mt CO2e in 2022)."
    )
    assert check_percent_change(text, 5) is None


def test_percent_change_skips_a_third_partys_change_only() -> None:
    theirs = "According to the IEA, energy sector emissions fell 8% from 36.7 Gt to 34.8 Gt in 2020."
    assert check_percent_change(theirs, 5) is None
    ours = "Globally, our Scope 1 emissions fell 9.4% to 2.30 Mt from 2.45 Mt in 2023."
    result = check_percent_change(ours, 5)
    assert result is not None and result.supports_claim is False


@pytest.mark.parametrize(
    "text",
    [
        "Scope 1 emissions fell 3% year on year to 2.30 Mt, down from 2.45 Mt in 2019.",
        "Absolute emissions fell from 2.45 Mt to 2.30 Mt, while emissions intensity fell 9.4%.",
        "Renewables reached 45% of supply as emissions fell from 2.45 Mt to 2.30 Mt, down 6.1%.",
    ],
)
def test_percent_change_reports_no_mismatch_when_the_percentage_may_measure_something_else(text: str) -> None:
    result = check_percent_change(text, 5)
    assert result is None or result.supports_claim is True


def test_cross_page_keeps_boundaries_restatements_and_renewable_shares_apart() -> None:
    claim = "Our Scope 1 emissions (equity basis) were 2.30 Mt CO2e in 2023."
    index = MetricIndex(
        [
            (3, claim),
            (4, "Our Scope 1 emissions (operational control) were 2.10 Mt CO2e in 2023."),
            (5, "Our Scope 1 emissions (equity basis) were restated to 2.50 Mt CO2e in 2023."),
            (6, "Renewable electricity was 60% of consumption in 2023."),
            (7, "Renewable energy was 35% of consumption in 2023."),
            (8, "Our Scope 1 emissions were 2.30 Mt CO2e in 2023."),
        ]
    )
    agreed = check_cross_page(claim, 3, index)
    assert agreed is not None and agreed.supports_claim is None and agreed.details["compared_mentions"] == 1
    assert check_cross_page("Renewable electricity was 60% of consumption in 2023.", 6, index) is None
    same_boundary = MetricIndex(
        [(3, claim), (9, "Scope 1 emissions (equity basis) were 2.6 Mt CO2e in 2023.")]
    )
    conflict = check_cross_page(claim, 3, same_boundary)
    assert conflict is not None and conflict.supports_claim is False


def test_changes_and_parts_are_never_computed_across_currencies() -> None:
    assert check_percent_change("Green capex rose 10% from US$5.0 billion to C$5.5 billion.", 5) is None
    assert (
        check_of_which(
            "Green capex totalled US$10 billion, of which C$8 billion and C$5 billion in Canada.", 5
        )
        is None
    )


# --- the rule-based source reader ----------------------------------------------------------------


def _stance(source: str, claim: str = CLAIM, title: str = "") -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, title, source)
    return assessment.stance, assessment.signal


def test_a_figure_for_another_year_is_not_a_contradiction() -> None:
    stance, _ = _stance("Acme's Scope 1 and 2 emissions were 14.9 Mt CO2e in 2023.")
    assert stance == "neutral"


def test_a_different_figure_for_the_same_year_contradicts() -> None:
    assessment = assess_by_rules(
        CLAIM, COMPANY, "", "Acme's Scope 1 and 2 emissions were 19.8 Mt CO2e in 2021."
    )
    assert (assessment.stance, assessment.signal, assessment.contradiction_type) == (
        "contradicts",
        "numeric_mismatch",
        "direct",
    )


@pytest.mark.parametrize(
    "source",
    [
        "Acme's Scope 1 and 2 emissions were 16.2 Mt CO2e in 2021.",
        "Acme's Scope 1 and 2 emissions were 16.2 Mt CO2e.",
        "Acme reported Scope 1 and 2 emissions of 16.2 million tonnes of CO2e in 2021.",
        "Acme reported Scope 1 and 2 emissions of 16,200 kt CO2e in 2021.",
        "Acme's Scope 1 and 2 emissions were 16.2 MtCO2e in 2021.",
        "Acme's Scope 1 and 2 emissions fell to 14.9 Mt CO2e in 2023 from 16.2 Mt CO2e in 2021.",
    ],
)
def test_the_same_figure_in_the_same_or_an_unstated_year_supports(source: str) -> None:
    assert _stance(source) == ("supports", "same_figure")


def test_each_figure_is_compared_with_the_claims_figure_for_its_own_year() -> None:
    source = "Acme's Scope 1 and 2 emissions were 16.2 Mt CO2e in 2023, after 17.5 Mt CO2e in 2021."
    assert _stance(source) == ("contradicts", "numeric_mismatch")


def test_a_change_in_another_year_is_not_an_opposite_direction() -> None:
    claim = "Scope 1 emissions fell 6.1% to 2.30 Mt CO2e in 2024."
    assert (
        _stance("Acme's Scope 1 emissions rose in 2021 as smelter output increased.", claim)[0] == "neutral"
    )
    assert _stance("Acme's Scope 1 emissions rose in 2024 as smelter output increased.", claim) == (
        "contradicts",
        "opposite_direction",
    )


def test_figures_of_another_kind_never_decide() -> None:
    same_number_as_percent = "In 2021 Acme cut the carbon intensity of its Scope 1 and 2 emissions by 16.2%."
    assert _stance(same_number_as_percent)[0] == "neutral"
    claim = "Acme invested US$5.7 billion in decarbonisation projects in 2023."
    other_currency = "Acme invested C$7.5 billion in decarbonisation projects in 2023."
    assert _stance(other_currency, claim)[0] == "neutral"
    steel = "Acme produced 19.8 million tonnes of steel in 2021 while its Scope 1 and 2 emissions were flat."
    assert _stance(steel)[0] != "contradicts"


def test_a_sentence_about_another_company_never_contradicts() -> None:
    rival = "Rival Corp's Scope 1 and 2 emissions were 19.8 Mt CO2e in 2021."
    assert _stance(rival, title="Mining emissions round-up")[0] == "neutral"
    assert _stance("Rival Corp's Scope 1 and 2 emissions rose in 2021.", title="Mining news")[0] == "neutral"


def test_another_scope_group_or_site_is_another_metric() -> None:
    combined = "Acme's Scope 1 and 2 emissions totalled 19.8 Mt CO2e in 2021."
    assert _stance(combined, "Scope 1 emissions were 12.1 Mt CO2e in 2021.")[0] != "contradicts"
    smelter = "Scope 1 emissions at the Kitimat smelter were 0.4 Mt CO2e in 2021."
    assert _stance("Acme's Scope 1 emissions were 12.1 Mt CO2e in 2021.", smelter)[0] != "contradicts"
    assert _stance("Acme's Kitimat smelter emitted Scope 1 emissions of 0.6 Mt CO2e in 2021.", smelter) == (
        "contradicts",
        "numeric_mismatch",
    )


@pytest.mark.parametrize(
    "source",
    [
        "Regulatory filings show Acme's Scope 1 and 2 emissions totalled 16.2 Mt CO2e in 2021.",
        "Acme's Scope 1 and 2 emissions include fine particulate matter from its kilns in 2021.",
    ],
)
def test_regulatory_filings_and_fine_particles_are_not_enforcement(source: str) -> None:
    assert _stance(source)[1] != "enforcement"
