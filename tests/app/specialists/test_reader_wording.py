"""The rule reader of sources holds the same quantity however a source words it (units spelled out,
fiscal years written three ways, scope groups in words, figures in words, a level and a change in one
sentence), and reads claims that state no figure by what the sentence says of the same thing."""

from __future__ import annotations

import asyncio

import pytest

from app.language.figures import parse_figures
from app.language.number_words import figures_in_digits, number_value
from app.language.years import parse_years, stated_year
from app.verification.reading.change_mood import mood
from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.figure_subjects import same_boundaries
from app.verification.reading.figures import parse_counts, quantities
from app.verification.reading.statements import frequency, read_statement
from app.verification.sources.attribution import company_voice
from bench.reader_pairs import TUNING_PAIRS, Pair, accuracy, load_pairs, read_all

COMPANY = "Tollgate Mining"
LEVEL_AND_CHANGE = (
    "Our Scope 1 and Scope 2 emissions from operated assets totalled 8.4 Mt CO2-e in FY2023, "
    "about 3 per cent higher than in FY2022."
)


def _read(claim: str, source: str) -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, "", source)
    return assessment.stance, assessment.signal


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        # spelled-out units, "the 2023 financial year", "Scope 1 plus Scope 2"
        (
            "Tollgate Mining's operated assets emitted 8.4 million tonnes of carbon dioxide equivalent of "
            "Scope 1 plus Scope 2 emissions in the 2023 financial year, the regulator's data show.",
            "supports",
        ),
        (
            "Records of the national regulator show that Tollgate Mining's operated assets emitted 10.9 "
            "million tonnes of CO2 equivalent of Scope 1 and Scope 2 emissions in fiscal 2023.",
            "contradicts",
        ),
        # "direct and indirect" emissions are Scopes 1 and 2 together
        (
            "Tollgate Mining's direct and indirect (Scope 2) emissions came to 8,400 kilotonnes of CO2e in "
            "FY2023, an audit found.",
            "supports",
        ),
    ],
)
def test_the_same_quantity_however_worded(source: str, stance: str) -> None:
    assert _read(LEVEL_AND_CHANGE, source)[0] == stance


def test_a_level_and_a_change_are_compared_level_to_level_and_change_to_change() -> None:
    source = (
        "Tollgate Mining's operated assets emitted 10.9 million tonnes of CO2 equivalent of Scope 1 and "
        "Scope 2 emissions in FY2023, about 25 per cent more than in FY2022, the regulator said."
    )
    assessment = assess_by_rules(LEVEL_AND_CHANGE, COMPANY, "", source)
    assert (assessment.stance, assessment.signal) == ("contradicts", "numeric_mismatch")
    # The level is named first, the change after it.
    assert "10.9 million tonnes" in assessment.explanation
    assert assessment.explanation.index("10.9") < assessment.explanation.index("25 per cent")


def test_a_repeated_baseline_does_not_hide_another_level_for_the_claimed_year() -> None:
    claim = "Renewable power supplied 58% of the electricity used at our mills in 2023, up from 40% in 2022."
    source = (
        "The renewable share of the electricity used at Tollgate Mining's mills fell to 37 per cent in 2023 "
        "from 40 per cent in 2022, the grid operator's audit found."
    )
    assert _read(claim, source)[0] == "contradicts"


def test_an_intention_is_not_an_outcome() -> None:
    claim = "We cut our Scope 1 emissions by 9% in 2023, to 1.2 Mt CO2e."
    aim = "Tollgate Mining aims to cut its Scope 1 emissions by 9 per cent by 2025, to 1.2 million tonnes."
    assert _read(claim, aim)[0] != "supports"
    duty = "Tollgate Mining must cut water leakage to 90 megalitres per day by 2025, the regulator ruled."
    assert _read("We reduced water leakage to 90 megalitres per day in 2023.", duty)[0] != "supports"
    start = aim.index("1.2 million")
    assert mood(aim, start, start + len("1.2 million tonnes")) == "intended"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # intensity against an absolute figure
            "Our Scope 1 emissions fell 7% in 2023 to 1.2 Mt CO2e.",
            "Tollgate Mining's emissions intensity fell 7 per cent in 2023 per tonne of ore milled.",
        ),
        (  # a different destination of the same waste
            "We sent 3,100 tonnes of waste to landfill in 2023.",
            "Tollgate Mining sent 3,100 tonnes of waste for incineration in 2023, the council said.",
        ),
        (  # water withdrawn is not water discharged
            "We withdrew 5.5 million cubic metres of water in 2023.",
            "Tollgate Mining discharged 5.5 million cubic metres of water in 2023, the river authority said.",
        ),
        (  # market-based and location-based Scope 2
            "Our market-based Scope 2 emissions were 210,000 tCO2e in 2023.",
            "Tollgate Mining's location-based Scope 2 emissions were 390,000 tonnes of CO2e in 2023.",
        ),
    ],
)
def test_other_measures_of_a_like_thing_decide_nothing(claim: str, source: str) -> None:
    assert _read(claim, source)[0] not in {"supports", "contradicts"}


def test_a_reason_clause_is_not_a_qualifier_and_a_name_is_not_one_either() -> None:
    claim = "Our Scope 2 emissions fell to 210,000 tCO2e in 2023 as more mills moved to renewable power."
    source = (
        "The Freight Climate Index put Tollgate Mining's Scope 2 emissions at 340,000 tonnes of CO2e in 2023."
    )
    assert _read(claim, source) == ("contradicts", "numeric_mismatch")


def test_figures_in_words() -> None:
    assert figures_in_digits("Forty-five per cent of the fleet") == "45 per cent of the fleet"
    assert figures_in_digits("Women held three of the twelve seats on the board") == (
        "Women held 25% of the seats on the board"
    )
    assert figures_in_digits("We cut waste by a third") == "We cut waste by about 33.3%"
    assert figures_in_digits("Emissions more than doubled") == "Emissions rose more than 100%"
    assert (
        figures_in_digits("one of the largest three dairy plants") == "one of the largest three dairy plants"
    )
    assert number_value("twenty-one") == 21 and number_value("dozen") is None
    claim = "Women held 40% of the seats on our Board at the end of 2023."
    four_of_ten = (
        "Women held four of the ten seats on Tollgate Mining's board at the end of 2023, a review found."
    )
    assert _read(claim, four_of_ten)[0] == "supports"
    two_of_eleven = (
        "Only two of Tollgate Mining's eleven directors were women at the end of 2023, a review found."
    )
    assert _read(claim, two_of_eleven)[0] == "contradicts"


def test_units_and_years_as_written() -> None:
    assert [
        (f.dimension, f.base) for f in parse_figures("5,100 gigawatt hours and 12.5 square kilometres")
    ] == [
        ("energy", 5_100_000.0),
        ("area", 1250.0),
    ]
    assert parse_figures("4.2 million cubic metres")[0].base == 4_200_000.0
    assert [year for year, _ in parse_years("in 2022/23, against 2019-20 and 2021-2022")] == [
        2023,
        2020,
        2021,
        2022,
    ]
    sentence = (
        "Renewables supplied 62% of the electricity consumed at our sites in 2023, up from 45% in 2022."
    )
    assert stated_year(sentence, parse_figures(sentence)[0]) == 2023
    assert quantities("direct and indirect (Scope 2) emissions") == {"scope 1+2"}
    assert quantities("Scope 1 plus Scope 2 emissions") == {"scope 1+2"}


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "Our tailings dam passed its independent safety review in 2023 with no critical findings.",
            "The 2023 independent safety review of Tollgate Mining's tailings dam raised no "
            "critical findings, the dam register shows.",
            "supports",
        ),
        (
            "Our tailings dam passed its independent safety review in 2023 with no critical findings.",
            "An independent review found Tollgate Mining's tailings dam did not meet national safety "
            "standards in 2023, the ministry said.",
            "contradicts",
        ),
        (
            "We stopped burning coal at our Westgate smelter in 2022 after converting its furnaces to gas.",
            "Inspectors found Tollgate Mining's Westgate smelter still burning coal in one furnace in 2023.",
            "contradicts",
        ),
        (
            "None of our sites received an environmental fine from any regulator in 2023.",
            "The environment agency fined Tollgate Mining £400,000 in 2023 over dust from its Westgate site.",
            "contradicts",
        ),
        (
            "None of our sites received an environmental fine or enforcement notice in 2023.",
            "The agency's 2023 register lists no fines or enforcement notices against any "
            "Tollgate Mining site.",
            "supports",
        ),
        (
            "Our Board Climate Committee met quarterly in 2023 to oversee climate risk.",
            "Tollgate Mining's board climate committee met only once in 2023, a governance review found.",
            "contradicts",
        ),
        (
            "Our Board Climate Committee met quarterly in 2023 to oversee climate risk.",
            "Tollgate Mining's board climate committee met four times in 2023, once each quarter, "
            "a review found.",
            "supports",
        ),
        (
            "Our Climate Committee is chaired by an independent non-executive director.",
            "Tollgate Mining's climate committee is chaired by its chief executive rather than "
            "an independent director, a review found.",
            "contradicts",
        ),
    ],
)
def test_statements_without_figures(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # an intention says nothing of what happened
            "We stopped burning coal at our Westgate smelter in 2022 after converting its furnaces to gas.",
            "Tollgate Mining expects to stop burning coal at its Westgate smelter in 2022 once its furnace "
            "conversion is complete, an analyst wrote.",
        ),
        (  # another committee
            "Our Board Climate Committee met quarterly in 2023 to oversee climate risk.",
            "Tollgate Mining's board audit committee met only twice in 2023, a governance review found.",
        ),
        (  # a count negated without another is left to the figure rules
            "We fitted heat pumps at 40 depots in 2023.",
            "Tollgate Mining did not fit heat pumps at 40 depots in 2023, staff said.",
        ),
    ],
)
def test_statements_that_decide_nothing(claim: str, source: str) -> None:
    assert read_statement(claim, source, COMPANY) is None


def test_meeting_frequencies() -> None:
    assert frequency("met quarterly") == 4
    assert frequency("met four times in 2023, once in each quarter") == 4
    assert frequency("met only once in 2023") == 1
    assert frequency("met twice") == 2
    assert frequency("meets every month") == 12
    assert frequency("the committee met in 2023") is None
    # meetings counted, whatever schedule the sentence goes on to name
    assert frequency("held three meetings in 2023, one fewer than a quarterly schedule would need") == 3


@pytest.mark.parametrize(
    ("quote", "stance", "relayed"),
    [
        (
            "Tollgate Mining's Scope 1 emissions were 3.1 Mt in 2023, the environment agency said in a "
            "statement.",
            "supports",
            False,
        ),
        (
            "The mining ministry said in its annual report that Tollgate Mining's dam did not meet safety "
            "standards.",
            "contradicts",
            False,
        ),
        ("Tollgate Mining said in a statement that its emissions were 3.1 Mt in 2023.", "supports", True),
        ("Its emissions were 3.1 Mt in 2023, the company said in a statement.", "supports", True),
        ("Tollgate Mining's emissions were 3.1 Mt, the company said, citing its auditor.", "supports", True),
    ],
)
def test_a_third_party_speaking_is_not_the_company(quote: str, stance: str, relayed: bool) -> None:
    assert (company_voice(quote, COMPANY, stance) is not None) is relayed


async def test_the_labelled_pairs_stay_read_as_well_as_measured() -> None:
    """The labelled claim–source pairs (`bench.reader_pairs`), read as the searching agents read a
    source: floors under today's figures (0.976 of the first set's pairs, 0.853 of the later tuning
    sets', the sixth to twelfth of them read at 0.65, 0.66, 0.68, 0.54, 0.48, 0.63 and 0.61 when
    they arrived), so a change that misreads them fails."""
    pairs = load_pairs()
    right, total = accuracy(pairs, await read_all(pairs))
    assert right / total >= 0.955
    tuning = [pair for path in TUNING_PAIRS for pair in load_pairs(path, "T")]
    right, total = accuracy(tuning, await read_all(tuning))
    assert right / total >= 0.85


async def test_a_closure_put_off_to_a_later_year_contradicts_as_read_by_the_agents() -> None:
    """Read as the searching agents read a source (the same-fact check included): the later year a
    closure is put off to is the point, not another period."""
    claim = "We closed our last coal-fired power station, Harrow C, in 2023."
    source = "The closure of Tollgate Mining's Harrow C coal station has been pushed back to 2025."
    pair = Pair(claim, COMPANY, source, "contradicts", "postponed", 2023, "T")
    assert await read_all([pair]) == ["contradicts"]


