"""Places a sentence says its figure is of ("in Brazil", "its London hotels"), and whether a claim
names any place at all. A country's or a city's figure is a part of the company's: it neither
confirms nor contradicts a claim about the whole company, unless the claim names a place too (then
the two are compared as they stand: "French stores" may be "stores in France")."""

from __future__ import annotations

import re

from app.verification.reading.figure_subjects import BOUNDARIES

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


def places_meet(claim: str, text: str, company: str) -> bool:
    """Whether the places `text` says its figure is of, if it names any, can be the claim's: the
    claim names a place too and one of each side's is the same place however written ("Spanish"
    stores are "in Spain", the UK is Britain; "Germany" is not "Europe"). `figure_subjects.same_places`
    sets apart only listed places both name; this also sets aside any place the claim does not name."""
    theirs = places_named(text, company)
    if not theirs:
        return True
    mine = places_named(claim, company)
    return any(_place_key(a) == _place_key(b) for a in mine for b in theirs)


def _place_key(place: str) -> str:
    """A place as compared: the listed country or region it is (`BOUNDARIES`, names and adjectives
    alike), else its first four letters ("Kenya" and "Kenyan"; "Welsh" and "Scottish" are Wales's and
    Scotland's, which are parts of the UK rather than alternatives to it, so not listed there)."""
    for family in ("country", "region"):
        for name, pattern in BOUNDARIES[family].items():
            if pattern.search(place):
                return name
    return _NATIONS.get(place.lower(), place.lower()[:4])


_NATIONS = {"welsh": "wale", "scottish": "scot"}
