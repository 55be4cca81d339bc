"""Rule-based reading of one source against one claim, the path taken without an LLM or when the
LLM fails.

The source is read sentence by sentence (`web_evidence` has already set aside sources that never
name the report's company). A sentence counts only when it shares the claim's topic (at
least two content words, or an overlapping emissions scope). A contradiction or support also needs
the company named in the sentence or the title. A sentence about another period (both state years,
none shared) says nothing about the claim's figures or direction of change. Figures (and counts,
"167 warehouses") are compared only for the same quantity: the same dimension and currency, one
stated year, the same emissions quantity (Scope 1, Scope 1+2, Scope 3 and the total of all three
scopes are four different ones; a source figure that names none is taken as the claim's, its
sentence sharing the claim's topic; a site's figure only with that site's), and a comparable mood:
a commitment, aim, plan or forecast ("committed to cutting", "a 39% reduction by 2035") is an
intention, and an intention is never compared with a reported change (`change_mood`). A relative
change ("rose 9%") is never a share ("64% of …") or percentage points, and shares of different bases
("of total energy use", "of electricity use") are different quantities (`figure_comparison`).
Directions of change are compared only when both are reported, the sentence names no other
quantity than the claim (nor only percentages of another kind), and it names emissions itself when
the claim does ("renewable power purchases rose" says nothing of "Scope 2 emissions fell"). A
source rejecting the claim's figure ("60 sites, not 167") states a different figure. A different
figure, and any direction of change, also needs the two sentences to measure alike
(`figure_subjects`): a shared word beyond units and periods, the same qualifiers (avoided, saved,
supplier, commuting ...; a clause breaking a total down, "mostly from customers processing ore", names
none), and for figures the same role (a change amount is never a level). A source stating another
change amount for the same quantity ("fell 9% to 410 kt" against "410 kt, down 5%", from the same
baseline year) never supports the claim, whatever level the two share. "Slipped" and "shelved"
are delay words.

A sentence may state the claim's figure without standing behind it (`denials`): it disputes what it
reports ("X claims 64%, but an audit found …", "a figure analysts say is understated"), negates it
("did not spend EUR 140 million"), or gives it for the opposite change ("rose 30%" against "reduced
by 30%"). Such a sentence never supports; another figure for the same quantity in it contradicts, as
does the opposite change of the same labelled quantity, and a denied change ("did not cut") of the
claim's direction. Otherwise it only discusses the claim ("neutral" with a signal), and it outranks
support from other sentences of the source, which does not stand behind the figure either.

Signals, strongest first: a different figure for the same quantity (direct, 0.9), the opposite
direction of change or a denied change (direct, 0.85), a delayed or missed deadline (timeline, 0.8),
enforcement or litigation (omission, 0.75), and criticism (contextual, 0.7). The same figure (0.6) or
the same reported direction (0.5) counts as support. The sentence relied on is kept as the quote, so
the quote check can confirm it is in the source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.knowledge.keywords import tokens
from app.language.figures import Figure, parse_figures
from app.language.key_terms import STOPWORDS
from app.language.number_words import figures_in_digits
from app.language.sentences import split_sentences
from app.language.years import MONTH_NAMES, parse_years
from app.verification.reading.change_mood import denied_change, mood, reported_direction
from app.verification.reading.complements import complement_conflict, complement_match
from app.verification.reading.denials import disputes
from app.verification.reading.figure_clauses import without_earlier_statement, without_later_figures
from app.verification.reading.figure_comparison import (
    MIN_SHARED_WORDS,
    ClaimFigure,
    FigureOutcome,
    a_rivals_statement,
    baselines,
    compare_counts,
    compare_figures,
    other_percentages,
    same_baseline,
    sites_named_in_claim,
)
from app.verification.reading.figure_comparison import same_value as same_value
from app.verification.reading.figure_subjects import (
    SUBJECTLESS_WORDS,
    adds_no_qualifier,
    measure_alike,
    percent_measure,
    role,
    shared_members,
    speaks_of_emissions,
    subject_words,
    without_attribution,
    without_explanations,
)
from app.verification.reading.figures import Count, covered_scopes, parse_counts, quantities, threshold
from app.verification.reading.implied_figures import as_read, implied
from app.verification.reading.statements import (
    CESSATION,
    LATER_IS_THE_POINT,
    MIN_CONTRADICTED,
    counterexample,
    denied_by_claim,
    names_denied,
    other_numbered_names,
    read_statement,
    subject_stems,
)
from app.verification.sources.company_names import names_company

_I = re.IGNORECASE
DELAY = re.compile(
    r"\b(?:delay\w*|postpon\w*|push(?:ed|es)? back|abandon\w*|scrapp(?:ed|ing)|scraps\s(?:its|the)|"
    r"dropp(?:ed|ing) (?:its|the) target|"
    r"missed|miss(?:es)? (?:its|the)|will not (?:meet|reach|achieve)|behind schedule|watered down|"
    r"backtrack\w*|retreat\w*|shelv(?:ed|es|ing)|slipp(?:ed|ing)(?!\s(?:by|to|from|back)\b|\s\d)|"
    r"slips?(?!\s(?:by|to|from|back)\b|\s\d))\b",
    _I,
)
ENFORCEMENT = re.compile(
    r"\b(?:fined|fines|(?:a|the) fine|penalt\w*|lawsuits?|sued|su(?:es|ing)|charged|indict\w*|"
    r"enforcement(?!\s(?:registers?|records?|data|databases?|lists?|logs?)\b)|"
    r"violat\w*|investigat\w*|probe[sd]?|prosecut\w*|settle(?:d|ment)|(?:to|in|a|the|before|by|federal|high|supreme|district|appeals?)\scourts?|sanction\w*|"
    r"misleading|breach\w*)\b",
    _I,
)
#: A wrong found against someone: a fine, a breach; an investigation or a court may as well confirm
#: what a company says, and a lawsuit alleges.
_WRONG_FOUND = re.compile(
    r"\b(?:fined|(?:a|the)\sfine|breach\w*|violat\w*|prosecuted|convicted|sanctioned)\b", _I
)
#: A time before the claim's named without a year: "a breach the year before", "previously".
_ANOTHER_TIME = re.compile(
    r"\b(?:the\s(?:year|month)s?\sbefore|(?:a|the)\s(?:previous|prior)\s(?:year|period)|a\syear\searlier|"
    r"previously|in\sthe\spast|last\syear|years?\sago)\b",
    _I,
)
#: A wrong only alleged: "alleging it breached", "accused of".
_ALLEGED = re.compile(r"\b(?:alleg\w*|accus\w*|claim(?:s|ed)?\sthat)\b", _I)
#: Critical words. "Greenwash" is neither enforcement nor a fact against the claim: a charge that
#: disputes what it names (`denials.disputes`) without saying otherwise.
CRITICISM = re.compile(
    r"\b(?:criticis\w*|criticiz\w*|accus\w*|controvers\w*|fail(?:ed|s|ure)|but still|"
    r"still relies|questionable|doubts?|undermin\w*|offsets? rather|certificates rather|overstat\w*)\b",
    _I,
)
#: "no fines", "without penalty": enforcement named only to say there was none.
_NO_ENFORCEMENT_BEFORE = re.compile(
    r"\b(?:no|without|zero|nor|free\sof)\s(?:[\w-]+\s(?:or|and|nor)\s)?(?:[a-z][\w-]*\s){0,2}$", _I
)
#: A deadline: "by 2030", "until 2025" ("in 2022" or "to 2022" dates a result, not a deadline).
_TARGET_YEAR = re.compile(r"\b(?:by|until)\s+((?:19|20)\d{2})\b", _I)
# A figure for one site or segment ("at the Kitimat smelter") is not the group's figure.
_SITE = re.compile(
    r"\b(?:at|from|in|for)\s(?:the|our|its|one|a)?\s?(?:[A-Z][\w-]*\s){0,3}"
    r"(smelter|refinery|plant|site|mine|facility|factory|division|segment)\b",
    _I,
)


@dataclass(frozen=True)
class SourceAssessment:
    """How one source bears on a claim.

    `stance` is "contradicts", "supports", "neutral" (on topic, no signal) or "irrelevant".
    `signal` names the rule that fired; `quote` is the source sentence relied on.
    """

    stance: str
    contradiction_type: str | None
    confidence: float
    explanation: str
    quote: str | None
    signal: str | None
    method: str = "rules"


def content_words(text: str) -> set[str]:
    """Lower-case content words, crudely singularised, without stopwords and numbers, and two words
    written as one ("fresh water" is also "freshwater")."""
    words = set()
    found = tokens(text)
    for token in found:
        if token.isdigit() or token in STOPWORDS or len(token) < 3:
            continue
        words.add(token[:-1] if token.endswith("s") and len(token) > 4 else token)
    for first, second in zip(found, found[1:], strict=False):
        if first.isalpha() and second.isalpha() and not {first, second} & _NOT_IN_COMPOUNDS:
            words.add(first + (second[:-1] if second.endswith("s") and len(second) > 4 else second))
    return words


#: Words never joined into a compound: stopwords, units, scales and periods ("metric tons").
_NOT_IN_COMPOUNDS = STOPWORDS | SUBJECTLESS_WORDS


@dataclass(frozen=True)
class _Claim:
    """What the rules read from the claim: read once per source, then held against each sentence."""

    text: str
    words: set[str]
    scopes: frozenset[str]
    years: set[int]
    quantities: frozenset[str]
    direction: str | None
    denied: str | None  # the direction of change the claim denies ("did not increase")
    figures: tuple[ClaimFigure, ...]
    counts: tuple[tuple[Count, str], ...]  # with each count's mood
    sites: set[str]
    has_deadline: bool  # a target year, or a target, goal or commitment
    company: str  # whose claim it is
    year_kind: str | None  # "calendar" or "fiscal" when the claim says which (`_year_kind`)
    span: tuple[str, str] | None  # the span of years it states ("between 2019 and 2022")
    result_years: set[int]  # its years other than those it measures changes from

    @classmethod
    def read(cls, text: str, company: str = "") -> _Claim:
        figures = tuple(
            ClaimFigure.read(text, figure)
            for figure in parse_figures(text)
            if not threshold(text, figure.start)
        )
        explained = without_explanations(text)  # "helped by higher recycling" is no increase
        years = {year for year, _ in parse_years(text)}
        return cls(
            text=text,
            words=content_words(text),
            scopes=covered_scopes(text),
            years=years,
            quantities=quantities(text),
            direction=reported_direction(explained),
            denied=denied_change(explained),
            figures=figures,
            counts=tuple((count, mood(text, count.start, count.end)) for count in parse_counts(text)),
            sites={match.group(1).lower() for match in _SITE.finditer(text)},
            has_deadline=bool(_TARGET_YEAR.search(text) or re.search(r"target|goal|commit", text, _I)),
            company=company,
            year_kind=_year_kind(text),
            span=_span(text),
            result_years=years - baselines(text),
        )


def assess_by_rules(
    claim_text: str, company: str, title: str, source_text: str, published: str | None = None
) -> SourceAssessment:
    """The strongest signal among the source's on-topic sentences (see the module docstring); the
    date the source was `published` (ISO) says which year its "last year" is."""
    sentences = [title, *(s.text for s in split_sentences(1, source_text))]
    claim = _Claim.read(figures_in_digits(claim_text), company)
    about_company = names_company(title, company)
    best: SourceAssessment | None = None
    on_topic = False
    for quote in sentences:
        # read with its figures in digits and the figures it implies written in, quoted as written
        sentence = as_read(quote, published, claim_text, company)
        shared = claim.words & content_words(sentence)
        scopes = covered_scopes(sentence)
        if claim.scopes and scopes and not claim.scopes & scopes:
            continue  # another scope's figures say nothing about this one
        if other_numbered_names(claim.text, sentence):
            continue  # "Category 1" emissions, "ISO 45001" sites are not the claim's
        if not _on_topic(claim, sentence, shared, scopes):
            continue
        on_topic = True
        named = bool(company) and (about_company or names_company(sentence, company))
        named = named and not _disowns(sentence, company)
        found = _signal(claim, sentence, quote.strip(), named, _context_words(shared, company))
        if found is not None and (best is None or _rank(found) > _rank(best)):
            best = found
    if best is not None:
        return best
    if on_topic:
        return SourceAssessment(
            "neutral",
            None,
            0.5,
            "The source discusses the claim's topic but neither confirms nor contradicts it.",
            None,
            None,
        )
    return SourceAssessment(
        "irrelevant", None, 0.0, "The source does not discuss the claim's topic.", None, None
    )


#: A sentence naming the company only to say another is not it: "Tallowood Timber, which is
#: unconnected to Tallowood Paper & Forests, ...".
_DISOWNED = re.compile(
    r"\b(?:un(?:connected|related|affiliated)|not\s(?:connected|related|affiliated|linked)|"
    r"no\s(?:relation|connection))\s(?:to|with)\s",
    _I,
)


def _disowns(sentence: str, company: str) -> bool:
    """Whether the sentence names the company as what another company is not related to."""
    return any(
        names_company(sentence[match.end() : match.end() + len(company) + 8], company)
        for match in _DISOWNED.finditer(sentence)
    )


def _on_topic(claim: _Claim, sentence: str, shared: set[str], scopes: frozenset[str]) -> bool:
    """Whether the sentence shares the claim's topic: two content words, an emissions scope, the
    claim's subject in other forms of its words ("fined" for "a fine"), or one subject word and a
    figure of the same kind as one of the claim's ("withdrew 8,300 megalitres of water" for "water
    withdrawal fell to 8.3 million cubic metres")."""
    members = shared_members(claim.text, sentence, claim.company)  # "NOx" and "nitrogen oxides"
    if len(shared | members) >= MIN_SHARED_WORDS or claim.scopes & scopes:
        return True
    if complement_conflict(claim.text, sentence, claim.company) is not None:
        return True  # the other side of the claim's whole ("30% of its power from fossil fuels")
    if len(
        subject_stems(claim.text, claim.company) & subject_stems(sentence, claim.company)
    ) >= MIN_CONTRADICTED or names_denied(denied_by_claim(claim.text, sentence, claim.company)):
        return True
    theirs = parse_figures(sentence)
    if any(
        mine.figure.dimension == figure.dimension and _names_its_subject(figure)
        for mine in claim.figures
        for figure in theirs
    ):
        return True  # a safety rate or a named index is its subject ("a TRIFR of 2.1")
    if not subject_words(_context_words(shared, claim.company)) | members:
        return False
    measures = [
        figure.figure for figure in claim.figures if figure.figure.dimension not in _NO_SUBJECT_DIMENSIONS
    ]
    if any(mine.same_kind(figure) for mine in measures for figure in theirs):
        return True
    # a relative change of the subject on both sides ("leakage fell by only 4 per cent"), or a share
    # of the same things ("27.3% of its directors" for "45% of our board seats")
    if any(figure.role == "change" for figure in claim.figures) and any(
        figure.dimension == "percent" and role(sentence, figure.start, figure.end) == "change"
        for figure in theirs
    ):
        return True
    bases = [figure.percent[1] for figure in claim.figures if figure.percent[1]]
    return any(
        base & percent_measure(sentence, figure.start, figure.end)[1]
        for base in bases
        for figure in theirs
        if figure.dimension == "percent"
    )


