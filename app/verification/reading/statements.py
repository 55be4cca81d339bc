"""How a source sentence bears on a claim that states no figure: "the committee met quarterly", "we
stopped burning coal at the refinery in March 2021", "none of our sites was fined in 2022".

Such a claim is checked by what the sentence says of the same thing, read by shared word stems
("fined" is "fine", "converting" is "convert"), never by its tone:

- **none of it either**: the sentence, too, says that what the claim says did not happen did not,
  naming it in the claim's words ("lists no fines against X for 2021"), supports;
- **the same statement** supports: most of the claim's subject (`RESTATED_SHARE` of its stems, at
  least `MIN_RESTATED`) restated, both saying it is so or both saying it is not ("burned no coal after
  converting its boilers" restates "stopped burning coal after converting all of its boilers"), with
  no contrast ("rather than", "only", "still", "but");
- **the opposite statement** contradicts, when the sentence speaks of much of the claim's subject
  (`CONTRADICTED_SHARE`, at least `MIN_CONTRADICTED` stems): something the claim says ended goes on
  ("still burning coal" against "stopped burning coal"); what the claim says did not happen did,
  in the claim's own words and without a negation ("fined" against "none of our sites received a
  fine"); the sentence denies the claim's subject ("did not meet national safety standards" against
  "passed its dam safety review"); it says what the claim says was done has yet to be, a later date
  being the point ("has yet to achieve ISO 14001", `LATER_IS_THE_POINT`); it says what the claim
  says was gained was refused or taken away ("its application was rejected", "withdrew
  certification"); or it rejects the claim's words ("chaired by its chief executive rather than an
  independent director");
- **another frequency** of the same meetings contradicts, the same one supports ("met only once in
  2022" / "met four times in 2022" against "met quarterly").

A sentence that states an intention or forecast ("expects to stop burning coal") says nothing of a
claim that something happened, a sentence about another body ("the audit committee" for "the
sustainability committee") nothing of the claim's body, and one about another boundary (stores in
Ireland for stores in the UK, `figure_subjects.same_places`) nothing of the claim's.
A claim stating figures, counts or other numbers is read by them (`figure_comparison`), not here: a
sentence negating a claim's count without another ("did not fit LED lighting at 212 depots")
confirms nothing and contradicts nothing. A number that is part of a name ("ISO 14001") is none.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from app.language.figures import BARE_NUMBER, parse_figures
from app.language.intentions import INTENTION
from app.language.key_terms import STOPWORDS
from app.language.number_words import NUMBER_WORD, number_value
from app.language.years import MONTH, YEAR
from app.verification.reading.figure_subjects import (
    SUBJECTLESS_WORDS,
    same_boundaries,
    same_places,
    share_base,
    without_attribution,
)
from app.verification.reading.figures import parse_counts
from app.verification.reading.places import places_meet

_I = re.IGNORECASE

#: Share of the claim's subject stems a supporting sentence restates, and the least number.
RESTATED_SHARE = 0.6
MIN_RESTATED = 3
#: Share of the claim's subject stems a contradicting sentence speaks of, and the least number.
CONTRADICTED_SHARE = 0.4
MIN_CONTRADICTED = 3
#: Words of what a claim says did not happen that a sentence reporting it must name.
MIN_DENIED = 2

#: A sentence denying something with an auxiliary ("did not meet", "has never published").
_DENIES = re.compile(
    r"\b(?:(?:do|does|did|has|have|had|is|are|was|were|can|could)(?:\snot|n't)|(?:has|have|had)\sno|never|"
    r"fail(?:ed|s)?\sto|(?:has|have|had)\syet\sto|"
    # "found no climate metrics in the scorecard", "none of the data had been assured"
    r"(?:found|contained|included|showed|listed|recorded)\sno|"
    r"none\sof\s(?:[\w'’-]+\s){0,6}?(?:(?:had|has|have)\s)?(?:been|was|were))\s"
    r"(?P<words>(?:[\w'’-]+\s?){1,5})",
    _I,
)
#: Enforcement a company may say was not taken against it ("we were not fined").
_ENFORCED = r"(?:fined|prosecuted|penali[sz]ed|sanctioned|charged|sued|convicted|censured|cited)\b"
#: A claim that something did not happen ("none of our sites received a fine").
_NONE_HAPPENED = re.compile(
    r"\b(?:no|none\sof|not\sa(?:\ssingle)?|not\sany|zero|did\snot|didn't|never|without\s(?:a\ssingle|any)|"
    # "we were not fined", "has not been prosecuted": enforcement against the company
    r"(?:(?:was|were|(?:has|have|had)\sbeen)\snot|(?:was|were)n't|(?:has|have|had)\snot\sbeen)(?=\s"
    + _ENFORCED
    + r"))\s"
    r"(?P<words>(?:[\w'’-]+\s?){1,9})",
    _I,
)
#: A claim that something ended.
CESSATION = re.compile(
    r"\b(?:stopp(?:ed|ing)|ceased?|no\slonger|phased\sout|ended|closed|shut(?:\sdown)?|retired|decommissioned)\b",
    _I,
)
#: The body a statement is about: "the audit committee", "our Board Sustainability Committee".
_BODY = re.compile(r"\b(?P<name>[\w-]+)\s(?:committee|council|panel|subcommittee)\b", _I)
#: Saying that something is not so, or no longer so.
_NEGATION = re.compile(
    r"\b(?:no|not|none|never|without|zero|nil|nor|neither|stopp(?:ed|ing)|ceased?|end(?:ed)?\s\w+ing|"
    r"phased\sout|no\slonger|free\sof|eliminat\w*)\b|n't\b",
    _I,
)
#: Saying that something goes on, against a claim that it ended ("still burning coal").
_CONTINUING = re.compile(
    r"\b(?:still|continu(?:ed|es|ing)\sto|kept\s\w+ing|"
    r"yet\sto\s(?:phase\sout|stop|end|close|exit|retire|eliminate|remove|shut))\b",
    _I,
)
#: A contrast: the sentence qualifies or sets something against what it restates.
_CONTRAST = re.compile(
    r"\b(?:rather\sthan|instead\sof|as\sopposed\sto|only|but|however|although|though|despite|except|"
    r"apart\sfrom|partly|partially|some\sof)\b",
    _I,
)
#: The words a sentence rejects: "rather than an independent director".
_REJECTED = re.compile(
    r"\b(?:rather\sthan|instead\sof|as\sopposed\sto|not(?!\sonly\b))\s(?P<words>(?:[\w'’&-]+\s?){1,6})", _I
)
#: A meeting's frequency.
_MEETS = re.compile(r"\b(?:met|meets?|meetings?|conven(?:e|es|ed)|sat)\b", _I)
#: Meetings counted: "held three meetings", "had only two board meetings".
_MEETINGS_HELD = re.compile(
    r"\b(?:held|had|convened|hosted)\s(?:only\s|just\s)?(?P<n>\w+(?:-\w+)?)\s(?:[\w-]+\s)?meetings?\b"
    r"(?!\s(?:with|for)\b)",  # "held three meetings with NGOs" are not how often a body met
    _I,
)
_PER_YEAR = (
    (re.compile(r"\b(?:monthly|every\smonth|each\smonth)\b", _I), 12),
    (re.compile(r"\b(?:quarterly|every\squarter|each\squarter)\b", _I), 4),
    (
        re.compile(
            r"\b(?:twice\sa\syear|twice\syearly|bi-?annually|semi-?annually|every\ssix\smonths)\b", _I
        ),
        2,
    ),
    (re.compile(r"\b(?:annually|yearly|once\sa\syear|every\syear)\b", _I), 1),
)
_TIMES = re.compile(r"\b(?P<n>\w+(?:-\w+)?)\stimes\b|\b(?P<once>once|twice)\b", _I)
#: Words that say how much or whether, never what.
_NOT_SUBJECT = frozenset({"none", "any", "all", "every", "each", "only", "still", "never", "also", "just"})
_SUBJECTLESS = STOPWORDS | SUBJECTLESS_WORDS | _NOT_SUBJECT
_SUFFIXES = (
    "ations", "ation", "ments", "ment", "ances", "ance", "ences", "ence", "ings", "ing", "ies", "ied", "ed",
    "es", "al", "s", "e",
)  # fmt: skip


@dataclass(frozen=True)
class StatementReading:
    """What a sentence says of a claim without figures: `stance` with the rule (`signal`)."""

    stance: str
    signal: str
    explanation: str


#: Words for one event, met as one stem: "killed" and "died" are fatalities, a "penalty" is a fine.
_SAME_EVENT = {
    **dict.fromkeys(
        ("die", "died", "dies", "killed", "death", "deaths", "fatal", "fatality", "fatalities"), "fatal"
    ),
    **dict.fromkeys(("penalty", "penalties", "penalised", "penalized", "fine", "fined", "fines"), "fine"),
    **dict.fromkeys(("spill", "spills", "spilled", "spilt", "spilling"), "spill"),
}
#: Events one word names unmistakably: a sentence reporting one reports what a claim denies.
EVENT_STEMS = frozenset(_SAME_EVENT.values())
#: Forms of one word a suffix rule does not meet: "met" is "meet".
_SAME_WORD = {
    **_SAME_EVENT,
    **dict.fromkeys(("met", "meet", "meets", "meeting", "meetings"), "meet"),
    **dict.fromkeys(
        (
            "certified",
            "certify",
            "certifies",
            "certification",
            "certifications",
            "certificate",
            "certificates",
        ),
        "certif",
    ),
    **dict.fromkeys(
        (
            "closed",
            "close",
            "closes",
            "closure",
            "shut",
            "shuts",
            "retired",
            "decommissioned",
            "stopped",
            "ceased",
        ),
        "close",
    ),
}


def stem(word: str) -> str:
    """A crude stem, enough to meet "fined" with "fine" and "converting" with "convert"."""
    word = word.lower().strip("'’")
    if word in _SAME_WORD:
        return _SAME_WORD[word]
    for _ in range(2):  # "environmental" -> "environment" -> "environ", as "environment" is
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
    return word


@functools.lru_cache(maxsize=1024)
def subject_stems(text: str, company: str = "") -> frozenset[str]:
    """The stems of the words saying what `text` is about: not stopwords, units, numbers or the
    company's name (cached: a claim and a sentence are asked about by the topic test and again by
    `read_statement`)."""
    names = {stem(word) for word in re.findall(r"[A-Za-z][\w'’-]*", company)}
    stems = {
        stem(word)
        for word in re.findall(r"[A-Za-z][A-Za-z-]+", text)
        if word.lower() not in _SUBJECTLESS and len(word) > 2
    }
    return frozenset(stems - names)


#: A name of capitalised words, connectors allowed inside, and a lower-case word that may end it
#: ("Science Based Targets initiative", "Task Force on Climate-related Financial Disclosures").
_NAME_RUN = re.compile(r"\b[A-Z][\w-]*(?:\s(?:(?:of|on|for|and|the)\s)?[A-Z][\w-]*)+(?:\s(?P<tail>[a-z]+))?")


def _spelled_out(text: str, other: str, company: str) -> frozenset[str]:
    """The stems of the names in `text` that `other` writes as an acronym ("SBTi" for the Science
    Based Targets initiative): held by `other` too."""
    theirs = {word.lower() for word in re.findall(r"\b[A-Z][A-Za-z]*[A-Z][a-z]?\b", other)}
    held: set[str] = set()
    for match in _NAME_RUN.finditer(text):
        words = [w for w in match.group(0).split() if w[:1].isupper()]
        initials = "".join(w[0] for w in words).lower()
        tail = initials + match["tail"][0] if match["tail"] else ""
        if len(initials) >= 3 and theirs & {initials, tail}:
            held |= subject_stems(match.group(0), company)
    return frozenset(held)


def read_statement(claim: str, sentence: str, company: str) -> StatementReading | None:
    """How `sentence` bears on `claim`, a claim stating no figure (see the module docstring); None
    when it says nothing of it or `claim` states figures."""
    share_of_all = _ALL_AS_A_SHARE.search(claim)
    if share_of_all is not None:
        # "100% of our tier-1 suppliers" are all of them, when the sentence names what they are
        of_what = share_base(claim, share_of_all.end() - len("of ") - 1)
        if not {stem(word) for word in of_what} <= subject_stems(sentence, company):
            return None
        claim = _ALL_AS_A_SHARE.sub("all of ", claim)
    if _states_numbers(claim) or _other_body(claim, sentence) or not same_places(claim, sentence, company):
        return None
    if INTENTION.search(sentence) and not INTENTION.search(claim):
        return None
    mine = subject_stems(claim, company)
    if not mine:
        return None
    if (happened := _did_happen(claim, sentence, company)) is not None:
        return happened
    if _none_either(claim, sentence, company):
        return StatementReading(
            "supports", "none_either", "The source also says it did not happen, in the claim's words."
        )
    shared = mine & (subject_stems(sentence, company) | _spelled_out(claim, sentence, company))
    shared |= _compounds_named(mine - shared, claim, sentence)
    if len(shared) >= MIN_CONTRADICTED and (frequency := _frequency_reading(claim, sentence)):
        return frequency
    # much of the claim's subject: its names ("assured by Harland & Cole LLP") say whose, not what
    spoken_of = len(shared) / len(_unnamed(claim, company) or mine)
    if spoken_of >= CONTRADICTED_SHARE and len(shared) >= MIN_CONTRADICTED:
        opposite = _opposite(claim, sentence, mine, company)
        if opposite is not None:
            return opposite
    # a short claim ("we did not discharge tailings into any river") is restated by all but one word
    least = min(MIN_RESTATED, max(2, len(mine) - 1))
    restated = len(shared) / len(mine) >= RESTATED_SHARE and len(shared) >= least
    # the word left out may not be a compound of what the claim asserts ("plastic-free", "low-carbon")
    restated = restated and not {word for word in mine - shared if _A_PROPERTY_COMPOUND.search(word)}
    if restated and _polarity(claim) == _polarity(sentence) and not _of_some_of_every(claim, sentence):
        # "all the cocoa it bought in Ghana" restates nothing of all it bought
        if (
            not _CONTRAST.search(sentence)
            and not _CONTINUING.search(sentence)
            and not _taken_away_or_yet_to_be(mine | _first_parts(mine), sentence, company)
            and places_meet(claim, _what_is_restated(sentence), company)
        ):
            return StatementReading(
                "supports", "same_statement", "The source states what the claim states, in its own words."
            )
    return None


#: A compound that asserts a property: "plastic-free", "carbon-neutral", "low-carbon", "non-hazardous".
_A_PROPERTY_COMPOUND = re.compile(r"-(?:fr|fre|free|neutr|neutral|positiv|positive)$|^(?:low|non|zero)-", _I)


def _compounds_named(compounds: frozenset[str], claim: str, sentence: str) -> set[str]:
    """The claim's compounds the sentence names by their first part before a word of the claim, the
    compound's own later part or another word for a plant: "coal-fired power station" is named by
    "coal plant" and "FSC-certified" by "FSC certification", not by "coal mine" or "coal wagons"."""
    claim_stems = subject_stems(claim)
    named: set[str] = set()
    for compound in compounds:
        first, *rest = compound.split("-")
        if not rest:
            continue
        # the compound's own later part counts: "FSC certification" for "FSC-certified"
        names_it = claim_stems | _PLANT_STEMS | {stem(part) for part in rest}
        following = re.finditer(rf"\b{re.escape(first)}\w*\s(?P<next>(?:[\w-]+\s)?[\w-]+)", sentence, _I)
        if any({stem(word) for word in match["next"].split()} & names_it for match in following):
            named.add(compound)
    return named


#: Words for a plant, which a compound before them names as the claim's ("coal-fired power station").
_PLANT_STEMS = frozenset(stem(word) for word in ("plant", "station", "unit", "units", "generator"))


def _first_parts(stems: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(word.split("-")[0]) for word in stems if "-" in word)


def _taken_away_or_yet_to_be(mine: frozenset[str], sentence: str, company: str) -> bool:
    """Whether the sentence says something of the claim's (one of its subject words) was refused or
    taken away ("had their FSC certificates cancelled") or is yet to be done ("has yet to certify all
    nine of its mills"); not "after shareholders rejected a takeover bid"."""
    for match in _REFUSED.finditer(sentence):
        if subject_stems(match["words"] or match["taken"] or match["had"], company) & mine:
            return True
    return any(
        subject_stems(sentence[match.end() :][:60], company) & mine for match in NOT_YET.finditer(sentence)
    )


def _what_is_restated(sentence: str) -> str:
    """The sentence's first clause, less who found or said it ("Auditors in Ghana found that …"), how
    it describes the company ("the British confectioner") and asides after it ("…, mostly from
    Ghana"): where a place is the statement's own."""
    said = _FOUND_THAT.sub("", _WHEN_FIRST.sub("", sentence).split(", ")[0])
    return _DESCRIBED_AS.sub("", said)


#: When a sentence opens on its time: "In 2023, ", "Last year, ", "By the end of 2023, ".
_WHEN_FIRST = re.compile(r"^(?:In|By|During|Last|At|For|Over)\b[^,]{0,30},\s")
#: Who found or said what follows: "Auditors in Ghana found that", "A Swiss auditor said".
_FOUND_THAT = re.compile(
    r"^.*?\b(?:found|said|says|showed|shows|confirmed|reported|concluded)\s(?:that\s)?", re.IGNORECASE
)
#: A description of the company by its kind: "the British confectioner", "a Dutch dairy group".
_DESCRIBED_AS = re.compile(r"\b(?:the|a|an)\s[A-Z][a-z]+\s[a-z]+(?:\s[a-z]+)?\s(?=[A-Z])")


#: Capitalised words inside a sentence: names of organisations and people.
_NAME_WORD = re.compile(r"(?<=[\w,;:)]\s)(?:[A-Z][\w'’-]*|&)(?:\s(?:[A-Z][\w'’-]*|&))*")


def _unnamed(claim: str, company: str) -> frozenset[str]:
    """The claim's subject stems without the words of the names it states mid-sentence."""
    return subject_stems(_NAME_WORD.sub(" ", claim), company)


#: A date's day ("31 March", "March 31"): part of a date, not a number the claim states.
_DAY_OF_MONTH = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s{MONTH}\b|\b{MONTH}\s\d{{1,2}}\b")


#: A share of all: "100% of", "100 per cent of".
_ALL_AS_A_SHARE = re.compile(r"\b100\s?(?:%|per\s?cent|percent)\sof\s", re.IGNORECASE)


def _numbered_names(text: str) -> frozenset[str]:
    """The names with a number in `text` ("tier-1", "ISO 14001"), written alike."""
    # "ISO 14001:2015" is ISO 14001 in its 2015 edition
    return frozenset(
        re.sub(r"[\s-]|:(?:19|20)\d\d$", "", match.group()).lower()
        for match in _NUMBER_IN_A_NAME.finditer(text)
    )


def other_numbered_names(claim: str, sentence: str) -> bool:
    """Whether the sentence names a kind of numbered name the claim names, but none of the claim's
    ("Category 1" for "Category 11", "ISO 45001" for "ISO 14001"): then it speaks of another thing."""
    mine, theirs = _numbered_names(claim), _numbered_names(sentence)
    families = {_family(name) for name in mine}
    return not mine & theirs and any(_family(name) in families for name in theirs - mine)


def _family(name: str) -> str:
    """ "iso" of "iso14001", "categor" of "category11" and "categories1", "tier" of "tier1"."""
    return re.sub(r"ies$|y$", "", re.sub(r"[\d:/-]", "", name))


def _states_numbers(claim: str) -> bool:
    """Whether the claim states figures, counts or any other number than a year ("a TRIFR of 2.1"):
    its numbers decide it, and restating its words with another number is no support."""
    if parse_figures(claim) or parse_counts(claim):
        return True
    years = [
        match.span()
        for pattern in (YEAR, _DAY_OF_MONTH, _NUMBER_IN_A_NAME)
        for match in pattern.finditer(claim)
    ]
    return any(
        not any(start <= match.start() < end for start, end in years) for match in BARE_NUMBER.finditer(claim)
    )


#: Numbers that are part of a name, not a quantity: a standard ("ISO 14001", "SA8000", "GRI 305-1"),
#: a Scope 3 category, a supplier tier. (An emissions scope is left a number: a claim of Scope 1
#: emissions rising is read by its direction of change.)
_NUMBER_IN_A_NAME = re.compile(
    r"\b(?:ISO(?:/IEC)?|IEC|EN|BS|PAS|OHSAS|GRI)\s?\d{3,5}(?:[-:]\d{1,4})?\b|\bSA\s?8000\b|"
    r"\bCategor(?:y|ies)\s\d{1,2}\b|\bTier[\s-]?[123]\b",
    _I,
)


def _other_body(claim: str, sentence: str) -> bool:
    """Whether both name a committee or council and none by the same name."""
    mine = {stem(match["name"]) for match in _BODY.finditer(claim)}
    theirs = {stem(match["name"]) for match in _BODY.finditer(sentence)}
    return bool(mine and theirs) and not mine & theirs


def _polarity(text: str) -> bool:
    """True when the text says something is so, False when it says it is not or no longer so. A
    negation describing something ("a director with no executive role") says nothing of that."""
    said = _DESCRIBED_BY_NONE.sub("", text)
    return not _NEGATION.search(said) or bool(_CONTINUING.search(said))


#: "with no executive responsibilities", "without an executive role": a description, not a denial.
#: "without a single spill" or "without any" counts none, and is one.
_DESCRIBED_BY_NONE = re.compile(r"\b(?:with\sno|without)\s(?!(?:a\ssingle|any)\b)(?:[\w'’-]+\s?){1,5}", _I)


def _opposite(claim: str, sentence: str, mine: frozenset[str], company: str) -> StatementReading | None:
    """The sentence's contradiction of the claim's statement, if it makes one (see the module
    docstring)."""
    rejected = [subject_stems(match["words"], company) & mine for match in _REJECTED.finditer(sentence)]
    # "did not underwrite any coal projects" rejects nothing a claim of stopping them says
    if _polarity(claim) and any(len(words) >= 2 for words in rejected):
        return StatementReading(
            "contradicts", "rejected_statement", "The source rejects what the claim states."
        )
    if _polarity(claim) and _GAINED.search(claim):
        refused = [
            subject_stems(match["words"] or match["taken"] or match["had"], company) & mine
            for match in _REFUSED.finditer(sentence)
        ]
        if any(len(words) >= 2 for words in refused):
            return StatementReading(
                "contradicts",
                "refused",
                "The claim says it was obtained; the source says it was refused or taken away.",
            )
    if CESSATION.search(claim) and _CONTINUING.search(sentence):
        return StatementReading(
            "contradicts", "still_happening", "The claim says it ended; the source says it goes on."
        )
    if not _DENIES.search(claim) and not CESSATION.search(claim):
        denied = [subject_stems(match["words"], company) & mine for match in _DENIES.finditer(sentence)]
        if any(denied):
            if NOT_YET.search(sentence):
                # not done by a later date, so not done when the claim says: the later date is the point
                return StatementReading(
                    "contradicts", "not_yet", "The claim says it was done; the source says it has yet to be."
                )
            return StatementReading(
                "contradicts", "denied_statement", "The source denies what the claim states."
            )
    return None


#: Contradictions whose point is a later year: what the claim says ended goes on, was put off, or
#: what it says was done has yet to be.
LATER_IS_THE_POINT = frozenset({"still_happening", "timeline", "not_yet"})
#: Not done yet, or put off: "has yet to achieve", "still has not", "postponed to 2024".
NOT_YET = re.compile(
    r"\b(?:(?:has|have|had)\syet\sto|still\s(?:has|have|had|is|are|was|were)\s?(?:not|n't)|"
    r"(?:postponed|delayed|deferred|pushed\sback)\s(?:until|to)\s(?:20\d\d|later))\b",
    _I,
)


#: A claim of something gained: a certification, an approval, a validation, an award.
_GAINED = re.compile(
    r"\b(?:obtain\w*|achiev\w*|gain\w*|earn\w*|receiv\w*|award\w*|certified|approved|validated|accredited|"
    r"granted)\b",
    _I,
)
#: The thing refused or taken away: "its ISO 14001 application was rejected", "withdrew certification
#: from two of its resorts".
_REFUSED = re.compile(
    r"(?P<words>(?:[\w'’-]+\s){1,6})(?:was|were|had\sbeen|has\sbeen)\s(?:rejected|refused|denied|revoked|"
    r"withdrawn|suspended|cancell?ed)\b|"
    r"\b(?:rejected|refused|revoked|withdrew|suspended|stripped|cancell?ed)\s(?P<taken>(?:[\w'’-]+\s?){1,6})|"
    # "had their FSC certificates cancelled"
    r"\bhad\s(?:its|their)\s(?P<had>(?:[\w'’-]+\s){1,7})(?:rejected|refused|revoked|withdrawn|suspended|"
    r"cancell?ed|removed)\b",
    _I,
)


#: A claim about every one of something: "all 22 of our ships", "every site", "100% of our suppliers".
_EVERY = re.compile(r"\b(?:all|every|each)\b|\b100(?:\.0)?\s?(?:%|per\s?cent)\sof\b", _I)
#: Some of something, counted or not: "three of its homes", "two container ships", "several lines",
#: "a large share of its coffee", "around 40 of its suppliers".
_SOME_OF = re.compile(
    rf"\b(?:(?:around|about|some|at\sleast|more\sthan)\s)?(?:\d+|{NUMBER_WORD}|several|a\sfew|some|many)\s"
    r"(?:of\s)?(?:[\w'’-]+\s){0,4}?[a-z]+s\b|"
    r"\ba\s(?:large\s|small\s|significant\s)?(?:share|number|portion|proportion)\sof\b",
    _I,
)
#: Falling short of what the claim says of every one: "did not conform", "missing from the list",
#: "went unaudited", "rated 'requires improvement'", "with no certification".
_SHORT_OF = re.compile(
    r"\b(?:not|no|never|without|missing|lacked|lacking|failed|unaudited|uncertified|unverified|"
    r"non-compliant|requires?\simprovement)\b|n't\b",
    _I,
)
#: A part counted of a whole: "212 of Verity's 340 tier-1 suppliers", "9 of its 15 ships".
_A_PART_OF_WHOLE = re.compile(
    r"\b(?P<part>\d[\d,]*)\s(?:out\s)?of\s"
    r"(?:the\s|its\s|their\s|our\s|(?:[A-Z][\w&-]*\s){0,3}[A-Z][\w&-]*['’]s?\s)?(?P<whole>\d[\d,]*)\b"
)
#: The rest of a whole counted after a part: "and the other 128", "the remaining 40".
_THE_REST = re.compile(r"\bthe\s(?:other|remaining|rest)\b", _I)
#: A baseline before a counted part: "up from 212 of 300 in 2023".
_BASELINE = re.compile(r"\b(?:from|against|compared\swith|versus)\s(?:(?:the|its|their)\s)?$", _I)
#: Subject stems a counterexample shares with the claim.
MIN_COUNTEREXAMPLE = 2


def counterexample(claim: str, sentence: str, company: str) -> bool:
    """Whether the sentence reports some of what the claim says of every one falling short of it
    ("three of its tailings facilities did not conform" against "all 14 of our tailings facilities
    conformed"), or fewer than all of them doing what the claim says ("only 212 of its 340 suppliers
    were audited", `fewer_than_all`): two of the claim's subject words shared, and no other place."""
    if not _EVERY.search(claim) or _NEGATION.search(claim) or _EVERY.search(sentence):
        return False
    some_short = _SOME_OF.search(sentence) is not None and _SHORT_OF.search(sentence) is not None
    if not (some_short or fewer_than_all(sentence, claim, company)) or not same_places(
        claim, sentence, company
    ):
        return False
    if not same_boundaries(claim, sentence, company):
        return False  # "tier-2 mills" are not the claim's tier-1 factories
    shared = subject_stems(claim, company) & (
        subject_stems(sentence, company) | _spelled_out(claim, sentence, company)
    )
    return len(shared) >= MIN_COUNTEREXAMPLE


def _of_some_of_every(claim: str, sentence: str) -> bool:
    """Whether the claim speaks of every one and the sentence of a counted part of them: "at least
    212 of its 340 suppliers were audited" does not restate "all of our suppliers were audited"."""
    if _THE_REST.search(sentence):
        return False  # "212 of its 340 … and the other 128 …" counts all of them
    return _EVERY.search(claim) is not None and bool(_fewer_than_whole(sentence))


def fewer_than_all(sentence: str, claim: str, company: str) -> bool:
    """Whether the sentence counts fewer than all of the things the claim speaks of doing what the
    claim says, in the claim's words ("only 212 of its 340 suppliers were audited"). It does not
    when it counts other things ("9 of its 15 port calls"), says more of the part than the claim
    does ("audited by accredited firms", "unannounced": the rest may have been audited otherwise),
    bounds the part ("more than 300 of its 340") or sets it beside a baseline ("up from 212 of 300"),
    or when the claim's "every" spans years ("every three years"). Sites and properties may be any
    claim's things. (A share, "only 70% of its cocoa", is read as a figure where the claim states
    one; a share of an unstated whole is too often of another thing.)"""
    if _OVER_YEARS.search(claim):
        return False
    mine = subject_stems(claim, company)
    said = without_attribution(sentence)
    for match in counted_parts(said):
        after = said[match.end() :].split()
        # what is counted: up to three words, before the verb ("tier-1 suppliers passed their audits")
        verb = next((i for i, word in enumerate(after[:_COUNTED_WORDS]) if _A_VERB.fullmatch(word)), None)
        counted = _COUNTED_WORDS if verb is None else verb
        what = subject_stems(" ".join(after[:counted]), company)
        rest = subject_stems(said[: match.start()] + " " + " ".join(after[counted:]), company)
        more = rest - what - mine - _LINKING_STEMS
        # fewer than all of the claim's things, of which the sentence says what the claim does
        if what & (mine | _ANY_THINGS) and (rest - what) & mine and not more:
            return True
    return False


def counted_parts(sentence: str) -> list[re.Match[str]]:
    """Every "K of (its) N" in the sentence with K below N, neither bounded ("more than 300 of") nor
    a baseline ("up from 212 of 300")."""
    return [match for match in _fewer_than_whole(sentence) if not _BOUND.search(sentence, 0, match.start())]


def _fewer_than_whole(sentence: str) -> list[re.Match[str]]:
    """Every "K of (its) N" in the sentence with K below N that is no baseline ("up from 212 of
    300"), bounded or not ("at least 212 of its 340" is still a part)."""
    return [
        match
        for match in _A_PART_OF_WHOLE.finditer(sentence)
        if _number(match["part"]) < _number(match["whole"])
        and not _BASELINE.search(sentence, 0, match.start())
    ]


#: Words before a counted part that bound it: "more than 300 of", "at least 212 of"; or set it
#: against another ("vs 212 of 300").
_BOUND = re.compile(
    r"\b(?:at\sleast|more\sthan|over|upwards\sof|no\s(?:fewer|less)\sthan|in\sexcess\sof|vs\.?)\s"
    r"(?:(?:the|its|their)\s)?$",
    _I,
)
#: A claim of every one that spans years: "every three years", "over the past three years".
_OVER_YEARS = re.compile(r"\b(?:every|past|last|over)\s(?:\w+\s)?(?:\d+\s|two\s|three\s|five\s)?years\b", _I)
#: Verbs that say a counted part was covered by what the claim says: "audits covered 140 of".
_LINKING_STEMS = frozenset(
    stem(word) for word in "covered reached included underwent only just end year".split()
)


#: A verb right after what a part counts: "were", "passed", "requested", "held".
_A_VERB = re.compile(r"(?:were|was|are|is|had|have|has|held|did|\w+ed)[,.]?", _I)
#: How many words right after the whole a part is counted of say what it counts ("first-tier
#: factories").
_COUNTED_WORDS = 3
#: Things any claim's things may be called: "24 of its properties" for "all 24 of its resorts".
_ANY_THINGS = frozenset(
    {stem(word) for word in ("sites", "properties", "facilities", "locations", "operations")}
)


def _number(written: str) -> float:
    return float(written.replace(",", ""))


def denied_by_claim(claim: str, sentence: str, company: str) -> frozenset[str]:
    """The stems of what the claim says did not happen ("no environmental fines") that the sentence
    names too (the most of any one denial). The sentence must name the thing denied itself, not only
    where or when: "no warning letters for any of its manufacturing sites" is not denied by a
    sentence about inspections of manufacturing sites."""
    theirs = subject_stems(sentence, company)
    found = [
        subject_stems(m["words"], company) & theirs
        for m in _NONE_HAPPENED.finditer(claim)
        if subject_stems(_WHERE.split(m["words"], maxsplit=1)[0], company) & theirs
    ]
    return max(found, key=len, default=frozenset())


#: A preposition after the thing a denial names: what follows says where, when or whose ("in" and
#: "to" are left out: "investments in coal", "discharges to rivers" still name what).
_WHERE = re.compile(r"\b(?:for|at|across|from|on|against|by|during|since|within|throughout)\b", _I)


def names_denied(denied: frozenset[str]) -> bool:
    """Whether the words of a denied event a sentence names (`denied_by_claim`) are enough: two of
    them, or one naming the event unmistakably (a fatality, a fine, a spill)."""
    return len(denied) >= MIN_DENIED or bool(denied & EVENT_STEMS)


def _none_either(claim: str, sentence: str, company: str) -> bool:
    """Whether the sentence says, as the claim does, that something did not happen, naming it in the
    claim's words ("lists no fines against X for 2021" for "received no environmental fines in
    2021"), with no contrast."""
    if _CONTRAST.search(sentence):
        return False
    theirs = [subject_stems(m["words"], company) for m in _NONE_HAPPENED.finditer(sentence)]
    mine = [subject_stems(m["words"], company) for m in _NONE_HAPPENED.finditer(claim)]
    return any(names_denied(first & second) for first in mine for second in theirs)


def _did_happen(claim: str, sentence: str, company: str) -> StatementReading | None:
    """What the claim says did not happen, reported by the sentence as having happened, in at least
    two of the claim's own words and without a negation ("fined ... for discharge breaches" against
    "we received no environmental fines"): the claim's other words need not be restated."""
    if _NEGATION.search(sentence) or not names_denied(denied_by_claim(claim, sentence, company)):
        return None
    return StatementReading(
        "contradicts", "did_happen", "The claim says it did not happen; the source reports that it did."
    )


def _frequency_reading(claim: str, sentence: str) -> StatementReading | None:
    """The same meetings held as often (support) or not (contradiction)."""
    if not (_MEETS.search(claim) and _MEETS.search(sentence)):
        return None
    mine, theirs = frequency(claim), frequency(sentence)
    if mine is None or theirs is None:
        return None
    if mine == theirs:
        return StatementReading(
            "supports", "same_frequency", "The source states the same frequency of meetings."
        )
    return StatementReading(
        "contradicts",
        "other_frequency",
        f"The source states {theirs} meeting(s) a year where the claim states {mine}.",
    )


#: Meetings that were not held: "did not meet at all", "never convened".
_NO_MEETING = re.compile(
    r"\b(?:did\snot|didn't|has\snot|hasn't|had\snot|never)\s(?:meet|met|convene[ds]?)\b", _I
)


def frequency(text: str) -> int | None:
    """How many times a year `text` says something happens ("quarterly": 4, "met only once": 1,
    "held three meetings": 3, "did not meet at all": 0)."""
    if _NO_MEETING.search(text):
        return 0
    held = _MEETINGS_HELD.search(text)
    if held and number_value(held["n"]) is not None:
        return number_value(held["n"])
    times = _TIMES.search(text)
    if times and times["n"]:
        return number_value(times["n"])
    each = _per_year(text)  # "once in each quarter" is quarterly
    if times and (each is None or each == 1):
        return 1 if times["once"].lower() == "once" else 2
    return each


def _per_year(text: str) -> int | None:
    for pattern, count in _PER_YEAR:
        if pattern.search(text):
            return count
    return None
