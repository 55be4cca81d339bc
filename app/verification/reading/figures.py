"""Whose figure a text states, which emissions quantity it measures, and which figures it denies.

A report also quotes other people's numbers: scenarios, the world economy, governments, sector
averages. `attributed_elsewhere` tells those apart from the company's own figures. `quantity_at`
tells "Scope 1" from "Scopes 1 and 2" and from total emissions, and `parse_counts` / `denied`
read counts of things ("167 warehouses") and the numbers a text rejects ("60 sites, not 167").
The figures themselves (value, unit, rounding) are read by `app.language.figures`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from app.language.figures import BARE_NUMBER, FIGURE, SCALES, bound_at
from app.language.number_words import NUMBER_WORD, number_value
from app.language.plurals import singular

_I = re.IGNORECASE

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
_SCOPE_GROUP = re.compile(r"\bscopes?\s?[123](?:\s?(?:,|and|&|\+|/|plus)\s?(?:scope\s?)?[123](?![\d.]))*", _I)
#: "Direct and indirect emissions" are Scopes 1 and 2 together ("direct emissions and indirect emissions
#: from purchased energy" too), also when a scope is named in brackets
#: ("direct and indirect (Scope 2) emissions" names the second half, not the quantity).
_DIRECT_AND_INDIRECT = re.compile(
    r"\bdirect(?:\s\(scope\s?1\))?(?:\semissions)?,?\s(?:and|&|\+|plus|together\swith)\s(?:energy[\s-])?indirect"
    r"(?:\s\(scope\s?2\))?",
    _I,
)
#: "Direct emissions" alone are Scope 1 (the GHG Protocol's name for it); "direct emissions from flights"
#: are a part of them.
_DIRECT = re.compile(
    r"\bdirect\s(?:(?:ghg|greenhouse\sgas|co2e?|carbon)\s)?emissions\b(?!\s(?:from|of)\b)", _I
)
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

    def covers(self, at: int) -> bool:
        """Whether offset `at` lies within this mark ("direct" of "direct and indirect emissions")."""
        return self.start <= at < self.end

    @property
    def scopes(self) -> frozenset[str]:
        """The scope numbers the quantity covers (the total covers all three)."""
        return frozenset("123") if self.label == TOTAL else frozenset(re.findall(r"[123]", self.label))


@functools.lru_cache(maxsize=1024)
def quantity_marks(text: str) -> tuple[QuantityMark, ...]:
    """Every named emissions quantity in `text`, in order of position (cached: a claim's sentence
    is asked about again for every source sentence it is compared with)."""
    marks = [QuantityMark("scope 1+2", m.start(), m.end()) for m in _DIRECT_AND_INDIRECT.finditer(text)]
    for match in _SCOPE_GROUP.finditer(text):
        if any(mark.covers(match.start()) for mark in marks):
            continue
        numbers = sorted(set(re.findall(r"[123]", match.group(0))))
        label = TOTAL if len(numbers) == 3 else "scope " + "+".join(numbers)
        marks.append(QuantityMark(label, match.start(), match.end()))
    marks += [QuantityMark(TOTAL, match.start(), match.end()) for match in _TOTAL.finditer(text)]
    marks += [
        QuantityMark("scope 1", match.start(), match.end())
        for match in _DIRECT.finditer(text)
        if not any(mark.covers(match.start()) for mark in marks)  # "direct and indirect"
    ]
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
#: A number with its scale, as the press writes counts: "2.1 million", "12m", "400k", "1.2bn",
#: "twelve million" ("12 m" with a space is a length).
_SCALED = (
    rf"(?:\d+(?:\.\d+)?|(?i:{NUMBER_WORD}))\s(?:thousand|million|billion)(?=\s)|"
    r"\d+(?:\.\d+)?(?:k|m|mn|bn)(?=\s)"
)
_SCALE_WRITTEN = re.compile(
    rf"^(?P<number>.+?)\s?(?P<scale>{'|'.join(sorted(SCALES, key=len, reverse=True))})$"
)
#: Unit symbols a size is written in: "three 150 m turbines" counts turbines of a size, not 150 of them.
_UNIT_SYMBOLS = frozenset(
    {"m", "km", "cm", "mm", "kw", "mw", "gw", "kwh", "mwh", "t", "kt", "kg", "ha", "ft", "l"}
)
#: Plurals without an "s" that shares count: "4,080 women", "12,000 staff" ("people" stay uncounted:
#: who they are is said after them, "people with disabilities", "through agencies").
_PLURALS_WITHOUT_S = "women|men|staff"
#: The things counted that are people, singular.
PEOPLE = frozenset({"woman", "man", "staff", "employee", "worker", "manager", "director", "apprentice"})
#: A count in digits or in words ("three reportable spills": "one" is left out, as in "one of our
#: sites"), with up to three words describing the things counted ("312 battery-electric buses", "420
#: EV charging points"), or some of an owner's things ("214 of its suppliers").
_COUNT = re.compile(
    rf"(?<![\w.,$€£¥-])(?P<num>{_SCALED}|\d{{1,3}}(?:,\d{{3}})+|\d+|(?i:(?!one\b){NUMBER_WORD}))\s"
    r"(?P<part>of\s(?:its|their|our|the|(?:[A-Z][\w&-]*\s){0,3}?[A-Z][\w&-]*['’]s?)\s)?"
    r"(?P<kind>(?:(?!(?:of|in|at|to|and|or|the|per|a|an|among|its|their|our)\b)(?:[a-z][a-z-]*|[A-Z]{2,4})\s){0,3}?)"
    rf"(?P<noun>(?!(?:its|this|his|was|has|is)\b)[A-Za-z][a-z-]*[a-rt-z]s|{_PLURALS_WITHOUT_S})\b"
)
#: A hedge right before a count: "about 300 buses".
_HEDGE_BEFORE = re.compile(
    r"\b(?:about|around|roughly|approximately|nearly|almost|some|an\sestimated|close\sto)\s$|~\s?$", _I
)
_DENIAL = re.compile(
    r"\b(?:not|rather than|instead of|as opposed to|versus|vs\.?|compared with the claimed|less than the|"
    # "fell well short of 3,500 vans", "short of its 50% goal": below it, not "just short of" it
    r"(?<!just\s)(?<!slightly\s)(?<!narrowly\s)(?<!barely\s)(?<!not\s)(?<!not\sfar\s)(?<!not\swell\s)"
    r"short\sof(?:\s(?:its|their|the))?)\s"
    r"(?:the\s)?(?:claimed\s|reported\s|stated\s|advertised\s)?$",
    _I,
)
#: Two words for one kind of thing counted ("112 ships" are "112 vessels").
_SAME_THING = {"ship": "vessel", "handset": "phone", "shop": "store", "lorry": "truck"}
#: Two words for one kind of the things counted ("old phones" are "used handsets").
_SAME_KIND = {"old": "used", "second-hand": "used", "secondhand": "used", "pre-owned": "used"}
#: Describing words the thing counted implies ("mobile" phones and handsets are phones).
_IMPLIED_KIND = {"phone": frozenset({"mobile", "cell"})}
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
    #: The words describing the things counted ("battery-electric" in "312 battery-electric buses"):
    #: 312 battery-electric buses are not all the buses.
    kind: tuple[str, ...] = ()
    #: "above" for "more than 400,000 handsets", "below" for "fewer than 150,000": a bound, not a count.
    bound: str | None = None
    #: Whether it counts some of an owner's things ("300 of its haul trucks"), not all it has.
    part: bool = False
    #: Whether the text hedges it ("about 300 buses"): it then holds the values it rounds.
    approximate: bool = False
    #: Half a unit of the last digit written, for a count written with its scale ("2.1m": 50,000);
    #: 0 for a count written out in full.
    rounding: float = 0.0
    #: The count as written ("2.1m handsets").
    text: str = ""

    def holds(self, value: int) -> bool:
        """Whether this count, or the bound it states, is `value`; a hedged count holds what lies
        within `APPROXIMATE_COUNT` of it, and one written with its scale what it rounds ("2.1m" holds
        2,134,000)."""
        if self.bound == "above":
            return value > self.value
        if self.bound == "below":
            return value < self.value
        if self.approximate:
            return abs(value - self.value) <= max(APPROXIMATE_COUNT * self.value, 0.5)
        return abs(value - self.value) <= self.rounding


#: How far from a hedged count ("about 300 buses") a count may lie and still be it: "about 300" is
#: 312, not 400.
APPROXIMATE_COUNT = 0.1


#: People killed, counted as fatalities: "two workers were killed", "four people died".
_DEATHS = re.compile(
    rf"(?<![\w.,$€£¥-])(?P<num>\d+|(?i:{NUMBER_WORD}))\s(?:(?:[a-z-]+\s)?(?:workers?|people|persons|employees|"
    r"contractors|staff|miners|drivers))\s(?:were\s|was\s)?(?:killed|died|lost\stheir\slives)\b",
    _I,
)
FATALITY = "fatality"


def parse_counts(text: str) -> list[Count]:
    """Every "<number> <plural noun>" in `text` (years and units left out), nouns singularised;
    people said to have been killed or to have died are counted as fatalities."""
    counts = [
        Count(value, FATALITY, match.start(), match.end(), text=match.group(0))
        for match in _DEATHS.finditer(text)
        if (value := number_value(match["num"])) is not None
    ]
    scopes = [(match.start(), match.end()) for match in _SCOPE_GROUP.finditer(text)]
    for match in _COUNT.finditer(text):
        if any(start <= match.start() < end for start, end in scopes):
            continue  # "Scope 1 and 2 emissions" counts nothing
        if threshold(text, match.start()) or FIGURE.match(text, match.start()):
            # "two spills above 1,000 litres" counts spills, not litres; "1,450 hectares" is an
            # area, compared as a figure with what it is of
            continue
        noun = match["noun"].lower()
        kind = tuple(match["kind"].lower().split())
        if _a_size_or_name(text, match, kind):
            continue
        read = count_value(match["num"])
        if read is None:
            continue
        value, rounding = read
        written = match["num"]
        year = 1900 <= value <= 2100 and written.isdigit()
        if noun in _NOT_A_COUNT_NOUN or year:
            continue
        one = singular(noun)
        one = _SAME_THING.get(one, one)
        kind = tuple(_SAME_KIND.get(word, word) for word in kind if word not in _IMPLIED_KIND.get(one, ()))
        bound = bound_at(text, match.start())
        hedged = _HEDGE_BEFORE.search(text, 0, match.start()) is not None
        counts.append(
            Count(
                value,
                one,
                match.start(),
                match.end(),
                kind,
                bound,
                match["part"] is not None,
                hedged,
                rounding,
                match.group(0),
            )
        )
    return counts


def _a_size_or_name(text: str, match: re.Match[str], kind: tuple[str, ...]) -> bool:
    """Whether a number before things is their size, or part of a name, not how many there are:
    "three 150 m turbines", "two 12m barriers", "150m tall turbines", "10k charity races", "10k Homes
    Alliance", "4k televisions"; also the end of a longer number ("four hundred and twenty")."""
    if kind[:1] and (kind[0] in _UNIT_SYMBOLS or kind[0] in _SIZE_WORDS and match["num"].endswith("m")):
        return True  # "three 150 m turbines", "150m tall turbines" (not "1,200 high schools")
    if match["num"].endswith("k") and (
        match["noun"].lower() in _K_NOT_THOUSANDS or match["noun"][0].isupper()
    ):
        return True
    before = _A_NUMBER_BEFORE.search(text, 0, match.start())
    return before is not None and not _A_YEAR_BEFORE.search(text, 0, match.start())


