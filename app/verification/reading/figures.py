"""Figures as a report states them: a number, its unit, and how precisely it was written.

The data/metrics checks recompute a report's own arithmetic, so they must read "2,450 kt CO2e",
"2.45 Mt", "412 megalitres" or "€1.2 billion" as comparable quantities, and know that "2.3" was
rounded to a tenth (so anything from 2.25 to 2.35 is consistent with it). Every figure therefore
carries its value in a base unit per dimension and the rounding half-width of what was written.
A currency amount also keeps its currency: amounts in two currencies are never comparable, since
exchange rates are not constants. A unit with two readings ("MT": megatonnes or metric tonnes) is
marked ambiguous so no check calls it wrong.

A report also quotes other people's numbers: scenarios, the world economy, governments, sector
averages. `attributed_elsewhere` tells those apart from the company's own figures.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_I = re.IGNORECASE

# Base unit per dimension: tonnes, MWh, m3, hectares, percent, currency units.
_MASS = {"t": 1.0, "kt": 1e3, "mt": 1e6, "gt": 1e9, "kg": 1e-3}
_ENERGY = {"kwh": 1e-3, "mwh": 1.0, "gwh": 1e3, "twh": 1e6, "gj": 1 / 3.6, "tj": 1e3 / 3.6, "pj": 1e6 / 3.6}
_VOLUME = {"m3": 1.0, "l": 1e-3, "ml": 1e3, "gl": 1e6}
_AREA = {"ha": 1.0, "km2": 100.0}
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}

_NUM = r"(?P<sign>[-\u2212\u2013]\s?)?(?P<num>\d{1,3}(?:[,\u202f\u00a0]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_CO2 = (
    r"(?:\s?(?:of\s)?CO(?:2|₂)[\s-]?e(?:q(?:uivalent)?)?\b|\s?(?:of\s)?CO(?:2|₂)\b"
    r"|\s(?:of\s)?carbon dioxide(?:[\s-]equivalents?)?\b)?"
)
_UNIT_WORDS = (
    r"(?P<unit>%|(?i:per\s?cent|percent|percentage points?)\b|pp\b|"
    r"(?i:(?:metric\s)?(?:tonnes?|tons?))\b|(?:[kMG]?t|MT)(?:\b|(?=\s?CO))|kg\b|"
    r"[kMGT]Wh\b|[GTP]J\b|"
    r"m3\b|m³|(?i:megalit(?:re|er)s?|gigalit(?:re|er)s?)\b|ML\b|GL\b|(?i:(?:kilo)?lit(?:re|er)s?)\b|"
    r"(?i:hectares?)\b|ha\b|km2\b|km²)"
)
FIGURE = re.compile(
    rf"(?<![\w.,]){_NUM}\s?(?P<scale>thousand|million|billion|bn|mn)?\s?{_UNIT_WORDS}(?P<co2>{_CO2})",
)
_ISO_CURRENCIES = "USD|EUR|GBP|CHF|CAD|AUD|NZD|JPY|CNY|HKD|SGD|SEK|NOK|DKK|INR|BRL|ZAR|MXN"
CURRENCY = re.compile(
    rf"(?P<cur>\b[A-Z]{{1,3}}\$|(?<![A-Za-z])[$€£¥]|\b(?:{_ISO_CURRENCIES})\s?){_NUM}"
    r"(?:\s?(?P<scale>thousand|million|billion|bn|mn|m|k)\b)?",
)
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
#: A number as written, its unit not read: "2,450", "2.3", "-4" (groups `sign` and `num`); never one
#: inside a word or another number ("v2", "1.5.3").
BARE_NUMBER = re.compile(
    r"(?<![\w.,])(?P<sign>[-\u2212]\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
)
YEAR = re.compile(r"\b(?:FY\s?(?P<fy>\d{2})\b|(?:FY\s?)?(?P<year>(?:19[89]|20[0-6])\d))\b", _I)
_YEAR_LABEL = re.compile(r"\b(?:FY\s?)?(20\d\d)\s?:\s*$")
#: "… in 2023", "…, for FY2023" right after a figure: the year it is stated for.
YEAR_RIGHT_AFTER = re.compile(r"^\s*,?\s*(?:in|for|during)\s(?:FY\s?|fiscal\s(?:year\s)?)?(20\d\d)\b", _I)

# Whose figure it is. A strong marker names someone else's number (an agency, a scenario, a model);
# a weak one (the world, a country, a conditional) only does when the clause stating the figure does
# not speak for the company. Benchmarks a company target is said to follow ("in line with a 1.5°C
# pathway") do not make the target someone else's.
_ALIGNMENT = re.compile(
    r"\b(?:in line with|consistent with|aligned (?:with|to)|in alignment with|compatible with|"
    r"in accordance with|as required by|validated by|approved by)\b(?:[^,;:.()]|\.(?=\d))*",
    _I,
)
_STRONG = re.compile(
    r"\b(?:IEA|IPCC|NGFS|NZE|according to|scenarios?|pathways?|projected|projections?|modell?ed|"
    r"(?:industry|sector) averages?)\b",
    _I,
)
_WEAK = re.compile(
    r"\bglobal(?:ly)?\b(?!\s(?:warming|scope|operations|portfolio|business|footprint|sites?|workforce|fleet))|"
    r"\b(?:world(?:wide)?\b(?!-)|the (?:sector|industry)\b|economy-wide|national\b|governments?\b)",
    _I,
)
_COUNTRY = re.compile(r"\b(?:Australia|Canada|China|Europe|Germany|India|Japan|the (?:UK|US|EU))(?:'|’)s\b")
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might)\b", _I)
_FIRST_PERSON = re.compile(r"\b(?i:we|our|ours|the group|the company)\b|\bus\b")
_CLAUSE_BREAK = re.compile(r",(?!\d)|[;:()\[\]—–]|\s-\s|\b(?:that|which|whereas|while|whilst|where)\b", _I)


@dataclass(frozen=True)
class Figure:
    """One stated quantity.

    Attributes:
        value: The number as written (negative when a minus sign precedes it).
        unit: The unit as normalised ("Mt CO2e", "%", "MWh", "ML", "ha", "EUR").
        dimension: "mass", "energy", "volume", "area", "percent", "pp" or "currency".
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
    plain = re.sub(r"[,\u202f\u00a0]", "", text)
    decimals = len(plain.split(".", 1)[1]) if "." in plain else 0
    return float(plain), 0.5 * 10.0**-decimals


