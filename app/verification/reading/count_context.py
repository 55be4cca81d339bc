"""Whether a count in a source sentence is a count of the claim's things over the claim's stretch.

A count names its things by a noun and a few describing words ("312 battery-electric buses"); the
rest of what it counts is said around it, and a news sentence often gives several counts at once:
"sold 2.1m bikes in 2024, of which 400k were electric", "had 3m customers, 1.2m of them on green
tariffs", "sold 2.1 million handsets and refurbished 300,000 of them". What is said after another
number belongs to that number, so a word the claim says of its count ("electric", "green tariffs",
"refurbished") that the source says only of another number tells the source's count apart from the
claim's. A count also has a stretch: a year's total is not a count at each site, nor one over all
the years since 2015, nor a rival's, nor one in a single country the claim does not name.
"""

from __future__ import annotations

import re

from app.language.figures import Stated
from app.language.number_words import NUMBER_WORD
from app.language.years import stated_year
from app.verification.reading.figure_clauses import blanked, clause_span_at
from app.verification.reading.figures import Count
from app.verification.reading.places import places_meet
from app.verification.reading.statements import stem, subject_stems

_I = re.IGNORECASE

#: A number as written in a news sentence: digits ("400k", "1,200"), number words, fractions ("a
#: quarter of them"); not years. "one" is left out: "no one", "one of its sites" say no number of
#: things.
_ANY_NUMBER = re.compile(
    rf"(?<![\w.,])(?!(?:19|20)\d\d\b)\d[\d,.]*|"
    rf"\b(?!one\b)(?:{NUMBER_WORD}|half|quarter|third|fifth|tenth)s?\b",
    _I,
)


def _clause(text: str, count: Stated) -> str:
    begin, end = clause_span_at(text, count.start, count.end)
    return text[begin:end]


def without_other_numbers(sentence: str, count: Stated, parts_only: bool = False) -> str:
    """`sentence` with what is said of every other number blanked out: a later number's clause, and
    an earlier one's from the number on (what comes before it, such as the verb of a list of counts,
    may be said of the count too). In "sold 2.1m bikes in 2024, of which 400k were electric",
    "electric" is said of the 400k, not of the 2.1m bikes; in "sold 2.1 million handsets and
    refurbished 300,000 of them" the refurbishing is said of the 300,000; in "collected 40m bottles
    and 12m cans" the collecting is said of both. With `parts_only`, only what is said of a part of
    the things counted ("of which", "of them", "including") is blanked."""
    for number in _ANY_NUMBER.finditer(sentence):
        if count.start <= number.start() < count.end:
            continue
        start, stop = clause_span_at(sentence, number.start(), number.end())
        if number.start() > count.start and start < count.end:
            # one clause holds both: from the words that make the later number a part ("including
            # 40,000 small businesses"), else from the number
            marker = _A_PART_BEFORE_NUMBER.search(sentence, count.end, number.start())
            start = marker.start() if marker else number.start()
        elif number.start() > count.start:
            start = max(start, count.end)
        else:
            start, stop = number.start(), min(stop, count.start)
        if parts_only and (
            number.start() < count.start or not _A_PART.search(sentence, max(0, start - 12), stop)
        ):
            continue
        sentence = blanked(sentence, start, stop)
    return sentence


#: Words saying that a number counts some of the things counted beside it: "of which 400k were
#: electric", "1.2m of them", "including 2.1m in 2024", "12k vans included 1,200 electric ones".
_A_PART = re.compile(r"\bof\s(?:which|them|these|those|it)\b|\binclud(?:ing|ed|es)\b|\bamong\sthem\b", _I)


#: Words right before a later number that make it a part: "including 40,000", "of which 400k".
_A_PART_BEFORE_NUMBER = re.compile(r"\b(?:includ(?:ing|ed|es)|of\swhich|among\sthem)\s(?:[\w-]+\s){0,2}$", _I)


def said_of_another_number(claim: str, mine: Count, sentence: str, theirs: Count, company: str) -> bool:
    """Whether a word the claim says of its count, in the count's clause, is in the source only where
    it is said of a part of the things counted ("electric" in "of which 400k were electric", against
    "2.1 million electric bikes"): then the source's count is of more than the claim's things."""
    mine_words = _stems(_what_it_says_of_its_count(claim, mine), company) - {stem(mine.noun)}
    everywhere = _stems(sentence, company)
    kept = _stems(without_other_numbers(sentence, theirs, parts_only=True), company)
    return bool(mine_words & everywhere - kept)


def _what_it_says_of_its_count(claim: str, mine: Count) -> str:
    """The words a claim says of its count itself: its describing words, the verb right before it,
    and a phrase of what the things have or are on ("2.1 million electric bikes", "refurbished 2.1
    million handsets", "3 million customers on green tariffs"); not where they went ("to customers")."""
    verb = re.search(r"([\w-]+)\s$", claim[: mine.start])
    attribute = _ATTRIBUTE_AFTER.match(claim, mine.end)
    return " ".join((*mine.kind, verb.group(1) if verb else "", attribute.group() if attribute else ""))