#: Words after a number that make it a size: "150m tall", "12m high", "2m long".
_SIZE_WORDS = frozenset({"tall", "high", "long", "wide", "deep", "thick", "across", "diameter"})
#: Things whose "k" is a distance or a picture's size: "10k races", "4k televisions".
_K_NOT_THOUSANDS = frozenset(
    {
        "races",
        "runs",
        "fun-runs",
        "walks",
        "swims",
        "rides",
        "televisions",
        "tvs",
        "screens",
        "displays",
        "monitors",
    }
)
#: A year right before a count: "In 2024 40,000 farmers completed …", "In FY2024 1,200 …" (the year
#: is no size).
_A_YEAR_BEFORE = re.compile(r"(?<!\d)(?:19|20)\d\d\s$")


#: The most a count written with its scale is taken to round: "1 million" is not 600,000, nor "2
#: million" 1.6m, though its last digit alone would allow half a million.
_MOST_ROUNDING = 0.05


def count_value(written: str) -> tuple[int, float] | None:
    """A count's value and its rounding: "2,450" is (2450, 0), "2.1m" and "2.1 million" are
    (2100000, 50000), "twelve" is (12, 0); None when it is not a number."""
    scaled = _SCALE_WRITTEN.match(written)
    if scaled is None:
        digits = written.replace(",", "")
        value = int(digits) if digits.isdigit() else number_value(written)
        return None if value is None else (value, 0.0)
    number, scale = scaled["number"], int(SCALES[scaled["scale"].lower()])
    if re.fullmatch(r"\d+(?:\.\d+)?", number):
        decimals = len(number.partition(".")[2])
        value = round(float(number) * scale)
        return value, min(0.5 * scale / 10**decimals, _MOST_ROUNDING * value)
    value = number_value(number)
    return None if value is None else (value * scale, _MOST_ROUNDING * value * scale)