def _unit(raw: str, co2e: bool) -> tuple[str, str, float]:
    """Normalised unit name, dimension and factor to the base unit for a unit as written."""
    low = raw.lower().replace(" ", "")
    suffix = " CO2e" if co2e else ""
    if low.startswith("percentagepoint") or low == "pp":
        return "pp", "pp", 1.0
    if low == "%" or low.startswith("per"):
        return "%", "percent", 1.0
    if "ton" in low or low in {"t", "metrict"}:
        return "t" + suffix, "mass", 1.0
    if raw in {"Mt", "MT"}:
        return "Mt" + suffix, "mass", _MASS["mt"]
    if low in _MASS:
        return raw + suffix, "mass", _MASS[low]
    if low in _ENERGY:
        return raw, "energy", _ENERGY[low]
    if low.startswith("megalit"):
        return "ML", "volume", _VOLUME["ml"]
    if low.startswith("gigalit"):
        return "GL", "volume", _VOLUME["gl"]
    if "lit" in low:
        return "l" if not low.startswith("kilo") else "m3", "volume", 1.0 if low.startswith("kilo") else 1e-3
    if low in {"m3", "m³"}:
        return "m3", "volume", 1.0
    if low in _VOLUME:
        return raw, "volume", _VOLUME[low]
    if low.startswith("hectare") or low == "ha":
        return "ha", "area", 1.0
    return "km2", "area", _AREA["km2"]


def parse_figures(text: str) -> list[Figure]:
    """Every quantity with a unit (and every currency amount) in `text`, in order of position."""
    figures = [_from_unit_match(match) for match in FIGURE.finditer(text)]
    figures += [_from_currency_match(match) for match in CURRENCY.finditer(text)]
    return sorted(figures, key=lambda figure: figure.start)


def _signed(match: re.Match[str]) -> tuple[float, float]:
    value, half = parse_number(match["num"])
    return (-value if match["sign"] else value), half


