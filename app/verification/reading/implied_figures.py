"""Figures a source sentence implies without stating them, written into it so that the rule reader
compares them like stated ones:

- **the change between two levels** of one quantity at two times: "emitted 2,380 tonnes in 2023,
  against 2,600 tonnes the year before" is a fall of about 8.5%, or of 220 tonnes; so is "fell from
  2,600 tonnes in 2022 to 2,380 tonnes in 2023". Only when the sentence states no change of its own,
  the two levels are in one unit, neither is another's (`figures.set_beside`) nor intended, both are
  of the same thing, and the later one is of a whole stated year (`_two_times`);
- **the share a part is of its whole**, in one unit: "generated 96,000 tonnes of waste and recycled
  64,000 tonnes of it" recycled 66.7% of its waste; "used 860 GWh, of which 600 GWh was matched"
  matched 69.8% of it; "2.3 Mt of scrap … out of 6.05 Mt of input" is 38% of its input. A part
  the press writes without its unit is in its whole's ("Of the 50 million cubic metres it used,
  36 million was recycled", "37,000 of the 58,000 tonnes", `_with_parts_units`). For a
  claim, only when the part is something the claim names (`figure_clauses.names_more_of_the_claim`);
- **the share a counted part is of a whole count**: "sold 1.2 million cars, of which 290,000 were
  battery-electric" is 24.2% of its cars; so are "Of its 700 senior managers, 224 were women" (32%),
  "290 of the 1,030 buses" and "completed 3,400 homes, and 1,700 of them" (`_with_counted_parts`).
  For a claim, only when what the part is names something of the claim;
- **a count from a share of counted things**: "7% of its 8,200 trucks were electric" is about 574
  electric trucks.

Each is written in as ", worked out as …" beside the figures it comes from, which stay, naming only
years the sentence names. A change worked out from two rounded or hedged levels carries the range
they allow ("(range 3.9 to 11.3)"), which `implied_range` gives the comparison. `implied` tells a
reason that a figure was worked out, not quoted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.figures import Figure, parse_figures
from app.language.number_words import figures_in_digits
from app.language.years import (
    MONTH,
    is_baseline,
    parse_years,
    stated_year,
    with_last_year_named,
    year_right_after,
)
from app.verification.reading.change_mood import intended
from app.verification.reading.figure_clauses import blanked, clause_of, clause_span, names_more_of_the_claim
from app.verification.reading.figure_subjects import role, share_base, share_whole
from app.verification.reading.figures import Count, count_value, parse_counts, set_beside
from app.verification.reading.statements import counted_parts, subject_stems
from app.verification.sources.company_names import names_company

_I = re.IGNORECASE
#: What introduces the earlier level after the later one: "…, against 2,600 tonnes the year before".
_AGAINST = re.compile(
    r"^[^.;]{0,90}?(?:,\s)?(?P<connector>against|compared\s(?:with|to)|versus|vs\.?|(?:up|down)\sfrom|from|on)\s"
    r"(?:the\s|an?\s)?(?:(?:about|around|some|nearly|almost|roughly|just)\s)?$",
    _I,
)
#: Right after an earlier level, its time as the year before the later one's: "the year before".
_YEAR_BEFORE_AFTER = re.compile(
    r"^\s?,?\s?(?:in\s)?(?:the\syear\sbefore|a\syear\s(?:earlier|before)|the\s(?:previous|prior)\syear|last\syear)\b",
    _I,
)
#: "from 2,600 tonnes in 2022 to 2,380 tonnes": the earlier level first.
_FROM_BEFORE = re.compile(r"\bfrom\s(?:the\s|an?\s)?(?:(?:about|around|some|nearly|almost|roughly)\s)?$", _I)
_TO_BETWEEN = re.compile(r"^[^.;,]{0,40}?\bto\s(?:(?:about|around|some|nearly|almost|roughly)\s)?$", _I)
#: Words between two levels that make them levels of two different things ("disturbed 420 hectares
#: but rehabilitated only 180").
_OTHER_THING = re.compile(
    r"\b(?:but|while|whereas|of\swhich|including|and\s(?!a\b)|at\s(?:rival|its\speer))\b", _I
)
#: A part named after its whole: "64,000 tonnes of it", "of which 600 GWh".
_OF_IT_AFTER = re.compile(r"\s(?:of\s(?:it|them|this|that)|of\sthe\stotal)\b", _I)
_OF_WHICH_BEFORE = re.compile(
    r"\bof\s(?:which|whom)\s(?:(?:only|just|some|about|around|nearly|almost|roughly)\s)?$", _I
)
#: A part set within its whole: "2.3 Mt of scrap … out of 6.05 Mt of input"; "Of the 96,000 tonnes …".
_OUT_OF_BETWEEN = re.compile(
    r"^[^.;]{0,60}?\b(?:out\sof|from\sa\stotal\sof)\s"
    r"(?:(?:a\s)?total\s(?:[\w-]+\s)?of\s|the\s|its\s|their\s)?$",
    _I,
)
_OF_THE_WHOLE_BEFORE = re.compile(r"\b[Oo]f\s(?:the|its|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s$")
#: A share of counted things said to be of a kind: "7% of Fenwick Freight's 8,200 trucks were electric".
_SHARE_OF_COUNT = re.compile(
    r"(?<![\d.,])(?P<share>\d+(?:\.\d+)?)%\sof\s(?:its|the|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s"
    r"(?P<whole>\d{1,3}(?:,\d{3})+|\d+)\s(?P<things>[a-z][\w-]*s)\s(?:were|was|are|is)\s(?:now\s)?"
    # of one kind ("electric"), not "electric or hybrid" nor "electric-ready"
    r"(?P<kind>(?!(?:in|at|on|by|of|for|the|a|an|not|still)\b)[a-z][\w-]*)(?<!-ready)(?<!-capable)"
    r"(?=[,;.]|\s(?:at|in|by|on|as|during)\b|$)"
)
#: Words saying a level moved: "fell to", "was down", "rose".
_MOVED = re.compile(
    r"\b(?:fell|rose|dropped|climbed|increased|decreased|grew|shrank|slipped|edged|declined|jumped|"
    r"slid|sank|cut|reduced|down|up)\b",
    _I,
)
#: Part of a year: "in January 2023", "in the six months to June", "the first half", "Q3".
_PART_OF_A_YEAR = re.compile(
    rf"\b(?:in|for|during)\s{MONTH}\b|\bmonths?\b|\bquarter\b|\bhalf\b|\bQ[1-4]\b|\bH[12]\b",
    _I,
)
#: Another's level after a figure: "at Dunmore Metals", "at its rival".
_ANOTHERS = re.compile(
    r"\bat\s(?:its\s)?(?:rival\s|peer\s)?(?-i:[A-Z])|\b(?:rivals?|peers?|competitors?)\b", _I
)
#: Words saying a part was not what its clause names: "failed to recycle 20,000 tonnes of it",
#: "bought from the grid rather than from renewable sources".
_NOT_SO = re.compile(r"\b(?:not|never|failed\sto|rather\sthan|instead\sof|unable\sto)\b", _I)
#: The phrases written in, which `implied` recognises.
_WORKED_OUT = "worked out as"
_WRITTEN = re.compile(rf",\s{_WORKED_OUT}\s[^,;]*,?")


def as_read(quote: str, published: str | None = None, claim: str | None = None, company: str = "") -> str:
    """A source's sentence as the rule reader reads it: "last year" named by the date the source was
    `published` (`years.with_last_year_named`), its figures in digits, "all of" as 100%
    (`number_words.figures_in_digits`) and the figures it implies written in (for `claim`, when
    given: `with_implied_figures`)."""
    digits = figures_in_digits(with_last_year_named(quote, published), whole_as_share=True)
    return with_implied_figures(digits, claim, company)


def with_implied_figures(sentence: str, claim: str | None = None, company: str = "") -> str:
    """`sentence` with the changes, shares and counts it implies written in (see the module
    docstring). With a `claim`, a share or count is written in only when what the part is
    ("recycled", "women", "electric") is something the claim names: "of which 600 GWh was bought
    from the grid" is no share of a renewable supply."""
    about = subject_stems(claim, company) if claim is not None else None
    if claim is not None:
        sentence = _with_parts_units(sentence, claim, company)
    sentence = _SHARE_OF_COUNT.sub(lambda match: _count_of_share(match, about), sentence)
    sentence = _with_counted_parts(sentence, claim, company)
    sentence = _with_shares(sentence, claim, company)
    if claim is not None:
        sentence = _with_intensities(sentence, claim, company)
    return _with_changes(sentence)