def test_a_claim_with_a_number_is_never_read_as_a_statement() -> None:
    claim = "Our total recordable injury frequency rate was 2.1 per million hours worked in 2023."
    source = (
        "Tollgate Mining's total recordable injury frequency rate was 3.4 per million hours worked in 2023."
    )
    assert read_statement(claim, source, COMPANY) is None
    dated = "We stopped burning coal at our Westgate smelter on 31 March 2022."
    still = "Inspectors found Tollgate Mining's Westgate smelter still burning coal in May 2022."
    assert read_statement(dated, still, COMPANY) is not None


def test_units_spelled_the_american_way() -> None:
    figures = parse_figures("3.5 million gallons of water on 2,000 acres, 45 petajoules and 12 kilograms")
    assert [figure.dimension for figure in figures] == ["volume", "area", "energy", "mass"]
    assert round(figures[0].base) == 13249 and round(figures[1].base) == 809


def test_a_source_summing_a_claim_up_in_fewer_words_still_supports() -> None:
    claim = "Our renewable electricity purchases avoided 48 kt CO2e of supplier emissions in 2023."
    source = (
        "Filings show Tollgate Mining's avoided emissions came to 48 kt CO2e in 2023, the regulator said."
    )
    assert _read(claim, source) == ("supports", "same_figure")


def test_a_scope2_method_sets_figures_apart_only_against_the_other_method() -> None:
    claim = "Our market-based Scope 2 emissions, despite our growth, fell to 210,000 tCO2e in 2023."
    unnamed = "Tollgate Mining's Scope 2 emissions were 390,000 tonnes of CO2e in 2023, the regulator said."
    assert _read(claim, unnamed) == ("contradicts", "numeric_mismatch")
    other = "Tollgate Mining's location-based Scope 2 emissions were 390,000 tonnes of CO2e in 2023."
    assert _read(claim, other)[0] not in {"supports", "contradicts"}


def test_one_subject_word_and_a_figure_of_the_claims_kind_share_its_topic() -> None:
    claim = "Our water withdrawal fell 11% in 2023 to 8.3 million cubic metres."
    same = "Tollgate Mining withdrew 8,300 megalitres of water in 2023, the river authority's returns show."
    assert _read(claim, same) == ("supports", "same_figure")
    energy = "Our total energy consumption was 1.9 TWh in 2023, 4% lower than in 2022."
    more = "Tollgate Mining's energy use rose 6 per cent in 2023 to 2.1 terawatt hours, the regulator said."
    assert _read(energy, more)[0] == "contradicts"


def test_a_short_statement_restated_supports() -> None:
    claim = "All palm oil we buy is RSPO-certified."
    source = (
        "Forest Watch found that all of Tollgate Mining's palm oil purchases in 2023 were RSPO-certified."
    )
    assert _read(claim, source) == ("supports", "same_statement")


def test_a_thing_named_by_another_year_is_another_thing() -> None:
    claim = "By 31 December 2023, 100% of the proceeds of our 2021 green bond had been allocated."
    other = "Tollgate Mining's 2023 green bond was 40% allocated at the end of 2023, a rating agency said."
    assert _read(claim, other)[0] == "neutral"
    same = (
        "Tollgate Mining's 2021 green bond was only 40% allocated at the end of 2023, a rating agency said."
    )
    assert _read(claim, same)[0] == "contradicts"


def test_a_claim_of_all_as_100_percent_is_read_as_all() -> None:
    claim = "In 2023, we audited 100% of our tier-1 suppliers."
    source = "All of Tollgate Mining's tier-1 suppliers were audited in 2023, a monitor said."
    assert _read(claim, source)[0] == "supports"
    # all of something else, or of one place's
    assert (
        _read(claim, "In 2023, all of Tollgate Mining's tier-1 suppliers in Ghana were audited.")[0]
        != "supports"
    )
    electricity = "100% of our electricity came from renewable sources in 2023."
    assert (
        _read(electricity, "All of Tollgate Mining's heat came from renewable sources in 2023.")[0]
        != "supports"
    )


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "All of our tier-1 suppliers were audited in 2023.",
            "All of Tollgate Mining's tier-2 suppliers were audited in 2023, a monitor said.",
        ),
        (
            "All of our sites were certified to ISO 14001 in 2023.",
            "All of Tollgate Mining's sites were certified to ISO 45001 in 2023, the registrar said.",
        ),
    ],
)
def test_a_name_with_another_number_is_another_thing(claim: str, source: str) -> None:
    assert _read(claim, source)[0] != "supports"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "In 2023, 40 of our sites were certified to ISO 14001.",
            "40 of Tollgate Mining's sites were certified to ISO 45001 in 2023, the registrar said.",
        ),
        (
            "Our Scope 3 Category 11 emissions were 14 Mt CO2e in 2023.",
            "Tollgate Mining's Scope 3 Category 1 emissions were 14 Mt CO2e in 2023, a study found.",
        ),
    ],
)
def test_figures_of_another_numbered_name_are_another_things(claim: str, source: str) -> None:
    assert _read(claim, source)[0] not in {"supports", "contradicts"}
    # the claim's own name beside another's, or in an edition, still counts
    both = source.replace("ISO 45001", "ISO 14001 and ISO 45001").replace("Category 1 ", "Category 11 ")
    assert _read(claim, both)[0] == "supports"
    edition = source.replace("ISO 45001", "ISO 14001:2015").replace("Category 1 ", "Category 11 ")
    assert _read(claim, edition)[0] == "supports"


def test_a_statement_of_one_place_restates_nothing_of_the_whole() -> None:
    claim = "All of the palm oil we bought in 2023 was RSPO-certified."
    source = "All of the palm oil Tollgate Mining bought in Malaysia in 2023 was RSPO-certified, an NGO said."
    assert _read(claim, source)[0] != "supports"
    # the claim's own place restated
    assert _read(claim.replace("bought", "bought in Malaysia"), source) == ("supports", "same_statement")


def test_a_hedged_figure_stands_for_a_range() -> None:
    assert parse_figures("about 12 million cubic metres")[0].approximate
    assert not parse_figures("12 million cubic metres")[0].approximate
    claim = "Our fleet's diesel use fell by a quarter in 2023."
    close = "Tollgate Mining's fleet burned 24 per cent less diesel in 2023, fuel card data show."
    assert _read(claim, close)[0] == "supports"
    far = "Tollgate Mining's fleet burned 3 per cent less diesel in 2023, fuel card data show."
    assert _read(claim, far)[0] == "contradicts"
    nearly = (
        "Tollgate Mining's operated assets emitted nearly 11 million tonnes of CO2 equivalent of Scope 1 and "
        "Scope 2 emissions in fiscal 2023, a regulator found."
    )
    assert _read(LEVEL_AND_CHANGE, nearly)[0] == "contradicts"


def test_not_only_rejects_nothing() -> None:
    claim = "We converted our Westgate smelter's furnaces to natural gas in 2022."
    source = (
        "Tollgate Mining not only converted its Westgate smelter's furnaces to natural gas in 2022, it also "
        "closed its coal store, the regulator found."
    )
    assert _read(claim, source)[0] != "contradicts"


def test_fractions_and_one_in_n_as_shares() -> None:
    assert figures_in_digits("Nearly two-thirds of the power") == "Nearly 66.7% of the power"
    assert figures_in_digits("A fifth of the fleet") == "about 20% of the fleet"
    assert figures_in_digits("fell by about an eighth") == "fell by about 12.5%"
    assert figures_in_digits("A sixth of the fleet") == "about 16.7% of the fleet"
    assert figures_in_digits("less than half a percent of the fuel") == "less than 0.5% of the fuel"
    assert figures_in_digits("one in ten cars sold") == "about 10% of cars sold"
    assert figures_in_digits("Fewer than one in ten of its vans") == "Fewer than 10% of its vans"
    assert figures_in_digits("threw away a quarter less food") == "threw away about 25% less food"
    assert figures_in_digits("emitted sixteen million tonnes") == "emitted 16 million tonnes"
    claim = "Renewable sources supplied 64% of the electricity used in our operations in FY2023."
    two_thirds = (
        "Nearly two-thirds of the electricity used in Tollgate Mining's operations came from renewable "
        "sources in fiscal 2023, an analysis found."
    )
    assert _read(claim, two_thirds)[0] == "supports"
    half = (
        "Only around half of the electricity Tollgate Mining used in its operations in FY2023 was renewable."
    )
    assert _read(claim, half)[0] == "contradicts"


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("Women filled 45 in every 100 management roles", "Women filled about 45% of management roles"),
        ("roughly one tonne in eight was hazardous", "roughly 12.5% was hazardous"),
        # a year before what is counted is no whole of it
        ("one in 11 tonnes of its 2023 raw materials", "about 9.1% of its 2023 raw materials"),
        ("38 women among its 100 hotel general managers", "38% of its hotel general managers women"),
        # digits "in" a year or without "every" are no share
        ("sales rose 12 in 2023", "sales rose 12 in 2023"),
        ("it opened 3 in 10 days", "it opened 3 in 10 days"),
        # decimals and thousands in digits, and the end of a range is no share of its own
        ("1.5 in every 100 workers were injured", "about 1.5% of workers were injured"),
        ("3 in every 10,000 parcels were lost", "about 0.03% of parcels were lost"),
        ("between 40 and 45 in every 100 hires", "between 40 and 45 in every 100 hires"),
    ],
)
def test_shares_counted_in_digits_and_units(written: str, read: str) -> None:
    assert figures_in_digits(written) == read


def test_a_bound_holds_the_values_on_its_side() -> None:
    [above] = parse_figures("more than 60 per cent")
    [below] = parse_figures("less than $50 million")
    assert (above.bound, below.bound) == ("above", "below")
    claim = "We recycled 62% of the waste generated at our manufacturing sites in 2022."
    over_sixty = (
        "Tollgate Mining recycled more than 60 per cent of the waste from its manufacturing sites in 2022."
    )
    under_half = (
        "Less than half of the waste produced at Tollgate Mining's manufacturing sites in 2022 was recycled."
    )
    assert _read(claim, over_sixty)[0] == "supports"
    assert _read(claim, under_half)[0] == "contradicts"


