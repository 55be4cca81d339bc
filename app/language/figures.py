"""Figures as a text states them: a number, its unit, and how precisely it was written.

Checks that recompute a report's arithmetic, and readers that compare a source's figure with a
claim's, must read "2,450 kt CO2e", "2.45 Mt", "412 megalitres" or "€1.2 billion" as comparable
quantities, and know that "2.3" was rounded to a tenth (so anything from 2.25 to 2.35 is consistent
with it). Every figure therefore carries its value in a base unit per dimension and the rounding
half-width of what was written. A currency amount also keeps its currency: amounts in two
currencies are never comparable, since exchange rates are not constants. A unit with two readings
("MT": megatonnes or metric tonnes) is marked ambiguous so no check calls it wrong.

Whose figure it is (a scenario's, the world's) and what it measures (which emissions scope) are
questions of the reader, not of the text: `app.verification.reading.figures`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Protocol

# Base unit per dimension: tonnes, MWh, MW, m3, hectares, km, percent, currency units.
_MASS = {"t": 1.0, "kt": 1e3, "mt": 1e6, "gt": 1e9, "kg": 1e-3, "g": 1e-6}
_ENERGY = {"kwh": 1e-3, "mwh": 1.0, "gwh": 1e3, "twh": 1e6, "gj": 1 / 3.6, "tj": 1e3 / 3.6, "pj": 1e6 / 3.6}
_VOLUME = {"m3": 1.0, "l": 1e-3, "ml": 1e3, "gl": 1e6}
_GAS_VOLUMES = {"bcm": 1e9, "mcm": 1e6}
_AREA = {"ha": 1.0, "km2": 100.0}
_POWER = {"kw": 1e-3, "mw": 1.0, "gw": 1e3}  # capacity, in MW ("MWp", "MWdc": peak, direct current)
_ACRE_HA = 0.40468564224
_MILE_KM = 1.609344  # lengths (track electrified, pipeline, coastline restored), in km
_US_GALLON_M3 = 3.785411784e-3  # a gallon in a sustainability report is the US one
_HECTOLITRE_M3 = 0.1  # brewers state water and beer in hectolitres
#: Units spelled out (without spaces or hyphens, singular), as their symbols.
_SPELLED_UNITS = {
    "kilotonne": "kt",
    "megatonne": "Mt",
    "gigatonne": "Gt",
    "kilowatthour": "kWh",
    "megawatthour": "MWh",
    "gigawatthour": "GWh",
    "terawatthour": "TWh",
    "kilogram": "kg",
    "gram": "g",
    "gigajoule": "GJ",
    "terajoule": "TJ",
    "petajoule": "PJ",
    "kilowatt": "kW",
    "megawatt": "MW",
    "gigawatt": "GW",
    "squarekilometre": "km2",
    "squarekilometer": "km2",
}
#: What a scale word or suffix multiplies by ("2.1m", "40k", "1.2 billion").
SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}

_NUM = r"(?P<sign>[-\u2212\u2013]\s?)?(?P<num>\d{1,3}(?:[,\u202f\u00a0]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
#: A figure with a unit may also group its thousands with plain spaces ("1 250 000 MWh").
_UNIT_NUM = _NUM.replace(
    r"(?:[,\u202f\u00a0]\d{3})+", r"(?:[,\u202f\u00a0]\d{3})+|\d{1,3}(?:\s\d{3})+(?=\s?[^\d\s])"
)
_CO2 = (
    r"(?:\s?(?:of\s)?CO(?:2|₂)[\s-]?e(?:q(?:uivalent)?)?\b|\s?(?:of\s)?CO(?:2|₂)\b"
    r"|\s(?:of\s)?carbon dioxide(?:[\s-]equivalents?)?\b)?"
)
_UNIT_WORDS = (
    r"(?P<unit>%|(?i:per\s?cent|percent|percentage points?)\b|pp\b|pc\b|"
    r"(?i:(?:metric\s)?(?:tonnes?|tons?))\b|(?i:kilo|mega|giga)tonnes?\b|(?:[kMG]?t|MT)(?:\b|(?=\s?CO))|kg\b|"
    r"(?i:kilograms?|grams?)\b|kg(?=CO)|g(?=\s?(?:of\s)?(?:CO|carbon\sdioxide\b))|(?<=\d\s)g\b(?![-'’])|[kMGT]Wh\b|(?i:(?:kilo|mega|giga|tera)watt[\s-]hours?)\b|[GTP]J\b|"
    r"[kMG]W(?:p|dc|ac)?\b|(?i:(?:kilo|mega|giga)watts?)\b|"
    r"(?i:(?:giga|tera|peta)joules?)\b|(?i:(?:US\s)?gallons?)\b|(?i:acres?)\b|"
    r"m3\b|m³|(?i:cubic\smet(?:re|er)s?)\b|(?:bcm|mcm)\b|"
    r"(?i:megalit(?:re|er)s?|gigalit(?:re|er)s?|hectolit(?:re|er)s?)\b|M[Ll]\b|GL\b|hl\b|(?i:(?:kilo)?lit(?:re|er)s?)\b|L\b(?!\.)|"
    r"(?i:hectares?)\b|ha\b|km2\b|km²|(?i:square\skilomet(?:re|er)s?)\b|"
    r"km\b|(?i:kilomet(?:re|er)s?|miles?)\b)"
)
FIGURE = re.compile(
    rf"(?<![\w.,])(?<![Ss]cope\s){_UNIT_NUM}\s?(?P<scale>thousand|million|billion|bn|mn|(?:m|k)(?=\s))?\s?{_UNIT_WORDS}"
    rf"(?P<co2>{_CO2})",
)
_ISO_CURRENCIES = "USD|EUR|GBP|CHF|CAD|AUD|NZD|JPY|CNY|HKD|SGD|SEK|NOK|DKK|INR|BRL|ZAR|MXN"
CURRENCY = re.compile(
    rf"(?P<cur>\b[A-Z]{{1,3}}\$|(?<![A-Za-z])[$€£¥]|\b(?:{_ISO_CURRENCIES})\s?){_NUM}"
    r"(?:\s?(?P<scale>thousand|million|billion|bn|mn|m|k)\b)?",
)
#: An amount with its currency named after it, as the press writes it: "500 million euros", "2.1 billion
#: US dollars". "Pounds" is left out: it is also a weight.
CURRENCY_AFTER = re.compile(
    rf"(?<![\w.,$€£¥]){_NUM}\s?(?P<scale>thousand|million|billion|bn|mn)?\s"
    r"(?P<cur>euros?|(?:US|U\.S\.)\sdollars?|dollars?|Swiss\sfrancs?)\b",
    re.IGNORECASE,
)
_CURRENCY_WORDS = {
    "euro": "EUR",
    "us dollar": "USD",
    "u.s. dollar": "USD",
    "dollar": "$",
    "swiss franc": "CHF",
}
# A bare "$" or "¥" does not say which currency it is; it stays as written.
_CURRENCY_CODES = {
    "€": "EUR",
    "£": "GBP",
    "US$": "USD",
    "A$": "AUD",
    "AU$": "AUD",
    "C$": "CAD",
    "CA$": "CAD",
    "NZ$": "NZD",
    "HK$": "HKD",
    "S$": "SGD",
    "R$": "BRL",
}
#: Words hedging the figure right after them.
_HEDGE_BEFORE = re.compile(
    r"(?:\b(?:about|around|approximately|roughly|some|circa|close\sto|an\sestimated)\s|~\s?)$",
    re.IGNORECASE,
)
#: Words stating the figure after them as a bound close to it, from below: "nearly a third" holds
#: 30%, "nearly 20 Mt" does not hold 16.2 Mt.
_NEARLY_BEFORE = re.compile(r"\b(?:nearly|almost|just\sunder|just\sshort\sof)\s$", re.IGNORECASE)
#: Words stating the figure right after them as a lower or upper bound.
_BOUND_BEFORE = (
    (
        "above",
        re.compile(
            r"\b(?:more\sthan|over|above|at\sleast|exceeding|in\sexcess\sof|topped|exceeded|surpassed)\s$",
            re.IGNORECASE,
        ),
    ),
    (
        "below",
        re.compile(r"\b(?:less\sthan|fewer\sthan|under|below|at\smost|no\smore\sthan)\s$", re.IGNORECASE),
    ),
)
_JUST = re.compile(r"\b(?:just|little|slightly)\s(?:\w+\s){1,2}$", re.IGNORECASE)
#: A number as written, its unit not read: "2,450", "2.3", "-4" (groups `sign` and `num`); never one
#: inside a word or another number ("v2", "1.5.3").
BARE_NUMBER = re.compile(
    r"(?<![\w.,])(?P<sign>[-\u2212]\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
)


class Stated(Protocol):
    """Something a text states at a place in it, as written: a figure, a count of things."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class Figure:
    """One stated quantity.

    Attributes:
        value: The number as written (negative when a minus sign precedes it).
        unit: The unit as normalised ("Mt CO2e", "%", "MWh", "ML", "ha", "EUR").
        dimension: "mass", "energy", "power", "volume", "area", "percent", "pp", "currency",
            "rate" (per million hours worked) or "index <name>" (a named index with no unit: PUE).
        base: `value` converted to the dimension's base unit (t, MWh, m3, ha, %, currency units).
        half_unit: Half a unit of the last written digit, in the unit as written.
        start: Offset of the figure in the text it was read from.
        end: End offset in that text.
        text: The figure as written.
        co2e: Whether the unit names CO2 or CO2e.
        currency: The currency of a currency amount (an ISO code, or "$" / "¥" when the text does
            not say which); None for every other dimension.
        ambiguous: Whether the unit as written has another reading ("MT": megatonnes or metric
            tonnes), so the value may be off by a unit factor.
        approximate: Whether the text hedges it ("about 12 million", "nearly 20 Mt", "~5%"), so it
            stands for a range wider than its rounding.
        bound: "above" or "below" when the text states it as a bound ("more than 60%", "less than
            $50 million", "at least 3 Mt"): any value on that side of it is consistent with it
            ("just over 20%" is also `approximate`: a value close to it).
    """

    value: float
    unit: str
    dimension: str
    base: float
    half_unit: float
    start: int
    end: int
    text: str
    co2e: bool = False
    currency: str | None = None
    ambiguous: bool = False
    approximate: bool = False
    bound: str | None = None

    def same_kind(self, other: Figure) -> bool:
        """Whether the two can be compared at all: same dimension and, for money, same currency."""
        return self.dimension == other.dimension and self.currency == other.currency

    @property
    def base_half_unit(self) -> float:
        """The rounding half-width in the base unit."""
        return abs(self.half_unit * (self.base / self.value)) if self.value else 0.0

    def as_dict(self, page: int | None = None) -> dict[str, object]:
        """The JSON form findings cite."""
        data: dict[str, object] = {"value": self.value, "unit": self.unit, "text": self.text}
        if page is not None:
            data["page"] = page
        return data


