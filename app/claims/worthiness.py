"""Check-worthiness: does a sentence assert something specific that a verifier could check?

A sentence earns points for each signal of a checkable fact (a figure with a unit, a year, a
target, a named place, a governance fact, a certification) and loses some for hedging, for
industry context, for reading as a general fact, or for being cut off mid-phrase. Boilerplate
(fragments without a verb, disclaimers, contents lines, definitions, navigation, links, bare
aspirations, generic industry context, spoken chatter and questions) scores zero outright. A figure
about no sustainability subject, or money talk, loses points. Scores are additive so the reasons
for a decision can be read back as the list of signals.

A second path needs no figure: an environmental assertion by the company about itself, its products
or its operations (`app.claims.environmental`) is a claim, ranked just above the bar so that the
density budget keeps specific claims first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.claims.environmental import (
    ACTION,
    ENVIRONMENTAL_THRESHOLD,
    FINANCIAL,
    PRODUCT_PROPERTY,
    PRONOUN_SUBJECT,
    STRONG_TOPIC,
    environmental_score,
    is_chatter,
    named_actor,
    names_subject,
    virtue_claim,
)
from app.claims.other_parties import ASSURER_STATEMENT, OTHER_PARTY
from app.claims.signals import (
    ASPIRATION,
    ASSURANCE,
    BROKEN_WORD,
    CADENCE,
    CARBON_PRICING,
    CERTIFICATION,
    CHAIRED,
    COMPANY,
    COMPARISON,
    CONTINUATION,
    COUNT,
    CURRENCY,
    DATE,
    DEFINITION,
    DISCLAIMER,
    EMISSIONS,
    ENVIRONMENT,
    FACILITY,
    FIGURE_WITH_UNIT,
    FINITE_VERB,
    FRAMING,
    GENERAL_DEFINITION,
    GENERIC,
    GOVERNANCE,
    HEDGE,
    INDEX_PROMPT,
    INTENDING,
    LINK,
    LIST_LEAD,
    MARKET_RESULT,
    METHODOLOGY,
    MULTIPLE,
    NAVIGATION,
    NET_ZERO,
    OTHERS_AIMS,
    PAST_PARTICIPLE,
    PLACE,
    PLURAL_BEFORE,
    REDUCTION,
    REMUNERATION,
    REPORT_DESCRIPTION,
    RESULT,
    SCHEME_DEFINITION,
    SELF_REFERENCE,
    SENTENCE_END,
    TARGET_YEAR,
    TAXONOMY,
    TOC,
    VERB,
    affirmed,
)
from app.claims.subjects import GOVERNANCE_FACT, SUBJECT
from app.language.intentions import TARGET
from app.language.years import YEAR

_I = re.IGNORECASE

NO_SUBJECT_PENALTY = 1.2
ACTING_MIN_WORDS = 8
_LETTER = re.compile(r"[^\W\d_]")
MIN_CHARS = 30
MIN_WORDS = 6
#: A short virtue claim ("Our cartons are eco-friendly.") is a whole sentence from this many words.
MIN_VIRTUE_WORDS = 4
#: Phrases separated by semicolons with no verb among them are a list, from this many.
MIN_LIST_ITEMS = 3
MAX_NON_LETTER_SHARE = 0.45

_WEIGHTS: tuple[tuple[str, re.Pattern[str], float], ...] = (
    ("figure_with_unit", FIGURE_WITH_UNIT, 2.0),
    ("currency_amount", CURRENCY, 2.0),
    ("count", COUNT, 1.2),
    ("year", YEAR, 0.6),
    ("date", DATE, 0.6),
    ("target_year", TARGET_YEAR, 1.0),
    ("net_zero", NET_ZERO, 1.2),
    ("target", TARGET, 0.7),
    ("change", REDUCTION, 0.5),
    ("multiple", MULTIPLE, 1.5),
    ("carbon_pricing", CARBON_PRICING, 1.5),
    ("reported_result", RESULT, 0.5),
    ("comparison", COMPARISON, 0.5),
    ("emissions_topic", EMISSIONS, 0.8),
    ("environment_topic", ENVIRONMENT, 0.4),
    ("named_place", PLACE, 0.8),
    ("facility", FACILITY, 0.5),
    ("governance", GOVERNANCE, 0.7),
    ("meeting_cadence", CADENCE, 1.5),
    ("remuneration_link", REMUNERATION, 1.5),
    ("chaired_by", CHAIRED, 1.0),
    ("assurance_named", ASSURANCE, 1.8),
    ("certification", CERTIFICATION, 1.5),
    ("company_subject", COMPANY, 0.4),
    ("governance_fact", GOVERNANCE_FACT, 1.7),
)
# At least one of these must be present: something specific enough to check.
ANCHORS = frozenset(
    {
        "figure_with_unit",
        "currency_amount",
        "count",
        "target_year",
        "meeting_cadence",
        "remuneration_link",
        "chaired_by",
        "assurance_named",
        "certification",
        "date",
        "governance_fact",
        "multiple",
        "carbon_pricing",
    }
)
_PLACE_ANCHOR = frozenset({"named_place", "facility"})
CLAIM_THRESHOLD = 2.4
#: An environmental assertion (`app.claims.environmental`) is a claim without a figure; it ranks
#: just above the bar, rising slowly with the strength of the assertion.
ENVIRONMENTAL_SIGNAL = "environmental_claim"
ENVIRONMENTAL_SLOPE = 0.4
#: Above this score an environmental assertion could not rank a sentence higher (its score is capped).
ENVIRONMENTAL_CEILING = CLAIM_THRESHOLD + ENVIRONMENTAL_SLOPE * 4.0
FINANCIAL_PENALTY = 1.2
HEDGE_PENALTY = 0.8
SELF_REFERENCE_PENALTY = 1.5
LOWERCASE_START_PENALTY = 2.0
UNFINISHED_PENALTY = 2.0
#: Two or more words split across columns: text from two places run together, not one assertion.
BROKEN_PENALTY = 1.5
MIN_BROKEN = 2
UNFINISHED_TAIL = 24
GENERIC_PENALTY = 1.5
# "worldwide" or "globally" about the company's own reach is not industry context.
_FOOTPRINT = re.compile(r"worldwide|globally", _I)
TIMELESS_PENALTY = 1.0
# A present-tense statement with no company, date or place in it reads as a general fact
# ("Renewable diesel has a 65% lower carbon intensity than fossil diesel"), not a company claim.
_TIMELESS = re.compile(r"\b(?:is|are|has|have|can)\b(?! been)")
_UNDATED_NAMES = frozenset(
    {
        "year",
        "date",
        "named_place",
        "target_year",
        "governance",
        "meeting_cadence",
        "chaired_by",
        "assurance_named",
        "certification",
        "facility",
    }
)
_UNFINISHED = re.compile(
    r"(?:[,(\u2013\u2014-]|\b(?:and|or|of|the|a|an|to|in|for|with|by|on|at|from|as|our|its|their|which|"
    r"that|is|are|was|were|than|compared to|between|per))$",
    _I,
)


#: The entity's own result for a stated past year ("In fiscal 2023, we reported research expenses of
#: ..."): checkable against its accounts, so money talk and a missing sustainability subject do not
#: count against it.
_OWN_RESULT = re.compile(
    r"^In (?:fiscal (?:year )?|FY ?)?20\d\d\b(?:,[^.]{0,50}?)?,\s(?:we|[A-Z][\w&.\-]+(?:\s[A-Z][\w&.\-]+)?)\s"
    r"(?:generated|reported|recorded|purchased|spent|invested|earned|paid|raised|donated)\b"
)


_NEVER_A_CLAIM = (
    METHODOLOGY,
    OTHERS_AIMS,
    DISCLAIMER,
    TOC,
    NAVIGATION,
    LINK,
    INDEX_PROMPT,
    DEFINITION,
    REPORT_DESCRIPTION,
    ASSURER_STATEMENT,
)


def is_boilerplate(sentence: str) -> bool:
    """Text that is never a claim, whatever figures it holds.

    Disclaimers and safe harbours, a report describing itself, contents lines, navigation and
    links, definitions (of a term, or of a scheme or a kind of thing with no word of the company in
    it), fragments
    (too short, no verb, mostly numbers), the lead-in to a list, and aspirations or industry
    context with nothing specific to the company in them. Another party's text is not the company's
    claim either (`app.claims.other_parties`): the assurance provider's opinion on the company's
    figures, and other parties' pledges and policies when the sentence says nothing of the company.
    """
    text = sentence.strip()
    if _is_fragment(text) or is_chatter(text):
        return True
    if any(pattern.search(text) for pattern in _NEVER_A_CLAIM):
        return True
    if (SCHEME_DEFINITION.search(text) or GENERAL_DEFINITION.search(text)) and not _owned(text):
        return True
    if LIST_LEAD.search(text) and not _has_anchor(_signals(text)):
        return True
    if ASPIRATION.search(text) and not (_has_anchor(_signals(text)) or _framed_claim(text)):
        return True
    return bool(
        (GENERIC.search(text) or OTHER_PARTY.search(text)) and not (COMPANY.search(text) or named_actor(text))
    )


def _framed_claim(text: str) -> bool:
    """An environmental claim inside a framing of belief or pride ("We believe our cans offer a
    low-carbon choice", "We are proud that our paper comes from managed forests"): the entity still
    says it does or offers something environmental. Value phrases ("a sustainable future", "every
    tonne counts") are never such a framing, and a framing around nothing done ("We believe a healthy
    planet matters", "We recognise that climate change poses risks") stays an aspiration."""
    if any(not FRAMING.fullmatch(match.group()) for match in ASPIRATION.finditer(text)):
        return False
    score, reasons = environmental_score(text)
    return score >= ENVIRONMENTAL_THRESHOLD and bool(_DOING & set(reasons)) and _does_something(text)


def _does_something(text: str) -> bool:
    """A verb of doing, not one of intending or supporting ("commit", "aim", "support", "help")."""
    return any(not INTENDING.match(match.group()) for match in ACTION.finditer(text)) or bool(
        PRODUCT_PROPERTY.search(text)
    )


def _is_fragment(text: str) -> bool:
    """Too short, no finite verb, or mostly digits and punctuation: not a statement.

    A short whole sentence in which the company calls itself or its products green, eco-friendly
    or certified is not too short: it is the kind of claim the EU rules single out.
    """
    if len(text) < MIN_CHARS or len(text.split()) < MIN_WORDS:
        return not _short_virtue_claim(text)
    if text.count(";") >= MIN_LIST_ITEMS - 1 and not VERB.search(text):
        return True  # items of a list or a table cell ("Audit plan; risk policy; and reporting.")
    if (
        not VERB.search(text)
        and not _metric_tile(text)
        and not _achievement_bullet(text)
        and not (
            SENTENCE_END.search(text.rstrip(" •▪·"))
            and (
                PAST_PARTICIPLE.search(text)
                or _acts(text)
                or _nominal_target(text)
                or FINITE_VERB.search(text)
            )
        )
    ):
        return True
    letters = len(_LETTER.findall(text))
    non_space = len(text.replace(" ", ""))
    return non_space == 0 or 1 - letters / non_space > MAX_NON_LETTER_SHARE


def _metric_tile(text: str) -> bool:
    """A headline figure as reports set them out, with no verb or full stop: a figure with its unit
    first, what it measures after, and its year ("1.6 billion litres diesel consumed at our major
    managed operations in 2023")."""
    first = FIGURE_WITH_UNIT.search(text)
    return first is not None and first.start() <= 2 and YEAR.search(text) is not None


def _achievement_bullet(text: str) -> bool:
    """A result as reports list them, opening on what was done, with its figure and no subject or
    full stop ("Conducted HVAC motor retrofits at over 90% of our properties", "Installed 1,200 solar
    panels across 14 stores")."""
    return bool(_DONE_FIRST.match(text) and (FIGURE_WITH_UNIT.search(text) or COUNT.search(text)))


def _short_virtue_claim(text: str) -> bool:
    """A whole sentence (capital to full stop, with a verb) of a few words making a virtue claim."""
    return (
        len(text.split()) >= MIN_VIRTUE_WORDS
        and text[0].isupper()
        and bool(SENTENCE_END.search(text) and VERB.search(text))
        and virtue_claim(text)
    )


def _stands_alone(text: str) -> bool:
    """An assertion in its own right: not about the report itself, not the lead-in to a list, not the
    tail of a sentence cut off before it, not text from two columns run together."""
    return not (
        SELF_REFERENCE.search(text)
        or text.rstrip().endswith(":")
        or CONTINUATION.search(text)
        or len(BROKEN_WORD.findall(text)) >= MIN_BROKEN
    )


#: A capitalised past-tense verb of doing as the first word.
_DONE_FIRST = re.compile(r"[A-Z][a-z]{2,}ed\s(?!by\b)")
#: Reasons of the environmental score that say the entity does or offers something.
_DOING = frozenset({"environmental_action", "product_property", "own_impact"})
_CHANGE_NOUN = re.compile(r"\b(?:reduction|cut|decrease|increase)\b", _I)


def _nominal_target(text: str) -> bool:
    """A target written as a noun phrase, as in bullet lists: "40% reduction in emissions by 2030."."""
    return bool(_CHANGE_NOUN.search(text) and FIGURE_WITH_UNIT.search(text) and TARGET_YEAR.search(text))


def _acts(text: str) -> bool:
    """A whole sentence (eight words or more) with an inflected action verb ("engages", "sourcing"),
    one after "to" ("practices that help to minimise") or one right after a plural subject ("the new
    turbines replace coal units")."""
    return len(text.split()) >= ACTING_MIN_WORDS and any(
        match.group().endswith(("s", "ed", "ing"))
        or text[: match.start()].endswith("to ")
        or bool(PLURAL_BEFORE.search(text, 0, match.start()))
        for match in ACTION.finditer(text)
    )


def check_worthiness(sentence: str) -> tuple[float, tuple[str, ...]]:
    """A check-worthiness score and the signals behind it; boilerplate scores 0 with no signals.

    Without an anchor (a figure, a target year, a dated event, a named site, a governance fact or a
    certification) the score is capped below `CLAIM_THRESHOLD`: topic words alone are not a claim.
    """
    text = sentence.strip()
    if is_boilerplate(text):
        return 0.0, ()
    signals = _signals(text)
    score = sum(weight for name, _, weight in _WEIGHTS if name in signals)
    score -= _penalties(text, signals)
    if not _has_anchor(signals):
        score = min(score, CLAIM_THRESHOLD - 0.5)
    if score >= ENVIRONMENTAL_CEILING:
        return round(score, 2), signals  # the environmental path could not raise it
    environmental, reasons = environmental_score(text)
    if environmental >= ENVIRONMENTAL_THRESHOLD and _stands_alone(text):
        signals = (*signals, ENVIRONMENTAL_SIGNAL, *reasons)
        score = max(score, CLAIM_THRESHOLD + ENVIRONMENTAL_SLOPE * (environmental - ENVIRONMENTAL_THRESHOLD))
    return round(max(score, 0.0), 2), signals


def _signals(text: str) -> tuple[str, ...]:
    """The names of the `_WEIGHTS` patterns found in `text` (a target year is also a year)."""
    found = [name for name, pattern, _ in _WEIGHTS if pattern.search(text)]
    if {"currency_amount", "figure_with_unit"} <= set(found) and not _figure_beside_money(text):
        found.remove("figure_with_unit")  # "$1 billion" is one amount, not a figure and a sum
    if "certification" in found and affirmed(CERTIFICATION, text) is None:
        found.remove("certification")  # "we have not adopted SBTi" is no certification
    if "year" not in found and "target_year" in found:
        found.append("year")
    return tuple(found)


def _owned(text: str) -> bool:
    """The company speaks of itself, or a name or a pronoun for its products or sites is the subject."""
    return bool(COMPANY.search(text) or names_subject(text))


def _about_the_entity(text: str) -> bool:
    """The company, or a pronoun standing for its products or sites ("They", "This plant"), is the subject."""
    return bool(COMPANY.search(text) or PRONOUN_SUBJECT.search(text))


def _figure_beside_money(text: str) -> bool:
    """Whether a figure with a unit stands outside every sum of money in `text`."""
    money = [match.span() for match in CURRENCY.finditer(text)]
    return any(
        not any(start <= match.start() < end for start, end in money)
        for match in FIGURE_WITH_UNIT.finditer(text)
    )


def _has_anchor(signals: Iterable[str]) -> bool:
    names = set(signals)
    return bool(names & ANCHORS) or _PLACE_ANCHOR <= names or {"net_zero", "year"} <= names


def _penalties(text: str, signals: tuple[str, ...]) -> float:
    """Points off for hedging, self-reference, industry context, general facts and fragments."""
    penalty = 0.0
    if HEDGE.search(text) and "figure_with_unit" not in signals:
        penalty += HEDGE_PENALTY
    if SELF_REFERENCE.search(text):
        penalty += SELF_REFERENCE_PENALTY
    if text[0].islower() or CONTINUATION.search(text):
        penalty += LOWERCASE_START_PENALTY
    if len(BROKEN_WORD.findall(text)) >= MIN_BROKEN:
        penalty += BROKEN_PENALTY
    generic = GENERIC.search(text)
    if generic and not (COMPANY.search(text) and _FOOTPRINT.fullmatch(generic.group())):
        penalty += GENERIC_PENALTY
    elif _TIMELESS.search(text) and not _about_the_entity(text) and _UNDATED_NAMES.isdisjoint(signals):
        penalty += TIMELESS_PENALTY
    if _UNFINISHED.search(text[-UNFINISHED_TAIL:]):
        penalty += UNFINISHED_PENALTY
    if _OWN_RESULT.search(text):
        return penalty
    if not STRONG_TOPIC.search(text):
        if FINANCIAL.search(text):
            penalty += FINANCIAL_PENALTY
        if not (SUBJECT.search(text) or GOVERNANCE.search(text)):
            penalty += NO_SUBJECT_PENALTY
    elif MARKET_RESULT.search(text) and not (TAXONOMY.search(text) or CARBON_PRICING.search(text)):
        # A green line of business, but the figure is its money or market. Taxonomy-aligned revenue
        # and a price put on carbon are environmental metrics in money.
        penalty += FINANCIAL_PENALTY
    return penalty
