"""The rule reader on counts of things as the press writes them: with a scale ("12m trees", "2.1
million handsets", "40k chargers"), beside other counts of parts of the same things ("of which 400k
were electric"), and over stretches other than the claim's year (at each site, since 2015, between
two years, a rival's, one country's)."""

from __future__ import annotations

import pytest

from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.count_context import without_other_numbers
from app.verification.reading.figures import parse_counts

COMPANY = "Brackenfold"


def _stance(claim: str, source: str) -> str:
    return assess_by_rules(claim, COMPANY, "", source, "2025-06-30").stance


@pytest.mark.parametrize(
    ("text", "value", "noun", "rounding"),
    [
        ("planted 12m trees", 12_000_000, "tree", 500_000),
        # at most 5% either way: "1 million" is not 600,000
        ("planted 1 million trees", 1_000_000, "tree", 50_000),
        ("sold 2.1 million handsets", 2_100_000, "phone", 50_000),
        ("trained 40k farmers", 40_000, "farmer", 500),
        ("grew nine million seedlings", 9_000_000, "seedling", 450_000),
        ("fitted 1,204 heat pumps", 1_204, "pump", 0),
    ],
)
def test_a_count_is_read_with_its_scale_and_what_its_rounding_allows(
    text: str, value: int, noun: str, rounding: float
) -> None:
    (count,) = parse_counts(text)
    assert (count.value, count.noun, count.rounding) == (value, noun, rounding)


