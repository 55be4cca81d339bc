"""The rule reader on shares of those who did something: said in the passive ("was used by 30% of its
ships"), refused ("rejected by 85% of its suppliers"), of visits rather than of the things making them,
of a rival's whole, and shares of pay measured against targets."""

from __future__ import annotations

import pytest

from app.verification.reading.change_mood import mood, targets_measured_against
from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.figure_subjects import role, same_basis, share_basis

COMPANY = "Corran Ports"


def _read(claim: str, source: str) -> str:
    return assess_by_rules(claim, COMPANY, "", source, "2025-06-30").stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "Shore power was used by 40% of the cruise ships calling at our terminals in 2024.",
            "Some 40% of the cruise ships calling at Corran Ports' terminals in 2024 used shore power, "
            "the harbour authority said.",
            "supports",
        ),
        (
            "Shore power was used by 40% of the cruise ships calling at our terminals in 2024.",
            "Only 25% of the cruise ships that called at Corran Ports' terminals in 2024 plugged into shore "
            "power, campaigners found.",
            "contradicts",
        ),
        (
            "In 2024, 75% of our suppliers signed our supplier code.",
            "Corran Ports' supplier code was signed by 75% of its suppliers in 2024, an NGO said.",
            "supports",
        ),
        (
            "In 2024, 75% of our suppliers signed our supplier code.",
            "Corran Ports' supplier code was signed by 60% of its suppliers in 2024, an NGO said.",
            "contradicts",
        ),
    ],
)
def test_a_share_of_those_who_did_a_thing_said_in_the_passive(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source) == stance


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a change said with "by" stays a change
        (
            "Corran Ports cut its fleet emissions by 12% in 2024.",
            "Corran Ports' fleet emissions were trimmed by 12% of their 2023 level in 2024, filings show.",
        ),
        (
            "Corran Ports cut its fleet emissions by 12% in 2024.",
            "Corran Ports' fleet emissions were reduced by 12% in 2024, filings show.",
        ),
    ],
)
def test_a_change_said_with_by_stays_a_change(claim: str, source: str) -> None:
    assert _read(claim, source) == "supports"


def test_the_role_of_a_share_after_a_passive_verb() -> None:
    text = "Shore power was used by 40% of the cruise ships calling at its terminals."
    assert role(text, text.index("40%"), text.index("40%") + 3) is None
    changed = "Its emissions were reduced by 40% in 2024."
    assert role(changed, changed.index("40%"), changed.index("40%") + 3) == "change"


@pytest.mark.parametrize(
    "source",
    [
        "Corran Ports' supplier code was rejected by 75% of its suppliers in 2024, an NGO said.",
        "75% of Corran Ports' suppliers refused to sign its supplier code in 2024, an NGO said.",
        "Corran Ports' supplier code was ignored by 75% of its suppliers in 2024, an NGO said.",
    ],
)
def test_those_who_refused_a_thing_are_no_share_of_those_who_did_it(source: str) -> None:
    assert _read("In 2024, 75% of our suppliers signed our supplier code.", source) == "neutral"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Shore power was used by 40% of the cruise ships calling at our terminals in 2024.",
            "Shore power was used on 40% of cruise ship calls at Corran Ports' terminals in 2024.",
        ),
        (
            "40% of cruise ship calls at our terminals used shore power in 2024.",
            "Shore power was used by 40% of the cruise ships calling at Corran Ports' terminals in 2024.",
        ),
        (
            "Sustainable fuel powered 5% of our ferries in 2024.",
            "Sustainable fuel powered 5% of Corran Ports' ferry sailings in 2024, the regulator said.",
        ),
    ],
)
def test_a_share_of_visits_is_not_a_share_of_the_things_making_them(claim: str, source: str) -> None:
    assert _read(claim, source) == "neutral"


def test_a_share_of_a_rivals_whole_is_the_rivals() -> None:
    claim = "In 2024, 40% of our employees used the cycle-to-work scheme."
    source = "Corran Ports' cycle-to-work scheme was used by 40% of its rival's employees in 2024."
    assert _read(claim, source) == "neutral"
    assert _read(claim, "Corran Ports' cycle-to-work scheme was used by 40% of its employees in 2024.") == (
        "supports"
    )


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "From 2024, 20% of our chief executive's annual bonus is linked to emissions-reduction targets.",
            "A fifth of Corran Ports' chief executive's 2024 annual bonus depended on cutting emissions, "
            "pay researchers found.",
            "supports",
        ),
        (
            "In 2024, climate targets accounted for 15% of our executives' long-term incentive plan.",
            "Climate metrics made up 15% of Corran Ports executives' long-term incentive awards in 2024, "
            "a proxy adviser found.",
            "supports",
        ),
        (
            "In 2024, climate targets accounted for 15% of our executives' long-term incentive plan.",
            "Climate targets accounted for just 5% of Corran Ports' executive long-term incentive plan in "
            "2024, a proxy adviser said.",
            "contradicts",
        ),
        (
            "In 2024, 15% of our CEO's short-term incentive was linked to climate targets.",
            "Corran Ports tied 15 per cent of its chief executive's 2024 short-term incentive to climate "
            "targets, a study of pay found.",
            "supports",
        ),
    ],
)
def test_pay_measured_against_targets_is_no_intention(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source) == stance