def _names_its_subject(figure: Figure) -> bool:
    """Whether a figure's kind alone says what it measures: a rate per hours worked, a named index."""
    return figure.dimension == "rate" or figure.dimension.startswith("index ")


#: Figures whose kind says nothing of what they measure: a percentage or an amount of money.
_NO_SUBJECT_DIMENSIONS = frozenset({"percent", "pp", "currency"})


def _wrong_found_then(claim: _Claim, sentence: str) -> bool:
    """Whether the sentence reports a wrong found against the company in the claim's period: not one
    named to say there was none ("found no violations"), nor one of another year ("after a breach in
    2022", "unlike in 2021, when it was fined")."""
    for match in _WRONG_FOUND.finditer(sentence):
        if _negated_enforcement(sentence, match.start()):
            continue
        near = sentence[max(0, match.start() - 50) : match.end() + 40]
        if all(year in claim.years for year, _ in parse_years(near)) and not _ANOTHER_TIME.search(near):
            return True
    return False


def _enforced(sentence: str) -> bool:
    """Whether the sentence reports enforcement, litigation or an investigation, other than in whose
    words it is said ("the regulator's enforcement data show") or to say there was none."""
    said = without_attribution(sentence)
    return any(not _negated_enforcement(said, match.start()) for match in ENFORCEMENT.finditer(said))


