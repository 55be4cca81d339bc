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
from app.geo.regions import REGIONS
from app.verification.reading.figure_subjects import BOUNDARIES

#: Adjectives and short names of places their names do not begin: "American", "Swiss", "Welsh",
#: "Scottish"; "America" for the US, "the EU" for Europe.
_MORE_ADJECTIVES = {
    "US": re.compile(r"(?<!North\s)(?<!South\s)(?<!Latin\s)(?<!Central\s)\bAmerican?\b"),
    "Europe": re.compile(r"\bEU\b(?!\s(?:taxonomy|ETS|regulations?|directives?|rules|standards?|law))"),
    "CH": re.compile(r"\bSwiss\b"),
    "Wales": re.compile(r"\bWelsh\b"),
    "Scotland": re.compile(r"\bScottish\b"),
    "TR": re.compile(r"\bTurkish\b"),
}
#: A capitalised adjective of a place, by its ending: "Chinese", "Turkish", "Bangladeshi", "Kenyan",
#: "European".
_ADJECTIVE = re.compile(r"\b(?P<stem>[A-Z][a-z]{3,}?)(?:ese|ish|ian|ean|an|i)\b(?=\s[a-z])")
_CONTINENTS = ("Europe", "Asia", "Africa", "Oceania")


def places_meet(claim: str, text: str, company: str) -> bool:
    """Whether the places `text` names, if any, can be the claim's: the claim names one of them too,
    however written. A text naming no place meets any claim."""
    theirs = places_named(text, company)
    return not theirs or bool(theirs & places_named(claim, company))


@functools.lru_cache(maxsize=1024)
def places_named(text: str, company: str) -> frozenset[str]:
    """The places `text` names, outside the company's name: countries by their code, other places by
    their name. A place that names who speaks or what the company is ("Norway's road registry", "a
    Dutch dairy group", "analyst Victoria Hale") is no place a figure is of. Cached: a claim is asked
    about again for every source stretch it is compared with."""
    # the company's own words are its name, however short ("Harlow" of "Harlow Dairies" is no town)
    for word in set(re.findall(r"[\w'’-]+", company)):
        text = re.sub(rf"\b{re.escape(word)}\b", " " * len(word), text)
    found = {
        place.country_code if place.kind == "country" else place.name
        for place in extract_places(text)
        if _of_a_figure(text, text.find(place.matched_text), len(place.matched_text))
    }
    named = [
        *(
            (_country_code(name), match)
            for name, pattern in BOUNDARIES["country"].items()
            for match in pattern.finditer(text)
        ),
        *((place, match) for place, pattern in _MORE_ADJECTIVES.items() for match in pattern.finditer(text)),
        *(
            (place, match)
            for match in _ADJECTIVE.finditer(text)
            if (place := _place_of_adjective(match["stem"], match.group()))
        ),
    ]
    found |= {
        place for place, match in named if _of_a_figure(text, match.start(), match.end() - match.start())
    }
    return frozenset(found)


def _of_a_figure(text: str, start: int, length: int) -> bool:
    """Whether the place at `start` can be where a figure is of: not a speaker's or the company's
    description, nor a person's name."""
    if start < 0:
        return False
    end = start + length
    a_person = (
        _A_PERSON_BEFORE.search(text, 0, start)
        or _BY_A_NAME_BEFORE.search(text, 0, start)
        or (_BY_BEFORE.search(text, 0, start) and _A_SURNAME_AFTER.match(text, end))
    )
    return not (_A_BODY_AFTER.match(text, end) or a_person)


#: After a place, what makes it a speaker or a description: "Norway's road registry", "a Dutch dairy
#: group", "Swedish-owned".
_A_BODY_AFTER = re.compile(
    r"(?:['’]s?)?(?:-(?:owned|based|listed|headquartered)\b|\s(?:[\w-]+\s){0,2}(?:registry|register|"
    r"regulators?|agency|ministry|government|authority|office|statistics|data|analysts?|group|company|firm|"
    r"brewer|insurer|bank|utility|operator|retailer|owner|parent|consultancy|consultants?|newspaper|times|"
    r"journal|post|herald|magazine|broadcaster|charity|ngo|researchers?|scientists?|institute|university|"
    r"council|commission|association|watchdog|inspectorate)\b)",
    re.IGNORECASE,
)
#: "compiled by Victoria Hale": a first name and a surname after "by" are a person's; the first
#: name is known by the surname after it, the surname by the first name before it.
_BY_BEFORE = re.compile(r"\b(?:by|from|with)\s$")
_BY_A_NAME_BEFORE = re.compile(r"\b(?:by|from|with)\s[A-Z][a-z]+\s$")
_A_SURNAME_AFTER = re.compile(r"\s[A-Z][a-z]+\b")
#: Before a person's name, which may also be a place's: "analyst Victoria Hale".
_A_PERSON_BEFORE = re.compile(
    r"\b(?:analyst|economist|researcher|professor|Dr|Mr|Ms|Mrs|spokesperson|spokeswoman|spokesman|director|"
    r"minister|chair|chief\sexecutive|says|said)\s(?:[A-Z][\w-]+\s)?$",
    re.IGNORECASE,
)


@functools.cache
def _place_of_adjective(stem: str, word: str) -> str | None:
    """The country (its code), continent or region whose name begins with an adjective's stem ("Chin"
    of "Chinese" is China's, "Europ" of "European" Europe's, "Bavar" of "Bavarian" Bavaria's); None
    when no one name does."""
    countries = load_gazetteer().country_names()
    regions = {region.name: region.name for region in REGIONS}
    names = {name: code for code, name in countries.items()} | {name: name for name in _CONTINENTS} | regions
    # the name's first word is the stem and at most two letters more: "China", "Europe", "Bangladesh"
    matches = sorted(
        name
        for name in names
        if name.lower().startswith(stem.lower())
        and len(name.split()[0]) <= len(stem) + 2
        and name.split()[0] != word  # "American Samoa" is no place "American" names
    )
    return names[matches[0]] if len(matches) == 1 else None


@functools.cache
def _country_code(name: str) -> str:
    """The gazetteer's code for a listed country's name ("uk" is GB)."""
    entries, _ = load_gazetteer().candidates(name_key(name))
    return next((entry.country_code for entry in entries if entry.kind == "country"), name)