@dataclass(frozen=True)
class _Intensity:
    """A claim's figure of something per unit of another: "1.7 tonnes of CO2 per tonne of crude
    steel" (`unit` "tonne", `thing` "crude steel"), "1.4 litres of water per litre of milk
    processed" (`of` "water")."""

    figure: Figure
    per: Figure  # one of the unit it is per ("1 tonne"), for its base value
    unit: str
    thing: str
    of: str  # what the figure is an amount of ("water"), "CO2" for emissions; "" when unsaid
    written: str  # the claim's words after the number ("tonnes per tonne of crude steel")

    @classmethod
    def read(cls, claim: str, figure: Figure) -> _Intensity | None:
        match = _PER_UNIT.match(claim, figure.end)
        if match is None or role(claim, figure.start, figure.end) == "change":
            return None  # "cut by 0.2 tonnes per tonne" is no level to work out
        unit = match["unit"].lower()
        one = f"1 {unit}"
        per = next(iter(parse_figures(one)), None)
        if per is None or one[per.end :] not in {"", *re.findall(r"-[a-z]+$", one)}:
            return None  # "per guest night" is per no unit the figures know ("per tonne-mile" is)
        thing = (match["thing"] or "").lower()
        if not thing and not _TRANSPORT_WORK.search(unit):
            return None  # "per kilometre" of what, "per megawatt-hour" made or sold
        emissions = figure.co2e or _EMISSIONS_BEFORE.search(claim, 0, figure.start) is not None
        of = "CO2" if emissions else (match["of"] or "").lower()
        if not of:
            return None  # "fertiliser use was 0.18 tonnes per hectare": what the tonnes are of is unsaid
        number = re.match(r"[\d.,]+\s?", claim[figure.start : figure.end])
        written = claim[figure.start + (number.end() if number else 0) : match.end()]
        return cls(figure, per, unit, thing, of, written)

    def is_per(self, sentence: str, figure: Figure) -> bool:
        """Whether a figure of `sentence` is an amount of what this intensity is per, named in the
        claim's words ("8.2 million tonnes of crude steel", "300bn tonne-miles")."""
        last_word = re.search(r"[\w-]+$", sentence[figure.start : figure.end])
        if figure.dimension != self.per.dimension or last_word is None:
            return False
        after = _UNIT_AND_THING.match(sentence, figure.start + last_word.start())
        if after is None or after["unit"].lower().removesuffix("s") != self.unit:
            return False
        if not self.thing:
            return True  # "300bn tonne-miles"
        # "crude steel" is not "stainless steel", and "milk processed" needs the processing ("to
        # process"); the stems are compared by their first letters ("proces", "proc")
        things = subject_stems(self.thing)
        return _all_said(things, subject_stems(sentence)) and any(
            _stem_in(word, subject_stems(after["rest"])) for word in things
        )

    def named_alike(self, sentence: str, per: Figure) -> bool:
        """Whether the amount it is per is named as the claim names it, and of nothing narrower:
        "2.0 billion litres of oat milk" is not of "milk", "cargo on its Asia routes" not all of it."""
        rest = _YEAR_AFTER.sub("", sentence[per.end :].split(",")[0].split(";")[0])
        thing = re.match(
            r"\s?(?:[\w-]+\s)?of\s(?P<thing>(?:(?!(?:in|at|on|from|for|to|via)\b)[\w-]+\s?)+)", rest
        )
        if (
            thing is not None
            and self.thing
            and not subject_stems(thing["thing"]) <= subject_stems(self.thing)
        ):
            return False
        after = rest[thing.end() :] if thing else rest
        return _A_LIMIT.search(after) is None

    def is_amount(self, sentence: str, figure: Figure) -> bool:
        """Whether a figure of `sentence` is an amount of what the intensity measures: emissions for
        emissions, "2.8 billion litres of water" for litres of water."""
        if figure.dimension != self.figure.dimension or figure.bound:
            return False
        if self.of == "CO2":
            return figure.co2e
        return bool(subject_stems(self.of) & subject_stems(sentence[figure.end : figure.end + _OF_REACH]))


def _all_said(words: frozenset[str], stems: frozenset[str]) -> bool:
    """Whether every stem of `words` is among `stems` (`_stem_in`)."""
    return all(_stem_in(word, stems) for word in words)


def _stem_in(word: str, stems: frozenset[str]) -> bool:
    """Whether a stem is among `stems`, as the same word's stems may differ at their ends."""
    return any(word[:_STEM_PREFIX] == other[:_STEM_PREFIX] for other in stems)


_STEM_PREFIX = 4


