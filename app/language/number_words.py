"""Figures written in words, rewritten as the digits a figure reader reads: "forty per cent" is
"40 per cent", "cut by a third" is "cut by about 33.3%", "doubled" is "rose 100%", "flat on 2021"
is "changed by 0% on 2021", and "four of the ten seats" is "40% of the seats".

Only figures are rewritten: a number word before a percentage or a scale ("sixteen million"), a
fraction or multiple of a change, a fraction as a share ("nearly two-thirds of", "one in ten"),
the whole as a share in a source's sentence ("all of the electricity" is "100% of the
electricity", "ran entirely on renewable electricity" ran on 100% of it), and a count out of a
whole. Other number words ("one of the largest", "three dairy plants") are left as written, since
reading them as counts would compare things no one counted.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

_UNITS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
}  # fmt: skip
NUMBER_WORD = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(w for w in _UNITS if _UNITS[w] < 10)}))?"
    rf"|{'|'.join(sorted(_UNITS, key=len, reverse=True))})"
)
_PERCENT_IN_WORDS = re.compile(rf"\b(?P<n>{NUMBER_WORD})(?=\s(?:per\s?cent|percent)\b)", _I)
_FRACTIONS = {
    "half": 50.0, "a half": 50.0, "one half": 50.0, "a third": 33.3, "one third": 33.3,
    "two thirds": 66.7, "a quarter": 25.0, "one quarter": 25.0, "three quarters": 75.0,
    "a fifth": 20.0, "one fifth": 20.0, "two fifths": 40.0, "three fifths": 60.0, "four fifths": 80.0,
    "a tenth": 10.0, "one tenth": 10.0, "three tenths": 30.0, "seven tenths": 70.0, "nine tenths": 90.0,
    "a sixth": 16.7, "one sixth": 16.7, "five sixths": 83.3, "an eighth": 12.5, "one eighth": 12.5,
    "three eighths": 37.5, "five eighths": 62.5, "seven eighths": 87.5,
}  # fmt: skip
#: A fraction as written: "two-thirds", "two thirds", "one-fifth".
_FRACTION = "|".join(
    sorted((re.escape(f).replace(r"\ ", r"[\s-]") for f in _FRACTIONS), key=len, reverse=True)
)
#: Hedges a share or change in words may carry, kept in front of its digits.
_WORD_HEDGE = (
    r"(?:(?:only\s|just\s)?(?:about|around|roughly|nearly|almost|some|approximately|close\sto|more\sthan|over|"
    r"less\sthan|fewer\sthan|under|just\sover|just\sunder)\s)"
)
#: A change by a fraction: "cut by a third", "by two-thirds", "by half".
_CHANGE_BY_FRACTION = re.compile(rf"\bby\s{_WORD_HEDGE}?(?P<f>{_FRACTION})\b", _I)
#: A share in words: "nearly two-thirds of the electricity", "a quarter less food", "one in ten cars".
_SHARE_FRACTION = re.compile(
    rf"(?<![\w-])(?P<hedge>{_WORD_HEDGE})?(?P<f>{_FRACTION})(?=\s(?:of|less|fewer|more|lower|higher)\b)", _I
)
#: A unit a share in words may count in: "one tonne in eight", "nine in ten square metres".
_UNIT_WORDS = r"(?:square\s|cubic\s)?(?:tonnes?|tons?|lit(?:re|er)s?|met(?:re|er)s?|(?:kilo|mega)watt-hours?)"
_A_UNIT = re.compile(_UNIT_WORDS, _I)
_ONE_IN = re.compile(
    # in digits only "in every": "45 in every 100 roles", "1.5 in every 100" (not "12 in 2023", nor the
    # end of a range: "between 40 and 45 in every 100")
    rf"(?<![\w.,-])(?<!\d\sand\s)(?<!\d\sto\s)(?<!\d\sor\s)(?P<hedge>{_WORD_HEDGE})?"
    rf"(?P<part>one|{NUMBER_WORD}|\d{{1,3}}(?:\.\d+)?(?=\sin\severy\s))\s"
    r"(?:(?P<what>[a-z]+(?:\s[a-z]+)?)\s)?"
    rf"in\s(?:every\s)?(?P<n>{NUMBER_WORD}|(?:a\s)?(?:hundred|thousand)|"
    r"\d{1,3}(?:,\d{3})+|(?!(?:19|20)\d\d\b)\d{1,4})\b(?![.,]\d)"
    # the unit counted, before what it is a share of: "one in ten tonnes of its waste"
    rf"(?:\s{_UNIT_WORDS}(?=\sof\b))?(?:\sof\b)?",
    _I,
)
#: The whole of something as a share: "all of the electricity", "all of Acme's palm oil".
_ALL_OF = re.compile(
    r"\b(?P<all>all|every\sone|each\sone)\sof\s(?=(?:the|its|their|[A-Z][\w-]*(?:\s[A-Z][\w-]*)*['’]s?)\s)",
    _I,
)
#: The whole of what something ran on or came from: "ran entirely on renewable electricity" is "ran
#: on 100% renewable electricity".
_ENTIRELY = re.compile(
    r"\b(?:entirely|wholly|exclusively|solely|completely|fully)\s(?P<prep>on|from|by|with)\s(?=[a-z])", _I
)
#: All of a counted whole: "all 23 of our sites" (a claim stating a count states a figure anyway).
_ALL_N_OF = re.compile(
    rf"\ball\s(?:{NUMBER_WORD}|\d+)\sof\s(?=(?:the|its|their|our|[A-Z][\w-]*(?:\s[A-Z][\w-]*)*['’]s?)\s)", _I
)
#: Half a percentage point of a share: "half a percent", "half of one per cent".
_HALF_A_PERCENT = re.compile(r"\bhalf\s(?:a|of\sone)\s(?:per\s?cent|percent)\b", _I)
#: Half a scale: "half a million tonnes" is 0.5 million tonnes.
_HALF_A = re.compile(r"\bhalf\sa\s(?=(?:million|billion)\b)", _I)
#: A fraction of a scale: "three quarters of a billion euros" is 0.75 billion euros.
_FRACTION_OF_A_SCALE = re.compile(rf"(?<![\w-])(?P<f>{_FRACTION})\sof\san?\s(?=(?:million|billion)\b)", _I)
#: A scale or currency joined to its number by hyphens, as an adjective: "a 750-million-euro bond",
#: "a $2-billion loan".
_HYPHENATED_SCALE = re.compile(
    r"(?<=\d)-(?=(?:thousand|million|billion)\b)|(?<=illion)-(?=(?:euro|dollar|pound|franc|krona|krone)s?\b)",
    _I,
)
#: A count in words with a scale or unit: "sixteen million tonnes", "two thousand hectares".
_SCALED_IN_WORDS = re.compile(rf"\b(?P<n>{NUMBER_WORD})(?=\s(?:thousand|million|billion)\b)", _I)
#: No change against a baseline: "flat on 2021", "unchanged from the previous year", "stable
#: year on year", "flat in 2022" (over that year) are a change of 0%, which another change amount
#: of the same quantity contradicts.
_NO_CHANGE = re.compile(
    r"\b(?:(?:remained|stayed|held|was|were|broadly|essentially|virtually|largely|roughly)\s)?"
    r"(?:flat|unchanged|stable)\s(?=(?:on|from|against|versus|vs\.?|compared\s(?:with|to))\s"
    r"(?:the\s(?:previous|prior)\syear|last\syear|a\syear\s(?:earlier|before)|(?:FY\s?|fiscal\s)?(?:19|20)\d\d)\b"
    r"|year[\s-]on[\s-]year\b|in\s(?:FY\s?|fiscal\s)?(?:19|20)\d\d\b)",
    _I,
)
_MULTIPLES = {"doubled": ("rose", 100), "tripled": ("rose", 200), "trebled": ("rose", 200),
              "quadrupled": ("rose", 300), "halved": ("fell", 50)}  # fmt: skip
_MULTIPLE = re.compile(rf"\b(?P<more>more\sthan\s)?(?P<word>{'|'.join(_MULTIPLES)})\b", _I)
#: A count out of a whole: "four of the ten seats", "two of Acme's eleven directors".
_OUT_OF = re.compile(
    rf"(?<!\bevery\s)(?<!\beach\s)(?<![\d,.])\b(?P<part>{NUMBER_WORD}|\d+)\s"
    # "two thirds of the 58,000 tonnes" is a fraction of a figure, not two things of 58,000
    r"(?:(?!(?:halves|thirds|quarters|fifths|sixths|sevenths|eighths|ninths|tenths)\b)(?P<what>[a-z]+)\s)?"
    r"(?:of|among)\s"
    rf"(?P<owner>(?:the|its|their|our|[A-Z][\w-]*(?:\s[A-Z][\w-]*)*['’]s?)\s)"
    # thousands ("3,000 of its 12,000 employees") stay counts: the whole's count is a fact of its own
    # a year before what is counted is the year's ("one in 11 tonnes of its 2023 raw materials")
    rf"(?P<whole>{NUMBER_WORD}|(?!(?:19|20)\d\d\b)\d+)(?![\d,])\s"
    # up to two describing words: "38 women among its 100 hotel general managers"
    r"(?P<kind>(?:[a-z]+\s){1,2})?(?P<noun>[a-z]+s)\b",
    _I,
)


#: An amount out of a whole in the same unit, and what the whole is of: "9,800 tonnes of its 41,000
#: tonnes of waste".
_AMOUNT_OF_WHOLE = re.compile(
    r"(?<![\w.,])(?P<part>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s(?P<unit>[A-Za-z]+)\sof\s"
    r"(?P<owner>its|the|their|our|a\stotal\sof)\s"
    r"(?P<whole>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s(?P=unit)\sof\s"
)


#: Dozens: "half a dozen sites" are 6, "two dozen resorts" 24.
_DOZEN = re.compile(rf"\b(?:(?P<half>half\sa)|(?P<n>a|{NUMBER_WORD}))\sdozen\b", _I)


#: Hundreds in words: "four hundred and twenty" is 420, "two hundred" 200.
_HUNDREDS = re.compile(
    rf"(?<![\w-])(?P<n>{'|'.join(w for w in _UNITS if _UNITS[w] < 10)})\shundred\b"
    # "two hundred and three hundred jobs" are two numbers
    rf"(?:\s(?:and\s)?(?P<rest>{NUMBER_WORD})\b(?!\shundred\b))?",
    _I,
)


_DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
#: A decimal said in words: "three point one million tonnes" is 3.1 million, not one million.
_POINT_DECIMAL = re.compile(
    rf"\b(?P<whole>{NUMBER_WORD}|zero|\d+)\spoint\s(?P<digits>(?:{'|'.join(_DIGIT_WORDS)})"
    rf"(?:\s(?:{'|'.join(_DIGIT_WORDS)}))*)\b",
    _I,
)


def number_value(word: str) -> int | None:
    """The value of a number written in words ("forty-five" -> 45) or digits; None otherwise."""
    text = word.lower().replace("-", " ").split()
    if len(text) == 1 and re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", text[0]):
        return int(text[0].replace(",", ""))
    total = 0
    for part in text:
        if part in _TENS:
            total += _TENS[part]
        elif part in _UNITS:
            total += _UNITS[part]
        else:
            return None
    return total or None


def figures_in_digits(text: str, *, whole_as_share: bool = False) -> str:
    """`text` with its figures in words rewritten in digits (see the module docstring);
    `whole_as_share` also reads "all of the X" as "100% of the X", for a source's sentence: a claim
    saying "all of its boilers" states a fact, not a figure to be found again."""
    text = _HUNDREDS.sub(_hundreds, text)
    text = _POINT_DECIMAL.sub(_point_decimal, text)
    text = _DOZEN.sub(_dozens, text)
    # an amount of a whole in a unit first: "9,800 tonnes of its 41,000 tonnes" counts no tonnes
    text = _AMOUNT_OF_WHOLE.sub(_amount_share, text)
    text = _OUT_OF.sub(_share, text)
    # before "one per cent" becomes "1 per cent": "half of one per cent" is 0.5%, not half of 1%
    text = _HALF_A_PERCENT.sub("0.5%", text)
    text = _PERCENT_IN_WORDS.sub(lambda match: str(number_value(match["n"])), text)
    text = _SCALED_IN_WORDS.sub(lambda match: str(number_value(match["n"])), text)
    text = _HALF_A.sub("0.5 ", text)
    text = _FRACTION_OF_A_SCALE.sub(lambda match: f"{_fraction_value(match['f']) / 100:g} ", text)
    text = _HYPHENATED_SCALE.sub(" ", text)
    text = _CHANGE_BY_FRACTION.sub(_fraction, text)
    text = _SHARE_FRACTION.sub(_share_fraction, text)
    text = _ONE_IN.sub(_one_in, text)
    text = _ALL_N_OF.sub("100% of ", text)
    if whole_as_share:
        text = _ALL_OF.sub("100% of ", text)
        # "powered entirely by" is a share, never a change "by 100%"
        text = _ENTIRELY.sub(lambda match: f"{'on' if match['prep'] == 'by' else match['prep']} 100% ", text)
    text = _NO_CHANGE.sub("changed by 0% ", text)
    return _MULTIPLE.sub(_multiple, text)


def _fraction(match: re.Match[str]) -> str:
    """ "by a third" -> "by about 33.3%" (a fraction is a round figure), keeping a hedge ("by more than
    half" -> "by more than 50%")."""
    lead = match.group(0)[: match.start("f") - match.start()]
    hedge = "" if lead.strip().lower() != "by" else "about "
    return lead + hedge + _percent(_fraction_value(match["f"]))


def _fraction_value(written: str) -> float:
    return _FRACTIONS[re.sub(r"[\s-]+", " ", written.lower())]


def _share_fraction(match: re.Match[str]) -> str:
    """ "nearly two-thirds of" -> "nearly 66.7% of", "a quarter less" -> "about 25% less": a
    fraction is a round figure, so one without a hedge is read as about that much."""
    return f"{match['hedge'] or 'about '}{_percent(_fraction_value(match['f']))}"


_A_ROUND_WHOLE = {"a hundred": 100, "a thousand": 1000, "hundred": 100, "thousand": 1000}


def _one_in(match: re.Match[str]) -> str:
    """ "one in ten cars" -> "about 10% of cars", "nine in ten square metres of office space" ->
    "about 90% of office space", "fewer than one litre in every thousand of" -> "fewer than 0.1% of"."""
    whole = _A_ROUND_WHOLE.get(match["n"].lower()) or number_value(match["n"]) or _in_digits(match["n"])
    part = 1 if match["part"].lower() == "one" else number_value(match["part"]) or _in_digits(match["part"])
    if not whole or not part or part >= whole:
        return match.group(0)
    # "one litre in every thousand of the fuel": the unit counted says nothing of what it is a share of,
    # and with no "of" after it nothing is ("one tonne in eight was hazardous")
    of = " of"
    if match["what"] and not match.group(0).endswith(" of"):
        of = "" if _A_UNIT.fullmatch(match["what"]) else f" of {match['what']}"
    share = 100 * part / whole
    # "3 in every 10,000" is 0.03%, not 0.0%
    rounded = round(share, 1) if share >= 1 else float(f"{share:.2g}")
    return f"{match['hedge'] or 'about '}{_percent(rounded)}{of}"


def _in_digits(written: str) -> float | None:
    """ "1.5" -> 1.5, "10,000" -> 10000.0; None for words."""
    try:
        return float(written.replace(",", ""))
    except ValueError:
        return None


def _share(match: re.Match[str]) -> str:
    """ "four of the ten seats" -> "40% of the seats"; "three women among its 11 directors" ->
    "27.3% of its directors women" (a count of some of the whole's things)."""
    part, whole = number_value(match["part"]), number_value(match["whole"])
    if part is None or whole is None or not 0 < part <= whole:
        return match.group(0)
    what = f" {match['what']}" if match["what"] else ""
    kind = match["kind"] or ""
    return f"{_percent(100 * part / whole)} of {match['owner']}{kind}{match['noun']}{what}"


def _hundreds(match: re.Match[str]) -> str:
    """ "four hundred and twenty" -> "420"."""
    rest = number_value(match["rest"]) if match["rest"] else 0
    hundreds = number_value(match["n"])
    return match.group(0) if hundreds is None or rest is None else str(100 * hundreds + rest)


def _point_decimal(match: re.Match[str]) -> str:
    whole = 0 if match["whole"].lower() == "zero" else number_value(match["whole"])
    if whole is None:
        return match.group(0)
    digits = "".join(str(_DIGIT_WORDS.index(word.lower())) for word in match["digits"].split())
    return f"{whole}.{digits}"


def _dozens(match: re.Match[str]) -> str:
    if match["half"]:
        return "6"
    count = 1 if match["n"].lower() == "a" else number_value(match["n"])
    return match.group(0) if count is None else str(12 * count)


def _amount_share(match: re.Match[str]) -> str:
    """ "9,800 tonnes of its 41,000 tonnes of waste" -> "23.9% of its waste": a part of a whole
    stated in one unit is a share of it."""
    part, whole = float(match["part"].replace(",", "")), float(match["whole"].replace(",", ""))
    if not 0 < part <= whole:
        return match.group(0)
    owner = "" if match["owner"].lower() == "a total of" else f"{match['owner']} "
    return f"{_percent(round(100 * part / whole, 1))} of {owner}"


def _multiple(match: re.Match[str]) -> str:
    verb, amount = _MULTIPLES[match["word"].lower()]
    return f"{verb} {match['more'] or ''}{amount}%"


def _percent(value: float) -> str:
    if value == int(value):
        return f"{int(value)}%"
    return f"{value:g}%" if value < 1 else f"{value:.1f}%"
