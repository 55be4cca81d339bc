"""Which clause of a source sentence a figure is stated in, and whether a part's clause says more of
the claim's subject than its whole's does: in "generated 96,000 tonnes of waste and recycled 64,000
tonnes of it", the part's clause ("recycled 64,000 tonnes of it") names what a claim of a recycled
share is of; in "used 860 GWh, of which 600 GWh was bought from the grid" it names nothing of a claim
of a renewable share."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.figures import Figure, Stated, parse_figures
from app.verification.reading.figure_subjects import share_base
from app.verification.reading.figures import quantities
from app.verification.reading.statements import subject_stems
from app.verification.sources.company_names import names_company

#: Where a clause ends: a comma or semicolon, or a word joining two clauses ("between 2020 and 2024"
#: joins two years, not two clauses).
_BREAK = re.compile(
    r"[;,]\s|\s(?:while|whereas|even\sas|as|but|although|though|and(?!\s(?:19|20)\d\d\b))\s", re.IGNORECASE
)


def clause_of(sentence: str, figure: Stated) -> str:
    """The clause of `sentence` that states `figure`."""
    start, end = clause_span(sentence, figure)
    return sentence[start:end]


def clause_span(sentence: str, figure: Stated) -> tuple[int, int]:
    """Where the clause of `sentence` that states `figure` begins and ends."""
    return clause_span_at(sentence, figure.start, figure.end)


def clause_span_at(sentence: str, start: int, end: int) -> tuple[int, int]:
    """Where the clause of `sentence` holding `start:end` begins and ends."""
    begin = max((match.end() for match in _BREAK.finditer(sentence, 0, start)), default=0)
    after = _BREAK.search(sentence, end)
    return begin, after.start() if after else len(sentence)


def without_later_figures(sentence: str, figure: Figure) -> str:
    """`sentence` with the later statements of other figures blanked out: in "withdrew 18.5 million
    m³ of water and consumed 11.2 million m³ of it", consumption is said of the 11.2, not of the
    18.5. A later statement is a clause of another figure that begins with a verb of its own ("and
    consumed") or a clause of its own ("while its farmed salmon volumes rose 8%"), and names no basis
    or netting that may be said of both ("and its energy use 4% per unit of revenue", "net of 300,000
    tonnes of offsets"); so is the share the figure is of all the company holds, set right after it
    (", around 4% of its £21bn investment portfolio"). Clauses before the figure are kept, as they
    often name the subject both share ("water consumption rose 5%, to 18.5 million m³")."""
    begin, end = clause_span(sentence, figure)
    others = parse_figures(sentence)
    for other in others:
        if other.start < end:
            continue
        start, stop = clause_span(sentence, other)
        start = max(start, end)
        whole = _SHARE_OF_IT.match(sentence, end) is not None and sentence[end:start].strip() == ","
        if (not _a_statement(sentence, start) and not whole) or _SAID_OF_BOTH.search(sentence, start, stop):
            continue
        sentence = blanked(sentence, start, stop)
    return sentence


@dataclass(frozen=True)
class EarlierStatement:
    """A statement of another figure that `figure`'s clause is joined to as a statement of its own
    (`own_statement`): "Lumaris's fabs drew 14 million m³ of fresh water in 2023 and recycled 72%"."""

    subject: tuple[int, int]  # where its subject is, which is the later statement's too
    said: tuple[int, int]  # its verb and what it says of its own figure, up to the joining word


def earlier_statement(sentence: str, figure: Figure, company: str) -> EarlierStatement | None:
    """The statement `figure`'s clause is joined to, if it is one of its own after another figure's,
    said plainly of the company: its subject the company or its operations ("Lumaris's fabs"), and
    nothing said of its figure but what it is of and its year. A statement that limits what it says
    ("at its older fabs", "in Arizona") or is of others ("Lumaris's contractors", "its tenants") may be said
    of both."""
    if not own_statement(sentence, figure):
        return None
    begin, _ = clause_span(sentence, figure)
    joint = _STATEMENT_JOINT.search(sentence, 0, begin)
    assert joint is not None  # `own_statement` found it
    earlier = [other for other in parse_figures(sentence) if other.end <= joint.start()]
    if not earlier or not _PLAINLY_SAID.fullmatch(sentence, earlier[-1].end, joint.start()):
        return None
    other = earlier[-1]
    verb = WORD_BEFORE_A_NUMBER.search(sentence, 0, other.start)
    if verb is None or verb[1].lower() in _NO_VERB or _BREAK.search(sentence, verb.start(), other.start):
        return None
    subject_begin = clause_span_at(sentence, verb.start(), verb.end())[0]
    if not _A_YEAR_OPENER.fullmatch(sentence, 0, subject_begin):
        return None  # "In Peru, Andes Copper drew …": what opens the sentence is said of both
    if not _the_company_itself(sentence[subject_begin : verb.start()], company):
        return None
    return EarlierStatement((subject_begin, verb.start()), (verb.start(), joint.start()))


#: After an earlier statement's figure, up to the joining word: what it is of and its year, nothing
#: more ("14 million m³ of fresh water in 2023 and").
_PLAINLY_SAID = re.compile(r"(?:\sof\s[a-z-]+(?:\s[a-z-]+){0,2})?(?:\s(?:in|during)\s(?:19|20)\d\d)?\s")
#: Nothing, or only a year, before a sentence's subject: "In 2023, ".
_A_YEAR_OPENER = re.compile(r"(?:(?:In|During|By\sthe\send\sof)\s(?:19|20)\d\d,?\s)?")
#: The company's operations, which a subject may name as the company: "Lumaris's fabs".
_OPERATIONS = frozenset(
    """fabs plants mills mines sites factories breweries stores smelters refineries facilities operations
    offices warehouses hotels farms fleets ships vessels""".split()
)


def _the_company_itself(subject: str, company: str) -> bool:
    """Whether `subject` is the company, or the company's operations in one plural word ("Lumaris's fabs")."""
    if not names_company(subject, company):
        return False
    names = {word.lower() for word in re.findall(r"[A-Za-z][\w-]*", company)}
    rest = [
        word.lower()
        for word in re.findall(r"[A-Za-z][\w-]*", re.sub(r"['’]s?\b", " ", subject))
        if word.lower() not in names
    ]
    return not rest or (len(rest) == 1 and rest[0] in _OPERATIONS)


def without_earlier_statement(sentence: str, figure: Figure, company: str, claim: str) -> str:
    """`sentence` with what an earlier statement says of its own figure blanked out (`earlier_statement`):
    in "Lumaris's fabs drew 14 million m³ of fresh water in 2023 and recycled 72% of the water they
    used", drawing fresh water is said of the 14 million, not of the 72%. Its subject stays: it is the
    figure's too ("Lumaris's fabs")."""
    earlier = earlier_statement(sentence, figure, company)
    if earlier is None or not _of_the_claims_thing(claim, sentence, figure):
        return sentence
    return blanked(sentence, *earlier.said)


def _of_the_claims_thing(claim: str, sentence: str, figure: Figure) -> bool:
    """Whether what `figure` is said to be of is in the claim's words ("of the water they used" for a
    claim of water, not "180 hectares of wetland" for one of land)."""
    of = _OF_WHAT.match(sentence, figure.end)
    if of is None:
        return True
    words = set(re.findall(r"[a-z]+", claim.lower()))
    return all(word in words or word in _FUNCTION_WORDS for word in re.findall(r"[a-z]+", of.group().lower()))


#: What a figure is said to be of, up to the next verb, comma or year: "of their process wastewater".
_OF_WHAT = re.compile(r"\sof\s[a-z-]+(?:\s[a-z-]+){0,3}?(?=\s(?:they|it|we|in|at|during|for|from)\b|[,.;]|$)")
_FUNCTION_WORDS = frozenset("of the its their our a an".split())


#: Words right before a number that are no verb: "of 14 million m³", "to 3.1 hl".
_NO_VERB = frozenset(
    "of to from at by in on for with than and or the a an its their our total some about around".split()
)
#: The word right before a figure or a count, past a hedge: its verb ("had about 420 stores", "drew 14
#: million m³").
WORD_BEFORE_A_NUMBER = re.compile(
    r"\b([A-Za-z]+)\s(?:(?:about|around|some|roughly|nearly|almost|approximately|close\sto|just|only)\s)?$"
)
#: Words that take what a clause says of its figure from an earlier one: "consumed 11.2 million m³ of it".
_REFERS_BACK = re.compile(r"\bof\s(?:it|them|this|that|these|those|which)\b", re.IGNORECASE)
#: Right after a figure, the share it is of all the company holds: ", around 4% of its £21bn
#: investment portfolio" says how large the figure is, nothing of what it is ("about 30% of its
#: renewable output" does: a part of it is renewable).
_SHARE_OF_IT = re.compile(
    r",\s(?:(?:about|around|some|roughly|nearly|almost|just\sover|just\sunder)\s)?\d[\d.]*\s?(?:%|per\scent)\sof\s"
    r"(?:its|the|their)\s(?:[^\s,;.]*\d[^\s,;.]*\s)?(?:total\s|investment\s|overall\s)?"
    r"(?:portfolio|assets|balance\ssheet|holdings|investments)\b",
    re.IGNORECASE,
)


def own_statement(sentence: str, figure: Figure) -> bool:
    """Whether the clause of `figure` is a statement of its own after another, with a verb of its own
    that does not refer back to the other's figure: "… and recycled 72% of the water it used", "… but
    rehabilitated only 180 hectares"; not "… and consumed 11.2 million m³ of it"."""
    begin, end = clause_span(sentence, figure)
    joint = _STATEMENT_JOINT.search(sentence, 0, begin)
    return (
        joint is not None
        and _PAST_VERB.match(sentence, begin) is not None
        and not _REFERS_BACK.search(sentence, begin, end)
    )


_STATEMENT_JOINT = re.compile(r"\b(?:and|but|while|whereas)\s$", re.IGNORECASE)


def blanked(text: str, start: int, end: int) -> str:
    """`text` with `start:end` blanked out, every other offset kept (a clause set aside)."""
    return text[:start] + " " * (end - start) + text[end:]


def _a_statement(sentence: str, start: int) -> bool:
    """Whether the clause at `start` makes a statement of its own: "and consumed …", "while its …
    rose …"."""
    if _OWN_CLAUSE.match(sentence, start):
        return True  # ", while the location-based figure was …"
    joint = _JOINT_BEFORE.search(sentence, 0, start)
    if joint is None:
        return False
    return joint["word"].lower() != "and" or _PAST_VERB.match(sentence, start) is not None


_OWN_CLAUSE = re.compile(r"\s?(?:while|whereas)\s|\s?and\s[a-z]+ed\b", re.IGNORECASE)
_JOINT_BEFORE = re.compile(r"\b(?P<word>and|while|whereas)\s$", re.IGNORECASE)
_PAST_VERB = re.compile(r"\s?[a-z]+ed\b")
#: Words giving the basis or netting a figure is measured on, which may be said once for two figures.
_SAID_OF_BOTH = re.compile(
    r"\b(?:per|like-for-like|basis|intensity|adjusted|normali[sz]ed|net|offsets?|credits?|removals?|avoided|"
    r"average|both|each|counting|including|after)\b",
    re.IGNORECASE,
)


#: A break that may join the items of a list ("wind, solar and hydro"), not two statements.
_LIST_BREAK = re.compile(r"^(?:,\s|\sand\s)$")
#: A figure in a clause: a list item names none.
_A_FIGURE = re.compile(r"\d")


def clause_with_list_span(sentence: str, figure: Figure) -> tuple[int, int]:
    """`clause_span`, with the clauses before it joined to it while they state no figure and are
    joined by a comma or "and": the items of a list ("Wind, solar and hydro supplied 51%") are one
    clause, two statements ("Women made up 40%, and independent directors 70%") two."""
    start, end = clause_span(sentence, figure)
    breaks = list(_BREAK.finditer(sentence, 0, start))
    while breaks and breaks[-1].end() == start and _joins_a_list(sentence, breaks[-1]):
        joined = breaks.pop()
        before = max((match.end() for match in breaks), default=0)
        if _A_FIGURE.search(sentence, before, joined.start()):
            break
        start = before
    return start, end


def _joins_a_list(sentence: str, joint: re.Match[str]) -> bool:
    """Whether a break may join the items of a list: a comma, "and", or the "as" of "such as"."""
    if joint.group() == " as ":
        return sentence[: joint.start()].endswith(" such")
    return _LIST_BREAK.match(joint.group()) is not None


def names_more_of_the_claim(claim: str, sentence: str, part: Figure, whole: Figure, company: str) -> bool:
    """Whether the part's clause names something of the claim that the whole's clause does not ("of
    which 38,000 tonnes were Scope 2" for a claim of Scope 2 emissions, against "emitted 46,000
    tonnes of CO2e"): then the part, or its share of the whole, can be the claim's quantity."""
    claims = subject_stems(claim, company)
    part_clause, whole_clause = clause_of(sentence, part), clause_of(sentence, whole)
    if part_clause == whole_clause:
        # one clause: what each is of ("7,800 tonnes of recycled polyester out of 26,000 tonnes of
        # polyester")
        part_says, whole_says = _of_words(sentence, part), _of_words(sentence, whole)
    else:
        part_says, whole_says = subject_stems(part_clause, company), subject_stems(whole_clause, company)
    # an emissions scope is named by its label ("were Scope 2"), not by a subject word
    scopes = (quantities(part_clause) - quantities(whole_clause)) & quantities(claim)
    return bool((part_says - whole_says) & claims) or bool(scopes)


def _of_words(sentence: str, figure: Figure) -> frozenset[str]:
    """The stems of what a figure is of ("of recycled polyester")."""
    return subject_stems(" ".join(share_base(sentence, figure.end)))