def _with_intensities(sentence: str, claim: str, company: str) -> str:
    """The claim's intensity worked out from an amount and what it is per, both stated: "emitted 13.9
    million tonnes of CO2 making 8.2 million tonnes of crude steel" is 1.7 tonnes per tonne of crude
    steel; "withdrew 2.8 billion litres of water to process 2.0 billion litres of milk" 1.4 litres of
    water per litre of milk. Written in after the later of the two, in the claim's words and with
    the range the two figures' rounding allows (`_COARSEST`), only when the sentence states one
    amount of each, the amount first, plainly the company's (`_plainly_the_companys`), joined by
    making or carrying ("while making", "to process", "across"), what it is per named alike and no
    narrower, unbounded, of one year, one thing made, and no intensity of its own."""
    figures = [figure for figure in parse_figures(sentence) if figure.dimension not in {"percent", "pp"}]
    if any(_PER_UNIT.match(sentence, figure.end) for figure in figures):
        return sentence  # the sentence states an intensity of its own
    for intensity in filter(None, (_Intensity.read(claim, figure) for figure in parse_figures(claim))):
        amounts = [figure for figure in figures if intensity.is_amount(sentence, figure)]
        pers = [figure for figure in figures if intensity.is_per(sentence, figure) and figure not in amounts]
        if len(pers) != 1 or len(amounts) != 1 or pers[0].bound:
            continue
        (per,), (amount,) = pers, amounts
        if sum(figure.dimension == per.dimension for figure in figures if figure is not amount) > 1:
            continue  # "20 Mt of cement and 4 Mt of concrete": the emissions are of both
        if per.start < amount.start or not _JOINED.search(sentence[amount.end : per.start]):
            continue  # "emitted 13.9 Mt … making 8.2 Mt"
        if not _plainly_the_companys(sentence, amount, company) or not intensity.named_alike(sentence, per):
            continue
        years = {stated_year(sentence, per), stated_year(sentence, amount)} - {None}
        if len(years) > 1:
            continue
        scale = intensity.per.base * intensity.figure.value / intensity.figure.base
        low = (amount.base - _spread(amount)) / (per.base + _spread(per)) * scale
        high = (amount.base + _spread(amount)) / (per.base - _spread(per)) * scale
        value = amount.base / per.base * scale
        claimed, half = intensity.figure.value, intensity.figure.half_unit
        if high - low > _COARSEST * 2 * half and low - half <= claimed <= high + half:
            continue  # "14 Mt … 8 Mt" allows 1.59 to 1.93: too coarse to confirm 1.7
        hedge = "about " if amount.approximate or per.approximate else ""
        clause_end = re.search(r"[,;.](?!\d)", sentence[per.end :])
        at = per.end + clause_end.start() if clause_end else len(sentence)
        worked_out = f"{hedge}{value:#.3g} {intensity.written.strip()}{_range(low, high)}"
        written = f", {_WORKED_OUT} an intensity of {worked_out}"
        return sentence[:at] + written + sentence[at:]
    return sentence


#: How many times wider than the claim's rounding the range of a worked-out intensity may be and
#: still confirm it ("2.8 … 2.0 billion litres" allows 1.34 to 1.46 for a claimed 1.4); a claim
#: outside the range is refuted however wide it is.
_COARSEST = 1.5


def _plainly_the_companys(sentence: str, amount: Figure, company: str) -> bool:
    """Whether the amount is plainly the company's, for the whole company, over the year: the company
    (or its ships, plants, operations) did it ("Brackwater Steel emitted", "Fairhaven's ships
    emitted"), nothing speaks of a rival, a sector, customers or a part of the year, and nothing
    makes it a capacity, a permit, a capture or what might have been ("could produce", "would have
    emitted", "captured")."""
    doer = _DOER.search(sentence, 0, amount.start)
    return (
        doer is not None
        and names_company(doer["name"] + " ", company)
        and _SOMEONE_ELSES.search(sentence) is None
        and _NOT_DONE.search(sentence) is None
        and _PART_OF_A_YEAR.search(sentence) is None
        and _HALF_WRITTEN.search(sentence) is None
    )


#: A half or quarter of a year as the figures read it ("the first half" is read "the first about 50%
#: of").
_HALF_WRITTEN = re.compile(r"\b(?:first|second|third|fourth|final|last)\sabout\s\d+%\sof\b", _I)


#: Who did what the amount measures, right before it: "Brackwater Steel emitted", "Fairhaven's ships
#: emitted about".
_DOER = re.compile(
    r"(?P<name>(?:[A-Z][\w&-]*\s){0,3}[A-Z][\w&-]*)(?:['’]s?\s(?:ships|vessels|fleet|operations|plants|sites|"
    r"factories|mills|breweries|dairies|stores|facilities))?\s(?:emitted|used|withdrew|consumed|burned|released|"
    r"drew|discharged)\s(?:(?:about|around|some|roughly|nearly|almost|just)\s)?$"
)
#: Someone else's figures: "its rival Kessler", "the steel sector", "other steelmakers", "for customers".
_SOMEONE_ELSES = re.compile(
    r"\b(?:rivals?|peers?|competitors?|sector|industry|other|customers?|subcontractors?|partners?|joint\sventure|"
    r"suppliers?)\b",
    _I,
)
#: What was not done, or not the amount itself: "could produce", "would have emitted", "if", "has the
#: capacity to", "permits to emit", "captured", "cut its emissions by".
_NOT_DONE = re.compile(
    r"\b(?:if|would|could|can|capacity|able|permits?|allowances?|captured?|avoided|offset|cut|saved|without)\b",
    _I,
)


#: What the claim's figure is of, when it is emissions: "CO2 intensity was", "emissions per".
_EMISSIONS_BEFORE = re.compile(r"\b(?:CO2|CO₂|carbon|emissions?|GHG|greenhouse)\b", _I)
#: Units of transport work, which say what they are per on their own ("per tonne-mile").
_TRANSPORT_WORK = re.compile(r"-(?:miles?|kilomet(?:re|er)s?|km)$", _I)
#: A year right after a figure ("in 2023"): when, not what.
_YEAR_AFTER = re.compile(r"\b(?:in|during)\s(?:19|20)\d\d\b")
#: What limits an amount to a part: "from coal", "on its Asia-Europe routes", "at its Duisburg site".
_A_LIMIT = re.compile(r"\b(?:from|on|at|for|via|through)\b", _I)
#: How far after an amount the thing it is of is looked for ("2.8 billion litres of water").
_OF_REACH = 25
#: Words joining an amount to what it was made or carried with: "while making", "to process",
#: "across", "carrying".
_JOINED = re.compile(
    r"^[^;]{0,60}?\b(?:making|producing|generating|processing|carrying|moving|transporting|make|produce|"
    r"generate|process|carry|transport|across)\b[^;]{0,25}$",
    _I,
)


