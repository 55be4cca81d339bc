"""Query expansion from Sibyl's IFRS S1/S2 registry: the paragraph a disclosure question maps to,
and the words that paragraph's summary, title and keywords add to the search.

Analysts phrase a question one way ("the scenarios used to test the resilience of its strategy"),
reports another ("climate scenario analysis", "stress test"). The registry already holds, for each
requirement, the words a report would use; matching the question against it finds the requirement,
and searching its words as well finds passages that share few of the question's own words.

Matching is weighted by how rare a word is across the registry (inverse document frequency), so
"scenario" or "tailings" decides, while "climate" or "risk", which almost every requirement uses,
barely counts; a keyword phrase found whole in the question counts again.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from app.embeddings.tokens import tokenize
from app.knowledge.registry import REQUIREMENTS, Requirement

#: Words of disclosure questions that say nothing about the topic ("does the company disclose ...").
QUESTION_WORDS = frozenset(
    tokenize(
        """company companies company's entity organisation organization group firm business report reports
        reported reporting disclose discloses disclosed disclosure disclosures describe describes described
        explain explains explained provide provides provided mention mentions state states information
        detail details any how does do did has have whether there its their it they is are
        published publish publishes overall full belong belongs distinguish face faces arising
        various specific particular currently much many large big size use used uses using
        relation relations relating regard regarding respect terms concerning apply applies applied
        applying"""
    )
)
#: A requirement maps only when its match weighs at least this much and shares at least
#: `MIN_SHARED` distinct words with the question (one shared word is too often a coincidence).
MIN_MATCH = 6.0
MIN_SHARED = 2
#: A climate question prefers the IFRS S2 paragraph to its general S1 counterpart by this factor.
CLIMATE_PREFERENCE = 1.1
#: Requirements within this share of the best match are mapped too (a paragraph and its close sibling).
CLOSE_MATCH = 0.85
#: Most requirements a question maps to.
MAX_REQUIREMENTS = 2
#: Most expansion words added to a search.
MAX_TERMS = 24


@dataclass(frozen=True)
class Expansion:
    """The requirements a question maps to (best first) and the words they add to its search."""

    requirements: tuple[Requirement, ...]
    terms: tuple[str, ...]

    @property
    def paragraph_ids(self) -> tuple[str, ...]:
        return tuple(requirement.paragraph_id for requirement in self.requirements)


@dataclass(frozen=True)
class _Entry:
    requirement: Requirement
    words: frozenset[str]  # stemmed tokens of title, summary and keywords
    phrases: tuple[tuple[str, ...], ...]  # each keyword, tokenised


def topic_words(question: str) -> list[str]:
    """The question's stemmed content words without the ones every disclosure question uses."""
    return [word for word in tokenize(question) if word not in QUESTION_WORDS]


#: How TCFD / IFRS S2 review questions qualify their subject: "the board's oversight *of
#: climate-related risks and opportunities*", "the targets it uses *to manage climate-related
#: risks*". The phrase names the framework, not the topic, yet it holds the keywords of the
#: general risks-and-opportunities requirement; it is left out when matching a question that has
#: other topic words, so "the board's oversight of ..." maps to the oversight paragraph.
FRAMEWORK_QUALIFIER = re.compile(
    r"\b(?:(?:to\s+)?(?:manage|managing|address|addressing)\s+)?(?:the\s+)?climate(?:[- ]related)?\s+"
    r"(?:risks?|issues|matters)(?:\s+and\s+opportunit(?:y|ies))?\b",
    re.IGNORECASE,
)


#: The framework phrase as what the question asks for ("describe *the climate-related risks and
#: opportunities* it has identified ..."), not as a qualifier ("the board's oversight of ..."): then
#: the risks and opportunities are the question's subject, whatever requirement the rest maps to.
ASKED_RISKS = re.compile(
    r"\b(?:describe|describes|report|reports|disclose|discloses|identify|identifies|list|lists|explain)\s+"
    r"(?:the\s+|its\s+|their\s+|any\s+)?" + FRAMEWORK_QUALIFIER.pattern,
    re.IGNORECASE,
)
#: The words of the framework phrase that name its subject.
RISK_WORDS = frozenset({"risk", "risks", "opportunity", "opportunities"})


#: Two things a question ends on, either of which it asks about: "integrated into acquisition due
#: diligence and new development decisions". Not the end of a list ("short, medium and long term").
ENDS_ON_TWO = re.compile(
    r"\b(?:into|in|on|for|of|about|to|across|within|from)\s(?:the\s|its\s|their\s)?"
    r"(?P<first>[a-z][\w-]*(?:\s[a-z][\w-]*){0,3})\s(?:and|or)\s"
    r"(?P<second>[a-z][\w-]*(?:\s[a-z][\w-]*){0,2})\s*[?.]?\s*$"
)


def subject_words(question: str) -> frozenset[str]:
    """Words the question asks about besides its requirement's: the risks and opportunities when
    it asks for them (`ASKED_RISKS`), and both of two things it ends on (`ENDS_ON_TWO`), so a report
    addressing one of them addresses the question."""
    found = set(RISK_WORDS) if ASKED_RISKS.search(question) else set()
    two = ENDS_ON_TWO.search(question)
    # "... oversight of climate-related risks and opportunities" names the framework, not two subjects
    if two and "," not in two.group(0) and not FRAMEWORK_QUALIFIER.search(two.group(0)):
        words = f"{two['first']} {two['second']}".split()
        found |= {word.lower() for word in words if not _is_scaffolding(word)}
    return frozenset(found)