def test_targets_measured_against_neither_intend_nor_report_a_change() -> None:
    text = "In 2024, 20% of the bonus was linked to emissions-reduction targets."
    assert targets_measured_against(text)
    assert mood(text, text.index("20%"), text.index("20%") + 3) == "stated"
    aim = "Corran Ports aims to cut emissions by 20% by 2030."
    assert not targets_measured_against(aim)
    assert mood(aim, aim.index("20%"), aim.index("20%") + 3) == "intended"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "In 2024, 75% of our suppliers signed our supplier code.",
            "75% of Corran Ports' suppliers by spend signed its supplier code in 2024, an NGO said.",
            "neutral",
        ),
        (
            "82% of Corran Ports' office portfolio by floor area held a green certificate at the end of "
            "2024.",
            "Corran Ports had 41 of its 60 office buildings green-certified at the end of 2024, the "
            "register shows.",
            "neutral",
        ),
        (
            "In 2024, 75% of our suppliers by spend signed our supplier code.",
            "75% of Corran Ports' suppliers by spend signed its supplier code in 2024, an NGO said.",
            "supports",
        ),
        (
            "8% of Corran Ports' waste was hazardous in 2024.",
            "Hazardous material made up 8% of Corran Ports' waste by weight in 2024, the agency said.",
            "supports",
        ),
    ],
)
def test_a_share_of_things_said_plainly_is_by_their_number(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source) == stance


def test_the_basis_of_a_share_of_things_said_plainly() -> None:
    for text, basis in (
        ("85% of its suppliers signed the code", "things"),
        ("90% of Acme's UK hotels held a certificate", "things"),
        ("70% of its drinks were sold in glass", None),
        ("85% of its suppliers by value signed", "value"),
        ("8% of Acme Steel's waste was hazardous", None),
        ("60% of our rental income came from certified buildings", None),
        ("40% of its emissions in 2024", None),
        ("64% of the hectares it manages", None),
    ):
        assert share_basis(text, text.index("%") + 1) == basis, text


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "In 2024, 75% of our suppliers signed our supplier code.",
            "75% of Corran Ports' Tier 1 suppliers signed its supplier code in 2024, an NGO said.",
            "neutral",
        ),
        (
            "In 2024, 75% of our suppliers signed our supplier code.",
            "Corran Ports' supplier code was signed by 75% of its new suppliers in 2024, an NGO said.",
            "neutral",
        ),
        (
            "In 2024, 30% of our customers chose paperless billing.",
            "30% of Corran Ports' business customers chose paperless billing in 2024, the regulator said.",
            "neutral",
        ),
        (
            "In 2024, 30% of our business customers chose paperless billing.",
            "30% of Corran Ports' customers chose paperless billing in 2024, the regulator said.",
            "neutral",
        ),
        # the same narrowing in other words
        (
            "We audited 85% of our tier-1 suppliers in 2024.",
            "Some 85% of Corran Ports' first-tier suppliers were audited in 2024, an NGO said.",
            "supports",
        ),
        (
            "We audited 85% of our direct suppliers in 2024.",
            "Some 85% of Corran Ports' Tier 1 suppliers were audited in 2024, an NGO said.",
            "supports",
        ),
        (
            "In 2024, 30% of our business customers chose paperless billing.",
            "30% of the business customers of Corran Ports chose paperless billing in 2024.",
            "supports",
        ),
    ],
)
def test_a_share_of_some_of_a_kind_is_no_share_of_all_of_it(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source) == stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        (
            "In 2024 Corran Ports audited 214 of its suppliers against its sourcing code.",
            "Only about 140 suppliers were actually audited against Corran Ports' sourcing code in 2024, an "
            "NGO review found.",
            "contradicts",
        ),
        # what the deed was about said on one side only
        (
            "In 2024 Corran Ports sold 300 of its homes to housing associations.",
            "Corran Ports sold 300 homes in 2024, the land registry shows.",
            "neutral",
        ),
        (
            "In 2024 Corran Ports audited 214 of its suppliers for labour risks.",
            "Corran Ports audited 214 suppliers for climate risks in 2024, an NGO review found.",
            "neutral",
        ),
        (
            "Corran Ports assessed 300 suppliers for labour risks in 2024.",
            "Corran Ports assessed 300 of its suppliers for labour risks in 2024, an ethical trade group "
            "said.",
            "supports",
        ),
        # some of its suppliers, with no deed said of the count, are no count of those audited
        (
            "In 2024 Corran Ports audited 214 of its suppliers against its sourcing code.",
            "Corran Ports had 140 suppliers in 2024 and audited its sourcing code, an NGO review found.",
            "neutral",
        ),
    ],
)
def test_a_count_of_some_things_named_by_the_deed_done_to_them(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source) == stance