def test_units_as_news_writes_them() -> None:
    assert [(f.base, f.unit) for f in parse_figures("1 250 000 MWh and 9 pc and 6.8 g of CO2")] == [
        (1_250_000.0, "MWh"),
        (9.0, "%"),
        (pytest.approx(6.8e-6), "g CO2e"),
    ]
    # a scope's number is never a thousands group of the figure after it
    assert [f.base for f in parse_figures("Scope 2 100 kt")] == [100_000.0]


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Battery-electric vehicles made up 21% of our global sales in 2023.",
            "Battery-electric models accounted for 34% of Tollgate Mining's European sales in 2023.",
        ),
        (
            "Our equity-share Scope 1 and 2 emissions were 2.3 MtCO2e in 2023.",
            "Tollgate Mining's operated-asset Scope 1 and 2 emissions were 1.7 MtCO2e in 2023.",
        ),
        (
            "Our like-for-like Scope 1 and 2 emissions fell 22% in 2023.",
            "Tollgate Mining's absolute Scope 1 and 2 emissions rose 4% in 2023.",
        ),
    ],
)
def test_another_boundary_is_another_quantity(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


def test_what_the_claim_says_did_not_happen_reported_in_other_words_of_it() -> None:
    claim = "We received no environmental fines in 2023."
    fined = (
        "Tollgate Mining was fined $1.2 million by the state environment regulator in 2023 for "
        "discharge breaches."
    )
    assert _read(claim, fined) == ("contradicts", "did_happen")
    # another year says nothing of it
    assert _read(claim, fined.replace("2023", "2021"))[0] != "contradicts"
    killed = (
        "Two contractors were killed at Tollgate Mining's operated mines in 2022, the inspectorate found."
    )
    assert _read("We had no fatalities at our operated sites in 2022.", killed)[0] == "contradicts"
    register = (
        "The environment agency's 2022 enforcement register lists no fines or enforcement notices against "
        "any Tollgate Mining site."
    )
    assert _read("None of our sites received an environmental fine in 2022.", register)[0] != "contradicts"


def test_periods_names_and_voices_that_set_a_source_apart() -> None:
    claim = "Our Scope 1 and 2 emissions were 12.1 Mt CO2e in FY2023 (the year to 30 June 2023)."
    calendar = "Tollgate Mining's Scope 1 and 2 emissions were 11.8 Mt CO2e in calendar 2023, a study found."
    assert _read(claim, calendar)[0] == "neutral"
    sister = (
        "Tollgate Timber, which is unconnected to Tollgate Mining, emitted 12.1 Mt CO2e of Scope 1 and 2 "
        "emissions in FY2023, a study found."
    )
    assert _read(claim, sister)[0] == "neutral"
    relayed = (
        "Tollgate Mining's Scope 1 and 2 emissions were 12.1 Mt CO2e in FY2023, the company's annual "
        "report says."
    )
    assert company_voice(relayed, COMPANY, "supports") is not None


def test_a_relative_change_of_the_claims_subject_is_on_its_topic() -> None:
    claim = (
        "We reduced leakage across our network to 212 megalitres per day in 2021/22, a 16% fall from 2019/20."
    )
    source = (
        "Leakage at Tollgate Mining fell by only 4 per cent between 2019/20 and 2021/22, the regulator says."
    )
    assert _read(claim, source)[0] == "contradicts"
    spent = "Tollgate Mining spent about $145m on decarbonisation projects in 2022, an analysis found."
    assert _read("We invested $145 million in decarbonisation projects in 2022.", spent)[0] == "supports"


def test_all_of_a_thing_in_a_source_is_the_whole_of_it() -> None:
    assert (
        figures_in_digits("All of the palm oil it bought", whole_as_share=True)
        == "100% of the palm oil it bought"
    )
    # a claim's "all of its boilers" is a statement to restate, not a figure to find
    assert figures_in_digits("after converting all of its boilers") == "after converting all of its boilers"
    claim = "100% of the palm oil we bought in 2022 was RSPO certified."
    source = "All of the palm oil Tollgate Mining bought in 2022 was RSPO-certified, an audit found."
    assert _read(claim, source)[0] == "supports"


def test_tonnes_in_a_sentence_on_emissions_are_of_co2e_and_a_site_is_a_part() -> None:
    claim = "Our Scope 1 emissions were 2.6 million tonnes CO2e in 2021, up 4% from 2020."
    climbed = "Tollgate Mining's direct (Scope 1) emissions climbed to 3.1 million tonnes in 2021, data show."
    assert _read(claim, climbed)[0] == "contradicts"
    steel = (
        "Tollgate Mining produced 3.1 million tonnes of steel in 2021 while its Scope 1 emissions were flat."
    )
    assert _read(claim, steel)[0] != "contradicts"
    one_mine = (
        "Tollgate Mining's Yarra Creek mine alone emitted 0.4 million tonnes of Scope 1 emissions in 2021."
    )
    assert _read(claim, one_mine)[0] == "neutral"
    opposite = (
        "Tollgate Mining's Scope 1 emissions were 2.6 Mt CO2e in 2021, 4% less than in 2020, data show."
    )
    assert _read(claim, opposite)[0] == "contradicts"


def test_safety_rates_per_hours_worked_and_shares_of_an_owners_things() -> None:
    assert [f.base for f in parse_figures("0.28 per 200,000 hours worked")] == [pytest.approx(1.4)]
    claim = "Our lost-time injury frequency rate was 1.4 per million hours worked in FY2022."
    same = "Tollgate Mining's lost-time injury rate was 0.28 per 200,000 hours worked in FY2022, data show."
    other = "Tollgate Mining's LTIFR was 2.6 per million hours worked in the 2022 financial year, data show."
    assert _read(claim, same)[0] == "supports"
    assert _read(claim, other)[0] == "contradicts"
    assets = "Climate solutions made up 9 per cent of the Tollgate Fund's assets at the end of 2023."
    assert _read("At the end of 2023, 9% of our assets were invested in climate solutions.", assets)[0] == (
        "supports"
    )


def test_who_says_it_qualifies_no_figure_and_a_close_bound_stays_close() -> None:
    claim = "Our Scope 1 emissions were 2.6 million tonnes CO2e in 2021, up 4% from 2020."
    other_change = (
        "Tollgate Mining's Scope 1 emissions were 2.6 Mt CO2e in 2021, an increase of 11% on 2020, "
        "according to analysis by the campaign group Transport & Ocean."
    )
    assert _read(claim, other_change)[0] == "contradicts"
    footprint = (
        "A study estimates Tollgate Mining's 2021 Scope 1 footprint at 3.5 million tonnes, a study found."
    )
    assert _read(claim, footprint)[0] == "contradicts"
    fell = "Our like-for-like Scope 1 and 2 emissions fell 22% in 2023."
    just_over = "Tollgate Mining cut its like-for-like Scope 1 and 2 emissions by just over a fifth in 2023."
    assert _read(fell, just_over)[0] == "supports"
    assert _read(fell.replace("22%", "35%"), just_over)[0] != "supports"


def test_counts_among_a_whole_and_things_of_another_kind() -> None:
    assert figures_in_digits("three women among its 11 directors") == "27.3% of its directors women"
    claim = "Women held 5 of our 11 board seats (45%) at 31 December 2022."
    three = "Tollgate Mining had only three women among its 11 directors at the end of 2022, a study found."
    assert _read(claim, three)[0] == "contradicts"
    restored = "We restored 1,450 hectares of riparian land around our estates in 2022."
    cleared = "Tollgate Mining cleared 600 hectares of native vegetation around its estates in 2022."
    assert _read(restored, cleared)[0] == "neutral"
    sulphur = "Sulphur dioxide emissions from our Port Hardwick refinery fell to 3,200 tonnes in 2021."
    nitrogen = "Tollgate Mining's Port Hardwick refinery emitted 3,200 tonnes of nitrogen oxides in 2021."
    assert _read(sulphur, nitrogen)[0] == "neutral"


def test_capacity_shares_in_n_and_changes_the_press_writes() -> None:
    assert [(f.base, f.dimension) for f in parse_figures("7.3 GW and 7,300 MWp and 5.6m tonnes")] == [
        (7300.0, "power"),
        (7300.0, "power"),
        (5_600_000.0, "mass"),
    ]
    assert figures_in_digits("About nine in ten square metres") == "About 90% of square metres"
    assert figures_in_digits("one in every thousand of the fuel") == "about 0.1% of the fuel"
    assert figures_in_digits("in 2022 one in 2023") == "in 2022 one in 2023"
    claim = "Our hydro stations generated 31.2 TWh in FY2022, 8% below FY2021 owing to drought."
    other_change = (
        "Tollgate Mining generated 31.2 TWh in fiscal 2022, 15% less than a year earlier, data show."
    )
    assert _read(claim, other_change)[0] == "contradicts"
    scrap = "Tollgate Mining melted 5.6m tonnes of scrap in 2022, an association estimates."
    assert _read("Our steelworks recycled 5.6 million tonnes of scrap in 2022.", scrap)[0] == "supports"
    died = "Two contractors died at Tollgate Mining's Cerro Blanco mine in 2022, the inspectorate confirmed."
    assert _read("We recorded zero fatalities across our operations in 2022.", died)[0] == "contradicts"


def test_a_source_leaving_a_qualifier_of_the_claim_unsaid_never_contradicts_it() -> None:
    """A total is not its part: a sentence that drops the claim's qualifier ("solar") may be about
    all of the company's modules, so another figure there is no contradiction (a false one is worse
    than a missed one); the same figure still supports."""
    claim = "We shipped 7.3 GW of solar modules in fiscal 2022."
    other = "Tollgate Mining shipped 6.1 GW of modules in the 2022 financial year, data show."
    same = "Tollgate Mining shipped 7.3 GW of modules in the 2022 financial year, data show."
    assert _read(claim, other)[0] == "neutral"
    assert _read(claim, same)[0] == "supports"
    # one shared word is not enough: avoided emissions are not the company's emissions
    avoided = "Our products helped customers avoid 190 Mt CO2e in 2022."
    emitted = "Tollgate Mining's customers emitted 500 Mt CO2e in 2022, a study found."
    assert _read(avoided, emitted)[0] != "contradicts"


def test_what_a_figure_is_of_its_span_and_its_kind_of_injury() -> None:
    scrap = "Our steelworks recycled 5.6 million tonnes of scrap in 2022."
    ore = "Tollgate Mining bought 5.6 million tonnes of iron ore in 2022, shipping data show."
    assert _read(scrap, ore)[0] != "supports"
    span = "Tollgate Mining's Scope 1 and 2 emissions fell 35% between 2019 and 2021, a tracker found."
    assert _read("We reduced our Scope 1 and 2 emissions by 35% between 2019 and 2022.", span)[0] == "neutral"
    lost_time = "Our lost-time injury frequency rate was 1.4 per million hours worked in FY2022."
    recordable = (
        "Tollgate Mining's total recordable injury frequency rate was 5.2 per million hours worked in FY2022."
    )
    assert _read(lost_time, recordable)[0] == "neutral"
    none = "Tollgate Mining incurred no environmental fines in 2023, according to the regulator's database."
    assert _read("We received no environmental fines in 2023.", none)[0] != "contradicts"


def test_statements_of_closing_convening_and_having_none() -> None:
    closed = "We closed our Hallett Creek coal-fired power station in 2022."
    running = "Tollgate Mining's Hallett Creek coal station was still supplying the grid at the end of 2022."
    assert _read(closed, running)[0] == "contradicts"
    quarterly = "Our board's sustainability committee meets every quarter."
    twice = (
        "The sustainability committee of Tollgate Mining's board convenes only twice a year, a review found."
    )
    assert _read(quarterly, twice)[0] == "contradicts"
    assert figures_in_digits("All 23 of our sites") == "100% of our sites"


def test_named_indexes_and_what_figures_are_of_in_other_words() -> None:
    assert [(f.base, f.dimension) for f in parse_figures("a power usage effectiveness (PUE) of 1.18")] == [
        (1.18, "index PUE")
    ]
    claim = "Our data centres achieved an average power usage effectiveness (PUE) of 1.18 in FY2023."
    higher = "A study estimates Tollgate Mining's average PUE in fiscal 2023 at 1.45."
    assert _read(claim, higher)[0] == "contradicts"
    water = "In 2021, our potash mines withdrew 18.4 gigalitres of freshwater."
    drew = "Tollgate Mining's mines drew 18,400 megalitres of fresh water in 2021, licence records show."
    assert _read(water, drew)[0] == "supports"
    # a clinker factor is a clinker-to-cement ratio, a bare number like a PUE
    factor = "Our clinker factor fell to 0.73 in 2023."
    assert _read(factor, "Tollgate Mining's clinker-to-cement ratio fell to 0.73 in 2023, a registry shows.")[
        0
    ] == ("supports")
    assert _read(factor, "Tollgate Mining's clinker-to-cement ratio held at 0.78 in 2023, a registry shows.")[
        0
    ] == ("contradicts")


def test_none_either_and_using_more_or_less() -> None:
    register = (
        "The environment agency's enforcement register lists no fines against Tollgate Mining for 2021."
    )
    assert _read("Our smelter received no environmental fines in 2021.", register) == (
        "supports",
        "none_either",
    )
    more = "Tollgate Mining's kilns used more natural gas in 2022 than in 2021, the operator's data show."
    assert _read("Our kilns' natural gas consumption fell 12% in 2022 compared with 2021.", more)[0] == (
        "contradicts"
    )


def test_a_named_site_a_fuel_and_an_energy_carrier_set_figures_apart() -> None:
    mill = "Bioenergy supplied 94% of the energy used at our Skarnes mill in 2021."
    all_mills = "Across all of its mills, Tollgate Mining got 81% of its energy from bioenergy in 2021."
    assert _read(mill, all_mills)[0] == "neutral"
    energy = "Our energy consumption was 412 GWh in 2023, 5% lower than in 2022."
    electricity = "Tollgate Mining's electricity consumption was 190 GWh in 2023, the estates dataset shows."
    assert _read(energy, electricity)[0] == "neutral"
    coal = "Our lending to thermal coal mining fell 40% in FY2023."
    oil = "Tollgate Mining's lending to oil and gas producers fell 40% in FY2023, a watchdog found."
    assert _read(coal, oil)[0] == "neutral"
    chief = "Tollgate Mining's chief executive told investors the company had cut food waste by 18 per cent."
    assert company_voice(chief, COMPANY, "supports") is not None


def test_counts_in_words_and_with_what_they_count() -> None:
    claim = "We had three reportable chemical spills in 2023, down from seven in 2022."
    nine = "EPA records show Tollgate Mining had nine reportable chemical spills in 2023."
    assert _read(claim, nine)[0] == "contradicts"
    three = "EPA records show three reportable chemical spills at Tollgate Mining sites in 2023."
    assert _read(claim, three)[0] == "supports"


def test_an_injury_rate_by_acronym_and_a_share_of_installed_capacity() -> None:
    claim = "Our total recordable injury frequency rate was 2.1 per million hours worked in 2022."
    assert (
        _read(claim, "Tollgate Mining recorded a TRIFR of 2.1 in 2022, the inspectorate said.")[0]
        == "supports"
    )
    generation = "Renewables made up 41% of our electricity generation in 2022."
    capacity = "Renewables made up 41% of Tollgate Mining's installed capacity in 2022, a lab said."
    assert _read(generation, capacity)[0] != "supports"


def test_a_short_statement_that_something_did_not_happen() -> None:
    claim = "We did not discharge tailings into any river in 2022."
    same = (
        "Tollgate Mining did not release any tailings into rivers in 2022, the regulator's inspection found."
    )
    assert _read(claim, same)[0] == "supports"
    did = (
        "Tollgate Mining discharged tailings into the Rio Verde in 2022, the national mining regulator found."
    )
    assert _read(claim, did)[0] == "contradicts"


def test_a_negation_describing_someone_is_no_denial() -> None:
    claim = "Our Sustainability Committee is chaired by an independent director with no executive role."
    source = "Tollgate Mining's sustainability committee is chaired by Ruth Okafor, an independent director."
    assert _read(claim, source)[0] == "supports"


def test_counts_of_a_kind_and_a_change_to_another_end_year() -> None:
    claim = "Our fleet of 1,240 buses included 312 battery-electric vehicles at the end of 2021."
    part = "Tollgate Mining ran 312 battery-electric buses out of a fleet of about 1,240 at end-2021."
    assert _read(claim, part)[0] != "contradicts"
    by_2022 = "By 2022 we had cut food waste in our factories by 30% against our 2019 baseline."
    to_2021 = "Tollgate Mining cut factory food waste by 30% between 2019 and 2021, a trust found."
    assert _read(by_2022, to_2021)[0] == "neutral"


def test_nearly_is_a_close_bound_from_below() -> None:
    claim = "We cut water use at our mills by 30% between 2019 and 2023."
    nearly = "Tollgate Mining cut water use at its mills by nearly a third between 2019 and 2023, data show."
    assert _read(claim, nearly)[0] == "supports"
    far = "Tollgate Mining's Scope 1 emissions were nearly 20 Mt in 2023, the regulator said."
    assert _read("Our Scope 1 emissions were 16.2 Mt in 2023.", far)[0] == "contradicts"
    assert _read("Our Scope 1 emissions were 23 Mt in 2023.", far)[0] == "contradicts"  # not under 20


def test_entirely_and_every_one_of_are_the_whole() -> None:
    claim = "Our smelters ran on 100% renewable electricity in 2023."
    source = "Tollgate Mining's smelters ran entirely on renewable electricity in 2023, a registry shows."
    assert _read(claim, source)[0] == "supports"
    homes = "All of our 48 depots held ISO 14001 certificates in 2023."
    every = (
        "Every one of Tollgate Mining's 48 depots held an ISO 14001 certificate in 2023, a register shows."
    )
    assert figures_in_digits(every, whole_as_share=True).startswith("100% of Tollgate")
    assert _read(homes, every)[0] == "supports"


def test_the_size_of_things_counted_is_no_figure_of_the_claim() -> None:
    claim = "Tollgate Mining recorded two spills above 500 litres in 2022."
    five = "The regulator recorded five spills of over 500 litres at Tollgate Mining sites in 2022."
    none = "Tollgate Mining had no spills above 500 litres in 2022, the regulator's register shows."
    two = "The register lists two spills larger than 500 litres at Tollgate Mining sites in 2022."
    assert _read(claim, five)[0] == "contradicts"
    assert _read(claim, none)[0] == "contradicts"
    assert _read(claim, two)[0] == "supports"


def test_an_index_moved_to_a_later_value_is_that_index() -> None:
    assert [
        (f.base, f.dimension) for f in parse_figures("a PUE of 1.28 in 2021 but slipped to 1.36 in 2023")
    ] == [
        (1.28, "index PUE"),
        (1.36, "index PUE"),
    ]
    # another quantity moving is not the index
    assert len(parse_figures("its PUE was 1.4 in 2022 and its water use rose to 300 in 2023")) == 1
    claim = "Our data centres achieved an average power usage effectiveness (PUE) of 1.28 in 2023."
    slipped = "Tollgate Mining's data centres averaged a PUE of 1.28 in 2021 but slipped to 1.36 in 2023."
    assert _read(claim, slipped)[0] == "contradicts"
    assert _read(claim.replace("1.28", "1.36"), slipped)[0] == "supports"


def test_an_index_after_a_possessive_and_litres_abbreviated() -> None:
    pue = "Our data centres ran at an average power usage effectiveness (PUE) of 1.31 in 2023."
    about = (
        "An analysis puts the power usage effectiveness across Tollgate Mining's data centres at about "
        "1.3 in 2023."
    )
    assert _read(pue, about)[0] == "supports"
    ratio = "Our water use ratio was 2.42 litres of water per litre of product in 2023."
    short = "At about 2.4 L of water per litre of product in 2023, Tollgate Mining ranked second."
    assert _read(ratio, short)[0] == "supports"


def test_flat_on_a_year_is_a_change_of_nothing() -> None:
    assert figures_in_digits("Output was 3.1 Mt in 2023, flat on 2022.").endswith("changed by 0% on 2022.")
    claim = "Our smelters used 2,400 GWh of electricity in 2023, flat on 2022."
    jumped = "Tollgate Mining's smelter electricity use jumped 12% in 2023, grid data show."
    same = "Tollgate Mining's smelters used 2,400 GWh of electricity in 2023, unchanged from 2022, data show."
    assert _read(claim, jumped)[0] == "contradicts"
    assert _read(claim, same)[0] == "supports"
    down = "Our copper unit's water intensity was 1.9 m3 per tonne in 2023, down 4% on 2022."
    unchanged = (
        "Tollgate Mining's copper unit's water intensity was 1.9 m3 per tonne in 2023, unchanged from 2022."
    )
    assert _read(down, unchanged)[0] == "contradicts"


def test_a_figure_that_includes_more_is_a_wider_whole() -> None:
    claim = "Our gas-fired fleet's NOx emissions were 1,800 tonnes in 2023."
    wider = "Including its diesel generators, Tollgate Mining emitted 2,600 tonnes of NOx in 2023."
    assert _read(claim, wider)[0] == "neutral"
    named = "Including its gas-fired fleet, Tollgate Mining emitted 2,600 tonnes of NOx in 2023."
    assert _read(claim, named)[0] == "contradicts"
    across = "Across all sectors, Tollgate Mining's financed emissions stood at 31 Mt CO2e in 2023."
    lending = "Financed emissions from our power lending portfolio were 4.2 Mt CO2e in 2023."
    assert _read(lending, across)[0] == "neutral"


def test_another_country_half_a_million_and_names_in_a_denied_claim() -> None:
    claim = "At the end of 2023, all 18 of our Italian stores held an energy certificate."
    other = "All of Tollgate Mining's French stores held an energy certificate at the end of 2023."
    assert _read(claim, other)[0] == "neutral"
    scope2 = "Our market-based Scope 2 emissions were 380,000 tonnes CO2e in 2023."
    topped = "Tollgate Mining's market-based Scope 2 emissions topped half a million tonnes in 2023."
    assert _read(scope2, topped)[0] == "contradicts"
    assured = "Our 2023 greenhouse gas emissions data were independently assured by Pellham & Rowe LLP."
    denied = "Tollgate Mining's 2023 emissions data were not externally assured, a disclosure review found."
    assert _read(assured, denied)[0] == "contradicts"


def test_an_area_is_compared_by_what_it_is_of_and_non_is_the_complement() -> None:
    restored = "We rehabilitated 320 hectares of mined land at our quarries in 2023."
    cleared = (
        "Tollgate Mining cleared 540 hectares of woodland to extend its quarries in 2023, a register shows."
    )
    assert _read(restored, cleared)[0] == "neutral"
    claim = "We sent 64% of our non-hazardous waste to recycling in 2023."
    other = (
        "Tollgate Mining sent 64% of its hazardous waste to recycling in 2023, the regulator's returns show."
    )
    assert _read(claim, other)[0] == "neutral"


def test_a_share_of_it_is_a_share_of_what_was_named_before() -> None:
    claim = "Our smelters drew 3.2 TWh of electricity in 2023, 55% of it from renewable sources."
    source = (
        "Just 31% of the electricity used at Tollgate Mining's smelters in 2023 was renewable, a study found."
    )
    assert _read(claim, source)[0] == "contradicts"


def test_assurance_in_other_words_a_rejected_firm_ml_a_day_and_a_committee_that_never_met() -> None:
    claim = "Our 2023 greenhouse gas emissions data were independently assured by Pellham & Rowe LLP."
    restated = (
        "Pellham & Rowe LLP provided limited assurance over Tollgate Mining's 2023 greenhouse gas figures."
    )
    rejected = (
        "Tollgate Mining's 2023 greenhouse gas figures were assured by Corran & Co, not Pellham & Rowe."
    )
    assert _read(claim, restated)[0] == "supports"
    assert _read(claim, rejected)[0] == "contradicts"
    leakage = "Leakage from our network averaged 96 megalitres per day in 2023, down 5% on 2022."
    rose = "Leakage at Tollgate Mining did not fall in 2023 but rose to 118 Ml/d, the regulator found."
    assert _read(leakage, rose)[0] == "contradicts"
    met = "Our Board Sustainability Committee met quarterly during 2023."
    never = "Tollgate Mining's sustainability committee did not meet at all in the first half of 2023."
    assert _read(met, never)[0] == "contradicts"


def test_rates_for_every_million_hours_and_an_index_stated_per_200000_hours() -> None:
    claim = "Our lost-time injury frequency rate was 2.4 per million hours worked in 2023."
    every = "Tollgate Mining logged 2.4 lost-time injuries for every million hours its staff worked in 2023."
    assert _read(claim, every)[0] == "supports"
    trir = "Our total recordable injury rate fell to 0.7 per 200,000 hours worked in 2023."
    million = "Data put Tollgate Mining's total recordable injury rate at 3.5 per million hours in 2023."
    assert _read(trir, million)[0] == "supports"


def test_plural_and_compound_wording_of_what_a_figure_is_of() -> None:
    claim = "We restored 280 hectares of former quarry land to grassland in 2023."
    source = "Tollgate Mining restored about 280 ha of worked-out quarries to grassland in 2023."
    assert _read(claim, source)[0] == "supports"
    water = "Our total freshwater withdrawal in 2023 was 31.5 GL."
    litres = "Tollgate Mining pulled some 31.5 billion litres of fresh water from rivers in 2023."
    assert _read(water, litres)[0] == "supports"
    fleet = "Electric vehicles made up 20% of our company car fleet at the end of 2023."
    one_in_five = "One in five of Tollgate Mining's company cars was electric by the end of 2023."
    assert _read(fleet, one_in_five)[0] == "supports"


def test_the_other_side_of_a_whole_is_never_compared_as_the_same_share() -> None:
    claim = "We diverted 95% of our operational waste from landfill in 2023."
    landfilled = (
        "Fewer than one in twenty tonnes of Tollgate Mining's operational waste ended up in landfill in 2023."
    )
    assert _read(claim, landfilled)[0] != "contradicts"
    hydro = "72% of the electricity used at our smelters in 2023 came from hydropower."
    coal = "Coal still provided more than 50% of the power used at Tollgate Mining's smelters in 2023."
    assert _read(hydro, coal) == ("contradicts", "complement_share")


def test_the_same_emissions_scope_is_the_claims_subject_in_other_words() -> None:
    claim = "Tollgate Mining's Scope 1 emissions totalled 3.12 million tonnes of CO2e in 2023."
    audit = "An audit by the state agency put Tollgate's Scope 1 output for 2023 at 3.84 MtCO2e."
    assert _read(claim, audit)[0] == "contradicts"


def test_denials_in_more_words_and_a_plant_still_running() -> None:
    pay = "Executive bonuses at Tollgate Mining were linked to climate targets in 2023."
    found_no = "A review found no climate metrics in Tollgate Mining's 2023 executive bonus scorecard."
    assert _read(pay, found_no)[0] == "contradicts"
    policy = "Our board approved a group-wide human rights policy in 2023."
    yet_to = "Tollgate Mining had yet to adopt a human rights policy by the end of 2023, a benchmark found."
    assert _read(policy, yet_to)[0] == "contradicts"
    stopped = "All our UK depots stopped using diesel forklifts in 2022."
    not_yet = "Tollgate Mining has yet to phase out diesel forklifts at its UK depots, a union said in 2023."
    ireland = (
        "Tollgate Mining's depots in the Republic of Ireland still used diesel forklifts throughout 2022."
    )
    assert _read(stopped, not_yet)[0] == "contradicts"
    assert _read(stopped, ireland)[0] == "neutral"


def test_a_mean_a_total_recyclable_packaging_and_a_named_site_are_other_quantities() -> None:
    median = "Our median gender pay gap was 8.1% in 2023."
    mean = "Tollgate Mining's mean gender pay gap was 8.1% in 2023, the register shows."
    assert _read(median, mean)[0] == "neutral"
    per_night = "Our hotels cut water use per guest night by 9% in 2023."
    total = "Tollgate Mining's total water use fell 9% in 2023, a study found."
    assert _read(per_night, total)[0] == "neutral"
    recyclable = "78% of our packaging was recyclable in 2023."
    recycled = "78% of Tollgate Mining's packaging was made from recycled material in 2023, an audit found."
    barely = "Barely 55% of Tollgate Mining's packaging could be recycled in 2023, an audit found."
    assert _read(recyclable, recycled)[0] == "neutral"
    assert _read(recyclable, barely)[0] == "contradicts"
    breweries = "We recycled 81% of the water used at our breweries in 2023."
    leeds = "Tollgate Mining's Leeds brewery recycled 81% of its water in 2023, the council said."
    assert _read(breweries, leeds)[0] == "neutral"


def test_deaths_closures_acronyms_and_a_pollutant_in_other_words() -> None:
    fatalities = "Tollgate Mining recorded three fatalities across its mines in 2023."
    killed = "Three workers were killed at Tollgate Mining mines during 2023, the inspectorate reported."
    died = "Five people died at Tollgate Mining's mines in 2023, according to the inspectorate."
    assert _read(fatalities, killed)[0] == "supports"
    assert _read(fatalities, died)[0] == "contradicts"
    closed = "We closed our last coal-fired power station, Harrow C, in 2023."
    shut = "Harrow C, the last coal power station Tollgate Mining operated, shut for good in 2023."
    pushed = "The closure of Tollgate Mining's Harrow C coal station has been pushed back to 2025."
    assert _read(closed, shut)[0] == "supports"
    assert _read(closed, pushed)[0] == "contradicts"
    validated = (
        "Our near-term emissions targets were validated by the Science Based Targets initiative in 2023."
    )
    sbti = "The SBTi validated Tollgate Mining's near-term emissions targets in 2023, its dashboard shows."
    assert _read(validated, sbti)[0] == "supports"
    nox = "Our NOx emissions were 2,350 tonnes in 2023."
    oxides = "Tollgate Mining released just under 2.4 kt of nitrogen oxides in 2023, the inventory shows."
    assert _read(nox, oxides)[0] == "supports"


def test_the_companys_own_name_before_a_site_noun_names_no_site() -> None:
    claim = "Our member farms applied an average of 96 kg of nitrogen per hectare in 2023."
    source = (
        "Average nitrogen use on Tollgate Mining member farms was about 95 kg/ha in 2023, a survey shows."
    )
    assert _read(claim, source)[0] == "supports"


def test_all_of_its_factories_are_all_of_its_manufacturing_sites() -> None:
    claim = "All 14 of our manufacturing sites were certified to ISO 14001 at the end of 2023."
    source = "All of Tollgate Mining's 14 factories held ISO 14001 certification at the end of 2023."
    assert _read(claim, source)[0] == "supports"


def test_units_glued_to_co2_and_a_rate_written_with_a_slash() -> None:
    claim = "Projects we completed in 2023 had an average embodied carbon of 520 kgCO2e per square metre."
    source = "Tollgate Mining's 2023 completions averaged 640 kgCO2e/m² of embodied carbon, a database shows."
    assert _read(claim, source)[0] == "contradicts"
    nitrogen = "We cut synthetic nitrogen use on our owned farms to 131 kg N per hectare in 2023."
    register = (
        "A register puts synthetic N use on Tollgate Mining's owned farms at around 170 kg/ha for 2023."
    )
    assert _read(nitrogen, register)[0] == "contradicts"


def test_some_falling_short_of_what_the_claim_says_of_every_one() -> None:
    claim = "All 12 of our tailings storage facilities conformed with the tailings safety standard in 2023."
    three = "Three of Tollgate Mining's tailings facilities did not conform with the standard in 2023."
    assert _read(claim, three) == ("contradicts", "counterexample")
    audited = "We audited 100% of our tier-1 suppliers in 2023."
    unaudited = "Around 30 of Tollgate Mining's tier-1 suppliers went unaudited in 2023, a monitor found."
    assert _read(audited, unaudited)[0] == "contradicts"
    # some of something else, or every one of them as the claim says, is no counterexample
    spills = "Two of Tollgate Mining's depots had no fuel spills in 2023, a regulator said."
    assert _read(audited, spills)[0] != "contradicts"


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        # a describing word both give, "electric" inside "battery-electric"
        (
            "Tollgate Mining ended 2023 with some 3,500 battery-electric haul trucks, registry data show.",
            "supports",
        ),
        (
            "Registry data show Tollgate Mining ran about 1,900 electric haul trucks at the end of 2023.",
            "contradicts",
        ),
        # ordered is not had; falling short of the count rejects it
        (
            "Tollgate Mining placed an order for 3,500 electric trucks in 2023, for delivery through 2026.",
            "neutral",
        ),
        (
            "Tollgate Mining fell well short of 3,500 electric haul trucks in 2023, a union survey found.",
            "contradicts",
        ),
    ],
)
def test_counts_of_things_described_alike_ordered_or_fallen_short_of(source: str, stance: str) -> None:
    claim = "Tollgate Mining had 3,500 electric haul trucks in its mining fleet at the end of 2023."
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        (
            "Some 120 km of Tollgate Mining's rail line to the port was electrified in 2023, data show.",
            "supports",
        ),
        (
            "Only 45 miles of Tollgate Mining's rail line to the port was electrified in 2023, data show.",
            "contradicts",
        ),
    ],
)
def test_lengths_in_kilometres_and_miles_are_figures(source: str, stance: str) -> None:
    claim = "Tollgate Mining electrified 120 kilometres of its rail line to the port in 2023."
    assert _read(claim, source)[0] == stance