def _negated_enforcement(sentence: str, at: int) -> bool:
    """Whether the enforcement word at `at` is named to say there was none ("lists no fines or
    enforcement notices")."""
    return _NO_ENFORCEMENT_BEFORE.search(sentence[max(0, at - 40) : at]) is not None


def _context_words(shared: set[str], company: str) -> set[str]:
    """The shared content words that are not the company's name."""
    return shared - content_words(company)


_RANK = {"contradicts": 2, "neutral": 1, "supports": 0}


def _rank(assessment: SourceAssessment) -> tuple[int, float]:
    """Contradictions first; a sentence stating the claim's figure only to negate or dispute it
    outranks support elsewhere in the source (the source does not stand behind the figure)."""
    return (_RANK.get(assessment.stance, 0), assessment.confidence)


@dataclass(frozen=True)
class _Reading:
    """What the rules read from one source sentence against the claim. The directions are read
    only when the sentence measures alike, for the same period and emissions quantity."""

    figures: str | None  # figure_comparison's outcome: "match", "mismatch", "opposite", "unasserted"
    claim_direction: str | None
    sentence_direction: str | None
    denied_direction: str | None  # the change the sentence denies ("did not cut")
    disputed: bool
    alike: bool
    same_period: bool
    qualified: bool  # whether the sentence names no qualifier the claim does not (`adds_no_qualifier`)
    outcome: FigureOutcome | None = None  # the figures the comparison rests on
    #: the claim's share and the sentence's share of the other side, which make up the whole
    complement: tuple[Figure, Figure] | None = None
    #: whether every site the sentence names is the claim's too, reasons left out (`sites_named_in_claim`)
    claims_sites: bool = True
    #: whether each side's named sites are the other's too, reasons left out (`named_sites_meet`)
    sites_meet: bool = True

    @classmethod
    def read(cls, claim: _Claim, sentence: str, shared: set[str]) -> _Reading:
        same_period = _same_period(claim, sentence)
        subjects = subject_words(shared) | shared_members(claim.text, sentence, claim.company)
        if claim.scopes and claim.scopes == covered_scopes(sentence):
            subjects.add("scope")  # the same emissions scope named on both sides is a shared subject
        alike = measure_alike(claim.text, sentence, subjects, claim.company)
        disputed = disputes(sentence)
        outcome = (
            _compare_all(claim, sentence, shared, alike, disputed, bool(subjects)) if same_period else None
        )
        figures = outcome.kind if outcome else None
        explained = without_explanations(sentence)
        claim_said = without_explanations(claim.text)
        claims_sites = sites_named_in_claim(claim_said, explained, claim.company)
        sites_meet = claims_sites and sites_named_in_claim(explained, claim_said, claim.company)
        directions = (
            same_period
            and alike
            and (not quantities(sentence) or claim.quantities == quantities(sentence))
            and (not speaks_of_emissions(claim.text) or speaks_of_emissions(sentence))
            and not other_percentages(claim.figures, sentence)
            and sites_meet  # one named site's change is not the whole company's
            and same_baseline(baselines(claim.text), baselines(sentence))  # "since 2019" is not "on 2022"
            and not a_rivals_statement(sentence, len(sentence), claim.company)  # a rival's change
        )
        return cls(
            figures,
            claim.direction if directions else None,
            reported_direction(explained) if directions else None,
            denied_change(explained) if directions else None,
            disputed,
            alike and same_period,
            same_period,
            adds_no_qualifier(
                claim.text, _said_of_the_figure(sentence, outcome, claim.company, claim.text), claim.company
            ),
            outcome,
            complement_match(claim.text, sentence, claim.company)
            if same_period and not disputed and sites_meet
            else None,
            claims_sites,
            sites_meet,
        )


