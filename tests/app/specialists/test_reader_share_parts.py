"""The rule reader on shares of one whole that count different parts of it: women and independent
directors may each be 40% of a board, so the one confirms nothing of the other and is no other value
for it; the same part in other words is still the same share."""

from __future__ import annotations

import pytest

from app.language.figures import parse_figures
from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.share_parts import SharePart, part_relation, share_part
from app.verification.reading.statements import stem

COMPANY = "Tollgate"


def _read(claim: str, source: str) -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, "", source)
    return assessment.stance, assessment.signal


def _part(text: str) -> SharePart:
    share = next(figure for figure in parse_figures(text) if figure.dimension == "percent")
    return share_part(text, share, COMPANY)


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("Women made up 40% of Tollgate's board in 2023.", {"women", "woman"}),
        ("In 2023, 64% of the electricity Tollgate's stores used came from wind farms.", {"wind", "farms"}),
        ("Renewables supplied 64% of the electricity used across Tollgate's sites in 2023.", {"renewable"}),
        ("In 2023, 85% of Tollgate's suppliers signed its code of conduct.", {"signed", "code", "conduct"}),
        ("Tollgate's renewable share of electricity reached 64% in 2023.", {"renewable"}),
        ("Tollgate's electricity was 64% renewable at the end of 2023.", {"renewable"}),
        # a share that names only its whole counts no part of its own
        ("In 2023 the figure was 64% of Tollgate's electricity.", set()),
        # a verb that says which whole is meant is the share's own when it takes an object
        ("In 2023, 40% of Tollgate's sites held ISO 14001 certification.", {"certification"}),
        ("In 2023, 100% of Tollgate's 80 ships burned heavy fuel oil.", {"burned", "heavy", "fuel", "oil"}),
        ("In 2023, 15% of Tollgate's ships could run on methanol.", {"methanol"}),
        ("Renewables supplied 64% of the electricity Tollgate held under contract in 2023.", {"renewable"}),
    ],
)
def test_the_part_a_share_counts_is_read_apart_from_its_whole(text: str, part: set[str]) -> None:
    assert _part(text).stems == {stem(word) for word in part}


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Women made up 40% of Tollgate's board in 2023.",
            "Independent directors made up 40% of Tollgate's board in 2023, the regulator said.",
        ),
        (
            "Tollgate recycled 70% of its waste in 2023.",
            "In 2023, 70% of Tollgate's waste was hazardous, the regulator said.",
        ),
        (
            "85% of Tollgate's suppliers signed its code of conduct in 2023.",
            "In 2023, 85% of Tollgate's suppliers were audited, the regulator said.",
        ),
        (
            "64% of Tollgate's electricity was renewable in 2023.",
            "In 2023, 64% of Tollgate's electricity was bought on the spot market, the regulator said.",
        ),
        (
            "Nine of Tollgate's 11 directors were independent at the end of 2023.",
            "At the end of 2023, nine of Tollgate's 11 directors were men, the regulator said.",
        ),
        (
            "Tollgate's renewable share of electricity reached 64% in 2023.",
            "Tollgate's grid share of electricity reached 64% in 2023, the regulator said.",
        ),
        (
            "Tollgate's electricity was 64% renewable in 2023.",
            "Tollgate's electricity was 64% nuclear in 2023, a study found.",
        ),
        (
            "In 2023, 82% of the palm oil Tollgate bought was certified sustainable.",
            "About 82% of the palm oil Tollgate bought in 2023 was traceable to the mill, WWF said.",
        ),
        (
            "Renewable electricity made up 72% of the electricity used across Tollgate's networks in 2023.",
            "Grid electricity made up 72% of the power Tollgate's networks used in 2023, the regulator said.",
        ),
    ],
)
def test_another_part_of_the_same_whole_confirms_nothing(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Women made up 40% of Tollgate's board in 2023.",
            "Independent directors made up 60% of Tollgate's board in 2023, the regulator said.",
        ),
        (
            "85% of Tollgate's suppliers signed its code of conduct in 2023.",
            "In 2023, 40% of Tollgate's suppliers were audited, the regulator said.",
        ),
        (
            "Tollgate's electric vehicles made up 30% of its fleet in 2023.",
            "Diesel trucks made up 55% of Tollgate's fleet in 2023, the regulator said.",
        ),
        (
            "Nine of Tollgate's 11 directors were independent at the end of 2023.",
            "At the end of 2023, four of Tollgate's 11 directors were women, the regulator said.",
        ),
        # a kind of the claim's part is some of it, not another value for it
        (
            "64% of Tollgate's electricity was renewable in 2023.",
            "In 2023, 20% of Tollgate's electricity came from its own solar panels, the regulator said.",
        ),
        (
            "Fossil fuel companies accounted for 4% of Tollgate's corporate loan book at the end of 2023.",
            "Coal companies made up 1% of Tollgate's corporate lending at the end of 2023, an NGO found.",
        ),
        (
            "Zero-emission buses made up 25% of Tollgate's bus fleet at the end of 2023.",
            "Battery-electric buses made up 20% of Tollgate's fleet at the end of 2023, the ministry said.",
        ),
        # the verb that names the part takes an object: what the whole did, not which whole it is
        (
            "40% of Tollgate's sites held ISO 14001 certification in 2023.",
            "All of Tollgate's sites were audited for safety in 2023, the regulator said.",
        ),
        (
            "12 of Tollgate's 80 ships could run on methanol in 2023.",
            "All of Tollgate's 80 ships burned heavy fuel oil in 2023, the regulator said.",
        ),
    ],
)
def test_another_part_of_the_same_whole_is_no_other_value(claim: str, source: str) -> None:
    assert _read(claim, source)[0] != "contradicts"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "64% of Tollgate's electricity was renewable in 2023.",
            "In 2023, 64% of Tollgate's electricity came from renewable sources, the regulator said.",
        ),
        (
            "64% of Tollgate's electricity was renewable in 2023.",
            "In 2023, Tollgate sourced 64% of its electricity from wind and solar farms, the regulator said.",
        ),
        (
            "64% of Tollgate's electricity was renewable in 2023.",
            "Green power made up 64% of Tollgate's electricity in 2023, a study found.",
        ),
        (
            "Women made up 40% of Tollgate's board in 2023.",
            "In 2023, 40% of Tollgate's directors were female, the regulator said.",
        ),
        (
            "Tollgate recycled 70% of its waste in 2023.",
            "In 2023, Tollgate sent 70% of its waste for recycling, the regulator said.",
        ),
        (
            "Sustainable aviation fuel made up 1.2% of Tollgate's jet fuel use in 2023.",
            "SAF accounted for 1.2 percent of Tollgate's fuel burn in 2023, analysts at Contrail estimate.",
        ),
        (
            "Tollgate electrified 27% of its delivery van fleet by the end of 2023.",
            "By the end of 2023 some 27 percent of Tollgate's delivery vans were electric, a registry shows.",
        ),
        (
            "92% of Tollgate's office portfolio held a green building certification at the end of 2023.",
            "92% of Tollgate's office space was green-certified at the end of 2023, an analyst found.",
        ),
    ],
)
def test_the_same_part_in_other_words_supports(claim: str, source: str) -> None:
    assert _read(claim, source) == ("supports", "same_figure")