#: What a claim's figure is per: "per tonne of crude steel", "of water per litre of milk processed",
#: "per tonne-mile"; `of` is what the figure is of ("of water").
_PER_UNIT = re.compile(
    r"(?:\sof\s(?P<of>[\w-]+(?:\s[\w-]+)?))?(?:\s[\w-]+){0,3}?\sper\s(?P<unit>[a-z][a-z-]*(?:\s[a-z][a-z-]*)??)"
    r"(?=[\s,.;]|$)(?:\sof\s(?P<thing>[a-z][\w-]*(?:\s(?!(?:in|at|by|for|from|during)\b)[a-z][\w-]*)?))?",
    _I,
)
#: A unit word and what follows it: "tonnes of crude steel in 2023", "tonne-miles of cargo".
_UNIT_AND_THING = re.compile(r"(?P<unit>[\w-]+)(?P<rest>[^,;.]*)")


def _parts_named(claim: str | None, about: frozenset[str] | None) -> frozenset[str] | None:
    """The claim's words less those of the wholes its shares are of: what a counted part must name
    ("women" of "Women held 32% of senior management roles", not "roles")."""
    if claim is None or about is None:
        return about
    wholes = " ".join(" ".join(share_base(claim, figure.end)) for figure in _shares_of(claim))
    return about - subject_stems(wholes)


def _shares_of(claim: str | None) -> list[Figure]:
    """The shares (percentages) a claim states."""
    return [figure for figure in parse_figures(claim or "") if figure.dimension == "percent"]


def implied(sentence: str, figure: Figure) -> bool:
    """Whether `figure` (read from a sentence `with_implied_figures`) was worked out, not stated."""
    return any(match.start() <= figure.start < match.end() for match in _WRITTEN.finditer(sentence))


def without_written(sentence: str) -> str:
    """`sentence` with the figures written in blanked out, offsets kept: its clauses as written."""
    return _WRITTEN.sub(lambda match: " " * len(match.group()), sentence)


def whole_of_part(sentence: str, figure: Figure) -> Figure | None:
    """The whole `figure` is a part named after ("46,000 tonnes, of which 38,000 tonnes were Scope
    2"), or None when it is none."""
    if _OF_WHICH_BEFORE.search(sentence, 0, figure.start) is None:
        return None
    before = [
        other for other in parse_figures(sentence) if other.end <= figure.start and other.same_kind(figure)
    ]
    return before[-1] if before else None


def _with_changes(sentence: str) -> str:
    """The sentence with the change between two of its levels written in (`_two_times`), unless it
    states a change of its own."""
    own = [figure for figure in parse_figures(sentence) if not set_beside(sentence, figure.start, figure.end)]
    if any(
        figure.dimension in {"percent", "pp"} or role(sentence, figure.start, figure.end) == "change"
        for figure in own
    ):
        return sentence
    # levels of one quantity, not another's and not intended
    levels = [figure for figure in own if not intended(sentence, figure.start, figure.end)]
    for first, second in zip(levels, levels[1:], strict=False):
        found = _two_times(sentence, first, second)
        if found is not None:
            return _write_change(sentence, found, after=second)
    return sentence


@dataclass(frozen=True)
class _TwoTimes:
    """Two levels of one quantity in time order, with the later one's year and the earlier one's
    when the sentence says it."""

    earlier: Figure
    later: Figure
    year: int
    earlier_year: int | None


def _two_times(sentence: str, first: Figure, second: Figure) -> _TwoTimes | None:
    """The two levels in time order, when the sentence sets one against the other as levels of the
    same thing, in one unit, at two times: the later one of a stated year, the earlier one of a
    stated or earlier year ("the year before"), or said to be what the later one moved from ("fell to
    5,100 tonnes from 6,000 tonnes"). "900 GWh in 2023, against 1,000 GWh at Dunmore" is no change."""
    if not _same_unit(first, second) or not _same_thing(sentence, first, second):
        return None
    between = sentence[first.end : second.start]
    if _OTHER_THING.search(between):
        return None
    against = _AGAINST.match(between)
    if _FROM_BEFORE.search(sentence, 0, first.start) and _TO_BETWEEN.match(between):
        earlier, later, moved_from = first, second, True
    elif against:
        # "fell to 5,100 tonnes from 6,000": a level moved from, if the sentence says it moved
        # ("recycled 9,000 tonnes from 12,000 tonnes collected" names an input)
        moved = (
            "from" in against["connector"].lower() and _MOVED.search(sentence, 0, second.start) is not None
        )
        earlier, later, moved_from = second, first, moved
    else:
        return None
    year = stated_year(sentence, later)
    if year is None or _PART_OF_A_YEAR.search(sentence):
        return None  # a month, a quarter or a half, or no time at all
    after = sentence[earlier.end :]
    clause_end = re.search(r"[,;]|\s(?:and|but|while)\s", after)
    if _ANOTHERS.search(after[: clause_end.start()] if clause_end else after):
        return None  # "against 1,000 GWh in 2022 at Dunmore Metals"
    earlier_year = year_right_after(after) or (year - 1 if _YEAR_BEFORE_AFTER.match(after) else None)
    if earlier_year is None and not moved_from:
        return None
    if earlier_year is not None and earlier_year >= year:
        return None  # two levels of one year, or stated the other way round: no change over time
    return _TwoTimes(earlier, later, year, earlier_year)


def _same_unit(first: Figure, second: Figure) -> bool:
    """One dimension and currency: "1.82 Mt CO2e, against 2.0 Mt" need not repeat "CO2e"."""
    return first.same_kind(second) and not first.ambiguous and not second.ambiguous


def _same_thing(sentence: str, first: Figure, second: Figure) -> bool:
    """Not levels of two things named ("3 Mt of ore" against "2 Mt of coal")."""
    mine, theirs = share_base(sentence, first.end), share_base(sentence, second.end)
    return not mine or not theirs or bool(mine & theirs)


