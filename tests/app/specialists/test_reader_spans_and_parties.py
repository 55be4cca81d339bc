"""The rule reader on what a figure is of beyond its words: the years it is summed over, whether it
is done yet, who did it, and what a charge beside it says."""

from __future__ import annotations

import pytest

from app.verification.reading.contradictions import assess_by_rules

COMPANY = "Tarnside Holdings"


def _read(claim: str, source: str) -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, "", source, "2025-06-30")
    return assessment.stance, assessment.signal


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "In 2024, we restored 3,600 hectares of wetland.",
            "Tarnside restored 3,600 hectares of wetland between 2020 and 2024, the agency said.",
        ),
        (
            "Tarnside lent £1.8 billion to renewable projects in 2024.",
            "Tarnside lent £1.8 billion to renewable projects from 2022 to 2024, a campaign group found.",
        ),
        (
            "In 2024, we restored 3,600 hectares of wetland.",
            "Tarnside has restored 8,100 hectares of wetland since 2019, the agency said.",
        ),
        (
            "Tarnside's ships emitted 1.4 million tonnes of CO2e in 2024.",
            "Tarnside's ships emitted 1.4 million tonnes of CO2e a year on average between 2020 and 2024.",
        ),
    ],
)
def test_an_amount_summed_over_several_years_is_not_a_years(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "Tarnside's estates covered 52,000 hectares in 2024.",
            "Tarnside's estates grew by 6,000 hectares between 2020 and 2024 to cover 52,000 hectares.",
            "supports",
        ),
        (
            "Tarnside's estates covered 52,000 hectares in 2024.",
            "Tarnside's estates grew by 6,000 hectares between 2020 and 2024 to cover 47,000 hectares.",
            "contradicts",
        ),
        (
            "Tarnside's emissions were 1.4 million tonnes of CO2e in 2024.",
            "Tarnside's emissions held at 1.4 million tonnes of CO2e a year from 2021 to 2024, filings show.",
            "supports",
        ),
    ],
)
def test_a_level_reached_or_a_yearly_rate_over_years_is_the_last_years(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    "source",
    [
        "Tarnside has 2.4 GW of wind capacity waiting to be connected to the grid, the regulator said.",
        "Tarnside has 2.4 GW of wind capacity still to be connected to the grid, the regulator said.",
        "Some 2.4 GW of Tarnside's wind capacity was awaiting connection in 2023, the regulator said.",
    ],
)
def test_a_figure_still_to_be_done_is_not_done(source: str) -> None:
    claim = "We connected 2.4 GW of new wind capacity to the grid in 2023."
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "Our cans contained 70% recycled aluminium in 2023.",
            "Tarnside said its cans contained 70% recycled aluminium in 2023, a figure activists called "
            "greenwashing.",
            "neutral",
        ),
        (
            "We managed 61,000 hectares of forest at the end of 2023.",
            "Tarnside, which managed 61,000 hectares of forest at the end of 2023, breached felling limits "
            "at one estate, an audit found.",
            "supports",
        ),
        (
            "Tarnside emitted 2.2 Mt of CO2e in 2023.",
            "The regulator's enforcement team found that Tarnside emitted 2.2 Mt of CO2e in 2023.",
            "supports",
        ),
        (
            "We complied with the discharge permits at all our quarries in 2023.",
            "Tarnside was fined £40,000 in 2023 for breaching the discharge permit at one of its quarries, "
            "the regulator said.",
            "contradicts",
        ),
        (
            "Our quarries' water discharges met every permit limit in 2023.",
            "Tarnside was fined in 2023 after water discharges from its quarries breached permit limits.",
            "contradicts",
        ),
        (
            "We received no environmental fines in 2023.",
            "Tarnside was not fined for any environmental breach in 2023, the regulator's register shows.",
            "supports",
        ),
        (
            "An independent investigation confirmed that our quarries met every permit limit in 2023.",
            "An investigation by the regulator confirmed that Tarnside's quarries met every permit limit in "
            "2023.",
            "supports",
        ),
    ],
)
def test_enforcement_contradicts_only_what_the_source_does_not_confirm(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    "source",
    [
        "Tarnside's subcontracted hauliers ran 640 electric trucks at the end of 2023, besides its own.",
        "Tarnside's contractors ran 640 electric trucks on its sites at the end of 2023, a weekly said.",
        "Tarnside's franchisees operated 640 electric trucks at the end of 2023, a trade weekly said.",
    ],
)
def test_others_working_for_the_company_are_not_the_company(source: str) -> None:
    claim = "We had 640 electric trucks in our fleet at the end of 2023."
    assert _read(claim, source)[0] == "neutral"