@pytest.mark.parametrize(
    "text",
    [
        "put up three 120 m masts",  # the masts' height
        "built two 12m sea walls",  # the walls' length
        "spent $2.1m on grants",  # money
        "recycled 40k tonnes of glass",  # a mass, read as a figure
        "fitted four hundred and twenty meters",  # not twenty meters
        "put up 150m tall masts",  # a height
        "ran 10k charity races",  # a distance
        "10k Homes Trust retrofitted homes",  # a name
    ],
)
def test_a_size_money_or_the_end_of_a_longer_number_is_no_count(text: str) -> None:
    assert parse_counts(text) == []


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # the same count with a scale, or written out in full
        (
            "In 2024, we planted 9 million trees.",
            "Brackenfold planted 9m trees in 2024, a forestry body said.",
            "supports",
        ),
        (
            "In 2024, we planted 9,000,000 trees.",
            "Brackenfold planted 9m trees in 2024, a forestry body said.",
            "supports",
        ),
        (
            "In 2024, we planted 9.2 million trees.",
            "Brackenfold planted 9,240,000 trees in 2024, a registry shows.",
            "supports",
        ),
        (
            "In 2024, we trained 30,000 growers.",
            "Brackenfold trained 30k growers in 2024, an auditor found.",
            "supports",
        ),
        # the same things in other words
        (
            "In 2024, we collected 300,000 used handsets for recycling.",
            "Brackenfold collected 300,000 old phones for recycling in 2024, an e-waste scheme said.",
            "supports",
        ),
        (
            "In 2024, we refurbished and resold 500,000 mobile phones.",
            "Brackenfold refurbished and resold 500,000 handsets in 2024, a research firm said.",
            "supports",
        ),
        # another count of the same things
        # (a different count needs two more words in common than the things counted)
        (
            "In 2024, we planted 9 million trees on restored farmland.",
            "Brackenfold planted 4.5m trees on restored farmland in 2024, a forestry body said.",
            "contradicts",
        ),
        (
            "In 2024, we recycled 50,000 tonnes of glass.",
            "Brackenfold recycled 5k tonnes of glass in 2024, a registry shows.",
            "contradicts",
        ),
        # a list of counts: the verb is said of each
        (
            "In 2024, we collected 30 million cans.",
            "Brackenfold collected 50m bottles and 30m cans in 2024, a registry shows.",
            "supports",
        ),
        (
            "In 2024, we collected 50 million cans.",
            "Brackenfold collected 50m bottles and 30m cans in 2024, a registry shows.",
            "contradicts",
        ),
    ],
)
def test_counts_written_with_a_scale_are_compared(claim: str, source: str, stance: str) -> None:
    assert _stance(claim, source) == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # what the claim says of its count is said only of a part of the source's count
        (
            "In 2024, we sold 1.8 million electric bikes.",
            "Brackenfold sold 1.8m bikes in 2024, of which 300k were electric.",
        ),
        (
            "In 2024, we repaired 1.8 million handsets.",
            "Brackenfold sold 1.8 million handsets in 2024 and repaired 200,000 of them.",
        ),
        # the claim's count is of a part the source counts apart
        (
            "In 2024, we had 400,000 customers on green tariffs.",
            "Brackenfold had 2m customers in 2024, 400k of them on green tariffs.",
        ),
        # at each site, since a year, between two years
        (
            "In 2024, we planted 30,000 trees at each of our 9 estates.",
            "Brackenfold planted 30k trees in 2024, a forestry body said.",
        ),
        (
            "In 2024, we planted 9 million trees.",
            "Brackenfold has planted 9m trees since 2016, a forestry body said.",
        ),
        (
            "In 2024, we planted 9 million trees.",
            "Brackenfold planted 9m trees between 2021 and 2024, a forestry body said.",
        ),
        # a rival's count, another year's, one country's
        (
            "In 2024, we sold 1.8 million handsets.",
            "Brackenfold's rival Osterly sold 1.8m handsets in 2024, a tracker shows.",
        ),
        (
            "In 2024, we sold 1.8 million handsets.",
            "Brackenfold sold 1.8m handsets in 2023, a tracker shows.",
        ),
        (
            "In 2024, we planted 9 million trees.",
            "Brackenfold planted 9m trees in Peru in 2024, a forestry body said.",
        ),
        # the same, written out in full
        (
            "In 2024, we sold 1,800 electric bikes.",
            "Brackenfold sold 1,800 bikes in 2024, of which 300 were electric.",
        ),
        (
            "In 2024, we planted 30,000 trees at each of our 9 estates.",
            "Brackenfold planted 30,000 trees in 2024, a forestry body said.",
        ),
        (
            "In 2024, we planted 90,000 trees.",
            "Brackenfold has planted 90,000 trees since 2016, a forestry body said.",
        ),
        (
            "In 2024, we planted 90,000 trees.",
            "Brackenfold planted 90,000 trees between 2021 and 2024, a forestry body said.",
        ),
        (
            "In 2024, we sold 18,000 handsets.",
            "Brackenfold's rival Osterly sold 18,000 handsets in 2024, a tracker shows.",
        ),
        (
            "In 2024, we planted 90,000 trees.",
            "Brackenfold planted 90,000 trees in Peru in 2024, a forestry body said.",
        ),
    ],
)
def test_a_count_of_other_things_or_over_another_stretch_is_neither(claim: str, source: str) -> None:
    assert _stance(claim, source) not in {"supports", "contradicts"}


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # "each of its 11 plants" counts the plants, not something at each
        (
            "All of our eleven mills held FSC certification at the end of 2024.",
            "Each of Brackenfold's 11 mills was FSC certified at the end of 2024, its register shows.",
            "supports",
        ),
        # a place said of a part ("were based in Chile") is not the whole's
        (
            "We had 8,000 employees at the end of 2024.",
            "Some 2,000 of Brackenfold's 8,000 employees were based in Chile at the end of 2024, it says.",
            "supports",
        ),
        # a place the claim names in another form
        (
            "Brackenfold's Spanish stores collected 2.1 million bottles in 2024.",
            "Brackenfold's stores in Spain collected 2.1 million bottles in 2024, a registry shows.",
            "supports",
        ),
    ],
)
def test_what_the_stretch_checks_leave_alone(claim: str, source: str, stance: str) -> None:
    assert _stance(claim, source) == stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a year right before a count is no size
        (
            "In 2024, 30,000 growers completed our training course.",
            "In 2024 30,000 growers completed Brackenfold's training course, a ministry's data show.",
            "supports",
        ),
        # "each" and "per" said of another number, a record "since" a year, a body's name
        (
            "In 2024, we installed 3,000 chargers.",
            "Brackenfold installed 3,000 chargers rated at 150 kW each in 2024, a register shows.",
            "supports",
        ),
        (
            "In 2024, we trained 30,000 growers.",
            "Brackenfold trained 30,000 growers in 2024 in its biggest programme since 2015, an audit found.",
            "supports",
        ),
        (
            "In 2024, we installed 3,000 chargers.",
            "Figures in the National Charging Register show Brackenfold installed 3,000 chargers in 2024.",
            "supports",
        ),
        # words that are no places, "each" said of each thing counted, a part of an earlier number
        (
            "In 2024, we trained 3,000 employees in first aid.",
            "Brackenfold trained 3,000 employees in First Aid in 2024, a regulator says.",
            "supports",
        ),
        (
            "In 2024, 3,000 employees received our profit-sharing bonus.",
            "In 2024, 3,000 employees each received a profit-sharing bonus from Brackenfold, filings show.",
            "supports",
        ),
        (
            "In 2024, our stores collected 30,000 plastic bottles for recycling.",
            "Brackenfold, which runs 200 stores including 30 in Wales, collected 30,000 plastic bottles for "
            "recycling in 2024, the council says.",
            "supports",
        ),
        # the company named first is not its own rival; "high" schools are schools; "In FY2024 1,200"
        (
            "In 2024, our stores collected 30,000 plastic bottles for recycling.",
            "Brackenfold, Osterly's main rival, collected 30,000 plastic bottles for recycling at its stores "
            "in 2024, the council says.",
            "supports",
        ),
        (
            "In 2024, we funded 1,200 high schools.",
            "Brackenfold funded 1,200 high schools in 2024, the education ministry says.",
            "supports",
        ),
        (
            "In FY2024, 1,200 apprentices completed our programme.",
            "In FY2024 1,200 apprentices completed Brackenfold's programme, the skills agency says.",
            "supports",
        ),
        # another thing's age, a schedule, a place elsewhere in the sentence, a part in the same clause
        (
            "In 2024, we trained 30,000 growers.",
            "Brackenfold trained 30,000 growers in 2024 through a scheme running since 2019, an audit found.",
            "supports",
        ),
        (
            "In 2024, we opened 300 charging hubs.",
            "Brackenfold opened 300 charging hubs in 2024, a month ahead of schedule, a registry shows.",
            "supports",
        ),
        (
            "In 2024, we had 300,000 customers on green tariffs.",
            "Registry data show Brackenfold had 300,000 customers on green tariffs in 2024 including 40,000 "
            "small businesses.",
            "supports",
        ),
        (
            "In 2024, we sold 3.1 million handsets in our shops.",
            "Tracker data show Osterly, Brackenfold's main rival, sold 3.1m handsets in its shops in 2024.",
            "neutral",
        ),
        # a level reached by the end of a span of years is that year's
        (
            "In 2024, we had 420 battery-electric vans in our fleet.",
            "Brackenfold expanded its fleet from 150 to 420 battery-electric vans between 2022 and 2024, "
            "registry data show.",
            "supports",
        ),
        (
            "In 2024, we emitted 30,000 tonnes of CO2e.",
            "Checks of Brackenfold's peer-reviewed inventory show 30,000 tonnes of CO2e emitted in 2024.",
            "supports",
        ),
    ],
)
def test_what_the_count_checks_must_not_set_aside(claim: str, source: str, stance: str) -> None:
    assert _stance(claim, source) == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "In 2024, each of our 9 stores collected 30,000 bottles.",
            "Brackenfold's stores collected 30k bottles in 2024.",
        ),
        (
            "In 2024, we handed out 30,000 meals.",
            "Brackenfold handed out 30k meals a day in 2024, charity data show.",
        ),
        (
            "In 2024, our parks welcomed 1.1 million visitors.",
            "Brackenfold's flagship park welcomed 1.1m visitors in 2024.",
        ),
        (
            "In 2024, we planted 9 million trees in Kenya.",
            "Brackenfold planted 9m trees in Brazil in 2024, a registry shows.",
        ),
        (
            "In 2024, we sold 1.8 million handsets.",
            "Osterly, Brackenfold's main rival, sold 1.8m handsets in 2024.",
        ),
        (
            "In 2024, we installed 60 wind turbines.",
            "Brackenfold installed 150m tall wind turbines in 2024, a regulator says.",
        ),
    ],
)
def test_counts_per_site_per_day_of_one_site_place_or_rival_or_a_size_are_neither(
    claim: str, source: str
) -> None:
    assert _stance(claim, source) not in {"supports", "contradicts"}