def _write_change(sentence: str, levels: _TwoTimes, *, after: Figure) -> str:
    """The sentence with the change between the two levels written in after the clause of the second
    level in the text (`after`), with the range their rounding allows (`implied_range`): ", worked
    out as a fall of about 8.5% in 2023 from 2022 (range 8.4 to 8.5) and a fall of 220 tonnes in 2023
    from 2022 (range 219 to 221)". Not when the rounding leaves even the direction open."""
    earlier, later = levels.earlier, levels.later
    if not earlier.base or earlier.bound or later.bound:
        return sentence
    change = 100 * (later.base - earlier.base) / abs(earlier.base)
    lowest, highest = _change_range(earlier, later)
    if lowest <= 0 <= highest:
        return sentence
    noun = "fall" if change < 0 else "rise"
    # only years the sentence names: a new one would change which year its other figures are of
    named = {year for year, _ in parse_years(sentence)}
    when = f" in {levels.year}" if levels.year in named else ""
    when += f" from {levels.earlier_year}" if levels.earlier_year in named else ""
    written = f", {_WORKED_OUT} a {noun} of about {abs(change):.1f}%{when}" + _range(lowest, highest)
    amount = _amount(earlier, later)
    if amount is not None:
        text, (low, high) = amount
        written += f" and a {noun} of {text}{when}" + _range(low, high)
    clause_end = re.search(r"[,;.](?!\d)", sentence[after.end :])
    at = after.end + clause_end.start() if clause_end else len(sentence)
    return sentence[:at] + written + sentence[at:]


def implied_range(sentence: str, figure: Figure) -> tuple[float, float] | None:
    """The range a change worked out from two rounded levels may lie in (its size, in the unit as
    written), when `figure` is one (`_write_change`); None otherwise."""
    if not implied(sentence, figure):
        return None
    found = _RANGE.match(sentence, figure.end)
    return (float(found["low"]), float(found["high"])) if found else None


#: The range written after a change worked out, before the next clause: " in 2023 from 2022 (range 8.4
#: to 8.5)".
_RANGE = re.compile(r"[^,;()]*?\s\(range\s(?P<low>[\d.]+)\sto\s(?P<high>[\d.]+)\)")


def _range(low: float, high: float) -> str:
    """The range of a change's size, written as no figure the reader would compare."""
    low, high = sorted((abs(low), abs(high)))
    return f" (range {low:.4g} to {high:.4g})"


def _change_range(earlier: Figure, later: Figure) -> tuple[float, float]:
    """The lowest and highest relative change (%) the two levels allow within their rounding."""
    low_from, high_from = earlier.base - _spread(earlier), earlier.base + _spread(earlier)
    low_to, high_to = later.base - _spread(later), later.base + _spread(later)
    return 100 * (low_to - high_from) / abs(high_from), 100 * (high_to - low_from) / abs(low_from)


#: How far a hedged level ("about 400 million litres") may lie from its value, as a share of it.
HEDGED_LEVEL = 0.05


def _spread(figure: Figure) -> float:
    """How far a level may lie from its value (in its base unit): its rounding ("2.4 Mt" may be 2.35
    to 2.45), or `HEDGED_LEVEL` of it when hedged ("about 400 million litres")."""
    spread = figure.base_half_unit
    if figure.approximate:
        spread = max(spread, HEDGED_LEVEL * abs(figure.base))
    return spread


def _amount(earlier: Figure, later: Figure) -> tuple[str, tuple[float, float]] | None:
    """The difference of two levels in their unit as written ("220 tonnes") and the range of its size
    their rounding allows, when both are written as a number and the same unit after it."""
    unit_of = [_unit_after_number(figure.text) for figure in (earlier, later)]
    if unit_of[0] is None or unit_of[0] != unit_of[1]:
        return None
    decimals = max(_decimals(figure.text) for figure in (earlier, later))
    size = abs(later.value - earlier.value)
    # the levels' spreads in the unit as written
    spread = sum(
        _spread(figure) * abs(figure.value / figure.base) for figure in (earlier, later) if figure.base
    )
    return f"{size:,.{decimals}f} {unit_of[0]}", (max(size - spread, 0.0), size + spread)


def _unit_after_number(text: str) -> str | None:
    match = re.fullmatch(
        r"(?:about\s|around\s|some\s|nearly\s|almost\s|roughly\s)?[\d,]+(?:\.\d+)?\s(\D+)", text, _I
    )
    return match.group(1) if match else None


def _decimals(text: str) -> int:
    number = re.search(r"\d[\d,]*(?:\.(\d+))?", text)
    return len(number.group(1) or "") if number else 0


def _with_shares(sentence: str, claim: str | None, company: str) -> str:
    """The share each part is of its whole in one unit (`_part_and_whole`), written in after the later
    of the two as a share of what the whole is of, when it says ("…, worked out as 66.7% of its
    waste"); a part named after a whole that does not say is a share "of it", right after the part.
    Never of an intended part or whole ("aims to recycle 64,000 tonnes of it"), and with a `claim`
    only when the part's clause names something of it the whole's does not."""
    figures = [figure for figure in parse_figures(sentence) if figure.dimension not in {"percent", "pp"}]
    for first, second in reversed(list(zip(figures, figures[1:], strict=False))):
        found = _part_and_whole(sentence, first, second)
        if found is None:
            continue
        part, whole = found
        if any(intended(sentence, figure.start, figure.end) for figure in found):
            continue
        as_written = without_written(sentence)
        if _NOT_SO.search(clause_of(as_written, part)):
            continue
        year, whole_year = stated_year(sentence, part), stated_year(sentence, whole)
        if is_baseline(sentence, whole) or (year and whole_year and year != whole_year):
            continue  # last year's level is no whole of this year's part
        if claim is not None and not _part_names_the_claim(claim, as_written, part, whole, company):
            continue
        when = f" in {year}" if year else ""  # a year the sentence names
        share = ("about " if part.approximate or whole.approximate else "") + _percent(
            100 * part.base / whole.base
        )
        of_what = _words_of(sentence, whole)
        if not of_what and (
            _OF_IT_AFTER.match(sentence, part.end) or _OF_WHICH_BEFORE.search(sentence, 0, part.start)
        ):
            # "of which 600 GWh, worked out as 69.8% of it, was matched": right after the part
            sentence = sentence[: part.end] + f", {_WORKED_OUT} {share} of it{when}," + sentence[part.end :]
            continue
        written = f", {_WORKED_OUT} {share}" + (f" of its {of_what}" if of_what else "") + when
        clause_end = re.search(r"[,;.](?!\d)", sentence[second.end :])
        at = second.end + clause_end.start() if clause_end else len(sentence)
        sentence = sentence[:at] + written + sentence[at:]
    return sentence