@pytest.mark.parametrize(
    "source",
    [
        "In 2023, only 80% of Tollgate's palm oil was certified, the regulator said.",
        "Only 80% of the palm oil Tollgate bought in 2023 was RSPO-certified, the regulator said.",
    ],
)
def test_the_same_part_with_another_value_contradicts(source: str) -> None:
    claim = "Tollgate sourced 92% of its palm oil from certified sustainable sources in 2023."
    assert _read(claim, source) == ("contradicts", "numeric_mismatch")


def test_parts_that_share_no_word_are_other_parts_and_a_kind_is_narrower() -> None:
    claim, source = (
        "Coal made up 40% of Tollgate's electricity.",
        "Wind made up 40% of Tollgate's electricity.",
    )
    assert part_relation(claim, _part(claim), source, _part(source)) == "other"
    broader = "Fossil fuels made up 55% of Tollgate's electricity."
    assert part_relation(claim, _part(claim), broader, _part(broader)) == "narrower"
    assert part_relation(broader, _part(broader), claim, _part(claim)) == "broader"
    assert part_relation(claim, _part(claim), claim, _part(claim)) == "same"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # one word described apart on each side
        (
            "Electric vehicles made up 25% of Tollgate's fleet in 2023.",
            "Diesel vehicles made up 25% of Tollgate's fleet in 2023, the regulator said.",
        ),
        (
            "Recycled plastic made up 30% of Tollgate's packaging in 2023.",
            "Virgin plastic made up 30% of Tollgate's packaging in 2023, the regulator said.",
        ),
        (
            "Institutional investors held 70% of Tollgate's shares in 2023.",
            "Retail investors held 70% of Tollgate's shares in 2023, the regulator said.",
        ),
        (
            "Tollgate's plastic bottles contained 30% recycled PET on average in 2023.",
            "Tollgate's glass bottles contained 30% recycled glass in 2023, a packaging NGO reported.",
        ),
        # a verb sending money somewhere links a part to its whole
        (
            "Tollgate lent 20% of its loan book to fossil fuel companies in 2023.",
            "Tollgate lent 20% of its loan book to property developers in 2023, the regulator said.",
        ),
    ],
)
def test_parts_described_apart_confirm_nothing(claim: str, source: str) -> None:
    assert _read(claim, source)[0] == "neutral"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a kind larger than what it is a kind of is impossible
        (
            "Wind supplied 30% of Tollgate's electricity in 2023.",
            "Renewables supplied 25% of Tollgate's electricity in 2023, the regulator said.",
            "contradicts",
        ),
        (
            "Renewables supplied 25% of Tollgate's electricity in 2023.",
            "Wind supplied 30% of Tollgate's electricity in 2023, the regulator said.",
            "contradicts",
        ),
        (
            "Wind supplied 20% of Tollgate's electricity in 2023.",
            "Renewables supplied 25% of Tollgate's electricity in 2023, the regulator said.",
            "neutral",
        ),
        # the claim's part named for another share of the same sentence: that share is its value
        (
            "Independent directors made up 40% of Tollgate's board in 2023.",
            "Women made up 40% of Tollgate's board in 2023, and independent directors 70%, a study found.",
            "contradicts",
        ),
        # an acronym in the plural
        (
            "Electric vehicles made up 25% of Tollgate's fleet in 2023.",
            "EVs made up 15% of Tollgate's fleet in 2023, the regulator said.",
            "contradicts",
        ),
        (
            "Electric vehicles made up 25% of Tollgate's fleet in 2023.",
            "EVs made up 25% of Tollgate's fleet in 2023, the regulator said.",
            "supports",
        ),
        # what a change slipped to is the share named before it
        (
            "Electric vehicles made up 14% of Tollgate's fleet at the end of 2022.",
            "Tollgate's fleet was 14% electric at the end of 2021, but the share slipped to 11% by the end "
            "of 2022, registration data show.",
            "contradicts",
        ),
        # "achieved zero waste" and "certified zero-waste": a verb before a word does not describe it
        (
            "In 2023, 60% of Tollgate's manufacturing sites had achieved zero-waste-to-landfill status.",
            "Six of Tollgate's ten manufacturing plants were certified zero-waste-to-landfill in 2023 by a "
            "certifier.",
            "supports",
        ),
    ],
)
def test_kinds_acronyms_and_changes_of_a_share(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source)[0] == stance