def parse_number(text: str) -> tuple[float, float]:
    """A written number's value and rounding half-width ("2,450" -> 2450, 0.5; "2.30" -> 2.3, 0.005)."""
    plain = re.sub(r"[,\s\u202f\u00a0]", "", text)
    decimals = len(plain.split(".", 1)[1]) if "." in plain else 0
    return float(plain), 0.5 * 10.0**-decimals


def _unit(raw: str, co2e: bool) -> tuple[str, str, float]:
    """Normalised unit name, dimension and factor to the base unit for a unit as written."""
    low = raw.lower().replace(" ", "")
    suffix = " CO2e" if co2e else ""
    if low.startswith("percentagepoint") or low == "pp":
        return "pp", "pp", 1.0
    if low in {"%", "pc"} or low.startswith("per"):
        return "%", "percent", 1.0
    spelled = _SPELLED_UNITS.get(low.replace("-", "").rstrip("s"))
    if spelled is not None:
        return _unit(spelled, co2e)
    if low.startswith("acre"):
        return "acre", "area", _ACRE_HA
    if "gallon" in low:
        return "gal", "volume", _US_GALLON_M3
    if "ton" in low or low in {"t", "metrict"}:
        return "t" + suffix, "mass", 1.0
    if raw in {"Mt", "MT"}:
        return "Mt" + suffix, "mass", _MASS["mt"]
    if low in _MASS:
        return raw + suffix, "mass", _MASS[low]
    if low in _ENERGY:
        return raw, "energy", _ENERGY[low]
    power = re.sub(r"(?:p|dc|ac)$", "", low)
    if power in _POWER:
        return raw, "power", _POWER[power]
    if low.startswith("megalit"):
        return "ML", "volume", _VOLUME["ml"]
    if low.startswith("gigalit"):
        return "GL", "volume", _VOLUME["gl"]
    if low.startswith("hectolit") or low == "hl":
        return "hl", "volume", _HECTOLITRE_M3
    if "lit" in low:
        return "l" if not low.startswith("kilo") else "m3", "volume", 1.0 if low.startswith("kilo") else 1e-3
    if low in {"m3", "m³"} or low.startswith("cubicmet"):
        return "m3", "volume", 1.0
    if low in _GAS_VOLUMES:  # the press's billion and million cubic metres of gas
        return raw, "volume", _GAS_VOLUMES[low]
    if low in _VOLUME:
        return raw, "volume", _VOLUME[low]
    if low.startswith("hectare") or low == "ha":
        return "ha", "area", 1.0
    if low == "km" or low.startswith("kilomet"):
        return "km", "length", 1.0
    if low.startswith("mile"):
        return "km", "length", _MILE_KM
    return "km2", "area", _AREA["km2"]