def _from_unit_match(match: re.Match[str]) -> Figure:
    value, half = _signed(match)
    co2e = bool(match["co2"])
    unit, dimension, factor = _unit(match["unit"], co2e)
    scale = _SCALE[match["scale"].lower()] if match["scale"] else 1.0
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


def _from_currency_match(match: re.Match[str]) -> Figure:
    value, half = _signed(match)
    symbol = match["cur"].strip()
    code = _CURRENCY_CODES.get(symbol, symbol)
    scale_word = (match["scale"] or "").lower()
    scale = _SCALE.get(scale_word, 1.0)
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


def parse_years(text: str) -> list[tuple[int, int]]:
    """`(year, offset)` for every year or fiscal year ("2023", "FY2023", "FY23") in `text`."""
    years: list[tuple[int, int]] = []
    for match in YEAR.finditer(text):
        year = 2000 + int(match["fy"]) if match["fy"] else int(match["year"])
        years.append((year, match.start()))
    return years


def close(a: float, b: float, tolerance: float) -> bool:
    """Whether two values agree within `tolerance` (with a little float slack)."""
    return abs(a - b) <= tolerance + 1e-9 * max(abs(a), abs(b), 1.0)


def year_right_after(text: str) -> int | None:
    """The year `text` opens with as the year of what precedes it ("…, in 2023"), if it does."""
    after = YEAR_RIGHT_AFTER.match(text)
    return int(after.group(1)) if after else None


def stated_year(sentence: str, figure: Figure) -> int | None:
    """The year a figure is stated for: "2022: 2.4 Mt", "2.3 Mt in 2023", else the only year."""
    label = _YEAR_LABEL.search(sentence[: figure.start])
    if label:
        return int(label.group(1))
    after = year_right_after(sentence[figure.end :])
    if after is not None:
        return after
    if re.search(r"\b20\d\d\s?:", sentence):
        return None  # a table-like "2022: ..." sentence: the year of an unlabelled figure is unclear
    distinct = {year for year, _ in parse_years(sentence)}
    return distinct.pop() if len(distinct) == 1 else None


def attributed_elsewhere(sentence: str, at: int, *, weak: bool = True) -> bool:
    """Whether the figure at offset `at` is someone else's: a scenario's, the world's, a sector's.

    "Global energy system emissions would decrease by 70 per cent by 2050" and "In the IEA's NZE
    Scenario, emissions fall 40% by 2030" are; "We aim to cut our emissions 50% by 2030, in line with
    a 1.5°C pathway" is not. With `weak=False` only the strong markers count (for a figure that is
    clearly a third party's, not merely a global or conditional one).
    """
    text = _ALIGNMENT.sub(lambda match: " " * len(match.group(0)), sentence)
    start, end = 0, len(text)
    for cut in _CLAUSE_BREAK.finditer(text):
        if cut.end() <= at:
            start = cut.end()
        elif cut.start() > at:
            end = cut.start()
            break
    clause, before = text[start:end], text[:start]
    own = _FIRST_PERSON.search(clause) is not None
    if _STRONG.search(clause) or (_HYPOTHETICAL.search(clause) and _STRONG.search(text)):
        return True
    if _STRONG.search(before) and not own:
        return True
    weak_marker = _WEAK.search(clause) or _COUNTRY.search(clause) or _HYPOTHETICAL.search(clause)
    return weak and weak_marker is not None and not own


# Which emissions quantity a figure measures: one scope, a group of scopes, or the total. "All three
# scopes" and "Scopes 1, 2 and 3" are the total, not each scope.
_SCOPE_GROUP = re.compile(r"\bscopes?\s?[123](?:\s?(?:,|and|&|\+|/)\s?(?:scope\s?)?[123](?![\d.]))*", _I)
_TOTAL = re.compile(
    r"\b(?:(?:all|the)\s(?:three|3)\sscopes|total\s(?:(?:ghg|greenhouse\sgas|carbon|co2e?)\s)?(?:emissions|footprint)|"
    r"(?:emissions|carbon|ghg)\sfootprint|overall\s(?:ghg\s)?emissions|gross\s(?:ghg\s)?emissions)\b",
    _I,
)
TOTAL = "total"


