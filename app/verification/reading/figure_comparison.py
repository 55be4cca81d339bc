"""Whether a source sentence repeats, contradicts or only mentions a claim's figures and counts (the
figure half of the rule reader of sources, `app.verification.reading.contradictions`).

Two figures are compared only when they can be the same quantity: the same dimension and currency,
the same stated year, the same emissions quantity in a comparable mood, and for percentages the same
kind and base (`figure_subjects.same_percentage`: "rose 9%" is not "64% of …", "64% of energy" is
not "64% of electricity"). Among those, the source

- **repeats** a claim figure ("match") when it states the same value as a fact: not rejected ("not
  167"), not negated ("did not spend EUR 140 million", `denials.negated`), not in a sentence that
  disputes what it reports (`denials.disputes`), and not for the opposite change ("rose 30%" for
  "reduced by 30%", `change_mood.figure_direction`);
- **reports the opposite change** ("opposite") when the same value goes the other way and both
  sides certainly measure the same quantity (the same labelled emissions scope, or alike sentences
  when the claim labels none);
- **contradicts** ("mismatch") when it rejects the claim's value, or states another value for the
  same quantity that it asserts itself, the sentences measuring alike (`figure_subjects`). Another
  change amount for the same quantity ("fell 9% to 410 kt" against "410 kt, down 5%") is never a
  match, whatever level the two share: the source does not state the claim's change;
- **states a claim figure without asserting it** ("unasserted"): negated, disputed, or an opposite
  change not certainly of the same quantity. Such a sentence never supports the claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from app.language.figures import Figure, Stated, parse_figures, per_like_unit
from app.language.plurals import singular
from app.language.years import is_baseline, stated_year
from app.verification.reading.change_mood import figure_direction, mood, same_mood
from app.verification.reading.complements import other_sides
from app.verification.reading.count_context import (
    counted_over_the_same_span,
    names_a_span_of_years,
    narrowed_beyond_the_claim,
    of_a_part_the_claim_does_not_name,
    over_years,
    said_of_another_number,
    without_other_numbers,
)
from app.verification.reading.denials import negated
from app.verification.reading.figure_clauses import (
    WORD_BEFORE_A_NUMBER,
    blanked,
    clause_of,
    clause_span,
    clause_span_at,
    names_more_of_the_claim,
    own_statement,
)
from app.verification.reading.figure_subjects import (
    passive_deed,
    percent_measure,
    qualifiers_agree,
    role,
    same_basis,
    same_percentage,
    same_role,
    share_activity,
    share_basis,
    share_whole,
    speaks_of_emissions,
)
from app.verification.reading.figures import (
    FATALITY,
    PEOPLE,
    Count,
    a_limit,
    denied,
    denied_numbers,
    none_of,
    parse_counts,
    quantity_at,
    set_beside,
    threshold,
)
from app.verification.reading.implied_figures import implied, implied_range, whole_of_part, without_written
from app.verification.reading.places import places_meet
from app.verification.reading.share_parts import (
    LINKING_STEMS,
    outside_other_shares,
    part_relation,
    share_part,
    with_whole_forms,
)
from app.verification.reading.statements import subject_stems
from app.verification.sources.attribution import relays_company
from app.verification.sources.company_names import names_company

RELATIVE_TOLERANCE = 0.01
APPROXIMATE_TOLERANCE = 0.05
#: The year a change is measured from ("from 450 kt in 2022", "compared with 2019", "on 2022").
_BASELINE = re.compile(
    r"\b(?:from|since|on|over|than|against|versus|vs\.?|relative\sto|compared\s(?:with|to))\s"
    # a level it moved from ("from 450 kt in 2022"), never words ("from its fuel suppliers in 2023")
    r"(?:(?:the|our|its|a)\s)?(?:[€$£]?\d[\d.,]*\w*\s(?:\w+\s)?(?:CO2e?\s)?in\s|in\s)?"
    r"(?:FY\s?|fiscal\s(?:year\s)?)?((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
MIN_SHARED_WORDS = 2
#: How far past a bound stated as close to its figure ("just over 20%") a value may lie.
NEAR_BOUND = 0.15
_I = re.IGNORECASE


@dataclass(frozen=True)
class ClaimFigure:
    """A claim figure with what it is compared by: its year, emissions quantity, mood, role, the
    direction of its change and, for a percentage, its kind and base."""

    figure: Figure
    year: int | None
    quantity: str | None
    mood: str
    role: str | None
    direction: str | None
    percent: tuple[str | None, frozenset[str]]
    baselines: frozenset[int] = frozenset()  # the years the claim measures changes from
    #: whether it is the level a change starts from ("up from 45%", `years.is_baseline`)
    baseline: bool = False
    #: whether it is a part named after its whole ("of which 38,000 tonnes", `whole_of_part`)
    part: bool = False

    @classmethod
    def read(cls, text: str, figure: Figure) -> ClaimFigure:
        """The figure as the claim `text` states it."""
        return cls(
            figure,
            stated_year(text, figure),
            quantity_at(text, figure.start),
            mood(text, figure.start, figure.end),
            role(text, figure.start, figure.end),
            figure_direction(text, figure.start, figure.end),
            percent_measure(text, figure.start, figure.end),
            baselines(text),
            is_baseline(text, figure),
            whole_of_part(text, figure) is not None,
        )


@dataclass(frozen=True)
class FigureOutcome:
    """What `compare_figures` found, with the claim figure and the source figure it rests on (none
    for "unasserted"), so that a reason can say which figures differ ("450 kt for 2022")."""

    kind: str
    mine: ClaimFigure | None = None
    theirs: Figure | None = None
    #: Further pairs that differ too (a level and a change stated alike: "19.7 Mt, up 21%" against
    #: "16.2 Mt, up 2%"), after the one the outcome rests on.
    also: tuple[tuple[ClaimFigure, Figure], ...] = ()


def same_value(mine: Figure, theirs: Figure) -> bool:
    """The same value, within the rounding of either figure or 1 % (5 % when either is hedged:
    "about a quarter" is not wrong for 24 %, "nearly 20 Mt" still is for 16.2 Mt); a bound ("more
    than 60%") is the same as any value it holds."""
    relative = APPROXIMATE_TOLERANCE if mine.approximate or theirs.approximate else RELATIVE_TOLERANCE
    larger = max(abs(mine.base), abs(theirs.base))
    if mine.bound or theirs.bound:
        # a bound is where it is written: "under one million tonnes" holds no 1.2 million, however
        # round the million
        unbounded = [f.base_half_unit for f in (mine, theirs) if not f.bound]
        return _within_bounds(mine, theirs, max(*unbounded, larger * relative, 0.0))
    tolerance = max(mine.base_half_unit, theirs.base_half_unit, larger * relative)
    return abs(abs(mine.base) - abs(theirs.base)) <= tolerance


def _same_value_in(sentence: str, mine: Figure, theirs: Figure) -> bool:
    """`same_value`, a change worked out from two rounded levels held to the range their rounding
    allows (`implied_figures.implied_range`): "2.4 Mt against 2.6 Mt" is a fall of 4% to 11%."""
    found = implied_range(sentence, theirs)
    if found is None:
        return same_value(mine, theirs)
    low, high = found
    return low - mine.half_unit <= abs(mine.value) <= high + mine.half_unit


def _within_bounds(mine: Figure, theirs: Figure, tolerance: float) -> bool:
    """Whether a bound ("more than 60%", "less than $50 million") holds the other figure (or, both
    bounds, the two leave a value in common)."""
    lowest = [abs(f.base) for f in (mine, theirs) if f.bound == "above"]
    highest = [abs(f.base) for f in (mine, theirs) if f.bound == "below"]
    values = [abs(f.base) for f in (mine, theirs) if f.bound is None]
    low = max(lowest, default=float("-inf"))
    high = min(highest, default=float("inf"))
    if not values:
        return low < high
    value = values[0]
    if not low - tolerance < value < high + tolerance:
        return False
    # "just over 20%" is a bound close to its figure: not 35%
    near = [f for f in (mine, theirs) if f.bound and f.approximate]
    return all(abs(value - abs(f.base)) <= max(abs(f.base) * NEAR_BOUND, 2 * f.base_half_unit) for f in near)


def compare_figures(
    claim: tuple[ClaimFigure, ...],
    sites: set[str],
    sentence: str,
    *,
    alike: bool,
    disputed: bool,
    claim_text: str = "",
    company: str = "",
    shared_subject: bool = False,
) -> FigureOutcome | None:
    """ "match", "opposite", "mismatch", "unasserted" (see the module docstring) or None when no
    figure is comparable; a source stating another change amount than the claim for the same
    quantity never matches, even when it repeats a level of the claim. `sites` are the sites or
    segments the claim's figures are for; `alike` whether the two sentences measure alike
    (`figure_subjects.measure_alike`); `disputed` whether the sentence disputes what it reports;
    `claim_text` the claim, whose site names a sentence's sites must be among."""
    # shares of complementary sides of a whole are of different things (`complements`)
    sides = other_sides(claim_text, sentence)
    stated = parse_figures(sentence)
    measured_alike = [
        (mine, theirs)
        for mine in claim
        for theirs in stated
        if _an_outcome_of_the_companys(sentence, theirs, company)
        and (mine.part or not _a_part_of_another_thing(claim_text, sentence, theirs, company))
        and not (sides and theirs.dimension == "percent")
        and mine.figure.same_kind(theirs)
        and _measured_alike(claim_text, mine.figure, sentence, theirs, company)
        and _same_year(mine.year, stated_year(sentence, theirs))
        and _same_measure(mine, sentence, theirs)
        and not _A_RIVALS_WHOLE.match(sentence, theirs.end)
        and not _narrowed_apart(claim_text, mine.figure, sentence, theirs)
        and not _done_apart(claim_text, mine.figure, sentence, theirs)
        and not _done_otherwise(claim_text, mine.figure, sentence, theirs)
        and not _over_other_years(claim_text, mine.figure, sentence, theirs)
        and not _of_a_part(claim_text, sentence, theirs, company)
    ]
    measured_alike = _as_ratios(measured_alike, claim_text, sentence)
    # how the parts two shares count meet, read once per pair (`share_parts`)
    parts = {pair: _parts_meet(claim_text, *pair, sentence, company) for pair in measured_alike}
    comparable = [pair for pair in measured_alike if parts[pair] != "other"]
    same = [
        (mine, theirs)
        for mine, theirs in comparable
        if _same_value_in(sentence, mine.figure, theirs)
        # what the claim's part is a kind of confirms nothing of it ("wind, solar and hydro" of "wind")
        and parts[(mine, theirs)] != "narrower"
    ]
    kept = [(mine, theirs) for mine, theirs in same if not denied(sentence, theirs.start)]
    if same and not kept:
        # the source rejects the claim's value ("rather than 2.3 Mt"), as an outcome: a target of it
        # is not what the company claims to have done
        rejected = [(mine, theirs) for mine, theirs in same if mine.mood != "intended"]
        return FigureOutcome("mismatch", *rejected[0]) if rejected else None
    # the whole a matching part is named after is another quantity ("46,000 tonnes, of which 38,000
    # tonnes were Scope 2")
    wholes = {whole.start for _, theirs in same if (whole := whole_of_part(sentence, theirs)) is not None}
    opposite = [pair for pair in kept if _opposite(pair[0], sentence, pair[1])]
    asserted = [
        pair
        for pair in kept
        if pair not in opposite
        and not negated(sentence, pair[1].start)
        and _changes_the_claims_subject(claim_text, sentence, pair[1], company)
    ]
    differing = [
        (mine, theirs)
        for mine, theirs in comparable
        if not _same_value_in(sentence, mine.figure, theirs)
        and theirs.start not in wholes
        and not _WHOLE_AFTER_A_PART.search(sentence, 0, theirs.start)
        and not beyond_a_met_target(claim_text, mine.figure, sentence, theirs)
        # a level a change starts from ("up from 51%") is no other value for the level it reached
        and (mine.baseline or not is_baseline(sentence, theirs))
        and not negated(sentence, theirs.start)
        and _certainly_comparable(mine, theirs, sentence, claim_text)
        and same_role(mine.role, role(sentence, theirs.start, theirs.end))
        and _other_value_of_the_part(parts[(mine, theirs)], mine, theirs)
    ]
    # Level against level and change against change; a level for the claimed year is named first.
    conflicts = _conflicts(differing, same, sentence)
    # the claim's change stated for the opposite change outweighs a level the two share
    if any(_certainly_same_quantity(mine, sentence, theirs, alike) for mine, theirs in opposite):
        return FigureOutcome("opposite", *opposite[0])
    # a statement of its own, with its own verb, measures alike on its own ("disturbed 420 hectares
    # but rehabilitated only 180 hectares" against "rehabilitated 420 hectares"), where the one
    # repeating the claim's figure does not
    alone = [
        pair
        for pair in differing
        if not alike
        and shared_subject
        and own_statement(sentence, pair[1])
        and _alike_alone(claim_text, sentence, pair[1], company)
        and _says_no_more(claim_text, sentence, pair[1], company)
    ]
    if alone and not any(_alike_alone(claim_text, sentence, theirs, company) for _, theirs in asserted):
        if _same_sites(sites, claim_text, sentence, company) and not relays_company(sentence, company):
            return FigureOutcome("mismatch", *alone[0])
    # a figure for a site the claim does not name is of a part of the claim's whole
    if asserted and not disputed and not conflicts and named_sites_meet(claim_text, sentence, company):
        return FigureOutcome("match", *asserted[0])
    if differing and alike and _same_sites(sites, claim_text, sentence, company):
        first, *rest = conflicts or differing
        return FigureOutcome("mismatch", *first, also=tuple(rest if conflicts else ()))
    return FigureOutcome("unasserted") if kept else None


def _as_ratios(
    pairs: list[tuple[ClaimFigure, Figure]], claim: str, sentence: str
) -> list[tuple[ClaimFigure, Figure]]:
    """The pairs, each as ratios where both figures are stated per a unit of their own kind
    (`per_like_unit`) in other units: "3.1 hl of water per hl of beer" is "3.1 litres per litre"."""
    ratios: dict[int, ClaimFigure] = {}
    read: list[tuple[ClaimFigure, Figure]] = []
    for mine, theirs in pairs:
        their_ratio = per_like_unit(sentence, theirs)
        if id(mine) not in ratios:
            my_ratio = per_like_unit(claim, mine.figure) if claim else None
            ratios[id(mine)] = replace(mine, figure=my_ratio) if my_ratio is not None else mine
        mine_as_ratio = ratios[id(mine)]
        # in the same units as written, the two compare as they are, beside the sentence's other figures
        if (
            their_ratio is None
            or mine_as_ratio is mine
            or _plain_unit(their_ratio) == _plain_unit(mine_as_ratio.figure)
        ):
            read.append((mine, theirs))
        elif _per_the_same_thing(claim, mine.figure, sentence, theirs):
            read.append((mine_as_ratio, their_ratio))
        # else: water per hl of beer is not water per litre of soft drinks
    return read


def _per_the_same_thing(claim: str, mine: Figure, sentence: str, theirs: Figure) -> bool:
    """Whether two ratios are per a unit of the same thing, where both say what of ("per hl of beer")."""
    first, second = (
        _PER_UNIT_OF.match(text, figure.end) for text, figure in ((claim, mine), (sentence, theirs))
    )
    if first is None or second is None:
        return True
    return _things_meet(frozenset(first["thing"].lower().split()), frozenset(second["thing"].lower().split()))


#: What a ratio is per a unit of: "of water per hl of beer", "for every litre of soft drinks".
_PER_UNIT_OF = re.compile(
    r"(?:\s(?:of\s)?[a-z][\w-]*(?:\s[a-z][\w-]*){0,2}?)?\s?(?:per|for\s(?:every|each))\s(?:[\w-]+\s)?of\s"
    r"(?P<thing>[a-z][\w-]*(?:\s(?!(?:in|at|by|for|from|during|and|to|it)\b)[a-z][\w-]*)?)",
    _I,
)


def _plain_unit(figure: Figure) -> str:
    """A figure's unit as written, without saying it is of CO2e ("t CO2e per t" is "t per t")."""
    return figure.unit.replace(" CO2e", "")


def _says_no_more(claim: str, sentence: str, theirs: Figure, company: str) -> bool:
    """Whether the clause of a source figure says nothing of it the claim does not (no kind, place,
    site or comparison of its own: "rehabilitated only 180 hectares", not "180 hectares of wetland",
    "… in South Africa", "an extra 180 hectares", "180 hectares more than in 2022"), and the sentence
    opens on the company itself, not a part of it or another ("Its smelter drew …", "Its suppliers
    generated …")."""
    start, end = clause_span(sentence, theirs)
    said = blanked(sentence, theirs.start, theirs.end)[start:end]
    first = min((figure.start for figure in parse_figures(sentence)), default=0)
    subject = WORD_BEFORE_A_NUMBER.sub("", sentence[:first])
    return (
        subject_stems(said, company) <= subject_stems(claim, company) | _ONLY
        and not _COMPARED.search(said)
        and places_meet(claim, said, company)
        and not subject_stems(subject, company) - subject_stems(claim, company)
    )


#: Words that stress a figure without saying what it is of.
_ONLY = subject_stems("only just merely still")
#: A figure set against another: "180 hectares more than in 2022".
_COMPARED = re.compile(r"\b(?:more|less|fewer|higher|lower|extra)\b|\bthan\b", re.IGNORECASE)


def _alike_alone(claim: str, sentence: str, theirs: Figure, company: str) -> bool:
    """Whether the clause of the figure, read alone, names the claim's qualifiers and no others."""
    start, end = clause_span(sentence, theirs)
    return qualifiers_agree(claim, sentence[start:end], company)


#: A whole right after a part of it: "Some 120,000 of Greenfurrow's 310,000 hectares" (the whole is no
#: other value for the part).
_WHOLE_AFTER_A_PART = re.compile(
    r"\b\d[\d,.]*\s(?:(?:million|billion)\s)?of\s(?:its|their|the|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s$"
)


#: A target said to be met, right before its figure: "reached its target of 50% renewable electricity".
_MET_TARGET = re.compile(
    r"\b(?:met|meets|reached|achieved|hit|exceeded|surpassed|beat|beaten)\s(?:its|our|their|the)\s"
    r"(?:[\w-]+\s){0,3}?(?:target|goal|ambition)\s(?:of\s)?(?:[\w-]+\s){0,2}?$",
    _I,
)


def _a_part_of_another_thing(claim: str, sentence: str, theirs: Figure, company: str) -> bool:
    """Whether the source figure is a part named after its whole ("46,000 tonnes, of which 38,000
    tonnes were Scope 2") whose clause names nothing of the claim its whole's does not: not the
    whole's value, nor the claim's."""
    whole = whole_of_part(sentence, theirs)
    return whole is not None and not names_more_of_the_claim(
        claim, without_written(sentence), theirs, whole, company
    )


def _an_outcome_of_the_companys(sentence: str, theirs: Stated, company: str) -> bool:
    """Whether a source figure can be what the company did: not the size of things counted
    (`threshold`), not a limit it is held to (`a_limit`), not another's figure set beside its own
    (`set_beside`) nor one in a clause about others that does not name it ("Across the industry,
    64% of cocoa was certified", "Rival Zentro used 27%")."""
    if threshold(sentence, theirs.start) or a_limit(sentence, theirs.start):
        return False
    if set_beside(sentence, theirs.start, theirs.end) and not denied(sentence, theirs.start):
        return False  # kept when the source rejects it ("not the 120,000 hectares the company reports")
    return not _said_of_others(sentence, theirs, company)


def _said_of_others(sentence: str, theirs: Stated, company: str) -> bool:
    """Whether a source figure is said of others than the company: in the clause a rival opens, or in
    a clause about others that does not name it ("Across the industry, 64% of cocoa was certified",
    "Rival Zentro used 27%")."""
    if a_rivals_statement(sentence, theirs.start, company):
        return True  # the figure is the rival's, said in the clause the rival opens
    # "Fernhollow's rival Dunmore" names the company only as the one the rival is set against; a
    # clause opening "which" is said of what the clause before it names ("its rival Bexley, which …")
    start, end = clause_span(sentence, theirs)
    if _RELATIVE_OPENING.match(sentence, start):
        start = clause_span_at(sentence, max(0, start - 2), max(0, start - 2))[0]
    clause = _A_RIVAL_OF.sub(" rival ", sentence[start:end])
    # others named before the figure are its subject ("Rival Zentro used 27%"); after it they are
    # what it is set against ("its 64% led the industry")
    before = clause[: max(0, clause.find(theirs.text))]
    about_others = _OTHERS_SPEAK.search(before) or _OTHERS_OPENER.match(sentence)
    return bool(about_others and not names_company(clause, company) and not _THE_COMPANYS.search(clause))


def _of_a_part(claim: str, sentence: str, theirs: Stated, company: str) -> bool:
    """Whether the subject of the source's figure is a part of the company the claim does not name: its
    own subsidiary, division, affiliate, joint venture or a unit named after a place ("Lumaris's US
    subsidiary recycled 72%", "a joint venture of Lumaris", "its Arizona unit"). Not the company with
    its parts ("Acme and its subsidiaries"), the company as another's part ("Borel's subsidiary
    Acme"), nor another's part ("the EPA's air division"). Another "unit" or an "arm" is left alone:
    more often a business line the claim's figure covers. Others working for the company (its
    contractors, franchisees, suppliers) are a part too, unless the claim speaks of such others in any
    words ("its franchised restaurants", "its supply chain")."""
    start = clause_span(sentence, theirs)[0]
    named = {
        match.group().lower()
        for match in _A_PART_OF_THE_COMPANY.finditer(sentence, start, theirs.start)
        if _the_companys_own(sentence, match, company)
    }
    if _OTHERS_WORKING_FOR_IT.search(claim):
        named = {part for part in named if not _OTHERS_WORKING_FOR_IT.match(part)}
    return bool(named - {match.group().lower() for match in _A_PART_OF_THE_COMPANY.finditer(claim)})


def _the_companys_own(sentence: str, part: re.Match[str], company: str) -> bool:
    """Whether the part `part` names is the company's, and stands apart from the company itself."""
    before, after = sentence[: part.start()], sentence[part.end() :]
    of_a_name = _OF_BEFORE_A_NAME.match(after)
    named_after = of_a_name is None and names_company(after[:40], company)
    listed = _LISTED_WITH.search(before) and names_company(before, company)
    if listed or _WITH_ITS_PARTS.search(before) or _TOGETHER.search(after.split(",")[0]) or named_after:
        return False  # "Acme and its subsidiaries", "its divisions together", "Borel's subsidiary Acme"
    owned = _ITS_BEFORE.search(before) or (
        names_company(before[-60:], company) and _POSSESSIVE_BEFORE.search(before)
    )
    return bool(owned) or (
        of_a_name is not None and names_company(after[of_a_name.end() :][: len(company) + 3], company)
    )


#: A part of a company that may be a subject of its own ("its US subsidiary", "a joint venture"), or
#: others working for it ("its contractors", "Acme's subcontracted hauliers").
_A_PART_OF_THE_COMPANY = re.compile(
    r"\b(?:subsidiar(?:y|ies)|divisions?|joint\sventures?|affiliates?|(?-i:[A-Z])[\w-]*\sunits?|"
    r"(?:sub)?contractors?|(?:sub)?contracted\s[a-z]+|third-party\s[a-z]+|hauliers?|franchisees?|tenants?|"
    r"suppliers?)\b",
    _I,
)
#: Others working for a company, in a claim's words: "franchised restaurants", "supply chain".
_OTHERS_WORKING_FOR_IT = re.compile(
    r"\b(?:(?:sub)?contract\w*|franchis\w*|suppl(?:ier|iers|y)\b|haul\w*|tenants?\b|third[\s-]part\w*)", _I
)
#: Right before a part, the company's own: "its US subsidiary".
_ITS_BEFORE = re.compile(r"\bits\s(?:[\w-]+\s){0,2}$", _I)
#: Right before a part, a name's possessive: "Lumaris's US subsidiary".
_POSSESSIVE_BEFORE = re.compile(r"['’]s?\s(?:[\w-]+\s){0,2}$")
#: The company named with its parts: "Acme and its subsidiaries", "all of Acme's divisions".
_WITH_ITS_PARTS = re.compile(
    r"(?:\b(?:and|with|together\swith|alongside|through|via|including)\s(?:all\s)?its\s|\ball\sof\s[^,;]{0,40})"
    r"(?:[\w-]+\s){0,2}$",
    _I,
)
_TOGETHER = re.compile(r"^\s(?:together|combined|and\s)|\bcombined\b", _I)
#: A part listed after the company: "Acme, its subsidiaries and joint ventures".
_LISTED_WITH = re.compile(r"(?:,|\band)\s(?:its\s)?(?:[\w-]+\s){0,3}$", _I)
#: "of" right before the company's name: "a joint venture of (the) Acme …".
_OF_BEFORE_A_NAME = re.compile(r"\sof\s(?:the\s)?(?=[A-Z])")
#: A rival named after whose rival it is: "Fernhollow's rival Dunmore", "its larger peer Vantor".
_A_RIVAL_OF = re.compile(
    r"\b(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?\s(?:[A-Za-z-]+\s)?(?:rivals?|peers?|competitors?)\b(?!-)"
)
#: A clause said of what the clause before it names: "…, which fell short of 3,500 vans".
_RELATIVE_OPENING = re.compile(r"\s*(?:which|who)\b", _I)
#: A rival named first, then whose rival it is: "Pell Telecom, Ostrava Mobile's main rival, sold …",
#: also after a lead-in ("Tracker data show Pell Telecom, …").
_A_RIVAL_FIRST = re.compile(
    r"(?:^|\b(?:show|shows|showed|found|finds|says|said)\s|\bthat\s|:\s)(?P<rival>(?:(?:[A-Z][\w&-]*|&)\s?)+),\s"
    r"(?:(?:[A-Z][\w&-]*|&)\s)*[A-Z][\w&-]*['’]s?\s(?:[A-Za-z-]+\s){0,2}(?:rival|peer|competitor)s?,|"
    # "Dunmore, a rival of Fernhollow Energy, cut …"
    r"(?:^|\bshow\s|\bshows\s|\bthat\s|:\s)(?P<named>(?:(?:[A-Z][\w&-]*|&)\s?)+),\s(?:a|one|the)\s"
    r"(?:[a-z-]+\s)?(?:rival|peer|competitor)\sof\s[^,]+,"
)


#: The company named by what the press calls it: "the group's", "the miner's".
_THE_COMPANYS = re.compile(
    r"\bthe\s(?:company|group|firm|miner|producer|retailer|carmaker|manufacturer|bank|insurer|utility|"
    r"operator|airline|lender|developer)['’]s?\b",
    _I,
)


#: A sentence opening on others, for the clauses after it: "Across the chocolate industry, …".
_OTHERS_OPENER = re.compile(
    r"(?:across|among|throughout)\s(?:the\s)?(?:[\w-]+\s){0,3}?(?:industry|sector|market|country|region)\b[^,]*,",
    _I,
)
#: A clause about others than the company: a rival, peers, a sector, an industry, a region's farmers.
_OTHERS_SPEAK = re.compile(
    r"\b(?:rivals?|peers?|competitors?|sector|industry|industry-wide|sector-wide|nationwide|"
    r"(?:farmers|firms|companies|producers|operators)\sin\sthe)\b",
    _I,
)


def a_rivals_statement(sentence: str, at: int, company: str) -> bool:
    """Whether what `sentence` says at offset `at` is said of a rival named first ("Pell Telecom,
    Ostrava Mobile's main rival, sold …", "Dunmore, a rival of Fernhollow, cut …"), in the clause
    the rival opens and with the company not named before it."""
    rival = _A_RIVAL_FIRST.search(sentence, 0, at)
    return bool(
        rival
        and not names_company(rival["rival"] or rival["named"], company)
        and not names_company(sentence[rival.end() : at], company)
        and not re.search(r"[;,]|\s(?:while|whereas|but|and)\s", sentence[rival.end() : at])
    )


def beyond_a_met_target(claim: str, figure: Figure, sentence: str, theirs: Figure) -> bool:
    """Whether the claim's figure is a target it says was met and the source's value lies beyond it,
    on the met side ("52% renewable" meets a target of 50%, "93 Ml/d" one of cutting leakage to 95):
    then the two do not conflict. A value short of it, or a source saying it was missed, does."""
    target = _MET_TARGET.search(claim, 0, figure.start)
    if target is None or _MISSED.search(sentence):
        return False
    if _A_CEILING.search(target.group(0)):
        return theirs.base <= figure.base
    return theirs.base >= figure.base


#: A target of getting something down to a level: "cutting leakage to 95 Ml/d", "below 1.5".
_A_CEILING = re.compile(r"\b(?:cut\w*|reduc\w*|lower\w*|limit\w*|below|under|down|no\smore\sthan)\b", _I)


#: A source saying a target was not met: "missing its target", "short of its 50% goal".
_MISSED = re.compile(
    r"\bmiss(?:ed|es|ing)\b|\bshort\sof\b|\bfailed\sto\s(?:meet|reach|hit)\b|\bnot\smet\b", _I
)


#: A site named as the subject of a figure: "its Yarra Creek mine alone", "the Port Hardwick refinery".
_SITE_NOUN = (
    r"(?:mines?|smelters?|refiner(?:y|ies)|plants?|sites?|works|mills?|facilit(?:y|ies)|factor(?:y|ies)|"
    r"terminals?|stations?|data\scent(?:re|er)s?|dams?|farms?|ports?|brewer(?:y|ies)|distiller(?:y|ies)|fabs?|"
    r"quarr(?:y|ies)|hospitals?|airports?|hubs?|kilns?|depots?|campus(?:es)?)"
)
_NAMED_SITE = re.compile(
    r"\b(?P<name>(?!(?:The|Its|Their|Our|A|An|In|At|On|Of|For|From|By|With|Across|To|All|Each|Every)\b)"
    r"[A-Z][\w-]+(?:\s[A-Z][\w-]+)*)\s"
    # one describing word may stand between ("Yarra Creek copper mine"), never a preposition or article
    r"(?:(?!(?:its|their|our|the|a|an|all|each|every|from|at|in|of|for|by|on|to|with|run|owned)\b)[a-z][a-z-]*\s)?"
    rf"{_SITE_NOUN}\b|"
    # a site by where it is: "its newest fab in Arizona"
    rf"\b{_SITE_NOUN}\s(?:in|at|near)\s(?P<place>(?!(?:The|Its|Their|Our|A|An)\b)[A-Z][\w-]+(?:\s[A-Z][\w-]+)*)"
)


def _same_sites(sites: set[str], claim: str, sentence: str, company: str = "") -> bool:
    """Whether the sentence's figures can be for the claim's sites: it names every site kind the
    claim's figures are for, and no site by a name the claim does not use (a site's figure is a part
    of the whole the claim states)."""
    if not all(re.search(rf"\b{site}", sentence, _I) for site in sites):
        return False
    return named_sites_meet(claim, sentence, company)


def named_sites_meet(claim: str, sentence: str, company: str = "") -> bool:
    """Whether each side's named sites are the other's too: "at our Skarnes mill" is not "all of
    its mills", and "its Leeds brewery" or "its fab in Arizona" is not all of them. The company's own
    name before a site noun ("Goldfield Grain Co-operative member farms") names no site."""
    return sites_named_in_claim(claim, sentence, company) and sites_named_in_claim(sentence, claim, company)


def sites_named_in_claim(claim: str, sentence: str, company: str = "") -> bool:
    """Whether every site the sentence names is the claim's too (`named_sites_meet`, one way): a
    sentence about one mine says nothing in favour of what the claim says of the company."""
    return all(_named(_site_name(match), claim, company) for match in _NAMED_SITE.finditer(sentence))


def _site_name(match: re.Match[str]) -> str:
    return match["name"] or match["place"]


def _named(name: str, other: str, company: str) -> bool:
    """Whether a site's name is in the other text, or is (part of) the company's name ("Port
    Halloran" is a site of Halloran Airports, not its name)."""
    return name in other or set(name.split()) <= set(company.split())


def _conflicts(
    differing: list[tuple[ClaimFigure, Figure]], same: list[tuple[ClaimFigure, Figure]], sentence: str
) -> list[tuple[ClaimFigure, Figure]]:
    """The differing pairs that show the source does not state the claim's figure, leaving out
    figures that meet their equal elsewhere in the sentence, each claim figure once and a level for
    the claimed year before a change amount:

    - both state their figure for the same year and the values differ: a source repeating the
      claim's baseline ("from 45% in 2021") while giving another value for the claimed year ("to 41%
      in 2022" against "62% in 2022") does not state the claim's figure;
    - both state a change amount of the same quantity ("down 5%" against "fell 9%"), from the same
      baseline year: the source then does not state the claim's change, whatever level the two share
      (410 kt may be right while the stated 5% fall is not);
    - both give the level a change starts from, of no stated year, and the values differ ("up from
      45%" against "up from 51%").
    """
    matched_mine = {id(mine) for mine, _ in same}
    matched_theirs = {theirs.start for _, theirs in same}
    unmatched = [
        (mine, theirs)
        for mine, theirs in differing
        if id(mine) not in matched_mine and theirs.start not in matched_theirs
    ]
    years = [(mine, theirs) for mine, theirs in unmatched if _same_stated_year(mine, sentence, theirs)]
    changes = [(mine, theirs) for mine, theirs in unmatched if _changes_alike(mine, sentence, theirs)]
    # both give the level the change starts from, and not the same one
    starts = [
        (mine, theirs)
        for mine, theirs in unmatched
        if mine.baseline
        and is_baseline(sentence, theirs)
        and mine.year is None
        and stated_year(sentence, theirs) is None
    ]
    return _each_claim_figure_once(years + changes + starts)


def _same_stated_year(mine: ClaimFigure, sentence: str, theirs: Figure) -> bool:
    return mine.year is not None and mine.year == stated_year(sentence, theirs)


def _changes_alike(mine: ClaimFigure, sentence: str, theirs: Figure) -> bool:
    return (
        mine.role == "change"
        and role(sentence, theirs.start, theirs.end) == "change"
        and same_baseline(mine.baselines, baselines(sentence))
    )


def _each_claim_figure_once(pairs: list[tuple[ClaimFigure, Figure]]) -> list[tuple[ClaimFigure, Figure]]:
    """The pairs in order, each claim figure once."""
    seen: set[int] = set()
    kept = []
    for mine, theirs in pairs:
        if id(mine) not in seen:
            seen.add(id(mine))
            kept.append((mine, theirs))
    return kept


def baselines(text: str) -> frozenset[int]:
    """The years `text` measures changes from ("from 450 kt in 2022", "compared with 2019")."""
    return frozenset(int(year) for year in _BASELINE.findall(text))


def same_baseline(mine: frozenset[int], theirs: frozenset[int]) -> bool:
    """False when both measure changes from a stated year and share none ("down 5% on 2022"
    against "down 30% from 2019 levels"): changes from different baselines differ as a rule."""
    return not mine or not theirs or bool(mine & theirs)


def other_percentages(claim: tuple[ClaimFigure, ...], sentence: str) -> bool:
    """Whether the sentence states percentages (or percentage points), none of which can be the
    same quantity as one of the claim's ("reaching 19% of our total supply" against "Scope 1
    emissions increased 15%", "rose 6%" against "up 6 percentage points"): its directions of change
    then speak of another quantity than the claim's."""
    mine = [_percent_like(figure.figure, figure.percent) for figure in claim if _is_percent(figure.figure)]
    theirs = [
        _percent_like(figure, percent_measure(sentence, figure.start, figure.end))
        for figure in parse_figures(sentence)
        if _is_percent(figure)
    ]
    return bool(mine and theirs) and not any(same_percentage(m, t) for m in mine for t in theirs)


def _is_percent(figure: Figure) -> bool:
    return figure.dimension in {"percent", "pp"}


def _percent_like(
    figure: Figure, measure: tuple[str | None, frozenset[str]]
) -> tuple[str | None, frozenset[str]]:
    """A percentage's kind and base; percentage points are a kind of their own (an absolute change)."""
    return ("points", measure[1]) if figure.dimension == "pp" else measure


def compare_counts(
    claim: tuple[tuple[Count, str], ...],
    sentence: str,
    shared: set[str],
    claim_text: str = "",
    company: str = "",
) -> str | None:
    """Counts of the same things ("167 warehouses"), each claim count with its mood: "denied" when
    the source rejects the claim's count ("60 warehouses, not 167"), "match" when it repeats it,
    "mismatch" when it gives another count of the same things in a sentence sharing at least two
    other content words with the claim, "unasserted" when it repeats the count only negated; a
    sentence saying there were none of the claim's things ("no spills") denies its count. A source
    count is compared only when it is the company's own (not a rival's), for the claim's year, and
    counted over the same span: a count at each site, or one since a year, is not a year's total."""
    theirs = parse_counts(sentence)
    # a number rejected of a rival's ("its rival Bexley, which fell short of 3,500 vans") is the rival's
    rejected = {
        number.value for number in denied_numbers(sentence) if not _said_of_others(sentence, number, company)
    }
    none = none_of(sentence)
    # the same size of the things counted ("above 1,000 litres") is one more word the two share
    sizes = 1 if _same_thresholds(claim_text, sentence) else 0
    result: str | None = None
    for mine, mine_mood in claim:
        # deaths need no other shared word to be the same things counted
        evidence = len(shared - {mine.noun}) + sizes + (mine.noun == FATALITY)
        if mine.value in rejected and mine_mood != "intended":
            return "denied"  # a target of it is not what the company claims to have done
        if mine.noun in none and evidence >= MIN_SHARED_WORDS:
            return "denied"  # "had no spills" against "two spills"
        # cars, buses or vans repeat a count of "vehicles" (and back); only the same word gives another
        same_or_named_things = [
            count
            for count in theirs
            if (count.noun == mine.noun or _one_kind_of_vehicle(claim_text, mine.noun, sentence, count.noun))
            and (
                count.part == mine.part
                or _part_of_the_kind(mine, count, sentence)
                or _counted_by_one_deed(claim_text, mine, sentence, count)
            )
            and _same_kind_of_things(mine, count, sentence)
            and _stated_alike(mine_mood, mood(sentence, count.start, count.end))
            and _an_outcome_of_the_companys(sentence, count, company)
            and _of_the_claims_things(claim_text, mine, sentence, count, company)
        ]
        same_things = [count for count in same_or_named_things if count.noun == mine.noun]
        repeated = [
            count
            for count in same_or_named_things
            # a count written with its scale holds what it rounds, on either side ("2.1m", 2,134,000)
            if count.holds(mine.value) or (mine.rounding and abs(count.value - mine.value) <= mine.rounding)
        ]
        # who people counted are is said after them: "staff through agencies", "women on part-time contracts"
        repeated = [
            count
            for count in repeated
            if count.noun not in PEOPLE or not narrowed_beyond_the_claim(claim_text, sentence, count, company)
        ]
        if any(not negated(sentence, count.start) for count in repeated):
            result = "match"
        elif repeated:
            result = result or "unasserted"  # "did not fit LED lighting at 212 depots"
        elif (
            same_things
            # the same deed done to some of the owner's things is one more word the two share
            and evidence
            + any(_counted_by_one_deed(claim_text, mine, sentence, count) for count in same_things)
            >= MIN_SHARED_WORDS
            and result in {None, "unasserted"}
            and not all(
                narrowed_beyond_the_claim(claim_text, sentence, count, company)
                or _A_WHOLE_OPENING.match(sentence[: count.start])
                for count in same_things
            )
        ):
            result = "mismatch"
    return result


#: A sentence opening on a whole, before the part of it it goes on to count: "Of the 62 container ships
#: in its fleet, fourteen could run on methanol" (62 is no count of the fourteen's kind).
_A_WHOLE_OPENING = re.compile(r"\s*(?:of|out\sof|among)\s[^,;]{0,60}$", _I)


#: Things counted by a word of their own or as vehicles, as counts name them (`singular`).
_VEHICLES = frozenset(
    singular(word) for word in ("cars", "buses", "vans", "trucks", "coaches", "motorcycles")
)
_VEHICLE = singular("vehicles")


def _one_kind_of_vehicle(claim: str, mine: str, sentence: str, theirs: str) -> bool:
    """Whether one noun counted names the only kind of the other the two texts give: cars, buses, vans
    or trucks are vehicles, unless either text names another kind ("… vehicles, mostly vans") or a
    mix ("including", "of them")."""
    if not ({mine, theirs} & _VEHICLES and _VEHICLE in {mine, theirs}):
        return False
    kinds = {singular(word.lower()) for word in _VEHICLE_KIND.findall(claim + " " + sentence)}
    return len(kinds & _VEHICLES) == 1 and not _A_MIX.search(sentence)


_VEHICLE_KIND = re.compile(
    r"\b(?:cars?|buses|bus|vans?|trucks?|lorr(?:y|ies)|coach(?:es)?|motorcycles?)\b", _I
)
_A_MIX = re.compile(
    r"\b(?:mix|mixed|mostly|mainly|largely|including|included|of\sthem|of\swhich|besides|as\swell\sas)\b", _I
)


def _of_the_claims_things(claim: str, mine: Count, sentence: str, theirs: Count, company: str) -> bool:
    """Whether a source count of the claim's noun counts the claim's things over its stretch
    (`count_context`); a claim given without its text is taken as it comes."""
    return not claim or (
        counted_over_the_same_span(claim, mine, sentence, theirs)
        and not said_of_another_number(claim, mine, sentence, theirs, company)
        and not of_a_part_the_claim_does_not_name(claim, sentence, theirs, company)
        and not _of_a_part(claim, sentence, theirs, company)
    )


def _part_of_the_kind(mine: Count, theirs: Count, sentence: str) -> bool:
    """Whether some of an owner's things counted ("fewer than 200 of the vans") are said after the
    count to be of the claim's kind ("… were battery-electric", against "420 battery-electric vans"):
    then they count the claim's things. "300 of its haul trucks" alone is no count of all it has."""
    missing = set(mine.kind) - set(theirs.kind)
    after = sentence[theirs.end :].lower()
    return (
        theirs.part and bool(missing) and all(re.search(rf"\b{re.escape(word)}\b", after) for word in missing)
    )


def _counted_by_one_deed(claim: str, mine: Count, sentence: str, theirs: Count) -> bool:
    """Whether a count of some of an owner's things names what was done to them ("audited 214 of its
    suppliers") and the other count says the same deed done to its things, right before it ("audited
    140 suppliers") or after it in the passive ("140 suppliers were audited"), about the same thing
    where both say ("trained … in fibre installation" is not "trained in first aid"): both count the
    things it was done to."""
    if mine.part == theirs.part:
        return False
    (part_text, part), (other_text, other) = ((claim, mine), (sentence, theirs))[:: 1 if mine.part else -1]
    deed = _DEED_BEFORE.search(part_text, 0, part.start)
    if deed is None or deed["deed"].lower() in _HOLDING or _OWNERS_THING.match(part_text, part.end):
        return False  # "operated 45 of our vessels", "replaced 120 of our stations' motors"
    done = re.escape(deed["deed"][:-2] if deed["deed"].endswith("ed") else deed["deed"])
    said = re.compile(rf"\b{done}\w*\s{_COUNT_HEDGE}$", _I)
    passive = re.compile(rf"\s(?:(?:were|was|had\sbeen|have\sbeen|been)\s)(?:\w+\s)?(?P<deed>{done}\w*)", _I)
    after = passive.match(other_text, other.end)
    if not (said.search(other_text, 0, other.start) or after):
        return False
    mine_about = _ABOUT.match(part_text, part.end)
    their_about = _ABOUT.match(other_text, after.end() if after else other.end)
    if mine_about is None or their_about is None:
        # what it was about said on one side only ("sold 300 of its homes to housing associations")
        return mine_about is None and their_about is None
    shared = set(mine_about["what"].lower().split()) & set(their_about["what"].lower().split())
    return bool(shared - _GENERIC_ABOUT)


#: What a deed was about, after the things it was done to: "in fibre installation", "for labour risks"
#: (not a year: "in 2024").
_ABOUT = re.compile(
    r"\s(?:in|on|for|against|to|with|through|via|under|over|by(?=\s(?-i:[a-z])))\s(?!(?:the\s)?(?:FY\s?)?\d)"
    r"(?P<what>(?:[\w'’-]+\s?){1,4})",
    _I,
)
#: Words that say nothing of what a deed was about.
_GENERIC_ABOUT = frozenset({"the", "its", "our", "their", "a", "an", "risks", "risk", "safety", "and", "of"})
#: Verbs of holding or running things, which count them rather than say a deed done to some of them.
_HOLDING = frozenset(
    {
        "operated",
        "employed",
        "owned",
        "leased",
        "chartered",
        "managed",
        "held",
        "sold",
        "insured",
        "ran",
        "had",
    }
)
#: A count's things owning what is counted: "120 of our pumping stations' motors".
_OWNERS_THING = re.compile(r"['’]s?\s")


#: A deed done right before a count of some of an owner's things: "audited 214 of its suppliers".
#: Words hedging a count, right before it: "about 140".
_COUNT_HEDGE = r"(?:(?:about|around|some|nearly|almost|over|just|only)\s)?"
_DEED_BEFORE = re.compile(
    rf"\b(?P<deed>[a-z]{{3,}}ed|sold|built|bought|paid|won|took|made)\s{_COUNT_HEDGE}$", _I
)


def _stated_alike(mine: str, theirs: str) -> bool:
    """Whether two counts or figures are stated alike (`change_mood.mood`): never a planned, ordered
    or pending one for one the claim says there is ("placed an order for 3,500 vans" against "had
    3,500 vans", "1.9 GW waiting to be connected" against "connected 1.9 GW"), nor an intended one
    with a reported change."""
    return same_mood(mine, theirs) and (theirs != "intended" or mine == "intended")


def _same_thresholds(claim: str, sentence: str) -> bool:
    """Whether both texts give the same size of the things they count ("spills above 1,000 litres")."""
    mine = [f for f in parse_figures(claim) if threshold(claim, f.start)]
    if not mine:
        return False
    theirs = [f for f in parse_figures(sentence) if threshold(sentence, f.start)]
    return any(a.same_kind(b) and same_value(a, b) for a in mine for b in theirs)


def _same_kind_of_things(mine: Count, theirs: Count, sentence: str) -> bool:
    """Whether two counts of the same noun count the same kind of things: the same describing words,
    or none in the source where its sentence names the claim's kind anyway ("64 homes" of "Evergreen
    Lodge Care" for "64 care homes"), or a describing word both give, whole or as part of a compound
    ("3,500 battery-electric vans" for "3,500 electric delivery vans"). "312 battery-electric buses"
    are not a fleet of 1,240 buses."""
    if theirs.kind == mine.kind or _kind_parts(theirs.kind) & _kind_parts(mine.kind):
        return True
    share = _WHOLE_OF_A_SHARE.search(sentence, 0, theirs.start)
    if share and float(share["share"]) < 100:
        return False  # "a quarter of its 1,240 vehicles were battery-electric": 1,240 is all of them
    # a word said of another number is not said of this count ("2.1m bikes, of which 400k were electric")
    elsewhere = blanked(without_other_numbers(sentence, theirs, parts_only=True), theirs.start, theirs.end)
    return not theirs.kind and all(re.search(rf"\b{re.escape(word)}", elsewhere, _I) for word in mine.kind)


#: A count right after a share of it: the whole the share is of ("25% of Transvia's 1,240 vehicles").
_WHOLE_OF_A_SHARE = re.compile(
    r"(?<![\d.])(?P<share>\d+(?:\.\d+)?)\s?(?:%|per\scent|percent)\sof\s"
    r"(?:the\s|its\s|their\s|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?\s)$"
)


def _kind_parts(kind: tuple[str, ...]) -> frozenset[str]:
    """The describing words of a count and the parts of its compounds ("battery-electric": both)."""
    return frozenset(part for word in kind for part in (word, *word.split("-")))


def _same_quantity(claim_quantity: str | None, source_quantity: str | None) -> bool:
    """The same emissions quantity, or a source figure that does not say which (its sentence shares
    the claim's topic). A figure the source labels (Scope 1, the total) is compared only with a claim
    figure of that label."""
    return source_quantity is None or claim_quantity == source_quantity


def _same_measure(mine: ClaimFigure, sentence: str, theirs: Figure) -> bool:
    """Whether two figures can measure the same quantity: the same emissions quantity, a comparable
    mood, for percentages the same kind and base, and for others the same thing when both say what
    they are of."""
    measure = percent_measure(sentence, theirs.start, theirs.end)
    if mine.figure.dimension == "percent":
        same_thing = same_percentage(mine.percent, measure)
    else:  # "5.6 million tonnes of scrap" is not "5.6 million tonnes of iron ore"
        same_thing = not (mine.percent[1] and measure[1]) or _things_meet(mine.percent[1], measure[1])
    # changes from different baselines ("since 2019" against "compared with 2022") are other quantities
    other_baseline = (
        mine.role == "change"
        and role(sentence, theirs.start, theirs.end) == "change"
        and not same_baseline(mine.baselines, baselines(sentence))
    )
    return (
        _same_quantity(mine.quantity, quantity_at(sentence, theirs.start))
        and _stated_alike(mine.mood, mood(sentence, theirs.start, theirs.end))
        and same_thing
        and not other_baseline
    )


def _over_other_years(claim: str, mine: Figure, sentence: str, theirs: Figure) -> bool:
    """Whether one of two amounts is summed over several years and the other is not ("restored 4,200
    hectares between 2019 and 2022" is not a year's 4,200): the total of a span is another quantity
    than a year's, even when the span ends in the claim's year. Percentages are left alone: a change
    "between 2019 and 2022" is the change to 2022. So are two sides that both name a span: a running
    total "since 2019" may be said as one that "reached" its level."""
    if "percent" in {mine.dimension, theirs.dimension} or not claim:
        return False
    if names_a_span_of_years(claim) and names_a_span_of_years(sentence):
        return False
    return over_years(claim, mine) != over_years(sentence, theirs)


def _done_otherwise(claim: str, mine: Figure, sentence: str, theirs: Figure) -> bool:
    """Whether the verbs right before two amounts of goods or energy say different things were done
    with them: what a company brewed is not what it sold, bought or used ("brewed 9.4 million hl"
    against "sold 8.9 million hl"); "produced and sold 2.1 Mt" is both. Percentages (the verb is the
    part's: "renewables generated 64% of the electricity it bought"), money and savings are left
    alone: "delivered €210 million of savings" is what "generated" them says."""
    if {mine.dimension, theirs.dimension} & {"percent", "currency"}:
        return False
    if _SAVED.match(claim, mine.end) or _SAVED.match(sentence, theirs.end):
        return False
    mine_done, their_done = _done_with(claim, mine), _done_with(sentence, theirs)
    return bool(mine_done and their_done) and not mine_done & their_done


def _done_with(text: str, figure: Figure) -> set[str]:
    """What the verbs right before an amount say was done with it (`_AMOUNT_VERBS`): "produced and sold"."""
    verbs = _VERBS_BEFORE.search(text, 0, figure.start)
    if verbs is None:
        return set()
    kinds = [_AMOUNT_VERBS.get(verb.lower()) for verb in (verbs["first"], verbs["second"]) if verb]
    return {kind for kind in kinds if kind is not None} if None not in kinds else set()


#: The verb (or two joined verbs) right before an amount, past a hedge: "produced and sold about".
_VERBS_BEFORE = re.compile(
    r"\b(?:(?P<first>[A-Za-z]+)\s(?:and|or)\s)?(?P<second>[A-Za-z]+)\s"
    r"(?:(?:about|around|some|roughly|nearly|almost|approximately|just|only)\s)?$"
)
#: Verbs before an amount, by what was done with it.
_AMOUNT_VERBS = {
    **dict.fromkeys("produced brewed made generated manufactured mined smelted refined".split(), "made"),
    **dict.fromkeys("sold shipped delivered exported".split(), "sold"),
    **dict.fromkeys("bought purchased procured imported".split(), "bought"),
    **dict.fromkeys("put placed".split(), "placed on the market"),
    **dict.fromkeys("collected recovered".split(), "collected"),
}
#: After an amount, savings or cuts of it: "1.1 Mt of CO2e savings", "320 GWh of energy savings".
_SAVED = re.compile(r"\s(?:of\s)?(?:[\w-]+\s){0,2}?(?:savings?|reductions?|cuts?|revenue|sales)\b", _I)


def _changes_the_claims_subject(claim: str, sentence: str, theirs: Figure, company: str) -> bool:
    """Whether a relative change the source states ("fell 22%") is of something the claim names, or
    of nothing its clause names: "print circulation fell 22%" confirms no cut in paper use by 22%."""
    if theirs.dimension != "percent" or percent_measure(sentence, theirs.start, theirs.end)[0] != "change":
        return True
    if implied(sentence, theirs):
        return True  # worked out from levels the comparison of figures has already matched
    said = _named_things(clause_of(sentence, theirs), company)
    return not said or bool(said & _named_things(claim, company))


def _named_things(text: str, company: str) -> frozenset[str]:
    """The stems of what `text` names, each also as a share's base is named ("power" is electricity)."""
    return with_whole_forms(re.findall(r"[A-Za-z]+", text), subject_stems(text, company) - LINKING_STEMS)


def _done_apart(claim: str, mine: Figure, sentence: str, theirs: Figure) -> bool:
    """Whether a share said in the passive counts those who did something the other share's own words
    never say ("the app was downloaded by 40% of its customers" against "40% of our customers used the
    app"); deeds of using ("used", "plugged into", "ran on") are one, and so are deeds of taking a thing
    up ("adopted", "signed", "switched to"), but not a deed undone ("opted out", "switched away")."""
    if mine.dimension != "percent" or theirs.dimension != "percent":
        return False
    mine_deed, their_deed = (
        passive_deed(claim, mine.start, mine.end),
        passive_deed(sentence, theirs.start, theirs.end),
    )
    return any(
        deed is not None and not _deed_said(deed, _share_predicate(text, figure))
        for deed, text, figure in ((mine_deed, sentence, theirs), (their_deed, claim, mine))
    )


#: Deeds of using a thing and of taking one up, in their first letters.
_DEED_KINDS = (
    ("use", "plug", "connect", "ran", "run", "burn", "consum", "reli", "rely"),
    ("adopt", "join", "sign", "enrol", "subscrib", "switch", "chos", "chose", "opt", "took", "take"),
)
#: Verbs said bare, without "-ed" or "-ing".
_BARE_VERBS = frozenset(
    "use uses ran run runs burn burns rely relies chose choose chooses took take takes join joins sign signs "
    "opt opts adopt adopts switch switches plug plugs".split()
)
#: Words after a deed that undo it: "opted out of", "switched away from".
_UNDONE = frozenset({"away", "out", "off", "from"})
#: How many words a share's predicate keeps, the last of its clause, and where that clause ends.
_PREDICATE_WORDS = 20
_PREDICATE_END = re.compile(r"[,;:.]|\s(?:and|but|while|whereas|after|before)\s")


def _share_predicate(text: str, figure: Figure) -> list[str]:
    """The words of the share's clause around it that may say what was done: its passive verb before it
    and its clause after it, the last `_PREDICATE_WORDS` of them."""
    before = text[max(0, figure.start - 40) : figure.start]
    after = _PREDICATE_END.split(text[figure.end :], maxsplit=1)[0]
    return [word.lower() for word in re.findall(r"[A-Za-z]+", f"{before} {after}")][-_PREDICATE_WORDS:]


def _deed_said(deed: str, words: list[str]) -> bool:
    """Whether `words` say the deed (a participle) as a verb: in its first letters, or as a deed of its
    kind, not undone by the word after it."""
    beginning = deed[: max(3, min(5, len(deed) - 2))]
    kinds = [kind for kind in _DEED_KINDS if deed.startswith(kind)]
    for before, word, following in zip(["", *words], words, [*words[1:], ""], strict=False):
        # "switched away from" undoes it; "designed to burn" says what could be done
        if (
            following in _UNDONE
            or before == "to"
            or not (word.endswith(("ed", "ing", "en")) or word in _BARE_VERBS)
        ):
            continue
        if word.startswith(beginning) or any(word.startswith(kind) for kind in kinds):
            return True
    return False


def _narrowed_apart(claim: str, mine: Figure, sentence: str, theirs: Figure) -> bool:
    """Whether one share's whole is narrowed to some of its kind by a word the other text never says
    ("85% of its Tier 1 suppliers", "of its new suppliers", "of its business customers" are no shares
    of all its suppliers or customers)."""
    if mine.dimension != "percent" or theirs.dimension != "percent":
        return False
    mine_narrowed, theirs_narrowed = _narrowing(claim, mine), _narrowing(sentence, theirs)
    return _unsaid(mine_narrowed, sentence) or _unsaid(theirs_narrowed, claim)


#: Words that narrow a share's whole to some of its kind.
_NARROWING_WORDS = (
    r"new|former|tier\s[123]|indirect|key|strategic|critical|major|main|top|"
    r"largest|biggest|smaller|small|larger|high\srisk|higher\srisk|business(?=\s(?:customers?|clients?|users?|accounts?|travel|units?))|residential|commercial|domestic|household|industrial|"
    r"corporate|senior|junior|permanent|temporary|part\stime|full\stime|active|priority"
)
#: Narrowing words for one kind ("biggest" suppliers are the "largest"), each written as the first.
_SAME_NARROWING = {
    "biggest": "largest", "top": "largest", "major": "largest", "main": "largest",
    "strategic": "key", "critical": "key", "priority": "key",
    "commercial": "business", "corporate": "business",
    "household": "residential", "domestic": "residential",
    "smaller": "small", "higher risk": "high risk",
}  # fmt: skip
#: What things new by nature are said with: "new cars" are those "sold", "new suppliers" those "onboarded".
_NEW_BY_NATURE = re.compile(
    r"\b(?:sold|sales|orders?|ordered|onboarded|hired|hires|joined|completed|built)\b"
)
#: A share's whole right after it, to the end of its phrase: "of its Tier 1 suppliers".
_WHOLE_PHRASE = re.compile(
    r"\s?of\s(?P<whole>(?:(?![,;:.()]|\s(?:and|but|while|which|that|in|at|by|to|from|under|through|for|"
    r"with|across|into|over|such)\s).){1,60})",
    _I,
)


def _narrowing(text: str, figure: Figure) -> set[str]:
    """The words narrowing the whole of the share `figure` (`_NARROWING_WORDS`), each written one way."""
    whole = _WHOLE_PHRASE.match(text, figure.end)
    if whole is None:
        return set()
    # an owner's name in the whole ("Key Freight's suppliers", "Senior Living's homes") narrows nothing
    unnamed = _NAME.sub(" ", whole["whole"])
    return {
        _SAME_NARROWING.get(word, word)
        for word in re.findall(rf"\b(?:{_NARROWING_WORDS})\b", _as_compared(unnamed))
    }


#: An owner's name: capitalised words before a possessive ("Key Freight's").
_NAME = re.compile(r"(?-i:\b[A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)*['’]s?(?=\s))")


def _unsaid(words: set[str], text: str) -> bool:
    """Whether some of `words` are not said in `text`, in any of their forms."""
    said = _as_compared(text)
    named = {_SAME_NARROWING.get(word, word) for word in re.findall(rf"\b(?:{_NARROWING_WORDS})\b", said)}
    if _NEW_BY_NATURE.search(said):
        named.add("new")
    return bool(words - named)


_TIER_WORDS = {
    "1": "1",
    "one": "1",
    "first": "1",
    "2": "2",
    "two": "2",
    "second": "2",
    "3": "3",
    "three": "3",
}
_TIER = re.compile(r"\btier\s(1|2|3|one|two|three)\b|\b(first|second|third)\stier\b")


def _as_compared(text: str) -> str:
    """`text` in lower case, hyphens as spaces and tiers written one way ("first-tier" and "direct"
    suppliers are "tier 1")."""
    text = re.sub(
        r"\b(?:direct|immediate)\s(?=suppliers?\b)|\btier\si\b", "tier 1 ", text.lower().replace("-", " ")
    ).replace("smallholder", "small holder")
    return _TIER.sub(lambda match: f"tier {_TIER_WORDS.get(match[1] or match[2], '3')}", text)


def _visits_apart(claim: str, mine: Figure, sentence: str, theirs: Figure) -> bool:
    """Whether one share is of visits or journeys made and the other of the things making them ("30% of
    cruise ship calls" is not "30% of the cruise ships"); a visit word naming something else ("call
    centre", "flight crew") is no visit."""
    return _of_visits(claim, mine) != _of_visits(sentence, theirs)


_VISITS = re.compile(
    r"\b(?:calls?|visits?|trips?|journeys?|flights?|voyages?|sailings?|departures?)\b"
    r"(?=\s(?:at|to|in|from|by|on|into|made|that|which|was|were|used|plugged|connected|the|it|we|they)\b|"
    r"(?-i:\s[A-Z])|\s?[,.;)]|\s?$)",
    _I,
)


def _of_visits(text: str, figure: Figure) -> bool:
    """Whether the whole of the share `figure` is visits or journeys made."""
    whole = _WHOLE_PHRASE.match(text, figure.end)
    if whole is None:
        return False
    # "the fuel used on its flights" is of fuel
    stop = _ON.search(text, whole.start("whole"), whole.end())
    # a visit word in a name ("Voyages Group's hotels") is no visit
    visit = _VISITS.search(text, whole.start(), stop.start() + 1 if stop else whole.end() + 1)
    return visit is not None and visit.group()[0].islower()


_ON = re.compile(r"\son\s", _I)


#: A share's whole owned by another company: "40% of its rival's employees", "of peers' sales".
_A_RIVALS_WHOLE = re.compile(
    r"\s?of\s(?:(?:its|their|the|a)\s)?(?:[\w&.-]+['’]s?\s)?(?:[\w-]+\s)?(?:rivals?|competitors?|peers?)['’]s?\s",
    _I,
)


def _parts_meet(claim: str, mine: ClaimFigure, theirs: Figure, sentence: str, company: str) -> str:
    """How the parts two figures count meet when both are shares (`share_parts.part_relation`):
    "women made up 40% of the board" is not "independent directors made up 40% of the board"."""
    kinds = (mine.percent[0], percent_measure(sentence, theirs.start, theirs.end)[0])
    if mine.figure.dimension != "percent" or "change" in kinds:
        return "same"
    return part_relation(
        outside_other_shares(claim, mine.figure),
        share_part(claim, mine.figure, company),
        outside_other_shares(sentence, theirs),
        share_part(sentence, theirs, company),
    )


def _other_value_of_the_part(relation: str, mine: ClaimFigure, theirs: Figure) -> bool:
    """Whether a share the source states is another value for the claim's, its parts meeting as
    `relation` (`_parts_meet`): of the same part, or of a kind of it larger than it, or of what it is a
    kind of smaller than it ("wind supplied 30%" against "renewables supplied 25%"); less of a kind
    than of the whole of it is no other value."""
    if relation == "narrower":
        return abs(mine.figure.base) > abs(theirs.base)
    if relation == "broader":
        return abs(theirs.base) > abs(mine.figure.base)
    return relation == "same"


#: Words this long may meet inside a compound ("freshwater", "fresh water").
_MIN_PART = 4


def _things_meet(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether two figures' "of ..." words name the same thing, in the singular or inside a compound
    ("plantation forest" and "plantations", "freshwater" and "fresh water")."""
    first = {singular(word) for word in mine}
    second = {singular(word) for word in theirs}
    return any(
        a == b or (len(a) >= _MIN_PART and len(b) >= _MIN_PART and (a in b or b in a))
        for a in first
        for b in second
    )


def _opposite(mine: ClaimFigure, sentence: str, theirs: Figure) -> bool:
    """Whether the source states the figure for the opposite change ("rose 30%" against "reduced by
    30%")."""
    direction = figure_direction(sentence, theirs.start, theirs.end)
    return mine.direction is not None and direction is not None and direction != mine.direction


def _certainly_same_quantity(mine: ClaimFigure, sentence: str, theirs: Figure, alike: bool) -> bool:
    """Both figures label the same emissions quantity, or the claim labels none and the sentences
    measure alike."""
    if mine.quantity is not None:
        return quantity_at(sentence, theirs.start) == mine.quantity
    return alike


def _measured_alike(claim: str, mine: Figure, sentence: str, theirs: Figure, company: str) -> bool:
    """Whether two shares are of a whole measured the same way, and of what was done with it, where
    both say ("68% of its portfolio by floor area" is not "68% of its portfolio by rent"; "64% of the
    electricity it generated" is not "64% of the electricity it sold")."""
    if mine.dimension != "percent" or theirs.dimension != "percent" or not claim:
        return True
    bases = share_basis(claim, mine.end), share_basis(sentence, theirs.end)
    activities = (
        share_activity(claim, mine.start, mine.end),
        share_activity(sentence, theirs.start, theirs.end),
    )
    # a share of one place's things is of a part ("of Larkspur's London hotels", "of the cocoa it
    # bought in Ghana"), unless the claim names that place too
    return (
        same_basis(*bases)
        and (None in activities or activities[0] == activities[1])
        and not _visits_apart(claim, mine, sentence, theirs)
    ) and places_meet(claim, share_whole(sentence, theirs.start, theirs.end), company)


def _same_year(mine: int | None, theirs: int | None) -> bool:
    return mine is None or theirs is None or mine == theirs


#: Tonnes "of" something other than emissions ("19.8 million tonnes of steel").
_OF_A_MATERIAL = re.compile(r"\s?of\s(?!(?:CO|carbon|greenhouse|GHG|emissions?|Scope)\b)", _I)


def _certainly_comparable(mine: ClaimFigure, theirs: Figure, sentence: str, claim: str) -> bool:
    """Neither unit has two readings, and both figures are of CO2e or neither is, tonnes named
    without it in a sentence about emissions counting as CO2e ("Scope 1 emissions climbed to 3.1
    million tonnes"), unless they are tonnes of something named ("of steel")."""
    if mine.figure.ambiguous or theirs.ambiguous:
        return False
    if mine.figure.co2e == theirs.co2e:
        return True
    if theirs.co2e:
        return mine.quantity is not None or _of_emissions(claim, mine.figure)
    return _of_emissions(sentence, theirs)


def _of_emissions(text: str, figure: Figure) -> bool:
    """Whether tonnes named without CO2e are of emissions: the text speaks of them, and does not name
    another material they are of."""
    return speaks_of_emissions(text) and not _OF_A_MATERIAL.match(text, figure.end)