def _signal(
    claim: _Claim, sentence: str, quote: str, named: bool, shared: set[str]
) -> SourceAssessment | None:
    """The strongest signal of one sentence (`quote` as written): a contradiction, else support,
    else a figure or statement the sentence repeats without standing behind it. Only a sentence
    about the company (`named`) can say anything."""
    if not named:
        return None
    reading = _Reading.read(claim, sentence, shared)
    return (
        _contradiction(claim, sentence, reading, quote)
        or _statement_of_the_same_sites(claim, sentence, quote, reading)
        or _context(claim, sentence, reading, quote)
        or _support(reading, sentence, quote)
        or _unasserted(reading, quote)
    )


def _statement_of_the_same_sites(
    claim: _Claim, sentence: str, quote: str, reading: _Reading
) -> SourceAssessment | None:
    """`_statement`, except that what one named site did never confirms what the claim says of the
    company (it may still refute it: a death at one mine contradicts "no fatalities")."""
    found = _statement(claim, sentence, quote, reading.same_period)
    if found is not None and found.stance == "supports":
        if not reading.claims_sites:
            # read, and silent on the company's own record: no weaker rule reads the sentence again
            explanation = (
                "The source speaks of one named site; it does not confirm what the claim says of the company."
            )
            return SourceAssessment("neutral", None, 0.5, explanation, quote, "one_site")
    return found