#: A rate per hours worked ("1.4 lost-time injuries per million hours worked", "0.28 per 200,000
#: hours"), read per million hours: safety rates are stated per million hours or per 200,000.
HOURS_RATE = re.compile(
    rf"(?<![\w.,]){_NUM}\s(?:[a-z-]+\s){{0,3}}?(?:per|for\s(?:every|each))\s(?P<per>million|1,000,000|200,000|100,000)\s"
    r"(?:(?:working|man|employee)[\s-])?hours\b",
    re.IGNORECASE,
)
_PER_HOURS = {"million": 1e6, "1,000,000": 1e6, "200,000": 2e5, "100,000": 1e5}
#: Indexes stated as a bare number, by acronym or in words: "a PUE of 1.18", "TRIFR was 2.1", "a
#: lost-time injury frequency rate of 0.42", "its clinker factor fell to 0.71". Each is its own
#: dimension, compared only with itself.
_INDEX_NAMES = {
    "pue": "PUE",
    "power usage effectiveness": "PUE",
    "trifr": "TRIFR",
    "trir": "TRIFR",
    "total recordable injury frequency rate": "TRIFR",
    "total recordable injury rate": "TRIFR",
    "ltifr": "LTIFR",
    "ltir": "LTIFR",
    "lost-time injury frequency rate": "LTIFR",
    "lost time injury frequency rate": "LTIFR",
    "lost-time injury rate": "LTIFR",
    "clinker factor": "clinker ratio",
    "clinker ratio": "clinker ratio",
    "clinker-to-cement ratio": "clinker ratio",
    "clinker to cement ratio": "clinker ratio",
    "clinker-to-cement factor": "clinker ratio",
}
_INJURY_RATES = frozenset({"TRIFR", "LTIFR"})
INDEX_VALUE = re.compile(
    rf"\b(?P<index>{'|'.join(sorted((re.escape(n) for n in _INDEX_NAMES), key=len, reverse=True))})\b"
    r"(?:\s\((?:PUE|TRIF?R|LTIF?R)\))?\s(?:[\w'’-]+\s){0,5}?(?:of|was|were|at|to|stood\sat|reached|averaged|"
    r"came\sto|fell\sto|rose\sto)\s(?:about\s|around\s|approximately\s|roughly\s)?"
    rf"{_NUM}(?![\d.,]*(?:\s?%|\s(?:per|percent|per\scent)\b|[A-Za-z]))",
    re.IGNORECASE,
)


