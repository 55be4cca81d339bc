"""Reading figures: numbers, units, conversions and stated precision, and the years they are stated for."""

from __future__ import annotations

import pytest

from app.language.figures import close, parse_figures, parse_number
from app.language.years import parse_years, stated_year, year_right_after


@pytest.mark.parametrize(
    ("text", "value", "half"),
    [("2,450", 2450.0, 0.5), ("2.30", 2.3, 0.005), ("2.3", 2.3, 0.05), ("1,234.5", 1234.5, 0.05)],
)
def test_parse_number_keeps_the_stated_precision(text: str, value: float, half: float) -> None:
    assert parse_number(text) == pytest.approx((value, half))


@pytest.mark.parametrize(
    ("text", "unit", "dimension", "base"),
    [
        ("2.3 Mt CO2e", "Mt CO2e", "mass", 2.3e6),
        ("2,450 kt CO2e", "kt CO2e", "mass", 2.45e6),
        ("0.002 Gt", "Gt", "mass", 2e6),
        ("5 tCO2e", "t CO2e", "mass", 5.0),
        ("2.3 million tonnes", "million t", "mass", 2.3e6),
        ("1,200 Tonnes", "t", "mass", 1200.0),
        ("3.5 GWh", "GWh", "energy", 3500.0),
        ("720 MWh", "MWh", "energy", 720.0),
        ("36 GJ", "GJ", "energy", 10.0),
        ("412 megalitres", "ML", "volume", 412_000.0),
        ("1.2 GL", "GL", "volume", 1_200_000.0),
        ("5,000 m3", "m3", "volume", 5000.0),
        ("1.1 bcm", "bcm", "volume", 1.1e9),
        ("30 mcm", "mcm", "volume", 3e7),
        ("9.4 million hectolitres", "million hl", "volume", 9.4e5),
        ("3.1 hl", "hl", "volume", 0.31),
        ("340 hectares", "ha", "area", 340.0),
        ("45 per cent", "%", "percent", 45.0),
        ("6.1%", "%", "percent", 6.1),
        ("3 percentage points", "pp", "pp", 3.0),
        ("€1.2 billion", "EUR billion", "currency", 1.2e9),
        ("US$350 million", "USD million", "currency", 3.5e8),
    ],
)
def test_units_convert_to_the_base_of_their_dimension(
    text: str, unit: str, dimension: str, base: float
) -> None:
    [figure] = parse_figures(f"It was {text} in total.")
    assert (figure.unit, figure.dimension) == (unit, dimension)
    assert figure.base == pytest.approx(base)


def test_minus_signs_and_rounding_in_base_units() -> None:
    [figure] = parse_figures("a change of \u22126.1% year on year")
    assert figure.value == -6.1 and figure.half_unit == pytest.approx(0.05)
    [mass] = parse_figures("Scope 1 was 2.3 Mt.")
    assert mass.base_half_unit == pytest.approx(50_000)


def test_years_and_fiscal_years() -> None:
    assert [year for year, _ in parse_years("FY23 vs 2019, targets for FY2030")] == [2023, 2019, 2030]


def test_a_year_or_a_bare_number_is_not_a_figure() -> None:
    assert parse_figures("In 2023 we opened 3 sites.") == []


def test_close_uses_the_tolerance() -> None:
    assert close(2.3, 2.35, 0.05) and not close(2.3, 2.36, 0.05)


@pytest.mark.parametrize(
    ("text", "year"),
    [
        (", in 2023 and then", 2023),
        (" for FY2022", 2022),
        (" during fiscal year 2021.", 2021),
        (" and in 2023", None),  # another clause's year, not this figure's
        (" in 2023x", None),
    ],
)
def test_the_year_right_after_a_figure(text: str, year: int | None) -> None:
    assert year_right_after(text) == year


def test_a_figure_takes_the_year_right_after_it_before_the_sentences_only_year() -> None:
    sentence = "Scope 1 was 2.1 Mt in 2023, as 2022 had been a year of closures."
    (figure,) = parse_figures(sentence)
    assert stated_year(sentence, figure) == 2023


def test_an_intensity_takes_the_year_after_what_it_is_per() -> None:
    sentence = "It emitted 62 grams of CO2 per tonne-kilometre in 2022, down from 66 g in 2021."
    later, earlier = parse_figures(sentence)
    assert (stated_year(sentence, later), stated_year(sentence, earlier)) == (2022, 2021)
    assert (earlier.unit, earlier.dimension) == ("g", "mass")


@pytest.mark.parametrize(
    ("sentence", "year"),
    [
        ("It emitted 1.7 t of CO2 per tonne of steel produced in 2023, against 2022's 1.8 t.", 2023),
        ("In 2023 it emitted 0.42 t CO2e per tonne of cement under the standard it adopted in 2021.", None),
        # not the year of the level it is set against
        ("In 2023 its trucks emitted 62 g of CO2 per tonne-kilometre against 71 g in 2019.", None),
    ],
)
def test_an_intensity_takes_a_year_said_of_what_it_is_per_only(sentence: str, year: int | None) -> None:
    assert stated_year(sentence, parse_figures(sentence)[0]) == year


def test_a_currency_amount_keeps_its_currency_and_scale() -> None:
    euros, dollars = parse_figures("capital spending of \u20ac1.2 billion and US$300 million")
    assert (euros.currency, euros.unit, euros.base) == ("EUR", "EUR billion", 1.2e9)
    assert (dollars.currency, dollars.base) == ("USD", 3e8)
    assert not euros.same_kind(dollars)


def test_a_unit_with_two_readings_is_marked_ambiguous() -> None:
    (figure,) = parse_figures("Emissions were 2.3 MT in 2023.")
    assert figure.ambiguous
    assert not parse_figures("Emissions were 2.3 Mt in 2023.")[0].ambiguous


def test_a_currency_named_after_the_amount() -> None:
    euros = parse_figures("The bank priced 500 million euros of green notes in 2023.")
    assert [(f.base, f.currency) for f in euros] == [(500e6, "EUR")]
    dollars = parse_figures("It raised 2.1 billion US dollars, against US$2.1 billion planned.")
    assert [(f.base, f.currency) for f in dollars] == [(2.1e9, "USD"), (2.1e9, "USD")]
    # pounds are also a weight; a symbol before the number is not read twice
    assert parse_figures("The parcel weighed 50 pounds.") == []
    assert len(parse_figures("a $500 million dollars loan")) == 1