def _statement(claim: _Claim, sentence: str, quote: str, same_period: bool) -> SourceAssessment | None:
    """What the sentence says of a claim that states no figure (`statements`). A sentence about
    another year says nothing of it, unless what the claim says ended goes on after it."""
    found = read_statement(claim.text, sentence, claim.company)
    if found is None or (not same_period and found.signal not in LATER_IS_THE_POINT):
        return None
    if (
        found.stance == "supports"
        and not ENFORCEMENT.search(claim.text)
        and _wrong_found_then(claim, sentence)
    ):
        # "was fined for breaching its permit" restates no claim of keeping to it
        if _ALLEGED.search(sentence):
            explanation = (
                "The source reports a wrong alleged, not found; it neither restates nor refutes the claim."
            )
            return SourceAssessment("neutral", None, 0.5, explanation, quote, None)
        return None
    if found.stance == "contradicts":
        return _contradicts("direct", 0.8, found.explanation, quote, found.signal)
    return SourceAssessment("supports", None, 0.5, found.explanation, quote, found.signal)


def _contradicts(kind: str, confidence: float, explanation: str, quote: str, signal: str) -> SourceAssessment:
    return SourceAssessment("contradicts", kind, confidence, explanation, quote, signal)


def _contradiction(claim: _Claim, sentence: str, reading: _Reading, quote: str) -> SourceAssessment | None:
    claim_direction, sentence_direction = reading.claim_direction, reading.sentence_direction
    if reading.figures == "mismatch":
        explanation = "The source states a different figure for the same quantity than the claim" + (
            _which_figures(reading.outcome, sentence)
        )
        return _contradicts("direct", 0.9, explanation, quote, "numeric_mismatch")
    if reading.figures == "opposite":
        explanation = "The source states the claim's figure for a change in the opposite direction."
        return _contradicts("direct", 0.85, explanation, quote, "opposite_direction")
    if reading.same_period and counterexample(claim.text, sentence, claim.company):
        explanation = "The source reports some of what the claim says of every one falling short of it."
        return _contradicts("direct", 0.8, explanation, quote, "counterexample")
    conflict = complement_conflict(claim.text, sentence, claim.company) if reading.same_period else None
    if conflict is not None:
        return _contradicts("direct", 0.85, conflict.explanation(), quote, "complement_share")
    if claim_direction and sentence_direction and claim_direction != sentence_direction:
        explanation = f"The claim reports {_a(claim_direction)}; the source reports {_a(sentence_direction)}."
        return _contradicts("direct", 0.85, explanation, quote, "opposite_direction")
    if claim_direction and claim_direction == reading.denied_direction:
        explanation = f"The claim reports {_a(claim_direction)}; the source says there was none."
        return _contradicts("direct", 0.85, explanation, quote, "denied_change")
    if claim.denied and claim.denied == sentence_direction and reading.alike:
        explanation = f"The claim says there was no {claim.denied}; the source reports {_a(claim.denied)}."
        return _contradicts("direct", 0.85, explanation, quote, "denied_change")
    return None