#: A number written without its unit, and what comes right after it: a verb or "of", never a noun
#: of its own ("36 million was recycled", "37,000 of the", "4.5 million of it"; not "600 trucks").
_BARE_NUMBER = re.compile(
    r"(?<![\w.,$€£¥-])(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<scale>\s(?:thousand|million|billion))?(?=\s(?:of\s|was\b|were\b|is\b|are\b|came\b|went\b|had\b))"
)
#: A phrase naming other things between a whole and "of which" or "of it" after it.
_ANOTHER_NOUN_BETWEEN = re.compile(r"\b(?:from|at|across|among|by|with|for|to)\s", _I)
_A_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_SCALE_WORD = re.compile(r"\s?(?:thousand|million|billion)\b")
#: How a bare part is set in its whole: right before it ("37,000 of the 58,000 tonnes"), "of it"
#: after a whole ("5.2 million cubic metres …, 4.5 million of it"), after "Of the <whole> …," or
#: after "of which".
_PART_BEFORE_WHOLE = re.compile(r"\sof\s(?:the|its|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s$")
_OF_IT = re.compile(r"\sof\s(?:it|them)\b")
_OF_THE_WHOLE_OPENING = re.compile(r"(?:^|[;:]\s)[Oo]f\s(?:the|its|their)\s$")


def _with_parts_units(sentence: str, claim: str, company: str) -> str:
    """The sentence with the whole's unit written after a part given as a bare number, where the
    sentence sets the number within that whole: "Of the 50 million cubic metres of water it used,
    36 million was recycled", "37,000 of the 58,000 tonnes of cocoa", "bought 5.2 million cubic
    metres of wood, 4.5 million of it from certified forests", "used 860 GWh, of which 600 came from
    wind". The press leaves the unit to the reader; the shares and comparisons need it written. Only
    for a `claim` whose words the part's clause names beyond its whole's ("36 million was recycled"
    for a claim of recycled water; not "36 million was drawn from boreholes"), never of money."""
    figures = [figure for figure in parse_figures(sentence) if figure.dimension not in {"percent", "pp"}]
    for bare in reversed(list(_BARE_NUMBER.finditer(sentence))):
        whole = _whole_of_bare_part(sentence, bare, figures)
        if whole is None or _anothers_whole(sentence[bare.end() : whole.start], company):
            continue
        unit = _unit_written(whole, scaled=bare["scale"] is not None)
        if unit is None:
            continue
        written = sentence[: bare.end()] + f" {unit}" + sentence[bare.end() :]
        read = {figure.start: figure for figure in parse_figures(written)}
        part = read.get(bare.start())
        if part is None or not 0 < part.base <= whole.base:  # a part is no more than its whole
            continue
        # the whole as it stands in the sentence written, past the unit if it comes after the part
        at = read.get(whole.start + (len(unit) + 1 if whole.start > bare.start() else 0), whole)
        if _part_names_the_claim(claim, written, part, at, company) and _said_in_the_claims_words(
            claim, written, part, at, company
        ):
            sentence = written
    return sentence


def _anothers_whole(between: str, company: str) -> bool:
    """Whether a whole right after its part is said to be someone else's: "37,000 of Ghana's 58,000
    tonnes"."""
    owner = re.search(r"(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*(?=['’]s?\s$)", between)
    return owner is not None and not names_company(owner[0], company)


def _part_names_the_claim(claim: str, sentence: str, part: Figure, whole: Figure, company: str) -> bool:
    """Whether what `sentence` says of a part names something of the claim that its whole's words do
    not: the part's clause (`figure_clauses.names_more_of_the_claim`), or, for a part right before
    its whole ("Certified farms supplied 37,000 tonnes of the 58,000 tonnes of cocoa it bought",
    "37,000 tonnes of the 58,000 tonnes of cocoa it bought were certified"), the sentence's words
    besides what the whole is of."""
    if not _PART_BEFORE_WHOLE.fullmatch(sentence, part.end, whole.start):
        return names_more_of_the_claim(claim, sentence, part, whole, company)
    said = subject_stems(f"{sentence[: part.start]} {sentence[whole.end :]}", company)
    return bool((said - subject_stems(_words_of(sentence, whole), company)) & subject_stems(claim, company))


def _said_in_the_claims_words(claim: str, sentence: str, part: Figure, whole: Figure, company: str) -> bool:
    """Whether what the sentence says of a bare part, and of its whole where the claim states a share,
    is in the claim's words: no narrower part ("came from its own wind farms", "from onshore wind")
    and no narrower or other whole ("of process water", "sold 860 GWh of surplus electricity"). Verbs
    that only take in or link a whole or a part ("used", "bought", "came from") say nothing more."""
    claims = subject_stems(claim, company) | WHEN_STEMS | _TAKEN_IN | _LINKS
    text = blanked(blanked(sentence, part.start, part.end), whole.start, whole.end)
    of_whole = subject_stems(_words_of(sentence, whole), company)
    part_clause, whole_clause = clause_span(sentence, part), clause_span(sentence, whole)
    if part_clause == whole_clause:  # "Certified farms supplied 37,000 tonnes of the 58,000 tonnes of …"
        part_says = subject_stems(
            f"{text[part_clause[0] : part.start]} {text[whole.end : part_clause[1]]}", company
        )
        whole_says = of_whole
    else:
        part_says = subject_stems(text[part.end : part_clause[1]], company)
        whole_says = subject_stems(text[whole_clause[0] : whole_clause[1]], company)
    said = part_says - of_whole
    if any(figure.dimension == "percent" for figure in parse_figures(claim)):
        said |= whole_says
    return subject_stems(_WITH_DIGITS.sub(" ", " ".join(said)), company) <= claims


#: Verbs that link a part to what it is: "came from wind", "supplied", "made up".
_LINKS = subject_stems("came comes supplied supply made make accounted represented provided went")
#: Verbs that take in a whole, saying nothing of what it is: "used", "bought", "sourced" ("emitted" for
#: emissions).
_TAKEN_IN = subject_stems("used uses use bought buys purchased sourced consumed took emitted emits")


def _whole_of_bare_part(sentence: str, bare: re.Match[str], figures: list[Figure]) -> Figure | None:
    """The figure a bare number is a part of, by how the sentence sets it (`_with_parts_units`)."""
    after = next((figure for figure in figures if figure.start > bare.end()), None)
    if after is not None and _PART_BEFORE_WHOLE.fullmatch(sentence, bare.end(), after.start):
        return after
    before = [figure for figure in figures if figure.end <= bare.start()]
    if not before:
        return None
    whole = before[-1]
    between = _A_YEAR.sub("", sentence[whole.end : bare.start()])
    if re.search(r"[.;]|\d", between) or "," not in between:
        return None  # one clause on: "…, 4.5 million of it", not a number of another sentence
    if _OF_IT.match(sentence, bare.end()) or _OF_WHICH_BEFORE.search(sentence, 0, bare.start()):
        # "58,000 tonnes of cocoa from small farms, of which 37,000": of the farms, maybe
        return None if _ANOTHER_NOUN_BETWEEN.search(between) else whole
    if _OF_THE_WHOLE_OPENING.search(sentence, 0, whole.start) and between.rstrip().endswith(","):
        return whole
    return None