def test_a_share_told_of_before_counts_the_part_named_before() -> None:
    claim = "Renewable electricity supplied 71% of Tollgate's electricity use in 2024."
    source = (
        "Tollgate claims renewable electricity supplied 71% of its electricity use in 2024, but a campaign "
        "group's audit found the true share was nearer 45%."
    )
    assert _read(claim, source) == ("contradicts", "numeric_mismatch")


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "Women held 45% of Tollgate's management positions in 2023.",
            "Only 31% of Tollgate's managers were women in 2023, according to the equality register.",
            "contradicts",
        ),
        (
            "Alternative fuels supplied 28% of the thermal energy used in Tollgate's kilns in 2023.",
            "Alternative fuels accounted for 28 per cent of the heat used in Tollgate's kilns in 2023, a "
            "trade body's database shows.",
            "supports",
        ),
        (
            "Labelled products accounted for 26% of Tollgate's revenue in 2023.",
            "Labelled products generated 26% of Tollgate's 2023 sales, analysts estimate.",
            "supports",
        ),
        # installed capacity is not what was generated
        (
            "Renewables made up 42% of Tollgate's installed generation capacity at the end of 2023.",
            "Renewables supplied 42% of the electricity Tollgate generated in 2023, analysts estimate.",
            "neutral",
        ),
        # a whole measured by its floor area is its floor space
        (
            "68% of Tollgate's portfolio by floor area held a green building certification in 2023.",
            "Some 68% of Tollgate's floor space was green-certified at the end of 2023, a data firm said.",
            "supports",
        ),
        (
            "68% of Tollgate's portfolio by floor area held a green building certification in 2023.",
            "Only 51% of Tollgate's floor space was green-certified at the end of 2023, a data firm said.",
            "contradicts",
        ),
        # ... but a narrower whole measured the same way is still narrower
        (
            "40% of Tollgate's floor area was green-certified at the end of 2023.",
            "40% of Tollgate's London offices by floor area were green-certified at the end of 2023, a "
            "data firm said.",
            "neutral",
        ),
    ],
)
def test_wholes_named_in_other_words(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # another quantity's change of the claim's value confirms nothing, and the claim's own is other
        (
            "Tollgate cut its paper use by 22% in 2023 compared with 2022.",
            "Tollgate's paper use fell 12% in 2023, the compliance scheme shows, while its print "
            "circulation dropped 22%.",
            "contradicts",
        ),
        (
            "Tollgate cut its paper use by 22% in 2023 compared with 2022.",
            "Tollgate's paper use fell 22% in 2023, the compliance scheme shows.",
            "supports",
        ),
        # a change whose clause names nothing of its own is of what the sentence named before
        (
            "Tollgate cut anaesthetic gas emissions by 55% in 2023 compared with 2021.",
            "Anaesthetic gases at Tollgate's 14 hospitals accounted for 4,500 tonnes of CO2e in 2023, 55% "
            "less than in 2021, a clinical network found.",
            "supports",
        ),
        # a change worked out from two levels
        (
            "Tollgate cut food waste at its plants by 18% in 2023.",
            "Tollgate's plants discarded 8,200 tonnes of food in 2023, down from 10,000 tonnes in 2022, a "
            "charity reported.",
            "supports",
        ),
    ],
)
def test_a_change_confirms_only_a_change_of_what_the_claim_names(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a part named in other words of a whole's ("staff" are employees)
        (
            "Tollgate's staff turnover was 12% in 2023.",
            "Tollgate's employee turnover was 18% in 2023, the regulator said.",
            "contradicts",
        ),
        (
            "Electric vans made up 30% of Tollgate's delivery fleet in 2023.",
            "Battery-powered vans made up 20% of Tollgate's delivery fleet in 2023, the regulator said.",
            "contradicts",
        ),
        (
            "Overseas markets accounted for 45% of Tollgate's revenue in 2023.",
            "Sales abroad accounted for 35% of Tollgate's revenue in 2023, the regulator said.",
            "contradicts",
        ),
        # a verb after a part describes nothing
        (
            "Tollgate's frontline employees received 70% of its pay rises in 2023.",
            "Frontline staff received 55% of Tollgate's pay rises in 2023, the regulator said.",
            "contradicts",
        ),
        # the items of a list are one part
        (
            "Renewables supplied 64% of Tollgate's electricity in 2023.",
            "Renewable sources such as wind and solar supplied 51% of Tollgate's electricity in 2023, the "
            "regulator said.",
            "contradicts",
        ),
        (
            "Wind supplied 64% of Tollgate's electricity in 2023.",
            "Wind, solar and hydro supplied 64% of Tollgate's electricity in 2023, the regulator said.",
            "neutral",
        ),
        # a disputed figure corrected by its level
        (
            "Renewables supplied 64% of Tollgate's electricity in 2023.",
            "Tollgate said renewables supplied 64% of its electricity in 2023, but the regulator put the "
            "true level at 51%.",
            "contradicts",
        ),
    ],
)
def test_parts_in_other_words_lists_and_corrections(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a whole measured two ways: the shares are of different quantities
        (
            "In 2023, 55% of Tollgate's packaging by weight was recycled material.",
            "55% of Tollgate's packaging by volume was recycled material in 2023, an NGO found.",
            "neutral",
        ),
        (
            "In 2023, 70% of Tollgate's portfolio by floor area was green-certified.",
            "70% of Tollgate's portfolio by rental income was green-certified in 2023, an index shows.",
            "neutral",
        ),
        (
            "In 2023, 35% of Tollgate's sales by value were of certified products.",
            "Certified products made up 20% of Tollgate's sales by volume in 2023, an analyst found.",
            "neutral",
        ),
        # shares of what was made, sold or used are shares of different wholes
        (
            "Renewables made up 45% of the electricity Tollgate generated in 2023.",
            "Renewables made up 45% of the electricity Tollgate sold to customers in 2023, a regulator said.",
            "neutral",
        ),
        (
            "In 2023, 85% of the soy Tollgate bought was deforestation-free.",
            "In 2023, 85% of the soy Tollgate sold was deforestation-free, an NGO found.",
            "neutral",
        ),
        (
            "Renewables accounted for 45% of Tollgate's electricity generation in 2023.",
            "Of the electricity Tollgate sold in 2023, 45% was renewable, a regulator said.",
            "neutral",
        ),
        (
            "In 2023, 85% of the soy Tollgate bought was deforestation-free.",
            "In 2023, 85% of the soy Tollgate purchased was deforestation-free, an NGO found.",
            "supports",
        ),
        # a share of one country's things is a part of the company's; a body's name is no place
        (
            "In 2023, 85% of Tollgate's suppliers were audited.",
            "85% of Tollgate's suppliers in Bangladesh were audited in 2023, an NGO found.",
            "neutral",
        ),
        (
            "In 2023, 85% of Tollgate's Chinese suppliers were audited.",
            "85% of Tollgate's suppliers in China were audited in 2023, an NGO found.",
            "supports",
        ),
        (
            "In 2023, 40% of Tollgate's revenue came from low-carbon products.",
            "40% of Tollgate's revenue came from low-carbon products in 2023, the Green Revenue Index shows.",
            "supports",
        ),
        # what the share is ("used recycled content") is no activity of its whole; value is revenue
        (
            "In 2023, 30% of Tollgate's packaging used recycled content.",
            "In 2023, 30% of the packaging Tollgate sold contained recycled content, an agency says.",
            "supports",
        ),
        (
            "In 2023, 45% of the materials used in Tollgate's products were recycled.",
            "In 2023, 45% of the materials in the products Tollgate sold were recycled, an agency says.",
            "supports",
        ),
        (
            "In 2023, 40% of Tollgate's sales by value came from reusable products.",
            "In 2023, 40% of Tollgate's sales by revenue came from reusable products, trade data show.",
            "supports",
        ),
        # what was supplied to the company it bought; what its customers used it sold
        (
            "In 2023, 85% of the electricity Tollgate bought was renewable.",
            "85% of the electricity supplied to Tollgate's plants in 2023 was renewable, grid data show.",
            "supports",
        ),
        (
            "In 2023, 64% of the electricity Tollgate sold to households was renewable.",
            "64% of the electricity used by Tollgate's household customers in 2023 was renewable, data show.",
            "supports",
        ),
        # measured the same way, or the way named on one side only
        (
            "In 2023, 55% of Tollgate's packaging by weight was recycled material.",
            "40% of Tollgate's packaging by mass was recycled material in 2023, an NGO found.",
            "contradicts",
        ),
        (
            "In 2023, 70% of Tollgate's portfolio by floor area was green-certified.",
            "70% of Tollgate's portfolio was green-certified in 2023, an index shows.",
            "supports",
        ),
    ],
)
def test_shares_of_wholes_measured_or_used_two_ways_are_not_compared(
    claim: str, source: str, stance: str
) -> None:
    assert _read(claim, source)[0] == stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "In 2023, 40% of our aircraft were new-generation models.",
            "New-generation jets made up two-fifths of Harbrook's fleet in 2023, fleet data show.",
            "supports",
        ),
        (
            "Methanol-capable ships made up 15% of our fleet in 2023.",
            "Methanol-capable ships accounted for 9% of Harbrook's vessels in 2023, Clarksons data show.",
            "contradicts",
        ),
        # a fleet is no share of what was sold
        (
            "Electric vans made up 15% of the vans we sold in 2023.",
            "Electric vans made up 9% of Harbrook's fleet in 2023, fleet data show.",
            "neutral",
        ),
    ],
)
def test_a_fleet_is_its_aircraft_ships_or_vehicles(claim: str, source: str, stance: str) -> None:
    assert assess_by_rules(claim, "Harbrook", "", source, "2025-06-30").stance == stance