def test_things_said_plainly_may_be_counted_weighed_or_measured_but_not_valued() -> None:
    assert same_basis("things", "number")
    assert same_basis("things", "weight")
    assert same_basis("things", "volume")
    assert not same_basis("things", "value")
    assert not same_basis("things", "area")
    assert not same_basis("number", "weight")


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a target followed by what it is stays an intention
        (
            "Corran Ports cut its water use by 25% in 2024.",
            "Corran Ports' green bond is linked to targets of cutting water use by 25%, its framework says.",
            "neutral",
        ),
        (
            "Corran Ports cut its fuel use by 9% in 2024.",
            "Corran Ports' sustainability-linked loan is tied to its target to cut fuel use by 9%, "
            "a bank said.",
            "neutral",
        ),
        # a share of those who ignored a thing, against a claim whose part has no words of its own
        (
            "In 2024, 80% of our guests reused their towels.",
            "Corran Ports' towel scheme was ignored by 80% of its guests in 2024, a survey found.",
            "neutral",
        ),
        # words that only begin like a refusal
        (
            "In 2024, 85% of our suppliers signed our supplier code.",
            "Despite early opposition, 85% of Corran Ports' suppliers signed its supplier code in 2024.",
            "supports",
        ),
        # a change said with a passive verb and "of" stays a change
        (
            "Corran Ports cut the weight of its packaging by 12% in 2024.",
            "Corran Ports' packaging was lightened by 12% of its weight in 2024, a trade body said.",
            "supports",
        ),
        # narrowing words said another way
        (
            "In 2024, 85% of our largest suppliers signed our supplier code.",
            "85% of Corran Ports' biggest suppliers signed its supplier code in 2024, an NGO said.",
            "supports",
        ),
        (
            "In 2024, 85% of our key suppliers signed our supplier code.",
            "85% of Corran Ports' strategic suppliers signed its supplier code in 2024, an NGO said.",
            "supports",
        ),
        # a narrowing word after the whole's phrase is not the whole's
        (
            "Renewables supplied 64% of our electricity in 2024.",
            "Renewables supplied 64% of Corran Ports' electricity in 2024 under new contracts, the regulator "
            "said.",
            "supports",
        ),
        # a visit word naming something else
        (
            "In 2024, 60% of our flight crew completed eco-driving training.",
            "60% of Corran Ports' cockpit crew completed eco-driving training in 2024, a union said.",
            "supports",
        ),
    ],
)
def test_traps_of_the_share_rules(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source) == stance


def test_a_phrase_naming_no_change_reports_none() -> None:
    text = "Zero-emission buses made up 25% of its bus fleet at the end of 2024."
    assert mood(text, text.index("25%"), text.index("25%") + 3) == "stated"
    later = (
        "Corran Ports has committed to 10% green fuel by 2030; analysts say green fuel made up 0.6% in 2024."
    )
    assert mood(later, later.index("0.6%"), later.index("0.6%") + 4) == "stated"