def test_what_is_said_of_a_part_is_blanked_and_a_list_verb_kept() -> None:
    sentence = "Brackenfold collected 50m bottles and 30m cans in 2024, of which 4m were crushed."
    (bottles, cans) = parse_counts(sentence)
    kept = without_other_numbers(sentence, cans, parts_only=True)
    assert "collected" in kept and "crushed" not in kept
    assert "crushed" not in without_other_numbers(sentence, bottles)


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a part counted of a whole count is a share of it, wherever the part is written
        (
            "Battery-electric models accounted for 31% of the cars we sold in 2023.",
            "Brackenfold sold 1.2 million cars in 2023, of which 290,000 were battery-electric, data show.",
            "contradicts",
        ),
        # "1.2 million" allows 23.2% to 25.2%: it refutes 31%, and confirms nothing in that range
        (
            "Battery-electric models accounted for 24% of the cars we sold in 2023.",
            "Brackenfold sold 1.2 million cars in 2023, of which 290,000 were battery-electric, data show.",
            "neutral",
        ),
        (
            "Battery-electric models accounted for 24% of the cars we sold in 2023.",
            "Brackenfold sold 1,200,000 cars in 2023, of which 290,000 were battery-electric, data show.",
            "supports",
        ),
        # what was done with the whole is the claim's
        (
            "Battery-electric models accounted for 31% of the cars we sold in 2023.",
            "Brackenfold built 1.2 million cars in 2023, of which 290,000 were battery-electric, data show.",
            "neutral",
        ),
        (
            "85% of the homes we completed in 2023 were built to a net-zero-ready standard.",
            "Of the 3,400 homes Brackenfold completed in 2023, 2,890 were built to a net-zero-ready"
            " standard.",
            "supports",
        ),
        (
            "85% of the homes we completed in 2023 were built to a net-zero-ready standard.",
            "Brackenfold completed 3,400 homes in 2023, 85% more than in 2020, and 1,700 of them were"
            " net-zero-ready, the regulator said.",
            "contradicts",
        ),
        (
            "At the end of 2023, 40% of our buses were zero-emission.",
            "Only 290 of the 1,030 buses in Brackenfold's fleet were zero-emission at the end of 2023.",
            "contradicts",
        ),
        # the count of the part as written stays a count
        (
            "Brackenfold had 1,150 electric trucks in its fleet at the end of 2023.",
            "Brackenfold's fleet of 8,200 trucks included 1,150 electric trucks at the end of 2023, data"
            " show.",
            "supports",
        ),
        # a part that is nothing the claim names gives no share of it
        (
            "Battery-electric models accounted for 24% of the cars we sold in 2023.",
            "Brackenfold sold 1.2 million cars in 2023, of which 290,000 were sold in China, data show.",
            "neutral",
        ),
        # nor does a narrower part, or a part of a narrower whole
        (
            "Battery-electric models accounted for 24% of the cars we sold in 2023.",
            "Brackenfold sold 1.2 million cars in 2023, of which 290,000 were battery-electric models sold in"
            " Europe, data show.",
            "neutral",
        ),
        (
            "At the end of 2023, 40% of our buses were zero-emission.",
            "412 of the 1,030 buses Brackenfold ordered in 2023 were zero-emission, the authority said.",
            "neutral",
        ),
        # nor is a share of all it sold one of what the claim says it sold in one place
        (
            "In 2023, 24% of the cars we sold in Europe were battery-electric.",
            "Brackenfold sold 1,204,000 cars in 2023, of which 290,000 were battery-electric.",
            "neutral",
        ),
        (
            "In 2023, 60% of our port calls used shore power.",
            "Brackenfold's ships made 15 calls at Oslo in 2023, of which 9 used shore power, the port said.",
            "neutral",
        ),
        # a percentage is no count of a part
        (
            "At the end of 2023, 4% of our buses were zero-emission.",
            "Brackenfold ran 1,030 buses at the end of 2023, of which 40% were zero-emission, data show.",
            "contradicts",
        ),
        # each part its own clause; "of them" after two wholes may be of either
        (
            "85% of the homes we completed in 2023 were net-zero-ready.",
            "Of the 3,400 homes Brackenfold completed in 2023, 2,890 were built to the new standard and"
            " 1,700 were net-zero-ready.",
            "neutral",
        ),
        (
            "About a quarter of our employees work in Germany.",
            "Brackenfold has 3,400 employees and 1,800 stores, and 900 of them are in Germany, the register"
            " shows.",
            "neutral",
        ),
        # a part among its whole, what it is first; women and staff are counted too
        (
            "Brackenfold's workforce was 34% women at the end of 2022.",
            "Brackenfold employed 4,080 women among its 12,000 staff at the close of 2022, the register"
            " shows.",
            "supports",
        ),
        (
            "Women made up 40% of our staff at the end of 2022.",
            "Brackenfold employed 4,080 women among its 12,000 staff at the close of 2022.",
            "contradicts",
        ),
        (
            "Women made up 34% of our staff at the end of 2022.",
            "Brackenfold had 4,080 contractors among its 12,000 staff at the end of 2022.",
            "neutral",
        ),
        (
            "Women made up 34% of our staff at the end of 2022.",
            "There were 4,080 women among the 12,000 applicants for Brackenfold's jobs in 2022.",
            "irrelevant",
        ),
        # a whole of its own kind is narrower than the claim's
        (
            "Women made up 34% of our staff at the end of 2022.",
            "Brackenfold had 4,080 women among its 12,000 seasonal staff at the end of 2022.",
            "neutral",
        ),
        (
            "Women made up 34% of our staff at the end of 2022.",
            "Brackenfold counted 4,080 women among its 12,000 new staff at the end of 2022.",
            "neutral",
        ),
    ],
)
def test_a_part_counted_of_a_whole_count_is_its_share(claim: str, source: str, stance: str) -> None:
    assert _stance(claim, source) == stance