#: An end of something a sentence may report as put off: "the closure ... has been pushed back".
_AN_END = re.compile(r"\b(?:closure|shutdown|phase[\s-]out|retirement|exit|decommissioning)\b", _I)


def _delays_an_end(claim: str, sentence: str) -> bool:
    """Whether the claim reports something as ended and the sentence names that end (as delayed)."""
    return CESSATION.search(claim) is not None and _AN_END.search(sentence) is not None


def _context(claim: _Claim, sentence: str, reading: _Reading, quote: str) -> SourceAssessment | None:
    """A delayed deadline, enforcement or criticism: contradictions by context, not by figure."""
    if DELAY.search(sentence) and (claim.has_deadline or _delays_an_end(claim.text, sentence)):
        explanation = "The source reports the target or deadline as delayed, missed or abandoned."
        return _contradicts("timeline", 0.8, explanation, quote, "timeline")
    # a fine of another year says nothing of this one's, nor one beside a figure the source confirms
    if _enforced(sentence) and reading.same_period and reading.figures != "match":
        explanation = (
            "The source reports enforcement, litigation or an investigation on this topic that the claim "
            "does not mention."
        )
        return _contradicts("omission", 0.75, explanation, quote, "enforcement")
    if CRITICISM.search(sentence) and reading.figures != "match":
        explanation = "The source gives critical context that undermines the claim."
        return _contradicts("contextual", 0.7, explanation, quote, "negative_context")
    return None