@dataclass(frozen=True)
class QuantityMark:
    """Where a text names an emissions quantity: `label` is "scope 1", "scope 1+2", ... or "total"."""

    label: str
    start: int
    end: int

    @property
    def scopes(self) -> frozenset[str]:
        """The scope numbers the quantity covers (the total covers all three)."""
        return frozenset("123") if self.label == TOTAL else frozenset(re.findall(r"[123]", self.label))


@functools.lru_cache(maxsize=1024)
def quantity_marks(text: str) -> tuple[QuantityMark, ...]:
    """Every named emissions quantity in `text`, in order of position (cached: a claim's sentence
    is asked about again for every source sentence it is compared with)."""
    marks = []
    for match in _SCOPE_GROUP.finditer(text):
        numbers = sorted(set(re.findall(r"[123]", match.group(0))))
        label = TOTAL if len(numbers) == 3 else "scope " + "+".join(numbers)
        marks.append(QuantityMark(label, match.start(), match.end()))
    marks += [QuantityMark(TOTAL, match.start(), match.end()) for match in _TOTAL.finditer(text)]
    return tuple(sorted(marks, key=lambda mark: mark.start))


def quantity_at(text: str, at: int) -> str | None:
    """The quantity a figure at offset `at` measures: the last one named before it, else the first one
    named after it ("a 15% rise in Scope 1 emissions"); None when the text names none."""
    marks = quantity_marks(text)
    before = [mark for mark in marks if mark.end <= at]
    if before:
        return before[-1].label
    after = [mark for mark in marks if mark.start >= at]
    return after[0].label if after else None


def quantities(text: str) -> frozenset[str]:
    """The labels of every emissions quantity `text` names."""
    return frozenset(mark.label for mark in quantity_marks(text))


def covered_scopes(text: str) -> frozenset[str]:
    """The scope numbers the quantities named in `text` cover together."""
    return frozenset(number for mark in quantity_marks(text) for number in mark.scopes)


# Counts of things ("167 warehouses"), and figures a text denies ("60 sites, not 167").
_COUNT = re.compile(r"(?<![\w.,$€£¥-])(?P<num>\d{1,3}(?:,\d{3})+|\d+)\s(?P<noun>[A-Za-z][a-z-]*[a-rt-z]s)\b")
_DENIAL = re.compile(
    r"\b(?:not|rather than|instead of|as opposed to|versus|vs\.?|compared with the claimed|less than the)\s"
    r"(?:the\s)?(?:claimed\s|reported\s|stated\s|advertised\s)?$",
    _I,
)
_NOT_A_COUNT_NOUN = frozenset(
    {"years", "months", "days", "hours", "weeks", "times", "percent", "tonnes", "tons"}
)


@dataclass(frozen=True)
class Count:
    """A number of things as written: 167 ("warehouses", singular "warehouse")."""

    value: int
    noun: str
    start: int
    end: int


def parse_counts(text: str) -> list[Count]:
    """Every "<number> <plural noun>" in `text` (years and units left out), nouns singularised."""
    counts = []
    scopes = [(match.start(), match.end()) for match in _SCOPE_GROUP.finditer(text)]
    for match in _COUNT.finditer(text):
        if any(start <= match.start() < end for start, end in scopes):
            continue  # "Scope 1 and 2 emissions" counts nothing
        noun = match["noun"].lower()
        value = int(match["num"].replace(",", ""))
        year = 1900 <= value <= 2100 and "," not in match["num"]
        if noun in _NOT_A_COUNT_NOUN or year:
            continue
        singular = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]
        counts.append(Count(value, singular, match.start(), match.end()))
    return counts


def denied(text: str, start: int) -> bool:
    """Whether the number at offset `start` is one the text rejects ("…, not 167", "rather than 2.3 Mt")."""
    return _DENIAL.search(text[max(0, start - 40) : start]) is not None


def denied_numbers(text: str) -> list[tuple[float, int]]:
    """`(value, offset)` of every bare number the text rejects ("only 60 sites, not 167")."""
    return [
        (float(match["num"].replace(",", "")), match.start("num"))
        for match in BARE_NUMBER.finditer(text)
        if denied(text, match.start("num"))
    ]