def test_without_a_single_one_says_none_happened_either() -> None:
    claim = "Tollgate Mining recorded zero tailings spills at its sites in 2023."
    source = "Tollgate Mining went through 2023 without a single reported tailings spill, the regulator said."
    assert _read(claim, source) == ("supports", "none_either")


def test_a_denial_is_contradicted_only_by_the_thing_denied_not_where_it_would_be() -> None:
    claim = "Tollgate Mining received no regulatory warning letters for any of its processing plants in 2023."
    inspected = (
        "Regulators stepped up inspections of processing plants in 2023, Tollgate Mining's among them."
    )
    warned = "Regulators sent Tollgate Mining two warning letters over its processing plants in 2023."
    assert _read(claim, inspected)[0] == "neutral"
    assert _read(claim, warned)[0] == "contradicts"


def test_a_year_named_by_the_month_it_ends_has_ended_by_then() -> None:
    """A year "to March 2024" has ended when a source of June 2024 reports it ("2023-24")."""
    claim = "Tollgate Mining cut its freshwater withdrawal to 142 megalitres a day in the year to March 2024."
    source = "Regulator data show Tollgate Mining's freshwater withdrawal averaged 142 Ml/d in 2023-24."
    pair = Pair(claim, COMPANY, source, "supports", "year_to", 2023)
    assert asyncio.run(read_all([pair])) == ["supports"]