#: A number right before a count: what follows it is the size of things counted ("two 12m barriers"),
#: or the count is the end of a longer number ("four hundred and twenty").
_A_NUMBER_BEFORE = re.compile(rf"(?:\d|\b(?i:{NUMBER_WORD}|hundred\sand))\s$")


#: Things counted, then the size that makes them count: "two spills above 1,000 litres", "no spills
#: of over 1,000 litres". The size describes what is counted; the count is the claim's figure.
_THRESHOLD_BEFORE = re.compile(
    rf"\b(?:\d[\d,]*|no|any|{NUMBER_WORD})\s(?:[a-z][a-z-]*\s){{0,2}}?[a-z][a-z-]*[a-rt-z]s\s(?:of\s)?"
    r"(?:above|over|exceeding|more\sthan|greater\sthan|larger\sthan|in\sexcess\sof|(?:of\s)?at\sleast)\s$",
    _I,
)
#: "no spills above 1,000 litres": things of which the text says there were none.
_NONE_OF = re.compile(r"\bno\s(?:[a-z][a-z-]*\s){0,2}?(?P<noun>[a-z][a-z-]*[a-rt-z]s)\b", _I)


#: Others a source sets the company's figure beside: rivals, peers, a sector, the nation ("an average
#: of 138 litres" alone is the company's own average).
_OTHERS = r"(?:rivals?|peers?|competitors?|sector|industry|market|national|nationwide)"
#: Right before another's figure: "below the software sector's 34%", "an industry average of 40%",
#: "against rival Brightline's 410,000", "against the 64%" (the company's, see `_REPORTED_AFTER`).
_OTHERS_BEFORE = re.compile(
    rf"\b{_OTHERS}(?:['’]s?\s|\s(?:average|mean|median|benchmark|figure|rate|level|share|total)\s(?:of\s)?)"
    r"(?:(?:about|around|some|nearly|almost|just|roughly)\s)?$|"
    # a market's or a sector's figure: "the collection rate in its home market was 52%"
    rf"\b{_OTHERS}\s(?:was|were|is|stood\sat|reached|came\sto)\s(?:(?:about|around|some|nearly|almost)\s)?$|"
    rf"\b(?:rival|peer|competitor)\s(?:[A-Z][\w-]*\s)*[A-Z][\w-]*['’]s?\s$|"
    # the other side of a whole: "making up most of the remaining 58%"
    r"\b(?:the\s)?(?:remaining|rest\sof\s(?:the|its))\s$",
    _I,
)
#: Right after another's figure, in its clause: "38% at its electric-arc peer Dunmore", "0.3% across
#: the national fleet", "62% for the listed-property average".
_OTHERS_AFTER = re.compile(
    rf"^\s?(?:at|for|across|among)\s(?:(?:the|a|an|other|many|most)\s)?(?:(?!its\b)[\w-]+\s){{0,3}}?"
    rf"(?:{_OTHERS}|average|benchmark)\b|"
    # its own peers ("at its electric-arc peer Dunmore"), not "across its national network"
    r"^\s?(?:at|for|across|among)\sits\s(?:[\w-]+\s){0,3}?(?:rivals?|peers?|competitors?)\b|"
    # a part of the company's: "81% for its tinned tuna range", "142 kWh/m² for its retail units"
    r"^(?:/[^\s,;]+)?\s?for\s(?:its|the|their)\s(?:[\w-]+\s){0,3}?(?:units?|range|division|segment|arm|brand)\b",
    _I,
)
#: After the figure the company itself gave, which a source sets its own against: "against the 64%
#: the chain reported", "the 15% drop the company cites", "the €1.2bn figure often quoted".
_REPORTED_AFTER = re.compile(
    # "the £2.4bn reported by the bank"
    r"^\s(?:[a-z]+\s)?(?:reported|claimed|cited|quoted|given|published|disclosed|stated)\sby\s"
    r"(?:the\s[\w-]+|it|[A-Z][\w-]*)|"
    # "the 15% drop the company cites", "the 4.5% saving the operator publicises"
    r"^\s(?:[a-z]+\s)?(?:that\s)?(?:the\s[\w-]+|it|[A-Z][\w-]*)\s(?:(?:has|had|often|still)\s)?"
    r"(?:reported|reports|claimed|claims|disclosed|discloses|stated|states|published|publishes|cited|cites|"
    r"gave|gives|announced|announces|quoted|quotes|publicis(?:es|ed)|publiciz(?:es|ed)|touts|touted|"
    r"advertises|advertised)\b|"
    # "the €1.2bn figure often quoted"
    r"^\s(?:figure|number|total)\s(?:[a-z]+\s)?(?:quoted|cited|given|published)\b"
)