def test_a_fleets_emissions_are_no_share_of_the_fleet() -> None:
    claim = "In 2023, 30% of our ships could run on LNG."
    source = "In 2023, 30% of Harbrook's fleet emissions came from LNG-capable ships, data show."
    assert assess_by_rules(claim, "Harbrook", "", source, "2025-06-30").stance == "neutral"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # sales may be counted in things sold
        (
            "Battery-electric vehicles made up 21% of our global sales in 2023.",
            "One in ten cars Harbrook sold worldwide in 2023 was battery-electric, registration data show.",
            "contradicts",
        ),
        (
            "Battery-electric vehicles made up 21% of our sales in 2023.",
            "About a fifth of the cars Harbrook sold in 2023 were battery-electric, registration data show.",
            "supports",
        ),
        # and in money: a share of the things sold is no share of revenue
        (
            "Products with a sustainability label accounted for 26% of our revenue in 2023.",
            "Products carrying a sustainability label made up 26% of the items Harbrook sold in 2023, "
            "Euromonitor said.",
            "neutral",
        ),
    ],
)
def test_sales_counted_in_things_or_money(claim: str, source: str, stance: str) -> None:
    assert assess_by_rules(claim, "Harbrook", "", source, "2025-06-30").stance == stance


def test_sales_said_in_money_are_no_things_sold() -> None:
    claim = "Affordable homes made up 40% of the homes we sold in 2023."
    source = "Affordable homes made up 40% of Harbrook's sales by value in 2023, the housing regulator said."
    assert assess_by_rules(claim, "Harbrook", "", source, "2025-06-30").stance == "neutral"


def test_sales_measured_in_money_later_in_the_sentence_are_no_things_sold() -> None:
    claim = "Electric vehicles made up 15% of the cars we sold in 2023."
    for source in (
        "Electric vehicles made up 15% of Harbrook's sales in 2023, measured in euros, a data firm said.",
        "Electric vehicles made up 15% of Harbrook's sales in euro terms in 2023, a data firm said.",
    ):
        assert assess_by_rules(claim, "Harbrook", "", source, "2025-06-30").stance == "neutral"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("In 2024, 70% of our trucks used biodiesel.", "70% of Tollgate's trucks used diesel in 2024."),
        (
            "In 2024, 40% of our flights used sustainable aviation fuel.",
            "In 2024, two-fifths of Tollgate's fleet used sustainable aviation fuel.",
        ),
    ],
)
def test_used_ends_what_a_share_is_of_and_what_was_used_is_its_part(claim: str, source: str) -> None:
    assert assess_by_rules(claim, COMPANY, "", source, "2025-06-30").stance == "neutral"
