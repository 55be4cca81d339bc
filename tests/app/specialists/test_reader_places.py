"""Which places a stretch of a source sentence says its figure is of, as the reader compares them
with the claim's: found by the offline gazetteer and by countries' adjectives, never in the
company's own name, a speaker's description or a person's name."""

from __future__ import annotations

import pytest

from app.verification.reading.places import places_meet, places_named


@pytest.mark.parametrize(
    ("text", "company", "places"),
    [
        ("planted 9m trees in Brazil", "Brackenfold", {"BR"}),
        ("its London hotels", "Brackenfold", {"London"}),
        ("Spanish stores", "Brackenfold", {"ES"}),
        ("Chinese suppliers", "Brackenfold", {"CN"}),
        ("European hotels", "Brackenfold", {"Europe"}),
        ("Bavarian hotels", "Brackenfold", {"Bavaria"}),
        ("its hotels across the EU", "Brackenfold", {"Europe"}),
        ("its depots in America", "Brackenfold", {"US"}),
        # words that are no places
        ("trained 4,000 employees in First Aid", "Brackenfold", set()),
        ("growth across the Group", "Brackenfold", set()),
        ("its HR academy and PV kits", "Brackenfold", set()),
        ("South American sales", "Brackenfold", set()),
        # the company's own name, a speaker, the company's description, a person
        ("the nuts Brazil Nuts Co bought", "Brazil Nuts Co", set()),
        ("the milk Harlow processed", "Harlow Dairies", set()),
        ("Norway's road registry data show", "Brackenfold", set()),
        ("Brackenfold, a Dutch dairy group, sold", "Brackenfold", set()),
        ("the Swedish-owned grocer", "Brackenfold", set()),
        ("data compiled by Victoria Hale show", "Brackenfold", set()),
        ("said analyst Jordan Pike", "Brackenfold", set()),
        ("according to Dutch consultancy Vantage", "Brackenfold", set()),
        ("the UK charity FareShare said", "Brackenfold", set()),
        ("The Irish Times reported", "Brackenfold", set()),
        ("capital expenditure aligned with the EU taxonomy", "Brackenfold", set()),
    ],
)
def test_the_places_a_text_names(text: str, company: str, places: set[str]) -> None:
    assert places_named(text, company) == places


def test_places_meet_when_the_claim_names_the_same_place_however_written() -> None:
    assert places_meet("our Spanish stores collected", "its stores in Spain collected", "Brackenfold")
    assert places_meet("our UK customers", "its customers in Britain", "Brackenfold")
    assert not places_meet("our hotels in Europe", "its hotels in Germany", "Brackenfold")
    assert not places_meet("our stores collected", "its stores in Spain collected", "Brackenfold")
    assert places_meet("our stores collected", "its stores collected", "Brackenfold")
