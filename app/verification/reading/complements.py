"""Shares of a whole stated by their complement: "100% of the electricity at our sites was renewable"
against "the sites still drew about 30% of their electricity from fossil sources", "we recycled 62% of
our waste" against "55% of its waste went to landfill or incineration".

A claim's share and a source's share of the other side of the same whole cannot both hold when the
two add up to more than the whole (62% recycled and 55% landfilled is 117%), and a claim of all of it
cannot hold beside any part of the other side ("still drew part of their electricity from gas-fired
supply"). Less than the whole proves nothing (the rest may be neither side: nuclear power, waste
sent for energy recovery), so such complements only contradict. Where nothing lies between the two
sides (`EXACT_COMPLEMENTS`: waste kept out of landfill and waste sent to it), two shares of one named
whole that make it up support each other: "9% of its waste went to landfill" supports "91% of its
waste diverted from landfill". The two shares must be of the same
whole (`figure_subjects`: the same base, the same boundaries) and of the same year, and each side
must name one side only. Shares of the two sides are never compared as one share (`other_sides`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.figures import Figure, parse_figures
from app.language.years import stated_year
from app.verification.reading.change_mood import intended
from app.verification.reading.denials import negated
from app.verification.reading.figure_subjects import percent_measure, places_within, same_boundaries

_I = re.IGNORECASE

#: Pairs of complementary sides of a whole, each as the words that name it.
COMPLEMENTS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(
            r"\brenewabl\w*|\bclean\s(?:energy|electricity|power)\b|\bzero[\s-]carbon\b|\bhydro\w*|"
            r"\bsolar\b|\bwind\s(?:power|farms?|turbines?|energy)\b",
            _I,
        ),
        re.compile(r"\bfossil\b|\bnon-renewable\b|\bcoal\b|\bgas[\s-]fired\b|\bdiesel\b", _I),
    ),
    (
        re.compile(r"\brecycl\w*|\bdivert\w*|\bavoided\slandfill\b|\bkept\sout\sof\slandfill\b", _I),
        re.compile(
            r"\b(?:to|in|into)\s(?:landfill|incineration)\b|\blandfilled\b|\bincinerated\b|\bdisposed\sof\b",
            _I,
        ),
    ),
)
#: Sides of a whole with nothing between them: waste kept out of landfill, however it was treated,
#: and waste sent to landfill. Their shares add up to the whole, so each states the other.
EXACT_COMPLEMENTS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"\bfrom\slandfill\b|\bavoided\slandfill\b|\bout\sof\slandfill\b", _I),
        re.compile(r"\b(?:to|in|into)\slandfill\b|\blandfilled\b", _I),
    ),
    # what is certified and what is not ("timber from certified forests", "logs from uncertified
    # concessions")
    (
        re.compile(r"(?<!\w)(?<!non-)certified\b", _I),
        re.compile(r"\b(?:un|non-?)certified\b|\bwithout\s(?:\w+\s)?certification\b", _I),
    ),
)
#: How far past the whole two shares may add up, for the rounding of both.
TOLERANCE = 2.0
#: Some of the other side, in words: "part of their electricity", "partly from coal".
_SOME = re.compile(
    r"\b(?:part|some|a\s(?:share|portion|fraction)|much|most)\sof\b|\bpartly\b|\bpartially\b", _I
)


@dataclass(frozen=True)
class ComplementConflict:
    """The claim's share and the source's share of the other side, which add up past the whole (no
    source figure: some of the other side against all of the claim's)."""

    mine: Figure
    theirs: Figure | None

    def explanation(self) -> str:
        if self.theirs is None:
            return (
                f"The source puts part of the same whole on the other side, where the claim's "
                f"{self.mine.text} leaves none."
            )
        return (
            f"The source's {self.theirs.text} on the other side of the same whole and the claim's "
            f"{self.mine.text} add up to more than all of it."
        )


def complement_conflict(claim: str, sentence: str, company: str = "") -> ComplementConflict | None:
    """The claim's share and the sentence's share of the complementary side of the same whole when
    the two add up to more than it (see the module docstring); None otherwise."""
    if _on_other_sides(claim, sentence, company, COMPLEMENTS + EXACT_COMPLEMENTS):
        return _conflicting_shares(claim, sentence)
    return None


def complement_match(claim: str, sentence: str, company: str = "") -> tuple[Figure, Figure] | None:
    """The claim's share and the sentence's share of the other side of a whole with nothing between
    the sides (`EXACT_COMPLEMENTS`) when the two make up the whole ("diverted 91% of its waste from
    landfill" and "9% of its waste ended up in landfill"), a bound included ("fewer than 5% went to
    landfill" holds 96% diverted); None otherwise."""
    if not _on_other_sides(claim, sentence, company, EXACT_COMPLEMENTS):
        return None
    return next(
        (
            (mine, theirs)
            for mine, theirs in _share_pairs(claim, sentence, bounds=True)
            if _of_one_named_whole(claim, mine, sentence, theirs, company)
            and _asserted(sentence, theirs)
            and _whole(mine, theirs)
        ),
        None,
    )


def _asserted(sentence: str, theirs: Figure) -> bool:
    """Whether the sentence states its share as what happened: not negated ("did not send 9%", "could
    not confirm that 9%…") and not intended ("expects to send 9%")."""
    return not negated(sentence, theirs.start) and not intended(sentence, theirs.start, theirs.end)


def _of_one_named_whole(claim: str, mine: Figure, sentence: str, theirs: Figure, company: str) -> bool:
    """Whether both shares say what they are shares of, in the same words, and the sentence limits
    it to no place or part the claim does not: support needs the same whole, not only no sign of
    another ("its construction waste" is part of "its waste", and so are its waste in Australia and
    its waste excluding tailings)."""
    mine_base = percent_measure(claim, mine.start, mine.end)[1]
    return (
        bool(mine_base)
        and mine_base == percent_measure(sentence, theirs.start, theirs.end)[1]
        and places_within(claim, sentence, company)
        and (_LEAVING_OUT.search(sentence) is None or _LEAVING_OUT.search(claim) is not None)
    )


#: A whole with something left out: "excluding tailings", "not counting waste rock".
_LEAVING_OUT = re.compile(r"\b(?:excluding|not\scounting|except(?:\sfor)?|other\sthan|apart\sfrom)\b", _I)


def _on_other_sides(
    claim: str, sentence: str, company: str, pairs: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
) -> bool:
    """Whether the two name complementary sides of one of `pairs`, each its own only, within the same
    boundaries."""
    return (
        same_boundaries(claim, sentence, company)
        and _same_standards(claim, sentence)
        and _name_other_sides(claim, sentence, pairs)
    )


def _name_other_sides(
    claim: str, sentence: str, pairs: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
) -> bool:
    """Whether the two name complementary sides of one of `pairs`, each its own only."""
    return any(
        _names_only(claim, mine, theirs) and _names_only(sentence, theirs, mine)
        for first, second in pairs
        for mine, theirs in ((first, second), (second, first))
    )


#: A standard or scheme a share may be certified to ("ISO 14001", "FSC").
_STANDARD = re.compile(r"\bISO\s?\d{4,5}\b|\b(?:FSC|PEFC|RSPO|LEED|BREEAM|EMAS|SBTi)\b|\bB\s?Corp\b")


def _same_standards(claim: str, sentence: str) -> bool:
    """Whether the two name no standard, or the same ones: what is uncertified under ISO 45001 is
    not the rest of what is certified to ISO 14001."""
    mine = {" ".join(found.split()) for found in _STANDARD.findall(claim)}
    theirs = {" ".join(found.split()) for found in _STANDARD.findall(sentence)}
    return not mine or not theirs or mine == theirs


def _names_only(text: str, side: re.Pattern[str], other: re.Pattern[str]) -> bool:
    return side.search(text) is not None and other.search(text) is None


def _conflicting_shares(claim: str, sentence: str) -> ComplementConflict | None:
    for mine, theirs in _share_pairs(claim, sentence):
        if abs(mine.base) + abs(theirs.base) > 100.0 + _leeway(mine, theirs):
            return ComplementConflict(mine, theirs)
    for mine in _shares(claim):
        if abs(mine.base) >= 100.0 and not _shares(sentence) and _SOME.search(sentence):
            return ComplementConflict(mine, None)
    return None


def _share_pairs(claim: str, sentence: str, *, bounds: bool = False) -> list[tuple[Figure, Figure]]:
    """The claim's and the sentence's shares of the same base and year (`_shares`)."""
    pairs = []
    for mine in _shares(claim, bounds=bounds):
        mine_base = percent_measure(claim, mine.start, mine.end)[1]
        mine_year = stated_year(claim, mine)
        for theirs in _shares(sentence, bounds=bounds):
            their_base = percent_measure(sentence, theirs.start, theirs.end)[1]
            if mine_base and their_base and not mine_base & their_base:
                continue
            their_year = stated_year(sentence, theirs)
            if mine_year is not None and their_year is not None and mine_year != their_year:
                continue
            pairs.append((mine, theirs))
    return pairs


def _shares(text: str, *, bounds: bool = False) -> list[Figure]:
    """The percentages stated as shares (not changes), each at least as large as written: an upper
    bound ("fewer than 5%") says nothing of how much there is at least, and is left out unless
    `bounds`."""
    return [
        figure
        for figure in parse_figures(text)
        if figure.dimension == "percent"
        and percent_measure(text, figure.start, figure.end)[0] != "change"
        and (bounds or figure.bound != "below")
    ]


def _whole(mine: Figure, theirs: Figure) -> bool:
    """Whether two shares of the two sides make up the whole, within their rounding and bounds."""
    if mine.bound and theirs.bound:
        return False  # two bounds pin nothing down
    # a bound counts as the value it names: "fewer than 5% landfilled" leaves about 95% diverted, and
    # "less than half" says nothing as precise as 60%
    return abs(abs(mine.base) + abs(theirs.base) - 100.0) <= _leeway(mine, theirs)


def _leeway(mine: Figure, theirs: Figure) -> float:
    return TOLERANCE + _slack(mine) + _slack(theirs)


def other_sides(claim: str, sentence: str) -> bool:
    """Whether the two name complementary sides of a whole and neither names the other's: their
    shares are of different things ("96% diverted from landfill", "under 5% ended up in landfill")."""
    return _name_other_sides(claim, sentence, COMPLEMENTS + EXACT_COMPLEMENTS)


def _slack(figure: Figure) -> float:
    """A hedged share ("about 30%") may be a little off."""
    return abs(figure.base) * 0.05 if figure.approximate else 0.0
