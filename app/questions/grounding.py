"""Whether a window that passes the relevance threshold holds the question's core concept, in the
question's sense, rather than only sharing a word with it.

Rarity weighting (`disclosure`) lets one rare word carry a window over the threshold. That is right
when the word means what the question means, and wrong when it does not: a footnote on how a
product was tested in "scenarios" is not climate scenario analysis, and the "Standards Board" that
wrote a reporting framework is not the company's board. Two checks, on the window's own words:

- **core**: the window holds one of the question's core word groups: those that stand for the most
  keywords of the IFRS requirement it maps to ("scenarios", "oversight", "remuneration"), and the
  risks and opportunities when the question asks for them. Expansion words, a company's name or a
  generic word ("climate") alone never do;
- **sense**: the window corroborates it. It holds as many distinct ideas of the question as it has,
  up to two (words that share a phrase, like "test" and "scenario" through "stress test", are one
  idea), or a phrase of the question (two words and more), or a topic word of the concept
  ("1.5°C" for "scenario"), or another of the requirement's keywords.

Measured on the tuning sets of `bench.ask_grounding` (topic, review, analyst): 13 of 29 unanswerable
questions answered "not addressed" instead of 7, for 94 of 101 hits instead of 95 (two lost, one
gained: the lost ones had cited the answering page through a "Standards Board" sentence or an
unrelated window).

A word counts only where it is not inside the name of a standard setter or regulator (`NAME_MARKERS`):
the "Board" of "International Sustainability Standards Board" is not the company's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from app.embeddings.tokens import stem

#: Share of a concept word's weight that a window earns in ranking (never in relevance) by holding
#: only the concept's related topic words ("coalition" for "peers", "1.5°C" for "scenarios").
RELATED_CREDIT = 0.5
#: Share of a concept word's weight that a window earns in ranking by holding a synonym rather than
#: the word the question itself uses ("supply chain" for "scope 3"); full share for relevance.
SYNONYM_CREDIT = 0.75
#: Distinct ideas of the question a window must hold (fewer when the question has fewer), unless
#: a phrase, a related word or another requirement keyword corroborates the one it holds.
SENSE_IDEAS = 2
#: Words the names of standard setters and regulators are built from: a capitalised word after
#: one of them, in one run of capitalised words, is part of such a name ("Standards Board",
#: "Air Resources Board"), not the company's own body ("Sustainability Board", "Rio Tinto Board").
NAME_MARKERS = frozenset(
    "standards standard accounting stability resources resource conference ethical protection "
    "regulatory advisory".split()
)

_TOKEN = re.compile(r"[^\W\d_][\w'’]*|\d[\w.]*")
#: Words that may sit inside a name ("Task Force *for* Climate-Related Financial Disclosures").
_CONNECTORS = frozenset({"of", "for", "on", "&"})
#: Capitalised words that open a sentence or a new name, never continue one.
_OPENERS = frozenset({"the", "our", "this", "its", "their", "a", "an"})


@dataclass(frozen=True)
class Group:
    """One word of the question as full-text lexemes: held when every lexeme of any alternative is."""

    alternatives: tuple[frozenset[str], ...]
    factor: float  # GENERIC_WEIGHTS damping
    related: tuple[frozenset[str], ...] = ()  # the concept's topic words: partial credit in ranking
    own: tuple[frozenset[str], ...] = ()  # the alternatives the question itself uses
    words: tuple[str, ...] = ()  # single-word alternatives as written, for the name check
    proper: bool = False  # written capitalised mid-question: a name ("Costco", "CT REIT")
    action: bool = False  # an action or manner ("manage", "how often"), not a subject

    def held(self, matched: set[str] | frozenset[str]) -> bool:
        return any(alternative <= matched for alternative in self.alternatives)

    def credit(self, matched: set[str]) -> float:
        """Ranking credit: full for the question's own words, less for a synonym, less again for
        a related topic word."""
        if not self.own or any(words <= matched for words in self.own):
            return 1.0 if self.held(matched) else (RELATED_CREDIT if self.near(matched) else 0.0)
        if self.held(matched):
            return SYNONYM_CREDIT
        return RELATED_CREDIT if self.near(matched) else 0.0

    def near(self, matched: set[str] | frozenset[str]) -> bool:
        return any(words <= matched for words in self.related)

    @property
    def topical(self) -> bool:
        """Whether the group says what the question is about: not generic, not a name."""
        return self.factor >= 1.0 and not self.proper

    @cached_property
    def stems(self) -> frozenset[str]:
        """Stems of the single-word alternatives as written, for the name check."""
        return frozenset(_stem(word) for word in self.words)


@dataclass(frozen=True)
class Sense:
    """What the checks compare a window with: the question's groups, which of them are core, the
    idea each belongs to, and the requirement's keywords and title words as lexeme sets."""

    groups: tuple[Group, ...]
    core: tuple[bool, ...]
    ideas: tuple[int, ...]
    keywords: tuple[frozenset[str], ...]

    @classmethod
    def of(
        cls,
        groups: Sequence[Group],
        keywords: Sequence[frozenset[str]],
        subject: frozenset[str] = frozenset(),
    ) -> Sense:
        """Core groups are the topical ones whose alternatives are the most requirement keywords
        ("pay": remuneration, compensation, bonus; not "linked": weighting), and those written with
        `subject` words (what the question asks for besides its requirement). An action or a manner
        ("responsible", "integrated") is never core: "which body is responsible for climate risks?"
        is answered by a window naming the body and the risks, whatever verb it uses."""
        found = tuple(dict.fromkeys(keyword for keyword in keywords if keyword))
        counts = [
            sum(k in g.alternatives for k in found) if g.topical and not g.action else 0 for g in groups
        ]
        best = max(counts, default=0)
        core = tuple(
            bool(best)
            and count == best
            or (g.topical and bool(subject.intersection(w.lower() for w in g.words)))
            for g, count in zip(groups, counts, strict=True)
        )
        return cls(tuple(groups), core, _ideas(groups), found)

    @cached_property
    def _topical(self) -> tuple[int, ...]:
        """Indexes of the topical groups, the only ones the checks count (built once, asked per window)."""
        return tuple(index for index, group in enumerate(self.groups) if group.topical)

    @cached_property
    def _needed(self) -> int:
        """Distinct ideas a window must hold without corroboration."""
        return min(SENSE_IDEAS, len({self.ideas[index] for index in self._topical}))

    def grounded(self, text: str, matched: frozenset[str]) -> bool:
        """Whether a window with this text and these lexemes holds the core concept in its sense."""
        if not self._topical:
            return True
        free, named = word_stems(text)
        held = [
            index
            for index in self._topical
            if self.groups[index].held(matched) and not _named_only(self.groups[index], matched, free, named)
        ]
        if any(self.core) and not any(self.core[index] for index in held):
            return False
        if not held:
            return False
        ideas = {self.ideas[index] for index in held}
        if len(ideas) >= self._needed:
            return True
        same_idea = [index for index in self._topical if self.ideas[index] in ideas]
        if any(self._corroborated(self.groups[index], matched) for index in same_idea):
            return True
        words = {a for index in held for a in self.groups[index].alternatives}
        return any(k <= matched and k not in words for k in self.keywords)

    def named_groups(self, text: str, matched: frozenset[str]) -> frozenset[int]:
        """Indexes of the groups a window holds only through words inside other organisations'
        names: they hold nothing of the question there."""
        free, named = word_stems(text)
        return frozenset(
            index
            for index, group in enumerate(self.groups)
            if group.held(matched) and _named_only(group, matched, free, named)
        )

    def touches(self, matched: frozenset[str]) -> bool:
        """Whether a window holds a topical word group of the question that names a subject, not
        only an action ("manage") or a manner ("how often"): the question's subject at all."""
        return any(
            self.groups[index].held(matched) and not self.groups[index].action for index in self._topical
        )

    @staticmethod
    def _corroborated(group: Group, matched: frozenset[str]) -> bool:
        """A phrase of the group, or one of its related words (of any group of the same idea:
        "assessment" for "test" corroborates "scenario")."""
        return any(len(a) > 1 and a <= matched for a in group.alternatives) or group.near(matched)