def parse_figures(text: str) -> list[Figure]:
    """Every quantity with a unit (and every currency amount) in `text`, in order of position."""
    figures = [_from_unit_match(match) for match in FIGURE.finditer(text)]
    figures += [_from_currency_match(match) for match in CURRENCY.finditer(text)]
    figures += [_from_currency_match(match) for match in CURRENCY_AFTER.finditer(text)]
    rates = [_from_rate_match(match) for match in HOURS_RATE.finditer(text)]
    figures += rates
    # an index named before a rate per hours ("a TRIFR of 0.9 per 200,000 hours") is that rate
    indices = [match for match in INDEX_VALUE.finditer(text)]
    figures += [
        figure
        for figure in map(_from_index_match, indices)
        if not any(rate.start == figure.start for rate in rates)
    ]
    figures += [figure for match in indices if (figure := _index_again(text, match)) is not None]
    read = [_qualified(figure, _words_before(text, figure.start)) for figure in figures]
    return sorted(read, key=lambda figure: figure.start)


#: How far before a number the words hedging or bounding it are looked for.
_QUALIFIER_REACH = 20


def _words_before(text: str, start: int) -> str:
    return text[max(0, start - _QUALIFIER_REACH) : start]


def bound_at(text: str, start: int) -> str | None:
    """The bound the words right before the number at offset `start` of `text` put on it."""
    return _bound_before(_words_before(text, start))