def set_beside(text: str, start: int, end: int) -> bool:
    """Whether the figure at `start:end` is one a source sets beside the company's own: a rival's or
    a peer's, a sector's, an average ("against 38% at its peer Dunmore", "below the sector's 34%"),
    or the figure the company itself reported ("against the 64% the chain reported"). It is not what
    the source says of the company."""
    before = text[max(0, start - 60) : start]
    clause_end = re.search(r"[,;:()]|\s(?:and|but|while|whereas)\s", text[end:])
    after = text[end : end + clause_end.start()] if clause_end else text[end:]
    return bool(_OTHERS_BEFORE.search(before) or _OTHERS_AFTER.match(after) or _REPORTED_AFTER.match(after))


#: A limit a company is held to, or a mark it is measured against, right before its figure: "capped
#: at 18.5 million cubic metres a year under its permits", "an allowance of", "short of the 64,000
#: tonnes its plan called for".
_LIMIT_BEFORE = re.compile(
    r"\b(?:capped|limited|restricted)\s(?:at|to)\s(?:about\s)?$|"
    r"\b(?:cap|limit|ceiling|allowance|quota|maximum)\s(?:of\s)?(?:about\s)?$|"
    r"\bpermit(?:s|ted)?\s(?:[\w-]+\s){0,3}?(?:of|at|to|up\sto)\s$|"
    # a mark it fell short of or beat: "well short of the 64,000 tonnes its plan called for"
    r"\b(?:short\sof|below|above|ahead\sof|behind)\s(?:the|its|a|their)\s(?:[\w-]+\s)?$",
    _I,
)