def _said_of_the_figure(sentence: str, outcome: FigureOutcome | None, company: str, claim: str) -> str:
    """What of `sentence` may qualify the figure the comparison rests on: all of it, less the
    clauses of the figures it states afterwards (`without_later_figures`) and what a statement
    before its own says of its figure (`without_earlier_statement`)."""
    if outcome is None or outcome.theirs is None:
        return sentence
    return without_earlier_statement(
        without_later_figures(sentence, outcome.theirs), outcome.theirs, company, claim
    )


def _support(reading: _Reading, sentence: str, quote: str) -> SourceAssessment | None:
    """The same figure, or the same reported direction, in a sentence that does not dispute it."""
    if reading.figures == "match" and reading.qualified:
        theirs = reading.outcome.theirs if reading.outcome else None
        explanation = (
            f"The source's figures work out to the claim's: {_as_found(theirs, sentence)}."
            if theirs is not None and implied(sentence, theirs)
            else "The source states the same figure as the claim."
        )
        return SourceAssessment("supports", None, 0.6, explanation, quote, "same_figure")
    if reading.complement is not None and reading.qualified:
        mine, theirs = reading.complement
        explanation = (
            f"The source's {theirs.text} on the other side of the same whole leaves the claim's {mine.text}."
        )
        return SourceAssessment("supports", None, 0.6, explanation, quote, "complement_share")
    direction = reading.claim_direction
    if direction and direction == reading.sentence_direction and not reading.disputed:
        return SourceAssessment(
            "supports", None, 0.5, f"The source also reports {_a(direction)}.", quote, "same_direction"
        )
    return None


def _unasserted(reading: _Reading, quote: str) -> SourceAssessment | None:
    """A sentence that states the claim's figure only negated or disputed, or disputes a statement
    on the claim's subject: it discusses the claim and confirms nothing."""
    if reading.figures == "unasserted":
        explanation = (
            "The source states the claim's figure but negates or disputes it, or gives it for another "
            "change; it does not confirm the claim."
        )
        return SourceAssessment("neutral", None, 0.5, explanation, quote, "unasserted_figure")
    if reading.disputed and reading.same_period:
        explanation = "The source disputes a statement on the claim's subject; it does not confirm the claim."
        return SourceAssessment("neutral", None, 0.5, explanation, quote, "disputed")
    return None


def _which_figures(outcome: FigureOutcome | None, sentence: str) -> str:
    """Which figures differ, as the end of a reason (": 470 kt CO2e where the claim states 450 kt
    CO2e for 2022."), or "." when the comparison does not say."""
    if outcome is None or outcome.mine is None or outcome.theirs is None:
        return "."
    pairs = [(outcome.mine, outcome.theirs), *outcome.also]
    return ": " + "; and ".join(_differing(mine, theirs, sentence) for mine, theirs in pairs) + "."


def _differing(mine: ClaimFigure, theirs: Figure, sentence: str) -> str:
    year = f" for {mine.year}" if mine.year else ""
    return f"{_as_found(theirs, sentence)} where the claim states {mine.figure.text}{year}"


