"""The rule reader of sources on sentences that carry several figures: a rival's, a sector's or the
company's own reported figure set beside the source's is not what the source says of the company,
and a figure the source implies (a change between two levels, a share of a whole) is compared like
one it states."""

from __future__ import annotations

import pytest

from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.figures import set_beside

COMPANY = "Tollgate Mining"


def _read(claim: str, source: str) -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, "", source)
    return assessment.stance, assessment.signal


@pytest.mark.parametrize(
    ("source", "figure"),
    [
        (
            "Scrap made up 30% of Tollgate's input in 2022, against 38% at its electric-arc peer Dunmore.",
            "38%",
        ),
        ("Women made up 27% of Tollgate's staff in 2022, below the mining sector's 34%.", "34%"),
        ("Tollgate held £2.6 billion, against £4.1 billion at rival Brightwater Assurance.", "£4.1 billion"),
        (
            "Its clinker ratio was 0.76 in 2023, above the sector's 0.71 average, the association said.",
            "0.71",
        ),
        ("SAF made up 1.2% of its fuel, against 0.3% across the national fleet.", "0.3%"),
        ("Just 48% of its floor area was certified, against 62% for the listed-property average.", "62%"),
        ("An industry average of 40% was well above Tollgate's 31%.", "40%"),
        ("Only about half was renewable, against the 64% the chain reported, campaigners found.", "64%"),
    ],
)
def test_a_figure_set_beside_the_companys_is_anothers(source: str, figure: str) -> None:
    start = source.index(figure)
    assert set_beside(source, start, start + len(figure))


@pytest.mark.parametrize(
    ("source", "figure"),
    [
        ("Tollgate's customers used an average of 138 litres a day in 2023, the regulator said.", "138"),
        (
            "Scrap made up 30% of Tollgate's input in 2022, against 38% at its electric-arc peer Dunmore.",
            "30%",
        ),
        ("Women made up 27% of Tollgate's staff in 2022, below the mining sector's 34%.", "27%"),
        ("Tollgate's data centres ran at an average PUE of 1.6 in 2022, the register shows.", "1.6"),
        ("ShipRate puts Tollgate's 2022 fleet average at 8.1 g CO2/t-nm.", "8.1"),
        ("Tollgate sold 40% of its output at national prices.", "40%"),
    ],
)
def test_the_companys_own_figure_or_average_is_not_set_beside(source: str, figure: str) -> None:
    start = source.index(figure)
    assert not set_beside(source, start, start + len(figure))


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Tollgate Mining used scrap for 38% of its steelmaking input in 2022.",
            "Scrap made up just under 30% of Tollgate's metallic input in 2022, against 38% at its "
            "electric-arc peer Dunmore Alloys, the recyclers' federation said.",
        ),
        (
            "Tollgate Mining held £4.1 billion in green bonds at the end of 2023.",
            "Green bonds at Tollgate Mining totalled £2.6 billion at the end of 2023, against £4.1 billion "
            "at rival Brightwater Assurance, the insurance regulator's returns show.",
        ),
        (
            "In the fiscal year to January 2023, Tollgate Mining sourced 64% of the electricity for its "
            "mines from renewable sources.",
            "Only about half of the power used at Tollgate Mining's mines in the year to January 2023 was "
            "renewable, against the 64% the miner reported, the campaign group Clean Grid found.",
        ),
    ],
)
def test_the_claims_figure_at_a_rival_or_as_reported_does_not_confirm_it(claim: str, source: str) -> None:
    assert _read(claim, source) == ("contradicts", "numeric_mismatch")