def _is_scaffolding(word: str) -> bool:
    stems = tokenize(word)
    return not stems or all(stem in QUESTION_WORDS for stem in stems)


#: A purpose clause of metrics and targets questions: "the targets *it uses to manage
#: climate-related risks*". It says why a company has targets, not what the question asks for,
#: and its words ("manage", "risks") would pull the answer to risk-management pages.
PURPOSE_CLAUSE = re.compile(
    r"\b(?:(?:that|which)\s+)?(?:(?:it|they|the\s+company)\s+)?(?:uses?|used|sets?|set)?\s*"
    r"to\s+(?:manage|assess|monitor|measure|mitigate|address)\s+(?:the\s+|its\s+)?climate(?:[- ]related)?\s+"
    r"(?:risks?|issues|matters)(?:\s+and\s+opportunit(?:y|ies))?",
    re.IGNORECASE,
)


#: A reference to where a checklist item comes from: "(SASB FB-FR-110b)", "(GRI 305-1)", "per ESRS
#: E1-6". It names a standard's datapoint, never what a report's page would say.
STANDARD_REFERENCE = re.compile(
    r"\((?:[^()]*?\b(?:SASB|GRI|ESRS|TCFD|CDP|IFRS|ISSB|SFDR|CSRD)\b[^()]*)\)|"
    r"\b(?:SASB|GRI|ESRS)\s(?:[A-Z]{1,3}-)*[A-Z]*\d[\w.()-]*"
)


def without_purpose(question: str) -> str:
    """`question` without the references to a standard's datapoint it cites (`STANDARD_REFERENCE`)
    and its purpose clause (`PURPOSE_CLAUSE`), unless nothing else would be left."""
    question = STANDARD_REFERENCE.sub(" ", question).strip() or question
    stripped = PURPOSE_CLAUSE.sub(" ", question)
    return stripped if len(topic_words(stripped)) >= MIN_SHARED else question


def expand(question: str) -> Expansion:
    """The requirements `question` maps to and the registry words to search besides its own."""
    words = topic_words(question)
    if not words:
        return Expansion((), ())
    climate = "climat" in words
    unqualified = topic_words(FRAMEWORK_QUALIFIER.sub(" ", question))
    if len(unqualified) >= MIN_SHARED:
        words = unqualified
    scored = sorted(
        ((_match(words, entry, climate), index) for index, entry in enumerate(_entries())),
        key=lambda item: (-item[0], item[1]),
    )
    best = scored[0][0]
    if best < MIN_MATCH:
        return Expansion((), ())
    chosen = [
        _entries()[index].requirement
        for score, index in scored[:MAX_REQUIREMENTS]
        if score >= best * CLOSE_MATCH
    ]
    return Expansion(tuple(chosen), _terms(chosen, set(topic_words(question))))


def _match(words: list[str], entry: _Entry, climate: bool = False) -> float:
    """Rarity-weighted overlap of the question's words with the requirement's, plus whole keyword
    phrases found in the question (each of their words counted again); 0 below `MIN_SHARED` words."""
    idf = _idf()
    shared = set(words) & entry.words
    if len(shared) < MIN_SHARED:
        return 0.0
    score = sum(idf.get(word, 0.0) for word in shared)
    joined = f" {' '.join(words)} "
    for phrase in entry.phrases:
        if len(phrase) > 1 and f" {' '.join(phrase)} " in joined:
            score += sum(idf.get(word, 0.0) for word in phrase)
    preferred = climate and entry.requirement.standard == "S2"
    return score * CLIMATE_PREFERENCE if preferred else score


def _terms(requirements: list[Requirement], known: set[str]) -> tuple[str, ...]:
    """Keywords first (a report's own vocabulary), then title and summary words, new words only."""
    terms: list[str] = []
    seen = set(known)
    for requirement in requirements:
        texts = [*requirement.keywords, requirement.title, requirement.summary]
        for text in texts:
            for word in text.lower().replace("-", " ").split():
                stemmed = tokenize(word)
                if stemmed and stemmed[0] not in seen and stemmed[0] not in QUESTION_WORDS:
                    seen.add(stemmed[0])
                    terms.append(word.strip(".,;:()"))
    return tuple(terms[:MAX_TERMS])


@lru_cache(maxsize=1)
def _entries() -> tuple[_Entry, ...]:
    return tuple(
        _Entry(
            requirement=requirement,
            words=frozenset(
                tokenize(" ".join([requirement.title, requirement.summary, *requirement.keywords]))
            ),
            phrases=tuple(tuple(tokenize(keyword)) for keyword in requirement.keywords),
        )
        for requirement in REQUIREMENTS
    )


@lru_cache(maxsize=1)
def _idf() -> dict[str, float]:
    frequency: Counter[str] = Counter()
    for entry in _entries():
        frequency.update(entry.words)
    total = len(_entries())
    return {word: math.log((total + 1) / (count + 0.5)) for word, count in frequency.items()}