def test_what_others_working_for_the_company_did_supports_a_claim_naming_them() -> None:
    claim = "Our contractors ran 640 electric trucks on our sites at the end of 2023."
    source = (
        "Tarnside's contractors ran 640 electric trucks on its sites at the end of 2023, a trade weekly said."
    )
    assert _read(claim, source)[0] == "supports"


def test_a_share_named_after_its_figure_is_of_what_it_names() -> None:
    claim = "Tarnside generated 55% of its electricity from renewable sources in 2023."
    source = (
        "Tarnside's renewable share of generation was 46% in 2023, the grid operator says; 55% is the "
        "renewable share of its installed capacity."
    )
    assert _read(claim, source) == ("contradicts", "numeric_mismatch")


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a span on both sides: a running total "since 2019" may be said as one that "reached" its level
        (
            "By the end of 2024 we had restored 3,600 hectares of wetland since 2019.",
            "Tarnside's total restored wetland since 2019 reached 3,600 hectares in 2024, the agency said.",
            "supports",
        ),
        (
            "Between 2020 and 2024 Tarnside restored 3,600 hectares of wetland.",
            "Tarnside restored 3,600 hectares of wetland in the five years to 2024, the agency said.",
            "supports",
        ),
        (
            "In 2024, we restored 3,600 hectares of wetland.",
            "Tarnside restored 3,600 hectares of wetland in the five years to 2024, the agency said.",
            "neutral",
        ),
        # an amount a year said to be an average is not the last year's
        (
            "Tarnside's ships emitted 1.4 million tonnes of CO2e in 2024.",
            "Tarnside's ships averaged 1.4 million tonnes of CO2e a year from 2020 to 2024, filings show.",
            "neutral",
        ),
    ],
)
def test_a_span_named_on_both_sides_or_an_average_of_the_years(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    "source",
    [
        "Tarnside recycled 64% of its waste in 2023 pending an external audit, the waste agency said.",
        "Tarnside collected 310,000 old handsets in 2023 that are awaiting recycling, the scheme said.",
        "Tarnside closed two coal-fired units in 2023 that had been scheduled to be shut in 2026.",
    ],
)
def test_what_is_still_to_be_done_with_the_things_is_not_said_of_the_figure(source: str) -> None:
    claims = {
        "64%": "Tarnside recycled 64% of its waste in 2023.",
        "310,000": "Tarnside collected 310,000 old handsets for recycling in 2023.",
        "two": "Tarnside closed two coal-fired units in 2023.",
    }
    claim = next(text for figure, text in claims.items() if figure in source)
    assert _read(claim, source)[0] == "supports"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "Tarnside's plant met all emission limits in 2023.",
            "Tarnside's plant met all emission limits in 2023, the regulator said, after a breach in 2022.",
            "supports",
        ),
        (
            "Tarnside complied with all its discharge permits in 2023.",
            "The agency said Tarnside complied with all its discharge permits in 2023, unlike in 2021, when "
            "it was fined for a breach.",
            "supports",
        ),
        (
            "Tarnside's Lyon plant kept within its emissions permit in 2023.",
            "Tarnside's Lyon plant kept within its emissions permit in 2023, after a breach the year before.",
            "supports",
        ),
        (
            "Tarnside recorded no process safety incidents in 2023.",
            "The regulator recorded no process safety incidents at Tarnside in 2023 and found no violations.",
            "supports",
        ),
        (
            "Tarnside complied with all its discharge permits in 2023.",
            "Campaigners sued Tarnside in 2023, alleging it breached its discharge permits.",
            "neutral",
        ),
        # a charge of greenwash disputes a figure without giving another
        (
            "In 2023, 64% of Tarnside's electricity came from renewable sources.",
            "Campaigners called Tarnside's claim that 64% of its 2023 electricity was renewable greenwash.",
            "neutral",
        ),
    ],
)
def test_a_wrong_of_another_year_negated_or_alleged_leaves_a_restatement(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Tarnside's franchised restaurants recycled 58% of their waste in 2023.",
            "Tarnside's franchisees recycled 58% of their waste in 2023, WRAP said.",
        ),
        (
            "Tarnside's supply chain emitted 4.1 million tonnes of CO2e in 2023.",
            "Tarnside's suppliers emitted 4.1 Mt of CO2e in 2023, CDP data show.",
        ),
        (
            "Tarnside's subcontracted haulage emitted 200,000 tonnes of CO2 in 2023.",
            "Tarnside's subcontracted hauliers emitted 200,000 tonnes of CO2 in 2023, a council said.",
        ),
    ],
)
def test_others_working_for_the_company_support_a_claim_of_them_in_other_words(
    claim: str, source: str
) -> None:
    assert _read(claim, source)[0] == "supports"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Renewables made up 42% of Tarnside's installed capacity in 2023.",
            "In 2023, 42% was the share of renewables in Tarnside's installed capacity, an agency said.",
        ),
        (
            "Women held 40% of Tarnside's board seats in 2023.",
            "At Tarnside, 40% was the share of women on the board in 2023, the governance index shows.",
        ),
    ],
)
def test_a_share_of_a_part_in_a_whole_is_of_the_whole(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "supports"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a level reached over a span is the last year's, however it moved there
        (
            "In 2022, Tarnside's water use was 3.2 million m3.",
            "Tarnside's water use fell to 3.2 million m3 between 2019 and 2022, the water regulator said.",
            "supports",
        ),
        (
            "In 2022, Tarnside's Scope 1 emissions were 1.1 Mt.",
            "Tarnside cut its Scope 1 emissions to 1.1 Mt between 2019 and 2022, the agency said.",
            "supports",
        ),
        (
            "In 2022, Tarnside's water use was 3.2 million m3.",
            "Tarnside's water use fell to 2.9 million m3 between 2019 and 2022, the water regulator said.",
            "contradicts",
        ),
        # what is pending after a deed done with the figure leaves the deed done
        (
            "In 2023, Tarnside installed 1.9 GW of wind turbines.",
            "Tarnside installed 1.9 GW of wind turbines pending connection to the grid in 2023, the grid "
            "operator said.",
            "supports",
        ),
        # no charge of greenwash is no dispute
        (
            "In 2023, Tarnside recycled 64% of its waste.",
            "Tarnside's waste recycling rate of 64% in 2023 drew no accusations of greenwashing, it said.",
            "supports",
        ),
    ],
)
def test_a_level_reached_a_deed_done_and_no_charge_leave_the_figure(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Tarnside cut sugar in its breakfast cereals by 20% in 2024.",
            "Action on Sugar found Crisp & Co, Tarnside's main rival, cut sugar in its cereals by 12% "
            "in 2024.",
        ),
        (
            "Tarnside emitted 2.1 Mt of CO2e in 2024.",
            "Registry data show Tarnside's Spanish rival Tordesa emitted 2.6 Mt of CO2e in 2024.",
        ),
        (
            "We deployed 3,500 electric vans in 2023.",
            "Tarnside's rival Bexley Freight, which fell well short of 3,500 electric vans in 2023, lags.",
        ),
    ],
)
def test_a_rivals_figure_however_the_rival_is_named_is_not_the_companys(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "We provided £2bn of green finance in 2023.",
            "Tarnside provided £2bn of finance to oil and gas firms in 2023.",
        ),
        (
            "We provided £2bn of green finance in 2023.",
            "Tarnside provided £3.5bn of finance to oil and gas firms in 2023.",
        ),
        (
            "Tarnside provided £2.4 billion in green lending in 2023.",
            "Tarnside's lending to fossil-fuel companies reached £2.4bn in 2023, a campaign group found.",
        ),
        (
            "Tarnside invested £2bn in renewable energy projects in 2023.",
            "Tarnside invested £2bn in coal mining in 2023, a campaign group found.",
        ),
    ],
)
def test_money_lent_to_fossil_fuels_is_not_green_finance(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"