def _bound_before(before: str) -> str | None:
    """The bound the words right `before` a number put on it: "above" ("more than", "over"),
    "below" ("under", "fewer than", "nearly"), else None."""
    if _NEARLY_BEFORE.search(before):
        return "below"
    return next((side for side, pattern in _BOUND_BEFORE if pattern.search(before)), None)


def _qualified(figure: Figure, before: str) -> Figure:
    """The figure with the hedge or bound the words `before` it put on it."""
    if _HEDGE_BEFORE.search(before):
        return replace(figure, approximate=True)
    bound = _bound_before(before)
    if bound is None:
        return figure
    # "nearly 20%", "just over 20%": a bound, and close to its figure
    close = _NEARLY_BEFORE.search(before) or _JUST.search(before)
    return replace(figure, bound=bound, approximate=close is not None)


def _signed(match: re.Match[str]) -> tuple[float, float]:
    value, half = parse_number(match["num"])
    return (-value if match["sign"] else value), half


def _from_unit_match(match: re.Match[str]) -> Figure:
    value, half = _signed(match)
    co2e = bool(match["co2"])
    unit, dimension, factor = _unit(match["unit"], co2e)
    scale = SCALES[match["scale"].lower()] if match["scale"] else 1.0
    if match["scale"]:
        unit = f"{match['scale'].lower()} {unit}"
    return Figure(
        value=value,
        unit=unit,
        dimension=dimension,
        base=value * scale * factor,
        half_unit=half,
        start=match.start(),
        end=match.end(),
        text=match.group(0).strip(),
        co2e=co2e,
        ambiguous=match["unit"] == "MT",
    )


def per_like_unit(text: str, figure: Figure) -> Figure | None:
    """`figure` as a ratio when `text` states it per a unit of its own kind right after it ("3.1 hl of
    water per hl of beer", "3.1 hl/hl" are 3.1 litres per litre), else None."""
    per = _PER_LIKE_UNIT.match(text, figure.end)
    if per is None or figure.dimension in {"percent", "pp", "currency"}:
        return None
    unit, dimension, factor = _unit(per["unit"], False)
    if dimension != figure.dimension:
        return None
    return replace(figure, unit=f"{figure.unit} per {unit}", dimension="ratio", base=figure.base / factor)