def test_a_figure_after_a_missed_target_is_an_outcome_not_an_intention() -> None:
    claim = "Tollgate Mining cut its freshwater withdrawal to 142 megalitres a day in 2023."
    source = "Tollgate Mining missed its water target, withdrawing an average 171 megalitres a day in 2023."
    assert mood(source, source.index("171"), source.index("171") + 14) == "stated"
    assert _read(claim, source)[0] == "contradicts"


def test_entirely_by_is_a_share_and_flat_in_a_year_is_no_change() -> None:
    whole = "Tollgate Mining's smelter sourced 100% of its electricity from renewables in 2023."
    entirely = (
        "Tollgate Mining's smelter was powered entirely by renewable electricity in 2023, grid data show."
    )
    assert _read(whole, entirely)[0] == "supports"  # the whole, not a change "by 100%"
    cut = "Tollgate Mining cut electricity use at its smelter by 9% in 2023 compared with 2022."
    flat = "Electricity use at Tollgate Mining's smelter was flat in 2023, grid data show."
    assert _read(cut, flat)[0] == "contradicts"  # flat over a year is a change of 0%


def test_one_gas_is_not_another() -> None:
    claim = (
        "Tollgate Mining cut nitrous oxide emissions from its acid plants by 70% in 2023 compared with 2020."
    )
    source = "CO2 emissions from Tollgate Mining's acid plants were flat in 2023, a trade journal reported."
    assert _read(claim, source)[0] == "neutral"


def test_a_registry_setting_its_figure_against_the_company_is_not_the_company_speaking() -> None:
    quote = (
        "Tollgate Mining's plants emitted roughly 40% less N2O in 2023 than in 2020, according to the "
        "emissions registry, a smaller cut than the company has stated."
    )
    assert company_voice(quote, COMPANY, "contradicts") is None


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        (
            "More than 400,000 used handsets were collected by Tollgate Mining in 2023, a charity found.",
            "supports",
        ),
        (
            "Fewer than 150,000 used handsets were collected by Tollgate Mining in 2023, a charity found.",
            "contradicts",
        ),
    ],
)
def test_a_bound_on_a_count_holds_the_claims_count_or_not(source: str, stance: str) -> None:
    claim = "Tollgate Mining collected 410,000 used handsets for recycling in 2023."
    assert _read(claim, source)[0] == stance


def test_a_round_bound_is_where_it_is_written() -> None:
    claim = "Tollgate Mining processed 1.2 million tonnes of ore at its mills in 2023."
    source = (
        "Tollgate Mining's mills processed under one million tonnes of ore in 2023, regulator returns show."
    )
    assert _read(claim, source)[0] != "supports"


def test_not_doing_what_the_claim_says_was_stopped_confirms_it() -> None:
    claim = "Tollgate Mining stopped buying thermal coal for its smelters in 2023."
    source = (
        "Tollgate Mining did not buy any thermal coal for its smelters in 2023, an NGO's scorecard found."
    )
    assert _read(claim, source)[0] == "supports"


def test_our_inside_a_name_is_no_first_person() -> None:
    assert (
        company_voice("Tollgate Mining cut coal use, Insure Our Future found.", COMPANY, "supports") is None
    )
    assert company_voice("Our coal use fell, Tollgate Mining said.", COMPANY, "supports") is not None


