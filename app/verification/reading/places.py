"""The places a stretch of a sentence says its figure is of ("in Brazil", "its London hotels",
"Spanish stores"), and whether they can be the claim's. A country's or a city's figure is a part of
the company's: it neither confirms nor contradicts a claim about the whole company, unless the
claim names that place too ("Spanish stores" are "stores in Spain", the UK is Britain).

Places are found by the offline gazetteer (`app.geo.extract`), which knows countries, regions and
cities and tells "in Ghana" from "in First Aid" or "across the Group"; the adjectives of listed
countries ("Spanish", "Dutch": `figure_subjects.BOUNDARIES`) name their country too. This differs
from `figure_subjects.same_places`, which sets apart only listed places both sides name."""

from __future__ import annotations

import functools
import re

from app.geo.extract import extract_places
from app.geo.gazetteer import load_gazetteer
from app.geo.names import name_key
from app.verification.reading.figure_subjects import BOUNDARIES

#: Adjectives of places their names do not begin: "American", "Swiss", "Welsh", "Scottish".
_MORE_ADJECTIVES = {
    "US": re.compile(r"\bAmerican\b"),
    "CH": re.compile(r"\bSwiss\b"),
    "Wales": re.compile(r"\bWelsh\b"),
    "Scotland": re.compile(r"\bScottish\b"),
    "TR": re.compile(r"\bTurkish\b"),
}
#: A capitalised adjective of a place, by its ending: "Chinese", "Turkish", "Bangladeshi", "Kenyan",
#: "European".
_ADJECTIVE = re.compile(r"\b(?P<stem>[A-Z][a-z]{3,}?)(?:ese|ish|ian|ean|an|i)\b")
_CONTINENTS = ("Europe", "Asia", "Africa", "Oceania")


def places_meet(claim: str, text: str, company: str) -> bool:
    """Whether the places `text` names, if any, can be the claim's: the claim names one of them too,
    however written. A text naming no place meets any claim."""
    theirs = places_named(text, company)
    return not theirs or bool(theirs & places_named(claim, company))


def places_named(text: str, company: str) -> frozenset[str]:
    """The places `text` names, outside the company's name: countries by their code, other places by
    their name."""
    exclude = (company,) if company.strip() else ()
    # the company's own words are its name, however short ("Harlow" of "Harlow Dairies" is no town)
    own = set(company.split())
    found = {
        place.country_code if place.kind == "country" else place.name
        for place in extract_places(text, exclude=exclude)
        if not set(place.matched_text.split()) <= own
    }
    found |= {_country_code(name) for name, pattern in BOUNDARIES["country"].items() if pattern.search(text)}
    found |= {place for place, pattern in _MORE_ADJECTIVES.items() if pattern.search(text)}
    found |= {place for match in _ADJECTIVE.finditer(text) if (place := _place_of_adjective(match["stem"]))}
    return frozenset(found)


@functools.cache
def _place_of_adjective(stem: str) -> str | None:
    """The country (its code) or continent whose name begins with an adjective's stem ("Chin" of
    "Chinese" is China's, "Europ" of "European" Europe's); None when no one name does."""
    countries = load_gazetteer().country_names()
    names = {name: code for code, name in countries.items()} | {name: name for name in _CONTINENTS}
    # the name's first word is the stem and at most two letters more: "China", "Europe", "Bangladesh"
    matches = sorted(
        name
        for name in names
        if name.lower().startswith(stem.lower()) and len(name.split()[0]) <= len(stem) + 2
    )
    return names[matches[0]] if len(matches) == 1 else None


@functools.cache
def _country_code(name: str) -> str:
    """The gazetteer's code for a listed country's name ("uk" is GB)."""
    entries, _ = load_gazetteer().candidates(name_key(name))
    return next((entry.country_code for entry in entries if entry.kind == "country"), name)