def _as_found(figure: Figure, sentence: str) -> str:
    """A source's figure as a reason names it, saying so when it was worked out (`implied`)."""
    return (
        f"{figure.text} (worked out from the source's figures)" if implied(sentence, figure) else figure.text
    )


def _a(noun: str) -> str:
    """The noun with its indefinite article ("an increase", "a decrease")."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _same_period(claim: _Claim, sentence: str) -> bool:
    """False when the claim and the sentence both state years and share none, when one states a
    calendar year and the other a financial year that does not end in December (the same number,
    another twelve months), or when both state a span of years and not the same."""
    sentence_years = {year for year, _ in parse_years(sentence)}
    if claim.years and sentence_years and not claim.years & sentence_years:
        return False
    if {claim.year_kind, _year_kind(sentence)} == {"calendar", "fiscal"}:
        return False
    theirs_named = _named_by_years(sentence)
    if any(
        thing in theirs_named and not years & theirs_named[thing]
        for thing, years in _named_by_years(claim.text).items()
    ):
        return False  # its 2023 green bond is not the 2021 one
    theirs = _span(sentence)
    # "between 2019 and 2021" is not the change "between 2019 and 2022", nor "by 2022 against 2019"
    if claim.span and theirs:
        return claim.span == theirs
    return not (theirs and claim.result_years) or int(theirs[1]) in claim.result_years


_RANGE = re.compile(
    r"\b(?:between|from)\s(?:FY\s?)?((?:19|20)\d\d)\s(?:and|to)\s(?:FY\s?)?((?:19|20)\d\d)\b", _I
)
#: A year that names a thing, right before it: "its 2021 green bond", "the 2019 sustainability-linked loan".
_YEAR_NAMING = re.compile(
    r"\b(?:(?i:its|our|their|the)|[A-Z][\w&-]*['’]s?)\s((?:19|20)\d\d)\s(?:[a-z-]+\s){0,2}?"
    r"(bonds?|notes?|loans?|facility|issues?)\b"
)


def _named_by_years(text: str) -> dict[str, set[str]]:
    """The things `text` names by a year, with each year it names them by ("2021 green bond" ->
    {"bond": {"2021"}})."""
    named: dict[str, set[str]] = {}
    for match in _YEAR_NAMING.finditer(text):
        named.setdefault(match[2].rstrip("s"), set()).add(match[1])
    return named


def _span(text: str) -> tuple[str, str] | None:
    """The first and last year of the span of years `text` states, if it states one."""
    match = _RANGE.search(text)
    return (match[1], match[2]) if match else None


_CALENDAR_YEAR = re.compile(r"\bcalendar(?:\syear)?\s(?:19|20)\d\d\b|\b(?:19|20)\d\d\scalendar\syear\b", _I)
#: A year ending in December is the calendar year: any other month names a financial year.
_MONTHS = "|".join(MONTH_NAMES[:-1])
_FISCAL_YEAR = re.compile(
    rf"\b(?:FY\s?\d|fiscal|financial\syear)|\byear\s(?:to|end(?:ed|ing))\s(?:\d{{1,2}}\s)?(?:{_MONTHS})\b",
    _I,
)


def _year_kind(text: str) -> str | None:
    """ "calendar" or "fiscal" when the text says which kind of year it states, None otherwise."""
    if _CALENDAR_YEAR.search(text):
        return "calendar"
    return "fiscal" if _FISCAL_YEAR.search(text) else None


def _compare_all(
    claim: _Claim, sentence: str, shared: set[str], alike: bool, disputed: bool, shared_subject: bool
) -> FigureOutcome | None:
    """Figures with units first, then counts; a rejected claim count is a mismatch either way, and
    nothing a sentence disputes is a match."""
    figures = compare_figures(
        claim.figures,
        claim.sites,
        sentence,
        alike=alike,
        disputed=disputed,
        claim_text=claim.text,
        company=claim.company,
        shared_subject=shared_subject,
    )
    counts = compare_counts(claim.counts, sentence, shared, claim.text, claim.company)
    if counts == "denied":
        return FigureOutcome("mismatch")
    result = figures or (FigureOutcome(counts) if counts else None)
    return FigureOutcome("unasserted") if result and result.kind == "match" and disputed else result