@pytest.mark.parametrize(
    "source",
    [
        "Brackenfold employed 12,000 staff through agencies in 2024, the register shows.",
        "Brackenfold employed 12,000 staff on zero-hours contracts in 2024, the register shows.",
    ],
)
def test_people_counted_with_who_they_are_are_some_of_them(source: str) -> None:
    assert _stance("In 2024, we employed 12,000 staff.", source) != "supports"
    assert (
        _stance("In 2024, we employed 12,000 staff.", "Brackenfold employed 12,000 staff in 2024.")
        == "supports"
    )


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Brackenfold's pool fleet included 640 electric cars in 2023.",
            "Brackenfold's pool fleet included 640 electric vehicles in 2023, mostly vans, a tracker said.",
        ),
        ("Brackenfold sold 48,000 vehicles in 2023.", "Brackenfold sold 48,000 cars and 6,000 vans in 2023."),
        (
            "Brackenfold had 1,150 electric vehicles at the end of 2023.",
            "Brackenfold had 1,150 electric vans and 200 electric trucks at the end of 2023, data show.",
        ),
    ],
)
def test_vehicles_of_several_kinds_are_not_one_kind(claim: str, source: str) -> None:
    assert _stance(claim, source) == "neutral"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # cars, buses or vans are vehicles: the same count of them repeats a count of vehicles
        (
            "Brackenfold sold 64,000 battery-electric vehicles in 2023.",
            "Brackenfold delivered about 64,000 fully electric cars in 2023, registration data show.",
            "supports",
        ),
        (
            "Brackenfold ran 212 zero-emission buses at the end of 2023.",
            "Brackenfold had 212 zero-emission vehicles in service at the end of 2023, a regulator said.",
            "supports",
        ),
        # only the same word gives another count of them: cars may be some of the vehicles
        (
            "Brackenfold sold 64,000 battery-electric vehicles in 2023.",
            "Brackenfold sold 51,000 battery-electric cars in 2023, registration data show.",
            "neutral",
        ),
        # "close to" hedges a count as "about" does
        (
            "Brackenfold sold 148,000 battery-electric cars in 2023.",
            "Brackenfold sold close to 150,000 fully electric cars in 2023, registration data show.",
            "supports",
        ),
    ],
)
def test_a_count_of_a_kind_of_thing_or_hedged_otherwise_repeats_the_claims(
    claim: str, source: str, stance: str
) -> None:
    assert _stance(claim, source) == stance


def test_a_whole_a_sentence_opens_on_is_no_other_count_of_its_part() -> None:
    claim = "Brackenfold operated 14 dual-fuel container vessels at the end of 2023."
    source = (
        "Of the 62 container ships in Brackenfold's fleet at the end of 2023, fourteen could run on methanol "
        "as well as bunker fuel, a shipping register lists."
    )
    assert _stance(claim, source) == "neutral"
    assert (
        _stance(claim, "Brackenfold operated 9 dual-fuel container vessels at the end of 2023.")
        == "contradicts"
    )