def _unit_written(whole: Figure, *, scaled: bool) -> str | None:
    """The whole's unit as written ("cubic metres", "tonnes of CO2e", "GWh"), for a part with a scale
    word of its own (`scaled`: "36 million") or none; None where the two would not agree ("36 million"
    of "50 Mt", "4.5" of "5.2 million tonnes")."""
    number = re.match(r"[-\u2212\u2013]?\s?[\d,.]+", whole.text)
    if number is None or whole.dimension == "currency":
        return None
    rest = whole.text[number.end() :]
    scale = _SCALE_WORD.match(rest)
    if scale is not None:
        rest = rest[scale.end() :]
    unit = rest.strip()
    if not unit or (scaled and scale is None and unit[0] in "kMGT") or (not scaled and scale is not None):
        return None
    return unit


def _part_and_whole(sentence: str, first: Figure, second: Figure) -> tuple[Figure, Figure] | None:
    """The part and the whole, when two figures in one unit are set as one within the other: "96,000
    tonnes … and recycled 64,000 tonnes of it", "860 GWh, of which 600 GWh", "Of the 96,000 tonnes of
    waste …, it recycled 78,000 tonnes", "2.3 Mt of scrap … out of 6.05 Mt of input", "37,000 tonnes of
    the 58,000 tonnes of cocoa"."""
    if not _same_unit(first, second) or first.bound or second.bound:
        return None
    between = sentence[first.end : second.start]
    if _OUT_OF_BETWEEN.match(between) or _PART_BEFORE_WHOLE.fullmatch(between):
        part, whole = first, second
    elif (
        _OF_IT_AFTER.match(sentence, second.end)
        or _OF_WHICH_BEFORE.search(sentence, 0, second.start)
        or (_OF_THE_WHOLE_BEFORE.search(sentence, 0, first.start) and "," in between)
    ):
        part, whole = second, first
    else:
        return None
    return (part, whole) if 0 < part.base <= whole.base else None


def _words_of(sentence: str, whole: Figure) -> str:
    """What the whole is of, in the sentence's words and order ("metallic input"), or ""."""
    base = share_base(sentence, whole.end)
    words = re.findall(r"[\w-]+", sentence[whole.end : whole.end + 60])
    return " ".join(dict.fromkeys(word for word in words if word.lower() in base))


def _count_of_share(match: re.Match[str], about: frozenset[str] | None) -> str:
    """ "7% of its 8,200 trucks were electric" -> "…, worked out as about 574 electric trucks": a
    share of a count, rounded as the share is, is a hedged count (of a kind the claim names, when
    `about` gives its words)."""
    count = round(float(match["share"]) * int(match["whole"].replace(",", "")) / 100)
    if count <= 0 or not _names(about, match["kind"]):
        return match.group(0)
    return f"{match.group(0)}, {_WORKED_OUT} about {count:,} {match['kind']} {match['things']}"


def _with_counted_parts(sentence: str, claim: str | None, company: str = "") -> str:
    """A part counted within a whole count, written in as its share at the end of the part's clause:
    "sold 1.2 million cars, of which 290,000 were battery-electric, worked out as 24.2% of its cars";
    "290 of the 1,030 buses … were zero-emission at the end of 2023, worked out as 28.2% of its
    buses". Only when what the part is (the rest of its clause) names something of the claim the
    whole does not; with a `claim`, also only when the part, what is said of the whole and what
    was done with it are in the claim's words ("290,000 battery-electric cars sold in Europe" is a
    narrower part, "412 of the 1,030 buses it ordered" a narrower whole, "built 1.2 million cars"
    not what it sold), and, where the whole is rounded ("1.2 million"), only when the claim's share
    lies outside all it allows."""
    words_of_claim = subject_stems(claim, company) if claim is not None else None
    parts = _parts_named(claim, words_of_claim)
    wholes_of_claim = _wholes_of(claim, company)
    for whole in reversed(parse_counts(sentence)):
        if whole.bound or whole.part:
            continue  # "more than 400 buses", "300 of its buses" are no whole
        part = _part_counted_of(sentence, whole)
        if part is None:
            continue
        start, end, value, rounding = part
        said = _CLAUSE_REST.match(sentence, max(end, whole.end))
        words = said[0] if said else ""
        # what is said of the whole: in "290 of the 1,030 buses in its fleet were zero-emission", what
        # comes before the verb; in "15 calls at Oslo, of which 9", what comes before the part; and
        # what was done with it ("sold 1.2 million cars")
        verb = _VERB.search(words) if start < whole.start else None
        after_whole = words[: verb.start()] if verb else sentence[whole.end : start]
        done = _clause_before(sentence, min(start, whole.start))
        of_whole = subject_stems(_WITH_DIGITS.sub(" ", f"{done} {after_whole}"), company)
        # what the part is, less what is said of the whole ("sold 1.2 million cars, of which 290,000
        # were sold in China" names no kind of car)
        before = subject_stems(sentence[: max(start, whole.end)])
        kind = subject_stems(words[verb.end() :] if verb else words) - before - WHEN_STEMS
        among = _PART_AMONG_BEFORE.search(sentence, 0, whole.start) if start < whole.start else None
        if among is not None and among.start("part") == start:
            # "4,080 women among its 12,000 staff at the close of 2022": what the part is comes first
            kind = subject_stems(among["kind"]) - WHEN_STEMS
            after_whole = words
            # the whole's own describing words are said of it too ("its 12,000 seasonal staff")
            of_whole = subject_stems(
                _WITH_DIGITS.sub(" ", f"{done} {after_whole} {' '.join(whole.kind)}"), company
            )
            if claim is not None and not set(whole.kind) <= set(re.findall(r"[\w-]+", claim.lower())):
                continue  # "its 12,000 new staff" are not all its staff
        if not 0 < value < whole.value or not kind:
            continue
        if (
            words_of_claim is not None
            and parts is not None
            and not (
                kind & parts
                and kind <= words_of_claim | _ANY_PART
                and of_whole <= words_of_claim | _ANY_WHOLE
                # and the other way: "the cars we sold in Europe" are no share of all it sold
                and _all_said(wholes_of_claim, subject_stems(sentence, company) | _ANY_WHOLE)
            )
        ):
            continue
        share = 100 * value / whole.value
        low = 100 * (value - rounding) / (whole.value + whole.rounding)
        high = 100 * (value + rounding) / (whole.value - whole.rounding)
        if high - low > _ROUNDED_SHARE and not _outside(claim, low, high):
            continue  # "1.2 million cars" allows 23.2% to 25.2%: it decides only a claim outside that
        number = _PART_NUMBER.match(whole.text)
        things = whole.text[number.end() :].strip() if number else whole.noun
        at = said.end() if said else end  # the count as written stays whole ("640 electric trucks")
        written = f", {_WORKED_OUT} {_percent(share)} of its {things}"
        sentence = sentence[:at] + written + sentence[at:]
    return sentence


