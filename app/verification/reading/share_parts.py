"""Which part of its whole a share counts: "64% of its electricity was renewable" counts the
renewable part of the electricity, "30% of its waste was hazardous" the hazardous part of the waste.

Two shares of one whole are one quantity only when they count one part. Women and independent
directors may each make up 40% of a board; "recycled 70% of its waste" is not "70% of its waste was
hazardous". The part is read from the words of the share's clause (`figure_clauses.clause_span`) that
do not name its whole ("of the electricity its stores used"), the company, a period, or a verb that
only links a part to its whole ("made up", "came from", "accounted for"). Paraphrase is the rule in
the press, so two shares count other parts only when each names a part of which the other text says
nothing, in any clause and in any form of the word. A kind of the other's part ("wind" within
"renewable", "coal" within "fossil fuels") is the same share for support, since the press names the
kinds, but no other value for a contradiction, since the rest may be of another kind.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.language.figures import Figure, parse_figures
from app.language.years import MONTH_NAMES
from app.verification.reading.figure_clauses import blanked, clause_span, clause_with_list_span
from app.verification.reading.figure_subjects import base_word, share_base
from app.verification.reading.statements import stem, subject_stems

#: Words that link a part to its whole, say who says it, how much or when, and never which part.
LINKING_STEMS = frozenset(
    stem(word)
    for word in (
        """made make makes making accounted account accounts represented represent represents
        comprised comprise comprises constituted constitute constitutes came come comes reached reach
        stood rose fell increased decreased grew climbed dropped declined amounted equalled supplied
        provided covered sourced met share shares proportion percentage portion part rate level figure
        figures majority said says say reported reports according show shows showed data told stated
        worked against end start beginning close middle half quarter held filled occupied bought buy
        buys purchased used use uses consumed generated sold drew operated owned ran went gone lent
        spent invested allocated paid given awarded granted slipped slid edged inched jumped surged
        plunged crept eased dipped doubled halved contained contain contains cut cuts reduced reduce
        reduces reduction lowered improved improvement declined decline less more lower higher fewer
        greater smaller down up""".split()
    )
) | frozenset(stem(month) for month in MONTH_NAMES)
_WORD = re.compile(r"[A-Za-z]+")
#: A share named before what it is of: "its renewable share of electricity reached 64%".
_SHARE_NOUN = re.compile(r"\b(?:share|proportion|percentage|portion)(?=\sof\s)", re.IGNORECASE)
#: A share told of before, named again: "the true share was nearer 45%", "the share slipped to 11%".
_SHARE_TOLD_BEFORE = re.compile(
    r"\b(?:the|that|this)\s(?:(?:true|actual|real|correct)\s)?(?:share|proportion|percentage|figure|rate|number|level|value|amount)\b"
    r"(?!\sof\b)",
    re.IGNORECASE,
)
#: A whole named before its share: "its electricity was 64% renewable".
_WHOLE_BEFORE = re.compile(
    r"(?P<whole>[a-z]+)\s(?:was|were|is|are)\s(?:about\s|around\s|some\s)?$", re.IGNORECASE
)


#: Verbs that may say which whole is meant ("the electricity its stores used").
_WHOLE_VERB = (
    r"(?:used|bought|purchased|consumed|generated|produced|sold|drawn|poured|operated|owned|employed|"
    r"sourced|procured|burned|handled|held|leased|managed|occupied|shipped|collected|needed|required)"
)
#: What may follow a verb that says which whole is meant: a preposition or the clause's end ("the
#: electricity used across its networks"), not an object, which makes the verb the share's own
#: ("40% of its sites held ISO 14001 certification", "all 80 ships burned heavy fuel oil").
_NO_OBJECT = (
    r"(?=[\s,.;]*$|[,;.]|\s(?:in|at|on|across|from|for|by|during|through|over|under|within|worldwide|"
    r"globally|last|this|that|which|and|or|per|each|was|were|is|are|came|come|comes|had|has|have|went)\b)"
)
#: What a share is of, after it: "of" up to the verb or preposition that names the part ("64% of the
#: electricity its stores used came from renewables", "85% of its suppliers signed its code"), a modal
#: verb ("could run on methanol"), or the clause's end ("Renewables supplied 64% of the electricity
#: used across its networks"). A verb that says which whole is meant belongs to it unless it takes an
#: object (`_NO_OBJECT`).
_WHOLE_AFTER = re.compile(
    r"\s?of\s.*?(?=\b(?:was|were|is|are|came|come|comes|had|has|have|went|carried|underwent|from|for|to|via|with|"
    r"could|can|would|will|may|might|must|should|"
    rf"(?!{_WHOLE_VERB}\b)[a-z]{{3,}}ed|{_WHOLE_VERB}\b(?!{_NO_OBJECT}))\b|$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SharePart:
    """The part of its whole a share counts: the stems of the words naming it, and for each word the
    one right before it that describes it ("electric" before "vehicl")."""

    stems: frozenset[str]
    described_by: Mapping[str, str]
    #: whether its clause says the part refused a thing ("rejected by 85% of its suppliers")
    refusing: bool = False


def share_part(text: str, figure: Figure, company: str = "") -> SharePart:
    """The part of its whole the share `figure` counts ("women" in "Women made up 40% of Acme's
    board"); no stems when its clause names none, or names the share told of before it ("but the
    true share was nearer 45%")."""
    start, end = clause_with_list_span(text, figure)
    clause = text[start:end]
    if _SHARE_TOLD_BEFORE.search(text, start, figure.start):
        return SharePart(frozenset(), {})
    whole = set(share_base(text, figure.end))
    for match in _SHARE_NOUN.finditer(clause):
        whole |= share_base(clause, match.end())
    before = _WHOLE_BEFORE.search(text, 0, figure.start)
    if before is not None:
        whole.add(base_word(before["whole"].lower()))
    after = _WHOLE_AFTER.match(text, figure.end, end)
    # the words before the share and after its whole, "green-certified" and "end-2023" each apart
    said = (text[start : figure.start], text[after.end() if after else figure.end : end])
    runs = [_WORD.findall(words.replace("-", " ")) for words in said]
    every = [word for run in runs for word in run]
    whole_words = {stem(word) for word in every if base_word(word.lower()) in whole}
    stems = (
        subject_stems(" ".join(every), company) - whole_words - {stem(word) for word in whole} - LINKING_STEMS
    )
    described_by: dict[str, str] = {}
    for run in runs:
        # a word described is the last of its phrase ("plastic" in "recycled plastic made up"), not
        # one a verb reaches for ("zero" in "achieved zero waste") nor a verb ("received")
        named = [stem(word) for word in run] + [""]
        for first, second, following, word in zip(named, named[1:], named[2:], run[1:], strict=False):
            if first in stems and second in stems and following not in stems and not _VERB_FORM.search(word):
                described_by[second] = first
    # the part's own verb refuses: in the passive before the share ("rejected by 85% of"), or right
    # after its whole ("85% of its suppliers rejected"), not a refusal said of something else
    refusing = bool(_REFUSED_BY.search(said[0]) or _REFUSING.match(said[1].lstrip()))
    return SharePart(with_whole_forms(every, stems), described_by, refusing)


def with_whole_forms(words: Iterable[str], stems: frozenset[str]) -> frozenset[str]:
    """`stems` (of some of `words`) with each of those words also as a share's whole names it:
    "staff" are employees, "power" is electricity."""
    return stems | {stem(base_word(word.lower())) for word in words if stem(word) in stems}


#: A word that may be a verb, never a thing described: "received", "rising".
_VERB_FORM = re.compile(r"(?:ed|ing)$", re.IGNORECASE)


def part_relation(claim: str, mine: SharePart, sentence: str, theirs: SharePart) -> str:
    """How the parts two shares count (`share_part`, of `claim` and of `sentence`) meet: "same"
    unless each names a part of which the other text says nothing, not even in another clause, in
    another form of the word ("recyclable", "recycled") or as an acronym ("SAF"), or both describe
    one word in words the other text does not use ("electric vehicles", "diesel vehicles");
    "narrower" when the claim's part is a kind of the source's ("wind" within "renewable"),
    "broader" when the source's is a kind of the claim's; else "other"."""
    # those who refused a thing are no share of those who did it ("rejected by 85% of its suppliers")
    if mine.refusing != theirs.refusing:
        return "other"
    if not mine.stems or not theirs.stems:
        return "same"
    # a kind before words in common: "coal companies" are some of the "fossil fuel companies"
    if _a_kind_of(mine.stems, theirs.stems):
        return "narrower"
    if _a_kind_of(theirs.stems, mine.stems):
        return "broader"
    if _described_apart(claim, mine, sentence, theirs):
        return "other"
    if _named_in(mine.stems, claim, sentence) or _named_in(theirs.stems, sentence, claim):
        return "same"
    return "other"


#: Words of refusing a thing: "rejected by 85% of its suppliers", "ignored by 70% of its staff".
_REFUSALS = (
    r"reject(?:ed|ing)|refus(?:ed|ing)|ignor(?:ed|ing)|boycott(?:ed|ing)|oppos(?:ed|ing)|snubbed|shunned|"
    r"declin(?:ed|ing)|turn(?:ed|ing)?\sdown|voted\sagainst"
)
_REFUSING = re.compile(rf"(?:(?:also|all|each|have|had)\s)?(?:{_REFUSALS})\b", re.IGNORECASE)
_REFUSED_BY = re.compile(rf"\b(?:{_REFUSALS})(?:\s\w+)?\sby\s(?:\w+\s)?$", re.IGNORECASE)


def _described_apart(claim: str, mine: SharePart, sentence: str, theirs: SharePart) -> bool:
    """Whether both parts describe a word they share in words the other text does not use
    ("recycled plastic" against "virgin plastic")."""
    for word in mine.stems & theirs.stems:
        first, second = mine.described_by.get(word), theirs.described_by.get(word)
        if (
            first
            and second
            and not _stems_meet(first, second)
            and not _named_in(frozenset({first}), claim, sentence)
            and not _named_in(frozenset({second}), sentence, claim)
        ):
            return True
    return False


def outside_other_shares(text: str, figure: Figure) -> str:
    """`text` without the clauses of its other percentages: in "women made up 40% of the board, and
    independent directors 70%", the directors are named for the 70%, not for the 40%."""
    for other in parse_figures(text):
        if other.dimension == "percent" and other.start != figure.start:
            start, end = clause_span(text, other)
            if not start <= figure.start < end:
                text = blanked(text, start, end)
    return text


def _a_kind_of(narrower: frozenset[str], broader: frozenset[str]) -> bool:
    """Whether `narrower` names a kind of `broader`'s part without naming that part itself, or fewer
    of its kinds ("wind" against "wind, solar and hydro")."""
    kinds = {_KIND_OF[word] for word in narrower if word in _KIND_OF}
    if kinds & broader and not kinds & narrower:
        return True
    named, listed = narrower & _KIND_OF.keys(), broader & _KIND_OF.keys()
    return bool(named) and named < listed and not {_KIND_OF[word] for word in named} & narrower


#: Words for one part ("female" directors are women, "green" power is renewable).
_SAME_PART = {
    stem(word): stem(one)
    for word, one in (
        ("female", "women"),
        ("woman", "women"),
        ("male", "men"),
        ("green", "renewable"),
        ("toxic", "hazardous"),
        ("overseas", "international"),
        ("foreign", "international"),
        ("commerce", "online"),
        ("digital", "online"),
        ("client", "customer"),
        ("shop", "store"),
        ("lorry", "truck"),
        ("dangerous", "hazardous"),
        ("battery", "electric"),
        ("abroad", "international"),
    )
}
#: Parts that are a kind of another part.
_KIND_OF = {
    **dict.fromkeys(
        (stem(word) for word in ("wind", "solar", "hydro", "hydropower", "geothermal", "biomass")),
        stem("renewable"),
    ),
    **dict.fromkeys((stem(word) for word in ("coal", "oil", "diesel", "gas")), stem("fossil")),
    **dict.fromkeys((stem(word) for word in ("battery", "electric", "hydrogen")), stem("zero")),
}
#: Two stems that begin alike for this long are one word ("electrif" and "electric", "divers" and
#: "divert", "recycl" and "recyclabl").
_SAME_BEGINNING = 5


def _named_in(part: frozenset[str], text: str, other: str) -> bool:
    """Whether `other` names a word of `part` (stems of `text`): in any form, a hyphened word's
    parts apart ("green-certified"), or spelled out where `text` writes an acronym ("SAF")."""
    said = {
        _one_part(stem(form))
        for word in _WORD.findall(other)
        if len(word) > 2
        for form in (word, base_word(word.lower()))
    }
    if any(_stems_meet(_one_part(mine), theirs) for mine in part for theirs in said):
        return True
    acronyms = {word.lower() for word in _ACRONYM.findall(text)}
    initials = "".join(word[0] for word in _WORD.findall(other)).lower()
    # "EVs" is the stem "evs" of the acronym "EV"
    return any(
        word.removesuffix("s") in acronyms & {word, word.removesuffix("s")}
        and word.removesuffix("s") in initials
        for word in part
    )


#: An acronym, in capitals: "SAF", "FSC", "EVs".
_ACRONYM = re.compile(r"\b[A-Z]{2,6}(?=s?\b)")


def _stems_meet(first: str, second: str) -> bool:
    shorter = min(_SAME_BEGINNING, len(first), len(second))
    return first == second or len(os.path.commonprefix((first, second))) >= shorter


def _one_part(word: str) -> str:
    return _SAME_PART.get(word, word)