#: After a figure, a unit it is stated per: "of water per hl of beer", "/hl", "for every litre".
_PER_LIKE_UNIT = re.compile(
    rf"(?:\s(?:of\s)?[a-z][\w-]*(?:\s[a-z][\w-]*){{0,2}}?)?\s?(?:per|/|for\s(?:every|each))\s?"
    rf"(?:(?:a|one|each)\s)?{_UNIT_WORDS}"
)


def _from_rate_match(match: re.Match[str]) -> Figure:
    return _read_as(match, "per million hours", "rate", 1e6 / _PER_HOURS[match["per"].lower()], match.start())


def _from_index_match(match: re.Match[str]) -> Figure:
    name = _INDEX_NAMES[re.sub(r"\s+", " ", match["index"].lower())]
    # the figure is the number: the index's name before it is only what makes it one; an injury
    # frequency rate is per million hours worked unless said otherwise
    dimension = "rate" if name in _INJURY_RATES else f"index {name}"
    unit = "per million hours" if name in _INJURY_RATES else name
    return _read_as(match, unit, dimension, 1.0, match.start("num") - (1 if match["sign"] else 0))


#: The same index's next value, said to have moved to it right after its first: "averaged a PUE of 1.28
#: in 2021 but slipped to 1.36 in 2023".
_INDEX_AGAIN = re.compile(
    r"(?:[^.;\d]|\b(?:19|20)\d\d\b){0,40}?\b(?:but|and|before|then)\s(?:it\s)?(?:slipped|rose|fell|climbed|improved|worsened|"
    r"deteriorated|dropped|increased|decreased|edged\s(?:up|down))\s(?:back\s)?to\s"
    rf"{_NUM}(?![\d.,]*(?:\s?%|\s(?:per|percent|per\scent)\b|[A-Za-z]))",
    re.IGNORECASE,
)


def _index_again(text: str, first: re.Match[str]) -> Figure | None:
    """The index's value the sentence moves to after its first (`_INDEX_AGAIN`), in its kind."""
    again = _INDEX_AGAIN.match(text, first.end())
    if again is None:
        return None
    figure = _from_index_match(first)
    value, half = _signed(again)
    return replace(
        figure,
        value=value,
        base=value,
        half_unit=half,
        start=again.start("num") - (1 if again["sign"] else 0),
        end=again.end(),
        text=again.group(0)[again.start("num") - again.start() :].strip(),
    )


def _read_as(match: re.Match[str], unit: str, dimension: str, factor: float, start: int) -> Figure:
    """The number of `match` as a figure in `unit` of `dimension`, `factor` to its base, from `start`."""
    value, half = _signed(match)
    return Figure(
        value=value,
        unit=unit,
        dimension=dimension,
        base=value * factor,
        half_unit=half,
        start=start,
        end=match.end(),
        text=match.group(0)[start - match.start() :].strip(),
    )


def _from_currency_match(match: re.Match[str]) -> Figure:
    value, half = _signed(match)
    symbol = match["cur"].strip()
    written = re.sub(r"\s+", " ", symbol.lower()).removesuffix("s")
    code = _CURRENCY_WORDS.get(written) or _CURRENCY_CODES.get(symbol, symbol)
    scale_word = (match["scale"] or "").lower()
    scale = SCALES.get(scale_word, 1.0)
    return Figure(
        value=value,
        unit=f"{code} {scale_word}".strip(),
        dimension="currency",
        base=value * scale,
        half_unit=half,
        start=match.start(),
        end=match.end(),
        text=match.group(0).strip(),
        currency=code,
    )


def close(a: float, b: float, tolerance: float) -> bool:
    """Whether two values agree within `tolerance` (with a little float slack)."""
    return abs(a - b) <= tolerance + 1e-9 * max(abs(a), abs(b), 1.0)