#: The widest range (percentage points) a share worked out from rounded counts may span and still
#: be compared: one point, as a share is rounded to a whole per cent.
_ROUNDED_SHARE = 1.0


def _wholes_of(claim: str | None, company: str) -> frozenset[str]:
    """The words of the wholes the claim's shares are of ("of the cars we sold in Europe")."""
    words = " ".join(share_whole(claim or "", figure.start, figure.end) for figure in _shares_of(claim))
    return subject_stems(_WITH_DIGITS.sub(" ", words), company) - WHEN_STEMS


def _outside(claim: str | None, low: float, high: float) -> bool:
    """Whether every share the claim states lies outside `low`–`high` (its own rounding too)."""
    shares = _shares_of(claim)
    return bool(shares) and all(
        figure.value + figure.half_unit < low or figure.value - figure.half_unit > high for figure in shares
    )


def _clause_before(sentence: str, at: int) -> str:
    """The words of the clause before offset `at` ("Vantora sold" before "1.2 million cars")."""
    cut = max((match.end() for match in re.finditer(r"[,;:](?!\d)\s?", sentence[:at])), default=0)
    return sentence[cut:at]


def _part_counted_of(sentence: str, whole: Count) -> tuple[int, int, int, float] | None:
    """Where a part counted of `whole` is written, its value and rounding: after the whole ("…, of which
    290,000 were", "included 264,000", "…, and 1,700 of them", "Of the 3,400 homes …, 2,890 were") or
    right before it ("290 of the 1,030 buses")."""
    after = _PART_AFTER_WHOLE.match(sentence, whole.end)
    if after is None:
        after = _PART_OF_THEM_AFTER.match(sentence, whole.end)
    if after is None and _OF_A_WHOLE_FIRST.search(sentence, 0, whole.start):
        after = _PART_AFTER_ITS_WHOLE.match(sentence, whole.end)
    if after is not None:
        number = _PART_NUMBER.match(sentence, after.end())
        if number and any(
            other.start != whole.start and other.start < number.start() for other in parse_counts(sentence)
        ):
            return None  # "3,400 employees and 1,800 stores, and 900 of them": of either
    else:
        before = (m for m in counted_parts(sentence) if m.start("whole") == whole.start)
        number = next((_PART_NUMBER.match(sentence, m.start("part")) for m in before), None)
        among = _PART_AMONG_BEFORE.search(sentence, 0, whole.start)
        if number is None and among is not None:
            number = _PART_NUMBER.match(sentence, among.start("part"))
    read = count_value(number[0]) if number else None
    return None if number is None or read is None else (number.start(), number.end(), *read)


#: Between a whole count and a part counted of it: "1.2 million cars in 2023, of which", "sales of
#: 2.2 million vehicles included".
_PART_AFTER_WHOLE = re.compile(
    r"[^.;]{0,60}?(?:,\s)?\b(?:of\swhich|of\swhom|including|included|includes|among\sthem)\s"
    r"(?:(?:only|just|some|about|around|roughly|nearly)\s)?"
)
#: A part said to be among its whole, what it is first: "4,080 women among its 12,000 staff", "396,000
#: battery-electric cars in 2023 out of 2.2 million vehicles".
_PART_AMONG_BEFORE = re.compile(
    r"(?<![\w.,])(?P<part>\d[\d,.]*(?:\s?(?:million|thousand|m|k))?)\s(?P<kind>(?:[a-z][\w-]*\s){1,3})"
    r"(?:(?:in|during)\s(?:19|20)\d\d\s)?(?:among|out\sof)\s"
    r"(?:(?:the|its|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s)?$"
)
#: Up to a part named as "of them" after its whole: "completed 3,400 homes in 2023, …, and 1,700 of them".
_PART_OF_THEM_AFTER = re.compile(
    r"[^.;]{0,80}?\b(?=\d[\d,.]*(?:\s?(?:million|thousand|m|k))?\sof\s(?:them|these|those)\b)"
)
#: A whole that opens its sentence, and the part after it: "Of the 3,400 homes it completed in 2023,
#: 2,890 were …".
_OF_A_WHOLE_FIRST = re.compile(r"(?:^|[,;:]\s)Of\s(?:the|its|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s$")
_PART_AFTER_ITS_WHOLE = re.compile(
    r"[^.;]{0,60}?,\s(?:(?:only|just|some|about|around|roughly|nearly)\s)?(?=\d)"
)
#: A part's number, never a percentage ("of which 40% were").
_PART_NUMBER = re.compile(
    r"(?:\d+(?:\.\d+)?\s?(?:million|thousand|m|k)(?=\s)|\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]*\s?(?:%|per\s?cent|percent))"
)
#: The rest of a part's clause: what the part is ("were battery-electric", "fully electric models"),
#: up to a clause of another part ("and 1,700 were net-zero-ready").
_CLAUSE_REST = re.compile(r"(?:(?!\s(?:and|but|while|whereas)\s)(?:[^,;.]|(?<=\d)[,.](?=\d)))*")
#: Words with digits ("end-2023", "FY2023"): when, never what.
_WITH_DIGITS = re.compile(r"[\w-]*\d[\w-]*")
#: The verb that says what a part is: "were", "was", "are", "had".
_VERB = re.compile(r"\b(?:were|was|are|is|had|have|has)\b")
#: Words of when, which say nothing of what a part is ("at the end of 2023").
WHEN_STEMS = subject_stems("end close year month quarter")
#: Words a part or a whole may be called besides the claim's: "640 electric models", "fully
#: electric", "the 1,030 buses in its fleet".
_ANY_PART = subject_stems("models units ones fully")
_ANY_WHOLE = (
    subject_stems(
        "fleet portfolio estate network operations group including included includes roles employed counted "
        "worldwide global total overall"
    )
    | WHEN_STEMS
)


def _names(about: frozenset[str] | None, words: str) -> bool:
    """Whether `words` name something of the claim whose subject words are `about` (None: no claim)."""
    return about is None or bool(subject_stems(words) & about)


def _percent(value: float) -> str:
    return f"{value:.1f}%".replace(".0%", "%")