def a_limit(text: str, start: int) -> bool:
    """Whether the figure at offset `start` is a limit the company is held to ("capped at 18.5
    million cubic metres") or a mark it is measured against ("short of the 64,000 tonnes"), not what
    it did."""
    return _LIMIT_BEFORE.search(text[max(0, start - 60) : start]) is not None


def threshold(text: str, start: int) -> bool:
    """Whether the figure at offset `start` is the size of things counted before it ("two spills
    above 1,000 litres"), not a quantity the text states."""
    return _THRESHOLD_BEFORE.search(text[max(0, start - 60) : start]) is not None


def none_of(text: str) -> frozenset[str]:
    """The things (singular nouns) the text says there were none of ("had no spills" -> "spill")."""
    nouns = (match["noun"].lower() for match in _NONE_OF.finditer(text))
    return frozenset(singular(noun) for noun in nouns)


def denied(text: str, start: int) -> bool:
    """Whether the number at offset `start` is one the text rejects ("…, not 167", "rather than 2.3 Mt")."""
    return _DENIAL.search(text[max(0, start - 40) : start]) is not None


@dataclass(frozen=True)
class DeniedNumber:
    """A bare number a text rejects, where it writes it (a `Stated`)."""

    value: float
    start: int
    end: int
    text: str


def denied_numbers(text: str) -> list[DeniedNumber]:
    """Every bare number the text rejects ("only 60 sites, not 167")."""
    return [
        DeniedNumber(float(match["num"].replace(",", "")), match.start("num"), match.end("num"), match["num"])
        for match in BARE_NUMBER.finditer(text)
        if denied(text, match.start("num"))
    ]