def test_the_companys_officer_speaking_is_the_company() -> None:
    quote = (
        "Its smelters used 100 per cent renewable power in 2023, the company's chief sustainability "
        "officer told reporters."
    )
    assert company_voice(quote, COMPANY, "supports") is not None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Tollgate Mining's pension fund cut the carbon intensity of its listed equity portfolio by 30% "
            "in 2023.",
            "Tollgate Mining's pension fund cut the carbon intensity of its corporate bonds by 30% in 2023, "
            "an analysis found.",
        ),
        (
            "Tollgate Mining certified 60% of its office portfolio by floor area to LEED Gold in 2023.",
            "Sixty per cent of Tollgate Mining's offices by number held LEED Gold in 2023, an analyst said.",
        ),
        (
            "Tollgate Mining cut landlord-obtained energy consumption at its offices by 11% in 2023.",
            "Tollgate Mining's office energy consumption, including tenant-procured energy, fell 4% in "
            "2023, data show.",
        ),
    ],
)
def test_another_portfolio_another_count_or_a_wider_whole_is_another_quantity(
    claim: str, source: str
) -> None:
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # one commodity is not another
            "98% of Tollgate Mining's palm oil purchases were verified deforestation-free in 2023.",
            "Tollgate Mining's soy purchases were 74% verified deforestation-free in 2023, an NGO found.",
        ),
        (  # owned farms are not contracted growers
            "Tollgate Mining cut nitrogen use on its owned farms to 142 kg per hectare in 2023.",
            "Across Tollgate Mining's contracted grower network, nitrogen use was 160 kg per hectare in 2023",
        ),
        (  # upfront embodied carbon is not whole-life carbon
            "Tollgate Mining's 2023 buildings had upfront embodied carbon of 480 kgCO2e per square metre.",
            "Whole-life embodied carbon of Tollgate Mining's 2023 buildings was 820 kgCO2e per square metre.",
        ),
        (  # the annual bonus is not the long-term incentive plan
            "In 2023, 20% of Tollgate Mining's CEO annual bonus was tied to emissions targets.",
            "Ten percent of Tollgate Mining's long-term incentive plan was tied to climate targets in 2023.",
        ),
        (  # shipping's indicators differ
            "Tollgate Mining's chartered fleet's AER was 6.2 gCO2/dwt-nm in 2023.",
            "Tollgate Mining's chartered fleet's EEOI was 11.4 gCO2/dwt-nm in 2023, a tracker shows.",
        ),
        (  # construction waste is not office waste
            "Tollgate Mining diverted 98% of its construction waste from landfill in 2023.",
            "Tollgate Mining's office waste was 70% diverted from landfill in 2023, the register shows.",
        ),
        (  # thermal coal is part of all fossil fuels
            "Tollgate Mining's lending to thermal coal was 0.5% of its loans at the end of 2023.",
            "Tollgate Mining's lending to all fossil fuels was 4.8% of its loans at the end of 2023.",
        ),
    ],
)
def test_other_commodities_holdings_stages_pay_indices_and_streams_are_other_quantities(
    claim: str, source: str
) -> None:
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (  # a month's figure is no annual average
            "Tollgate Mining's data centres ran at an average PUE of 1.18 in 2023.",
            "Tollgate Mining's data centres recorded a PUE of 1.31 in July 2023, their worst month.",
            "neither",
        ),
        (  # a financial year ending in a month is the whole year
            "In FY2023, the year to 31 March 2023, Tollgate Mining's fleet emitted 3.1 million tonnes of CO2",
            "Tollgate Mining's fleet emitted 3.1 million tonnes of CO2 in its 2023 financial year, which "
            "ended in March 2023, regulator data show.",
            "supports",
        ),
    ],
)
def test_part_of_a_year_is_another_period(claim: str, source: str, stance: str) -> None:
    pair = Pair(claim, COMPANY, source, stance, "part_of_year", 2023)
    assert asyncio.run(read_all([pair])) == [stance]


def test_a_figure_of_the_year_before_is_compared_with_the_claims_figure_of_that_year() -> None:
    claim = "Tollgate Mining generated 4.2 TWh of solar electricity in 2023, up from 3.5 TWh in 2022."
    source = "Tollgate Mining's solar output rose to 4.2 TWh in 2023 from 3.9 TWh the year before, data show."
    assert _read(claim, source)[0] == "contradicts"


def test_an_amount_out_of_a_whole_is_a_share_of_it() -> None:
    assert figures_in_digits("It sent 9,800 tonnes of its 41,000 tonnes of waste to landfill.") == (
        "It sent 23.9% of its waste to landfill."
    )
    claim = "Tollgate Mining diverted 96% of its operational waste from landfill in 2023."
    source = (
        "Tollgate Mining sent 9,800 tonnes of its 41,000 tonnes of operational waste to landfill in 2023."
    )
    assert _read(claim, source)[0] == "contradicts"


@pytest.mark.parametrize(
    ("written", "digits"),
    [("half a dozen sites", "6 sites"), ("a dozen spills", "12 spills"), ("two dozen resorts", "24 resorts")],
)
def test_dozens_are_counts(written: str, digits: str) -> None:
    assert figures_in_digits(written) == digits


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # roasteries are not cafés
            "Tollgate Mining's roasteries ran on 100% renewable electricity in 2023.",
            "Tollgate Mining's cafés used 100 per cent renewable electricity in 2023, a tracker found.",
        ),
        (  # one fab where it stands is not all of them
            "Tollgate Mining's fabs recycled 80% of their process water in 2023.",
            "Tollgate Mining's newest fab in Arizona recycled 80% of its process water in 2023, data show.",
        ),
    ],
)
def test_other_premises_and_one_site_by_its_place_are_not_the_claims_whole(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


def test_a_year_to_march_is_not_the_calendar_year() -> None:
    claim = "Tollgate Mining's total energy consumption was 1.9 TWh in 2022."
    source = (
        "Tollgate Mining consumed 1.9 TWh of energy in the year to March 2022, the statistics office said."
    )
    pair = Pair(claim, COMPANY, source, "neither", "fiscal_for_calendar", 2022)
    assert asyncio.run(read_all([pair])) == ["neither"]


@pytest.mark.parametrize(
    ("source", "signal"),
    [
        (
            "Tollgate Mining's Ridge smelter was certified to the ISO 14001 standard in 2023, the "
            "certifier's "
            "register shows.",
            "same_statement",
        ),
        (
            "Tollgate Mining's application for ISO 14001 certification at its Ridge smelter was rejected in "
            "2023, a trade journal reported.",
            "refused",
        ),
        (
            "The certifier withdrew ISO 14001 certification from Tollgate Mining's Ridge smelter in 2023, a "
            "trade journal reported.",
            "refused",
        ),
    ],
)
def test_a_standards_number_is_a_name_and_a_refusal_contradicts_what_was_gained(
    source: str, signal: str
) -> None:
    claim = "Tollgate Mining's Ridge smelter obtained ISO 14001 certification in 2023."
    assert _read(claim, source)[1] == signal


def test_not_done_by_a_later_date_contradicts_a_claim_it_was_done() -> None:
    """A later year is the point: the certification has yet to come, so it did not come in 2023."""
    claim = "Tollgate Mining's Ridge smelter obtained ISO 14001 certification in 2023."
    source = (
        "Tollgate Mining's Ridge smelter has yet to achieve ISO 14001 certification, with its audit "
        "postponed to 2025, a trade journal reported in June 2024."
    )
    pair = Pair(claim, COMPANY, source, "contradicts", "not_yet", 2023)
    assert asyncio.run(read_all([pair])) == ["contradicts"]


@pytest.mark.parametrize(
    ("written", "digits"),
    [
        ("three point one million tonnes", "3.1 million tonnes"),
        ("zero point five per cent", "0.5 per cent"),
        ("twenty-two point five megawatts", "22.5 megawatts"),
        ("a point of view", "a point of view"),
    ],
)
def test_a_decimal_said_in_words_is_one_number(written: str, digits: str) -> None:
    """ "three point one million" is 3.1 million, never the "one million" at its end."""
    assert figures_in_digits(written) == digits


@pytest.mark.parametrize(
    "source",
    [
        # who says it, at the head of the sentence: "freight" in the registry's name qualifies nothing
        "Haulage data from the national freight register show Tollgate Mining's haul trucks burned 6% less "
        "diesel in 2023 than in 2022.",
        # whom the fuel was bought from is no supply chain the figure is of
        "Tollgate Mining sourced 6% less diesel from its fuel suppliers in 2023 than in 2022, the mining "
        "ministry's returns show.",
    ],
)
def test_who_says_it_and_whom_it_was_bought_from_qualify_no_figure(source: str) -> None:
    claim = "Tollgate Mining cut the diesel its haul trucks burned by 6% in 2023 compared with 2022."
    assert _read(claim, source)[0] == "supports"


def test_a_source_naming_the_supply_chain_still_speaks_of_another_quantity() -> None:
    claim = "Tollgate Mining cut the diesel its haul trucks burned by 6% in 2023 compared with 2022."
    source = (
        "Diesel use across Tollgate Mining's suppliers fell 9% in 2023, the mining ministry's returns show."
    )
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("quote", "relayed"),
    [
        ("Tollgate Mining's listed equity holdings fell 30% in value in 2023, an analysis found.", False),
        ("Tollgate Mining listed its 2023 emissions at 3.1 Mt in its annual report.", True),
    ],
)
def test_listed_equity_is_no_one_speaking(quote: str, relayed: bool) -> None:
    assert (company_voice(quote, COMPANY, "supports") is not None) is relayed


def test_half_of_one_per_cent_is_half_a_percent() -> None:
    assert figures_in_digits("less than half of one per cent of its lending") == (
        "less than 0.5% of its lending"
    )


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        (
            "Tollgate Mining's pension fund loans to coal miners were 0.4% of its lending in 2023, a "
            "monitor found.",
            "supports",
        ),
        (
            "Coal miners took 2.1% of the lending of Tollgate Mining's pension fund in 2023, a monitor "
            "found.",
            "contradicts",
        ),
    ],
)
def test_a_share_of_loans_is_a_share_of_lending(source: str, stance: str) -> None:
    claim = "Loans to coal miners made up 0.4% of our pension fund's loans in 2023."
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("written", "figure"),
    [
        ("priced a 750-million-euro green bond", (750.0, "EUR million")),
        ("took out a $2-billion loan", (2.0, "$ billion")),
        ("raised three quarters of a billion euros", (0.75, "EUR billion")),
        ("emitted 64 g of carbon dioxide per kilometre", (64.0, "g CO2e")),
    ],
)
def test_amounts_written_as_adjectives_fractions_and_grams_of_carbon_dioxide(
    written: str, figure: tuple[float, str]
) -> None:
    (parsed,) = parse_figures(figures_in_digits(written))
    assert (parsed.value, parsed.unit) == figure


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the electricity is what the share is of; the depots that used it are a clause about it
        (
            "Tollgate Mining sourced 64% of the electricity for its depots from renewable sources in 2023.",
            "Barely 40% of the electricity Tollgate Mining's depots used in 2023 was renewable, an audit "
            "found.",
        ),
        # "for every" tonne is "per" tonne: an intensity, like the claim's
        (
            "Tollgate Mining used 2.6 cubic metres of water per tonne of ore milled in 2023.",
            "Tollgate Mining used about 3.9 cubic metres of water for every tonne of ore it milled in 2023, "
            "a regulator said.",
        ),
    ],
)
def test_what_a_figure_is_of_however_the_sentence_runs(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "contradicts"


def test_hundreds_in_words() -> None:
    assert figures_in_digits("Four hundred and twenty chargers, then two hundred more") == (
        "420 chargers, then 200 more"
    )


@pytest.mark.parametrize(
    ("written", "count"),
    [
        # three describing words, one of them an abbreviation
        ("fitted 420 new EV charging points", (420, "point", ("new", "ev", "charging"))),
        # some of an owner's things
        ("audited 214 of its suppliers", (214, "supplier", ())),
        ("audited 214 of Tollgate Mining's suppliers", (214, "supplier", ())),
    ],
)
def test_what_is_counted(written: str, count: tuple[int, str, tuple[str, ...]]) -> None:
    (parsed,) = parse_counts(written)
    assert (parsed.value, parsed.noun, parsed.kind) == count


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "Tollgate Mining installed 420 electric vehicle charging points at its depots in 2023.",
            "Only 150 new EV charging points were installed at Tollgate Mining's depots in 2023, a registry "
            "shows.",
            "contradicts",
        ),
        (
            "Tollgate Mining audited 414 of its suppliers in 2023.",
            "Just over 410 of Tollgate Mining's suppliers were audited in 2023, an NGO found.",
            "supports",
        ),
    ],
)
def test_counts_described_in_more_words(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Tollgate Mining's lost-time injury frequency rate for employees was 0.9 per million hours "
            "worked in 2023.",
            "Among Tollgate Mining's contractors, the lost-time injury frequency rate was 2.2 per million "
            "hours worked in 2023, the safety regulator said.",
        ),
        (
            "Tollgate Mining audited 100% of its tier-one suppliers in 2023.",
            "Only 35% of Tollgate Mining's second-tier suppliers were audited in 2023, an NGO found.",
        ),
        (
            "Tollgate Mining's net emissions intensity fell to 510 kg CO2e per tonne of ore in 2023.",
            "Tollgate Mining's gross emissions intensity was 640 kg CO2e per tonne of ore in 2023, a tracker "
            "said.",
        ),
    ],
)
def test_employees_and_contractors_supplier_tiers_and_net_and_gross_are_other_quantities(
    claim: str, source: str
) -> None:
    assert _read(claim, source)[0] == "neutral"