#: A phrase after things counted saying what they have or are on: "on green tariffs", "with solar
#: panels", "under contract".
_ATTRIBUTE_AFTER = re.compile(r"\s(?:on|with|under|using|running\son)\s(?:[\w-]+\s?){1,3}", _I)


def narrowed_beyond_the_claim(claim: str, sentence: str, theirs: Count, company: str) -> bool:
    """Whether the source narrows its count by what the claim does not say: "2.3m passengers on flights
    using sustainable aviation fuel", "1.2m customers with renewable electricity", "600k bikes
    through its own website" count some of the claim's things, so another value is no other value
    for the claim's count."""
    end = clause_span_at(sentence, theirs.start, theirs.end)[1]
    narrowing = _NARROWING.search(sentence, theirs.end, end)
    if narrowing is None:
        return False
    return bool(_stems(narrowing.group("what"), company) - _stems(claim, company))


#: A phrase after things counted that keeps some of them: "using …", "with renewable …", "through its
#: own website", "via its app".
_NARROWING = re.compile(
    r"\b(?:using|with|through|via|fitted\swith|on(?=\s(?:[\w-]+\s){0,2}contracts\b))\s(?P<what>(?:[\w-]+\s?){1,4})",
    _I,
)


def counted_over_the_same_span(claim: str, mine: Count, sentence: str, theirs: Count) -> bool:
    """Whether two counts are of the same stretch: the same year where both name one, and at each
    site or neither, over the years to a date or neither ("40,000 trees at each of our 12 sites" is
    not 40,000 in all; "12m trees since 2015" and "between 2020 and 2024" are not a year's
    planting)."""
    mine_year, their_year = stated_year(claim, mine), stated_year(sentence, theirs)
    if mine_year is not None and their_year is not None and mine_year != their_year:
        return False
    return _at_each(claim, mine) == _at_each(sentence, theirs) and over_years(claim, mine) == over_years(
        sentence, theirs
    )


def _at_each(text: str, count: Stated) -> bool:
    """Whether the count is one at each of several places or for a period shorter than a year ("at
    each of our 12 sites", "each of our 12 stores collected …", "40k meals a day", "per store", "an
    average of 300"); "each of its 11 plants" counts the plants, and "who each completed", "150 kW
    each" or "50 pounds apiece" say something of each thing counted."""
    begin, end = clause_span_at(text, count.start, count.end)
    # the subject before the count, or right after the things counted ("… at each of its 12 sites")
    at_each_place = any(
        match.end() <= count.start or _RIGHT_AFTER.fullmatch(text, count.end, match.start())
        for match in _EACH_PLACE.finditer(text, begin, end)
        if not match.start() <= count.start < match.end()
    )
    return bool(
        at_each_place
        or _AVERAGE_BEFORE.search(text, begin, count.start)
        or _PER_AFTER.match(text, count.end, end)
    )


#: Between the things counted and a place they are at each of: " at ", " across its new ".
_RIGHT_AFTER = re.compile(r"\s(?:[a-z-]+\s){0,4}?(?:at|for|per|across|to|in)\s", _I)


#: Places a count may be at each of: "each of our 12 stores", "at every site", "each Brackenfold store".
_PLACES = (
    r"(?:sites?|stores?|shops?|plants?|factor(?:y|ies)|schools?|farms?|hotels?|parks?|mines?|depots?|"
    r"branch(?:es)?|offices?|locations?|facilit(?:y|ies)|outlets?|restaurants?|estates?|forests?|"
    r"propert(?:y|ies)|resorts?|mills?|warehouses?|airports?|ports?|stations?)"
)
_EACH_PLACE = re.compile(
    r"\b(?:each|every)\s(?:one\s)?(?:of\s(?:its|our|their|the|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s)?"
    rf"(?:[\d,]+\s)?(?:(?:[A-Z][\w&-]*|[a-z-]+)\s)?{_PLACES}\b",
    _I,
)
#: A period or a place right after the things counted: "40k meals a day", "12 sensors per vehicle".
_PER_AFTER = re.compile(
    rf"\s(?:[a-z-]+\s){{0,2}}?(?:a|per|each)\s(?:day|week|month|{_PLACES}|vehicles?|trucks?|ships?|vessels?)\b"
    r"(?!\s(?:ahead|early|earlier|late|later|before|after|behind))",
    _I,
)
#: A count stated as an average: "an average of 300 buses", "on average 40 trainees".
_AVERAGE_BEFORE = re.compile(r"\b(?:an\saverage\sof|on\saverage)\s(?:about\s|around\s|some\s)?$", _I)


