"""Places a sentence says its figure is of ("in Brazil", "its London hotels"), and whether a claim
names any place at all. A country's or a city's figure is a part of the company's: it neither
confirms nor contradicts a claim about the whole company, unless the claim names a place too (then
the two are compared as they stand: "French stores" may be "stores in France")."""

from __future__ import annotations

import re

#: A word of a place's name: capitalised letters, or two capitals ("UK"); not "FY2023", "CEO" or "PET".
_PLACE_WORD = r"(?:[A-Z][a-z][A-Za-z-]*|(?!FY)[A-Z]{2}\b)"
#: A place a figure is said of, after a preposition: "in Brazil", "across the UK" ("at its Leeds
#: plant" is a site, read elsewhere; months are dates, not places).
_IN_A_PLACE = re.compile(
    r"\b(?:in|across|throughout)\s(?:the\s)?(?P<place>(?!(?:January|February|March|April|May|June|July|"
    rf"August|September|October|November|December)\b){_PLACE_WORD}(?:\s{_PLACE_WORD})*)"
)
#: A place named before what it holds: "its London hotels", "Larkspur's UK stores".
_PLACE_BEFORE = re.compile(rf"(?:\b(?:its|their|our|the)\s|['’]s?\s)(?P<place>{_PLACE_WORD})\s(?=[a-z])")


def places_named(text: str, company: str) -> list[str]:
    """The places `text` says something is of or in, other than words of the company's name and the
    names of bodies ("the National Charging Register")."""
    names = set(re.findall(r"[\w-]+", company))
    found = [match["place"] for pattern in (_IN_A_PLACE, _PLACE_BEFORE) for match in pattern.finditer(text)]
    return [place for place in found if not set(place.split()) & names and not _A_BODY.search(place)]


#: A body's name, ending what looked like a place: "National Charging Register", "Farm Council".
_A_BODY = re.compile(
    r"\b(?:Register|Registry|Agency|Council|Authority|Office|Board|Commission|Institute|"
    r"Survey|Index|Database|Census|Association|Ministry|Department|Alliance|Forum|Trust|Fund|Programme|"
    r"Program|Scheme|Standard|Report|Review|Observatory|Monitor|Watch|Tracker)\b"
)


def same_places(claim: str, sentence: str, company: str) -> bool:
    """Whether a sentence's places, if it names any, can be the claim's: the claim names a place too
    and one of each side's begins alike ("Spanish" stores are "in Spain"; "Germany" is not
    "Europe")."""
    theirs = places_named(sentence, company)
    if not theirs:
        return True
    mine = places_named(claim, company)
    return any(_place_key(a) == _place_key(b) for a in mine for b in theirs)


#: Places written in other words, where their first letters differ: the UK is Britain, "French" is
#: France's.
_SAME_PLACE = {
    "uk": "brit", "united kingdom": "brit", "us": "amer", "united states": "amer", "french": "fran",
    "welsh": "wale", "dutch": "neth", "swiss": "swit", "irish": "irel", "danish": "denm", "polish": "pola",
    "spanish": "spai",
}  # fmt: skip


def _place_key(place: str) -> str:
    """A place as compared: its first four letters, "British" and "Britain" alike."""
    place = place.lower()
    return _SAME_PLACE.get(place, place[:4])