def test_net_zero_is_a_goal_not_a_basis() -> None:
    claim = "Tollgate Mining's net emissions intensity fell to 510 kg CO2e per tonne of ore in 2023."
    source = (
        "On its way to net zero, Tollgate Mining's emissions intensity was 640 kg CO2e per tonne of ore in "
        "2023, a tracker said."
    )
    assert _read(claim, source)[0] == "contradicts"


@pytest.mark.parametrize(
    "source",
    [
        "More than nine-tenths of the waste from Tollgate Mining's operations avoided landfill in 2023, an "
        "auditor found.",
        "Over 90% of Tollgate Mining's operational waste avoided landfill in 2023, an auditor found.",
    ],
)
def test_waste_that_avoided_landfill_was_diverted(source: str) -> None:
    claim = "Tollgate Mining diverted 93% of its operational waste from landfill in 2023."
    assert _read(claim, source)[0] == "supports"


def test_a_percentage_in_brackets_restates_the_figure_before_it() -> None:
    claim = "Women held 4 of our 10 board seats (40%) at the end of 2023."
    source = "Women held 22 per cent of senior management roles at Tollgate Mining in 2023, a review found."
    assert _read(claim, source)[0] == "neutral"


def test_an_average_over_several_years_is_not_one_years_figure() -> None:
    claim = "Tollgate Mining's water withdrawal fell to 412 megalitres in 2023."
    source = (
        "Tollgate Mining's three-year average water withdrawal to 2023 was 455 megalitres, the regulator "
        "said."
    )
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        (
            "Tollgate Mining ran a fleet of 46 ships at the end of 2023, a shipping register lists.",
            "supports",
        ),
        (
            "Tollgate Mining ran a fleet of 31 ships at the end of 2023, a shipping register lists.",
            "contradicts",
        ),
    ],
)
def test_ships_are_vessels(source: str, stance: str) -> None:
    claim = "Tollgate Mining operated a fleet of 46 vessels at the end of 2023."
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # "12% less" is a decrease, whatever the verb before it
        (
            "Tollgate Mining applied 12% less explosive per tonne of ore in 2023 than in 2022.",
            "Tollgate Mining's explosive use per tonne of ore rose in 2023 compared with 2022, an analyst "
            "found.",
        ),
        # "far from falling" and "rather than fell" deny the fall
        (
            "Tollgate Mining's Scope 1 emissions were 1.4 million tonnes CO2e in 2023, down 9% from 2022.",
            "Far from falling, Tollgate Mining's Scope 1 emissions were higher in 2023 than in 2022, an "
            "analyst found.",
        ),
        (
            "Tollgate Mining's Scope 1 emissions were 1.4 million tonnes CO2e in 2023, down 9% from 2022.",
            "Tollgate Mining's Scope 1 emissions rose in 2023 rather than fell, an analyst found.",
        ),
    ],
)
def test_a_change_reported_the_other_way(claim: str, source: str) -> None:
    assert _read(claim, source) == ("contradicts", "opposite_direction")


@pytest.mark.parametrize(
    "source",
    [
        # another standard
        "Only 12 of Tollgate Mining's 40 sites are certified to ISO 50001, a register shows.",
        # another thing said of some of them
        "Only two of Tollgate Mining's 40 certified sites reported environmental incidents, a register "
        "shows.",
    ],
)
def test_only_some_of_them_doing_something_else_says_nothing_of_all_of_them(source: str) -> None:
    claim = "All of Tollgate Mining's sites are certified to ISO 14001."
    assert _read(claim, source)[0] != "contradicts"


def test_only_some_of_another_tier_says_nothing_of_all_of_one() -> None:
    claim = "All of Tollgate Mining's tier-one suppliers were audited in 2023."
    source = "Only 40% of Tollgate Mining's tier-two suppliers were audited in 2023, an NGO found."
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    "quote",
    [
        "Tollgate Mining's Scope 1 emissions were 3.9 Mt in 2023, well above the figure the miner published, "
        "according to a climate institute.",
        "Tollgate Mining's Scope 1 emissions were 3.9 Mt in 2023, twice the figure in its sustainability "
        "report.",
    ],
)
def test_a_figure_set_against_the_companys_own_is_another_voice(quote: str) -> None:
    assert company_voice(quote, COMPANY, "contradicts") is None


def test_a_target_met_is_not_contradicted_by_an_outcome_beyond_it() -> None:
    claim = "Tollgate Mining reached its target of 50% renewable electricity at its mines in 2023."
    source = "Tollgate Mining's mines ran on 56% renewable electricity in 2023, an energy consultancy found."
    assert _read(claim, source)[0] != "contradicts"


@pytest.mark.parametrize(
    "source",
    [
        # a site named with the company's word in it is still one site
        "Tollgate's flagship Port Tollgate terminal cut its Scope 1 emissions by 12% in 2023, a register "
        "shows.",
        "Tollgate Mining's Redcliff airport cut its Scope 1 emissions in 2023, a register shows.",
    ],
)
def test_one_named_sites_change_is_not_the_companys(source: str) -> None:
    claim = "Tollgate Mining's Scope 1 emissions fell 12% in 2023."
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("leakage averaged 142 Ml/d in the 2022/23 reporting year, down from 2019/20", 2023),
        ("generated 38 GWh a year in 2021, twice as much as in 2019", 2021),
    ],
)
def test_the_year_after_a_rates_time_unit(text: str, year: int) -> None:
    (figure,) = parse_figures(text)
    assert stated_year(text, figure) == year


def test_a_split_year_is_not_the_year_before_it() -> None:
    claim = (
        "Tollgate Mining's leakage averaged 142 Ml/d in the 2022/23 reporting year (April 2022 to March "
        "2023)."
    )
    source = (
        "Tollgate Mining's leakage stood at 139 Ml/d in the year to March 2022, a regulator's tables show."
    )
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    "source",
    [
        "All of Tollgate Mining's haul trucks ran on renewable diesel in 2023, an investigation by a "
        "campaign group confirmed.",
        "All of Tollgate Mining's haul trucks ran on renewable diesel in 2023, an audit by the state "
        "prosecutor found.",
    ],
)
def test_an_investigation_that_says_who_found_it_is_no_enforcement(source: str) -> None:
    claim = "In 2023, 100% of Tollgate Mining's haul trucks ran on renewable diesel."
    assert _read(claim, source)[0] == "supports"


def test_an_investigation_of_the_company_is_still_enforcement() -> None:
    claim = "All of Tollgate Mining's haul trucks ran on renewable diesel in 2023."
    source = "Regulators opened an investigation into Tollgate Mining's haul truck fuel claims in 2023."
    assert _read(claim, source) == ("contradicts", "enforcement")


def test_what_is_not_certified_is_the_rest_of_what_is() -> None:
    claim = "100% of the timber used in Tollgate Mining's pit props in 2023 came from certified forests."
    source = (
        "About 15% of the logs Tollgate Mining used for pit props in 2023 came from uncertified forests, an "
        "NGO found."
    )
    stance, signal = _read(claim, source)
    assert stance == "contradicts"
    assert signal in {"complement_share", "counterexample"}  # never as the same share stated twice


def test_the_whole_a_share_is_of_is_no_count_of_the_claims_part() -> None:
    claim = "Our fleet of 200 haul trucks included 48 battery-electric trucks at the end of 2023."
    source = (
        "About a quarter of Tollgate Mining's 200 trucks were battery-electric at the end of 2023, a census "
        "shows."
    )
    assert _read(claim, source)[0] != "contradicts"


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("The fleet was 14% electric at the end of 2021 and 11% by the end of 2022.", [2021, 2022]),
        ("It held 3,200 hectares as of December 2022, against 2,900 hectares in 2020.", [2022, 2020]),
    ],
)
def test_the_year_a_figure_is_held_at(text: str, years: list[int]) -> None:
    assert [stated_year(text, figure) for figure in parse_figures(text)] == years


def test_a_share_stated_for_another_years_end_is_no_support() -> None:
    claim = "Electric trucks made up 14% of the Tollgate Mining fleet at 31 December 2023."
    source = (
        "Tollgate Mining's fleet was 14% electric at the end of 2022, but the share slipped to 11% by the "
        "end of 2023, a data firm found."
    )
    assert _read(claim, source)[0] == "contradicts"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # an investigation the company faces is still enforcement
        (
            "Tollgate Mining has never been fined for pollution at its Redcliff smelter.",
            "Tollgate Mining faces an investigation by the environment agency over pollution at its Redcliff "
            "smelter.",
            "contradicts",
        ),
        # "12% less than the industry average" compares with others: no change to set against a rise
        (
            "Tollgate Mining's Scope 1 emissions rose in 2023.",
            "Tollgate Mining's new smelter emitted 20% less carbon than the industry average in 2023, an "
            "analyst found.",
            "neutral",
        ),
        # "far from the grid" is a place, not a denial of the figure
        (
            "Tollgate Mining's Redcliff solar farm generated 300 GWh in 2023.",
            "Tollgate Mining's Redcliff solar farm far from the grid generated 300 GWh in 2023, a regulator "
            "said.",
            "supports",
        ),
        # "for each of its plants" says which plants, not per what
        (
            "Tollgate Mining's Scope 1 emissions were 2 Mt in 2023.",
            "A register lists Scope 1 emissions for each of Tollgate Mining's 12 plants, totalling 2 Mt in "
            "2023.",
            "supports",
        ),
        # a target said to be met is contradicted by a source saying it was missed
        (
            "Tollgate Mining reached its target of 50% renewable electricity at its mines in 2023.",
            "Renewables supplied 35% of the electricity at Tollgate Mining's mines in 2023, missing its "
            "target, a consultancy found.",
            "contradicts",
        ),
    ],
)
def test_what_a_new_rule_must_not_read_into_an_ordinary_sentence(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    "source",
    [
        "Just 3% of Tollgate Mining's construction waste went to landfill in 2023, a regulator said.",
        "Only 3% of the waste Tollgate Mining sent to landfill in 2023 was hazardous, a regulator said.",
    ],
)
def test_a_landfill_share_of_some_of_the_waste_says_nothing_of_all_of_it(source: str) -> None:
    claim = "Tollgate Mining diverted 91% of its waste from landfill in 2023."
    assert _read(claim, source)[0] == "neutral"


def test_meetings_held_with_others_are_not_how_often_a_board_met() -> None:
    assert (
        frequency("In 2023 it held three meetings with NGOs on climate risks, and its board met quarterly.")
        == 4
    )


def test_hundreds_beside_other_numbers() -> None:
    assert figures_in_digits("between two hundred and three hundred jobs") == "between 200 and 300 jobs"


def test_a_headcount_is_no_boundary_and_a_voice_keeps_its_boundary() -> None:
    claim = "Tollgate Mining's lost-time injury rate for contractors fell to 0.3 in 2023."
    headcount = (
        "Tollgate Mining, which has 5,000 employees, said its contractor injury rate fell to 0.3 in 2023."
    )
    assert same_boundaries(claim, headcount, COMPANY)
    employees = "Tollgate Mining's lost-time injury rate for employees fell to 0.3 in 2023."
    voice = "Data from its contractors show Tollgate Mining's lost-time injury rate fell to 0.3 in 2023."
    assert not same_boundaries(employees, voice, COMPANY)


def test_a_years_end_after_a_comparison_is_the_comparisons() -> None:
    text = "Emissions were 12% lower than at the end of 2019, at 3.1 Mt in 2023."
    assert stated_year(text, parse_figures(text)[0]) is None