def _ideas(groups: Sequence[Group]) -> tuple[int, ...]:
    """An idea number per group: groups sharing an alternative ("stress test") are one idea."""
    ideas = list(range(len(groups)))
    for index, group in enumerate(groups):
        for other in range(index):
            if set(group.alternatives) & set(groups[other].alternatives):
                old, new = ideas[index], ideas[other]
                ideas = [new if idea == old else idea for idea in ideas]
    return tuple(ideas)


def _named_only(group: Group, matched: frozenset[str], free: frozenset[str], named: frozenset[str]) -> bool:
    """Whether the window holds the group only through single words inside names (a word found
    nowhere as written, only through the full-text stemmer, is given the benefit of the doubt)."""
    if any(len(a) > 1 and a <= matched for a in group.alternatives) or not group.words:
        return False
    return bool(group.stems & named) and not group.stems & free


@lru_cache(maxsize=4096)
def word_stems(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Stems of the words of `text` outside other organisations' names, and of those inside."""
    tokens = list(_TOKEN.finditer(text))
    inside = _inside_names(text, tokens)
    free = {_stem(match.group()) for index, match in enumerate(tokens) if index not in inside}
    return frozenset(free), frozenset(_stem(tokens[index].group()) for index in inside)


def _stem(word: str) -> str:
    return stem(re.sub(r"['’]s?$", "", word.lower()))


def _inside_names(text: str, tokens: list[re.Match[str]]) -> set[int]:
    """Token indexes inside the name of a standard setter or regulator: the capitalised words of
    a run after one of `NAME_MARKERS` ("Sustainability Accounting *Standards Board*")."""
    inside: set[int] = set()
    marked = False  # the current run of capitalised words has passed a marker
    previous: re.Match[str] | None = None
    for index, match in enumerate(tokens):
        word = match.group()
        joined = previous is not None and not text[previous.end() : match.start()].strip()
        capital = word[:1].isupper() and word.lower() not in _OPENERS
        if not (joined and (capital or word.lower() in _CONNECTORS)):
            marked = False
        if capital and marked:
            inside.add(index)
        marked = (marked or (capital and word.lower() in NAME_MARKERS)) and (
            capital or word.lower() in _CONNECTORS
        )
        previous = match
    return inside