def over_years(text: str, count: Stated) -> bool:
    """Whether a count or an amount is one over several years ("has planted 12m trees since 2015", "to date"):
    said in its clause, and not a record set against those
    years ("its biggest programme since 2015", "its largest order to date") nor something else's age
    ("a scheme running since 2019")."""
    if _A_LEVEL_REACHED.search(text, 0, count.start):
        return False  # "grew from 150 to 420 vans between 2022 and 2024": 420 is the level at the end
    yearly = _EVERY_YEAR.match(text, count.end)
    averaged = yearly and (yearly["average"] or _AVERAGED.search(text, 0, count.start))
    if yearly and not averaged and not _AVERAGE_BEFORE.search(text, 0, count.start):
        return False  # "held at 2.3 Mt a year from 2020 to 2024" is each year's, the last one's too
    clause = _clause(text, count)
    return any(
        not _RECORD_BEFORE.search(clause, 0, match.start())
        and not _SOMETHING_ELSE_BEFORE.search(clause, 0, match.start())
        for match in _OVER_YEARS.finditer(clause)
    )


#: A level a count or an amount reached, right before it: "from 150 to 420", "rose to 420", "fell to",
#: "cut its emissions to", "to cover 48,000", "stood at".
_A_LEVEL_REACHED = re.compile(
    r"\b(?:to|reached|stood\sat|stands\sat|to\s(?:cover|reach|total|stand\sat))\s"
    r"(?:(?:about|around|some|roughly|nearly|almost|just)\s)?$",
    _I,
)
#: A rate right after an amount ("2.3 Mt a year"), and whether it is an average of the years.
_EVERY_YEAR = re.compile(
    r"\s(?:[\w-]+\s){0,4}?(?:(?:a|per)\syear|annually)\b(?P<average>,?\son\saverage\b)?", _I
)
#: Before a yearly amount, that it is an average of the years: "averaged 2.3 Mt a year", "a mean of".
_AVERAGED = re.compile(r"\b(?:averag\w*|mean)\b", _I)
#: Another thing's span, right before "since": "a scheme running since 2019", "in place since".
_SOMETHING_ELSE_BEFORE = re.compile(r"\b(?:running|operating|open|in\splace|active|existed|launched)\s$", _I)


#: A record a count is said to set, right before "since" or "to date": "its biggest order".
_RECORD_BEFORE = re.compile(r"\b(?:[a-z]+est|most|first|highest|lowest)\s(?:[\w-]+\s){0,3}$", _I)


#: A count over several years: "since 2015", "to date", "between 2020 and 2024", "from 2022 to 2024".
_OVER_YEARS = re.compile(
    r"\bsince\s(?:(?:19|20)\d\d|its|the|launch)\b|(?<!up\s)\bto\sdate\b|\bcumulative(?:ly)?\b|\bso\sfar\b|"
    r"\bbetween\s(?:19|20)\d\d\sand\s(?:19|20)\d\d\b|\bfrom\s(?:19|20)\d\d\sto\s(?:19|20)\d\d\b|"
    r"\bover\sthe\s(?:past|last)\s(?:\w+\s)?years\b|\bin\sthe\s(?:\w+\s)?years\s(?:to|through|up\sto)\s(?:19|20)\d\d\b|"
    r"\bover\s(?:19|20)\d\d\s?[-\u2013]\s?(?:19|20)?\d\d\b",
    _I,
)


def names_a_span_of_years(text: str) -> bool:
    """Whether the text names a span of several years anywhere ("since 2019", "between 2019 and 2022")."""
    return _OVER_YEARS.search(text) is not None


def of_a_part_the_claim_does_not_name(claim: str, sentence: str, theirs: Count, company: str) -> bool:
    """Whether the source says its count of a place ("planted 12m trees in Brazil") that the claim
    does not name, or of one site ("its flagship park welcomed 1.2m visitors"): a country's or a
    site's count is a part of the company's, or another's."""
    if _A_PART_BEFORE.search(sentence, 0, theirs.start):
        return False  # "3,000 of its 12,000 employees were based in Poland": the place is the part's
    begin, end = clause_span_at(sentence, theirs.start, theirs.end)
    one_site = next(
        (
            site
            for site in _ONE_SITE.finditer(sentence, begin, end)
            if site.end() <= theirs.start or _RIGHT_AFTER.fullmatch(sentence, theirs.end, site.start())
        ),
        None,
    )
    return not places_meet(claim, sentence[begin:end], company) or bool(
        one_site and one_site["site"].lower() not in claim.lower()
    )


#: One site of several, named by its rank: "its flagship park", "Glimmer's largest store".
_ONE_SITE = re.compile(
    r"(?:\b(?:its|the|their|our)|['’]s?)\s(?P<site>(?:flagship|largest|biggest|main|newest|oldest|busiest)"
    r"\s(?:[a-z-]+\s)?(?:park|site|store|shop|plant|factory|mine|hotel|resort|farm|depot|branch|office|mill|"
    r"port|airport|terminal|hub|warehouse|campus|brewery|refinery|smelter|centre|center))\b(?!['’])"
)


#: A part's number right before the count of its whole: "Some 3,000 of Tollgate's 12,000 employees".
_A_PART_BEFORE = re.compile(
    rf"(?:\d[\d,.]*(?:\s?(?:million|m|k))?|\b(?i:{NUMBER_WORD}))\sof\s"
    r"(?:its|their|our|the|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s$"
)


def _stems(text: str, company: str) -> frozenset[str]:
    """The subject stems of `text`, each part of a compound on its own ("green-tariff")."""
    return subject_stems(text.replace("-", " "), company)