def test_a_target_reached_is_contradicted_by_a_share_short_of_it() -> None:
    claim = "Corran Ports reached its target of 50% renewable electricity across its sites in 2024."
    source = (
        "Renewable power made up 41% of the electricity used at Corran Ports' sites in 2024, short of its "
        "50% goal, an energy consultancy found."
    )
    assert _read(claim, source) == "contradicts"


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # a condition with its own figure before the targets is no target measured against
        (
            "Corran Ports cut the carbon intensity of its ships by 11% in 2024.",
            "Corran Ports' loan is tied to an 11% cut in carbon intensity to meet IMO targets, its bank "
            "said.",
            "neutral",
        ),
        # a deed said of something else beside a count is no deed done to the counted things
        (
            "In 2024 Corran Ports audited 214 of its suppliers against its sourcing code.",
            "Corran Ports audited its warehouses and 140 suppliers signed its sourcing code in 2024, an NGO "
            "said.",
            "neutral",
        ),
        (
            "In 2024 Corran Ports trained 800 of its engineers in crane safety.",
            "500 Corran Ports engineers were trained in first aid in 2024, a union said.",
            "neutral",
        ),
        # a share in the passive of those who did another deed
        (
            "In 2024, 40% of our customers used our recycling app.",
            "Corran Ports' recycling app was downloaded by 40% of its customers in 2024, an analyst said.",
            "neutral",
        ),
        (
            "In 2024, 60% of our sites switched to renewable electricity.",
            "Renewable electricity was adopted by 60% of Corran Ports' sites in 2024, a data provider said.",
            "supports",
        ),
        (
            "In 2024, 60% of our sites switched to renewable electricity.",
            "Corran Ports' emissions fell 8% in 2024, driven by 60% of its sites switching to renewable "
            "power.",
            "supports",
        ),
        # refusals said of something else are not the part's
        (
            "In 2024, 85% of our suppliers signed our supplier code.",
            "Having rejected a hostile bid, Corran Ports saw 85% of its suppliers sign its supplier code in "
            "2024.",
            "supports",
        ),
        (
            "In 2024, 85% of our suppliers signed our supplier code.",
            "Corran Ports' supplier code was turned down by 85% of its suppliers in 2024, an NGO said.",
            "neutral",
        ),
        # a visit word after "on" is no whole of visits
        (
            "Sustainable fuel made up 5% of the fuel we burned in 2024.",
            "Sustainable fuel made up 5% of the fuel Corran Ports burned on its voyages in 2024.",
            "supports",
        ),
        # "business" naming the company narrows nothing
        (
            "In 2024, 30% of the electricity our business used came from renewables.",
            "30% of the electricity Corran Ports' business used in 2024 came from renewables, the regulator "
            "said.",
            "supports",
        ),
    ],
)
def test_traps_found_in_review(claim: str, source: str, stance: str) -> None:
    assert _read(claim, source) == stance


@pytest.mark.parametrize(
    ("claim", "source", "stance"),
    [
        # the deed is read in the other share's own clause, as a verb, not undone and not a capability
        (
            "In 2024, 30% of our farms used solar pumps.",
            "Solar pumps were installed by 30% of Corran Ports' farms in 2024, an NGO said.",
            "neutral",
        ),
        (
            "Our green tariff was chosen by 25% of our customers in 2024.",
            "25% of Corran Ports' customers switched away from its green tariff in 2024, the regulator said.",
            "neutral",
        ),
        (
            "LNG was burned by 30% of our ships in 2024.",
            "In 2024, 30% of Corran Ports' ships were designed to burn LNG, the port authority said.",
            "neutral",
        ),
        (
            "Shore power was used by 30% of our ships in 2024.",
            "30% of Corran Ports' ships had shore power connections installed in 2024, the port said.",
            "neutral",
        ),
        # deeds of holding things, and of what a count's things own, count no deed done to some of them
        (
            "In 2024 Corran Ports operated 45 of its vessels on LNG.",
            "Corran Ports operated 45 vessels in 2024, the shipping register shows.",
            "neutral",
        ),
        (
            "In 2024 Corran Ports inspected 80 of its cranes by drone.",
            "Corran Ports inspected 80 cranes in 2024, the safety regulator said.",
            "neutral",
        ),
        # a narrowing word in an owner's name narrows nothing
        (
            "In 2024, 60% of Key Freight's suppliers signed its supplier code.",
            "60% of Key Freight's suppliers signed its supplier code in 2024, an NGO said.",
            "supports",
        ),
        # a measure written away from the share is still its basis
        (
            "In 2024, 72% of our suppliers (by spend) signed our supplier code.",
            "72% of Corran Ports' suppliers by spend signed its supplier code in 2024, an NGO said.",
            "supports",
        ),
        # narrowing words said another way, and visit words in names
        (
            "In 2024, 80% of our top 100 suppliers set science-based targets.",
            "In 2024, 80% of Corran Ports' 100 largest suppliers had set science-based targets, CDP said.",
            "supports",
        ),
        (
            "In 2024, 58% of Voyages Group's hotels held a green certificate.",
            "58% of Voyages Group's hotels held a green certificate in 2024, the register shows.",
            "supports",
        ),
    ],
)
def test_traps_found_in_the_third_review(claim: str, source: str, stance: str) -> None:
    company = "Voyages Group" if "Voyages" in claim else "Key Freight" if "Key Freight" in claim else COMPANY
    assert assess_by_rules(claim, company, "", source, "2025-06-30").stance == stance