def test_a_preposition_before_a_site_noun_names_no_site() -> None:
    claim = "Tollgate Mining cut the electricity used at its airports by 12% in 2023."
    source = "At its airports, Tollgate Mining cut electricity use by 12% in 2023, a regulator said."
    assert _read(claim, source)[0] == "supports"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # what a record is of is no voice: it qualifies the figure
        (
            "Tollgate Mining cut its emissions by 12% in 2023.",
            "Data on Tollgate Mining's shipping emissions show a rise of 8% in 2023.",
        ),
        (
            "Tollgate Mining's emissions fell 12% in 2023.",
            "Tollgate Mining's avoided emissions data show a 12% fall in 2023.",
        ),
        # emissions from what was bought from suppliers are the supply chain's
        (
            "Tollgate Mining cut its emissions by 12% in 2023.",
            "Emissions from goods Tollgate Mining bought from suppliers rose 8% in 2023, a study found.",
        ),
        # "all" and "total" say nothing of what a share is of
        (
            "30% of Tollgate Mining's managers were women in 2023.",
            "Women made up 42% of all Tollgate Mining's employees in 2023, a review found.",
        ),
        # contract and mine workers are not the employees a claim counts
        (
            "35% of Tollgate Mining's employees were covered by collective bargaining in 2023.",
            "60% of Tollgate Mining's contract workers were covered by collective bargaining in 2023, a "
            "union said.",
        ),
        # one named site's landfill share is not the company's
        (
            "Tollgate Mining diverted 91% of its waste from landfill in 2023.",
            "9% of the waste at Tollgate Mining's Yarra Creek mine went to landfill in 2023, a regulator "
            "said.",
        ),
        # a loose bound is no figure to make up a whole with
        (
            "Tollgate Mining diverted 60% of its waste from landfill in 2023.",
            "Less than half of Tollgate Mining's waste went to landfill in 2023, a regulator said.",
        ),
    ],
)
def test_what_is_not_the_claims_quantity_decides_nothing(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


def test_uncertified_under_one_standard_is_not_the_rest_of_certified_under_another() -> None:
    claim = "92% of Tollgate Mining's sites were certified to ISO 14001 in 2023."
    source = "8% of Tollgate Mining's sites were uncertified under ISO 45001 in 2023, a register shows."
    assert _read(claim, source)[0] != "supports"


@pytest.mark.parametrize(
    "quote",
    [
        "Tollgate Mining said it emitted 2.4 Mt in 2023, revising the figure it published last year.",
        "Tollgate Mining said its emissions were 2.4 Mt in 2023, up from the total it reported for 2022.",
    ],
)
def test_the_company_revising_its_own_figure_is_still_its_word(quote: str) -> None:
    assert company_voice(quote, COMPANY, "supports") is not None


def test_a_site_named_in_a_reason_is_no_subject_of_the_change() -> None:
    claim = "Tollgate Mining's Scope 1 emissions fell in 2023."
    source = (
        "Tollgate Mining's Scope 1 emissions fell in 2023 as its Yarra Creek mine switched to grid power, a "
        "register shows."
    )
    assert _read(claim, source)[0] == "supports"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # one named site's rise is not the company's, either way
        (
            "Tollgate Mining reduced water use in 2023.",
            "Tollgate Mining increased water use at its Pilbara mines in 2023, a regulator said.",
            "neutral",
        ),
        # a capitalised first word before "from … mines" names no site
        (
            "Tollgate Mining cut emissions at its mines in 2023.",
            "Emissions from mines run by Tollgate Mining increased in 2023, a regulator said.",
            "contradicts",
        ),
        # some of its trucks are no count of all it has
        (
            "Tollgate Mining operates 1,240 haul trucks.",
            "Tollgate Mining converted 300 of its haul trucks to run on biodiesel in 2023, a trade paper "
            "said.",
            "neutral",
        ),
        (
            "Tollgate Mining operates 12 mines.",
            "12 of Tollgate Mining's mines are certified to ISO 14001, a register shows.",
            "neutral",
        ),
        # new trucks using less diesel than old ones is no change from one year to the next
        (
            "Tollgate Mining's diesel consumption rose in 2023 as output grew.",
            "Tollgate Mining's new haul trucks use 20% less diesel, a trade paper said in 2023.",
            "neutral",
        ),
        # a place or a part left out makes a landfill share part of the whole
        (
            "Tollgate Mining diverted 90% of its waste from landfill in 2023.",
            "In Australia, 10% of Tollgate Mining's waste went to landfill in 2023, a regulator said.",
            "neutral",
        ),
        (
            "Tollgate Mining diverted 90% of its waste from landfill in 2023.",
            "Excluding tailings, 10% of Tollgate Mining's waste went to landfill in 2023, a regulator said.",
            "neutral",
        ),
        # a met target is contradicted by a value short of it, not by one beyond it
        (
            "Tollgate Mining met its target of 50% renewable electricity in 2023.",
            "Tollgate Mining sourced 38% of its electricity from renewables in 2023, a consultancy found.",
            "contradicts",
        ),
        # a regulator's investigation is enforcement, whatever it found
        (
            "Tollgate Mining manages its tailings dams to the highest safety standards.",
            "Tollgate Mining's tailings dam at Yarra Creek leaked into the river in 2023, an investigation "
            "by the state environment regulator found.",
            "contradicts",
        ),
    ],
)
def test_what_a_new_rule_must_not_read_into_an_ordinary_sentence_either(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


def test_hundreds_of_thousands_in_words() -> None:
    assert figures_in_digits("two hundred and fifty thousand tonnes") == "250 thousand tonnes"


def test_fsc_certified_is_certified() -> None:
    claim = "80% of the timber Tollgate Mining used in 2023 came from FSC-certified forests."
    source = (
        "About 20% of the timber Tollgate Mining used in 2023 came without FSC certification, an NGO found."
    )
    assert _read(claim, source)[0] != "contradicts"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # "35% more" of something else than the claim's quantity
        (
            "Tollgate Mining reduced the number of safety incidents in 2023.",
            "Tollgate Mining reported 35% more safety inspections in 2023, a regulator said.",
        ),
        # a landfill share negated or intended is no share of the whole
        (
            "Tollgate Mining diverted 91% of its waste from landfill in 2023.",
            "Tollgate Mining did not send 9% of its waste to landfill in 2023, a regulator said.",
        ),
        (
            "Tollgate Mining diverted 91% of its waste from landfill in 2023.",
            "Tollgate Mining expects to send 9% of its waste to landfill in 2023, a regulator said.",
        ),
        # one site's record, read and set aside, is not read again as enforcement
        (
            "Tollgate Mining recorded no spills in 2023.",
            "Tollgate Mining's Yarra Creek mine recorded no spills in 2023, the state regulator said, "
            "closing an investigation opened in 2023.",
        ),
    ],
)
def test_what_a_new_rule_must_not_read_into_an_ordinary_sentence_still(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


def test_the_company_comparing_with_its_own_earlier_figure_is_still_its_word() -> None:
    quote = (
        "Tollgate Mining said its Scope 1 emissions were 3.1 Mt in 2023, below the level the company "
        "reported a year earlier."
    )
    assert company_voice(quote, COMPANY, "contradicts") is not None


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        (
            "Only 212 of Tollgate Mining's 340 tier-1 suppliers were audited for labour standards in 2023.",
            "contradicts",
        ),
        (
            "Labour audits covered 140 of Tollgate Mining's 190 tier-1 suppliers in 2023, an alliance found.",
            "contradicts",
        ),
        ("Auditors visited 300 of Tollgate Mining's 340 tier-1 suppliers' sites in 2023.", "neutral"),
        # a bound leaves all possible, and is no restatement of all either
        (
            "At least 212 of Tollgate Mining's 340 tier-1 suppliers were audited for labour standards"
            " in 2023.",
            "neutral",
        ),
        # another thing counted
        (
            "Tollgate Mining's tier-1 suppliers were audited for labour standards in 2023, 12 of 40"
            " inspectors said.",
            "neutral",
        ),
        # bounds, whatever their case, and a part said to be more than the claim says of it
        (
            "More than 300 of Tollgate Mining's 340 tier-1 suppliers were audited for labour standards in"
            " 2023.",
            "neutral",
        ),
        (
            "Over 300 of Tollgate Mining's 340 tier-1 suppliers were audited for labour standards in 2023.",
            "neutral",
        ),
        (
            "Only 212 of Tollgate Mining's 340 tier-1 suppliers were audited for labour standards by"
            " accredited firms in 2023.",
            "neutral",
        ),
        # the verb after what is counted is what the sentence says of it
        (
            "Only 212 of Tollgate Mining's 340 tier-1 suppliers passed their labour audits in 2023.",
            "neutral",
        ),
        # a baseline is no part of the claimed year's whole
        (
            "All 340 of Tollgate Mining's tier-1 suppliers were audited for labour standards in 2023, up from"
            " 212 of 300 in 2022.",
            "supports",
        ),
        (
            "All 340 of Tollgate Mining's tier-1 suppliers were audited for labour standards in 2023.",
            "supports",
        ),
    ],
)
def test_fewer_than_all_counted_contradicts_all(source: str, stance: str) -> None:
    claim = "All of our tier-1 suppliers were audited for labour standards in 2023."
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source", "read"),
    [
        (
            "We were not fined for any environmental breach in 2023.",
            "The Environment Agency fined Tollgate Mining £1.2m in September 2023 for discharging solvents.",
            ("contradicts", "did_happen"),
        ),
        (
            "We were not fined for any environmental breach in 2023.",
            "The Environment Agency's enforcement register lists no fines against Tollgate Mining for 2023.",
            ("supports", "none_either"),
        ),
        (
            "In 2023 Tollgate Mining has not been prosecuted for any pollution offence.",
            "The regulator prosecuted Tollgate Mining for a pollution offence in May 2023.",
            ("contradicts", "did_happen"),
        ),
    ],
)
def test_a_claim_that_it_was_not_done_to_the_company(claim: str, source: str, read: tuple[str, str]) -> None:
    assert _read(claim, source) == read


def test_a_claim_of_what_a_thing_is_not_is_no_claim_that_it_did_not_happen() -> None:
    claim = "Our headquarters is not located in a flood zone."
    source = "Tollgate Mining's main plant is located in a flood zone, the Environment Agency's maps show."
    assert _read(claim, source)[0] != "contradicts"


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        (
            "Direct emissions at Tollgate Mining dropped only 4% in 2023, while its Scope 2 emissions fell"
            " 20%.",
            "contradicts",
        ),
        (
            "Tollgate Mining's direct greenhouse gas emissions fell 9% in 2023, the regulator's data show.",
            "supports",
        ),
        # direct and indirect together are Scopes 1 and 2, however written
        (
            "Tollgate Mining's direct emissions and indirect emissions from purchased energy fell 3% in"
            " 2023.",
            "neutral",
        ),
    ],
)
def test_direct_emissions_are_scope_1(source: str, stance: str) -> None:
    assert _read("Our Scope 1 emissions fell 9% in 2023 compared with 2022.", source)[0] == stance


def test_direct_emissions_from_one_source_are_a_part_of_scope_1() -> None:
    claim = "We cut direct emissions from our haul trucks by 9% in 2023."
    source = "Tollgate Mining's Scope 1 emissions fell 9% in 2023, the regulator said."
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # "coal-fired" names coal: a compound's first part said alone is the claim's word
        (
            "We closed our Ardley Creek coal-fired power station in 2022.",
            "Tollgate Mining's Ardley Creek coal plant shut for good in 2022, market operator records show.",
            "supports",
        ),
        (
            "We closed our last coal-fired power station, Ardley B, in 2023.",
            "Tollgate Mining's Ardley B coal plant was still generating power in late 2023, grid data show.",
            "contradicts",
        ),
        # a compound's first part before another thing names no compound of the claim
        (
            "We closed our last coal-fired power station in 2023.",
            "Tollgate Mining closed its last coal mine in 2023.",
            "neutral",
        ),
        (
            "We retired our coal-fired units at Ardley in 2023.",
            "Tollgate Mining retired its coal wagons at Ardley in 2023.",
            "neutral",
        ),
        (
            "All 9 of our mills were FSC-certified in 2023.",
            "All nine Tollgate Mining mills held FSC certification in 2023, the FSC register shows.",
            "supports",
        ),
        # a compound asserting a property is the claim's point: a sentence without it restates nothing
        (
            "Our detergent packaging was plastic-free in 2023.",
            "Tollgate Mining's detergent packaging contained plastic in 2023, a consumer group found.",
            "neutral",
        ),
        (
            "Our data centres were carbon-neutral in 2023.",
            "Tollgate Mining's data centres bought carbon offsets in 2023.",
            "neutral",
        ),
        (
            "Our Osaka plant disposed of all its non-hazardous waste through licensed contractors in 2023.",
            "Tollgate Mining's Osaka plant disposed of all its hazardous waste through contractors in 2023.",
            "neutral",
        ),
        # a refusal of something else leaves the restatement
        (
            "Tollgate Mining was awarded B Corp status in 2023.",
            "Tollgate Mining was awarded B Corp status in 2023 after shareholders rejected a takeover.",
            "supports",
        ),
        # what was taken away or is yet to be done restates no claim of it
        (
            "All 9 of our mills were FSC-certified in 2023.",
            "All nine Tollgate Mining mills had their FSC certificates cancelled in 2023, it shows.",
            "neutral",
        ),
        (
            "All 9 of our mills were FSC-certified in 2023.",
            "Tollgate Mining has yet to certify all nine of its mills, the FSC register showed in 2023.",
            "neutral",
        ),
    ],
)
def test_compounds_in_statements_and_a_loss_restates_nothing(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source)[0] == stance
