"""Paragraph-level IFRS assessment: which sub-requirements of a paragraph a claim's text addresses.

A paragraph such as S2.6(a) is only fully disclosed when every one of its sub-requirements (the
registry's leaves under it) is, so the legal agent walks down to the leaves and looks for each
one's keywords in the claim and the text around it. Keywords are matched as token sequences, the
way the claims agent's preliminary mapping matches them (`app.claims.ifrs_mapping`), so "Scope 12"
never counts as "scope 1".

The claim may address a leaf by any keyword; its source context (the neighbouring sentences) and the
rest of the page only by a phrase (a keyword of two or more words), because single words such as
"data" or "board" turn up on almost any page of a report without saying anything about the
requirement. The claim's own sentence is read first, and only the claim makes a paragraph the
claim's (`touches_claim`): a neighbouring sentence is usually another claim, and its "Scope 3" or
"by 2030" says nothing about this one. Net-zero scenario names are read as scenarios
(`ifrs_sentences.without_scenario_names`), not as net-zero targets.

Not every match is evidence (`app.knowledge.ifrs_evidence`): a generic single word only *mentions* a
leaf, which can make its paragraph partial but never full, and a leaf with an evidence rule (the
statement of compliance, performance against a target) is addressed only by a sentence the rule
accepts, never by its keywords (an additive rule is one more way besides them). A paragraph that
asks something itself beyond its sub-paragraphs (S2.6(a): identify the oversight body) is assessed
as one of its own sub-requirements, and a claim's scope is only ever its own sentence's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.knowledge.ifrs_evidence import CLAIM_ONLY, SELF_LEAVES, SPECIFIC_WORDS, rule_for
from app.knowledge.ifrs_sentences import with_scopes_spelled_out, without_scenario_names
from app.knowledge.keywords import TextIndex, tokens
from app.knowledge.registry import Requirement, children, requirement

Status = Literal["full", "partial", "missing"]
Strength = Literal["addressed", "mentioned"]

#: How many names of not-found sub-requirements a summary spells out before "and N more".
MAX_LISTED = 4
#: Longest quote of an evidence sentence in a summary.
QUOTE_CHARS = 160


@dataclass(frozen=True)
class Passage:
    """A text the assessment may read, where it is ("on page 12"), and whether single words count in
    it: they do only in the claim's own sentence, the one passage that is the claim's (`own`)."""

    label: str
    text: str
    phrases_only: bool = False

    @property
    def own(self) -> bool:
        """Whether this is the claim itself (its neighbouring sentences are often other claims)."""
        return not self.phrases_only


@dataclass(frozen=True)
class LeafMatch:
    """A sub-requirement found: which keyword (or evidence rule) showed it, where, and how strongly.

    `own` says whether it was the claim's own text, not its context or page;
    `quote` is the sentence an evidence rule accepted.
    """

    requirement: Requirement
    keyword: str
    where: str
    strength: Strength = "addressed"
    own: bool = True
    quote: str | None = None

    def to_evidence(self) -> dict[str, Any]:
        """The `evidence` entry of a mapping."""
        entry = {
            "paragraph_id": self.requirement.paragraph_id,
            "keyword": self.keyword,
            "where": self.where,
            "strength": self.strength,
        }
        return entry | ({"quote": self.quote} if self.quote else {})


@dataclass
class ParagraphAssessment:
    """One paragraph's status and the sub-requirements behind it."""

    paragraph: Requirement
    status: Status
    addressed: list[LeafMatch] = field(default_factory=list)
    missing: list[Requirement] = field(default_factory=list)
    mentioned: list[LeafMatch] = field(default_factory=list)

    @property
    def coverage(self) -> float:
        """Share of the paragraph's sub-requirements addressed (0..1); a mention counts half."""
        total = len(self.addressed) + len(self.mentioned) + len(self.missing)
        return (len(self.addressed) + len(self.mentioned) / 2) / total if total else 0.0

    @property
    def touches_claim(self) -> bool:
        """Whether the claim's own text (not only its page) addresses or mentions a sub-requirement."""
        return any(match.own for match in [*self.addressed, *self.mentioned])

    def to_mapping(self) -> dict[str, Any]:
        """The `details["ifrs_mappings"]` entry the judge reads (status per paragraph)."""
        return {
            "paragraph_id": self.paragraph.paragraph_id,
            "status": self.status,
            "title": self.paragraph.title,
            "addressed": [match.requirement.paragraph_id for match in self.addressed],
            "mentioned": [match.requirement.paragraph_id for match in self.mentioned],
            "missing": [req.paragraph_id for req in self.missing],
            "evidence": [match.to_evidence() for match in [*self.addressed, *self.mentioned]],
        }


def leaves(paragraph_id: str) -> list[Requirement]:
    """The registry's most specific requirements under `paragraph_id` (itself when it has none)."""
    own = requirement(paragraph_id)
    if own is None:
        return []
    nested = children(own.paragraph_id)
    if not nested:
        return [own]
    itself = [own] if own.paragraph_id in SELF_LEAVES else []
    return itself + [leaf for child in nested for leaf in leaves(child.paragraph_id)]


def find_leaf(leaf: Requirement, indexes: Sequence[tuple[Passage, TextIndex]]) -> LeafMatch | None:
    """The first passage (claim first) that addresses the leaf, else the first that mentions it.

    A leaf with an exclusive evidence rule is found only in a sentence the rule accepts; one with an
    additive rule by such a sentence or by its keywords. A `CLAIM_ONLY` leaf found outside the claim
    is only mentioned.
    """
    rule = rule_for(leaf.paragraph_id)
    mention: LeafMatch | None = None
    for passage, index in indexes:
        found = _rule_match(leaf, passage)
        if found is None and (rule is None or not rule.only):
            found = _keyword_match(leaf, passage, index)
        if found is not None and not passage.own and leaf.paragraph_id in CLAIM_ONLY:
            found = LeafMatch(leaf, found.keyword, found.where, "mentioned", False, found.quote)
        if found is not None and found.strength == "addressed":
            return found
        mention = mention or found
    return mention


def _rule_match(leaf: Requirement, passage: Passage) -> LeafMatch | None:
    rule = rule_for(leaf.paragraph_id)
    sentence = rule.first_sentence(passage.text) if rule else None
    if rule is None or not sentence:
        return None
    return LeafMatch(leaf, rule.label, passage.label, own=passage.own, quote=sentence)


def _keyword_match(leaf: Requirement, passage: Passage, index: TextIndex) -> LeafMatch | None:
    """A phrase or specific word addresses the leaf; a generic single word only mentions it."""
    mention: LeafMatch | None = None
    for keyword in leaf.keywords:
        single = len(tokens(keyword)) < 2
        if (passage.phrases_only and single) or not index.has(keyword):
            continue
        if not single or keyword in SPECIFIC_WORDS:
            return LeafMatch(leaf, keyword, passage.label, own=passage.own)
        mention = mention or LeafMatch(leaf, keyword, passage.label, "mentioned", passage.own)
    return mention


def index_passages(passages: Sequence[Passage]) -> list[tuple[Passage, TextIndex]]:
    """Index each passage once, so several paragraphs can be assessed against the same text; a
    net-zero scenario's name is indexed as a scenario, not as "net zero", and a scope list as each
    scope it names (the passage's text, which quotes are taken from, stays as written)."""
    return [(passage, TextIndex(_readable(passage.text))) for passage in passages if passage.text.strip()]


def _readable(text: str) -> str:
    """Scenario names read as scenarios; scope lists ("Scope 1 and 2") as each scope they name."""
    return with_scopes_spelled_out(without_scenario_names(text))


def assess_paragraph(
    paragraph_id: str, indexes: Sequence[tuple[Passage, TextIndex]]
) -> ParagraphAssessment | None:
    """Full when every sub-requirement is addressed, partial when some are addressed or mentioned,
    missing when none is.

    Returns None for an id the registry does not know: there is nothing to assess it against.
    """
    paragraph = requirement(paragraph_id)
    if paragraph is None:
        return None
    assessment = ParagraphAssessment(paragraph, "missing")
    for leaf in leaves(paragraph.paragraph_id):
        match = find_leaf(leaf, indexes)
        if match is None:
            assessment.missing.append(leaf)
        elif match.strength == "mentioned":
            assessment.mentioned.append(match)
        else:
            assessment.addressed.append(match)
    if assessment.addressed or assessment.mentioned:
        assessment.status = "partial" if assessment.missing or assessment.mentioned else "full"
    return assessment


def best(assessments: Sequence[ParagraphAssessment]) -> ParagraphAssessment | None:
    """The assessment the finding's stance rests on: full first, then the best covered."""
    rank = {"full": 2, "partial": 1, "missing": 0}
    return max(assessments, key=lambda a: (rank[a.status], a.coverage), default=None)


def _named(req: Requirement) -> str:
    return f"{req.paragraph_id} {req.title}"


def _shown(match: LeafMatch) -> str:
    if match.quote:
        quote = match.quote if len(match.quote) <= QUOTE_CHARS else match.quote[: QUOTE_CHARS - 1] + "…"
        return f'{match.keyword} {match.where}: "{quote}"'
    return f"'{match.keyword}' {match.where}"


def _listed(items: Sequence[str], what: str) -> str:
    extra = len(items) - MAX_LISTED
    return "; ".join(items[:MAX_LISTED]) + (f"; and {extra} more {what}" if extra > 0 else "")


def _missing(req: Requirement) -> str:
    rule = rule_for(req.paragraph_id)
    return _named(req) + (f" (needs {rule.needs})" if rule else "")


def describe(assessment: ParagraphAssessment, searched: str) -> str:
    """One sentence naming what was found (and where), what only a generic word mentions, and what
    was not found in `searched`."""
    head = f"{_named(assessment.paragraph)}: {assessment.status}"
    parts: list[str] = []
    if assessment.addressed:
        found = [f"{_named(m.requirement)} addressed ({_shown(m)})" for m in assessment.addressed]
        parts.append(_listed(found, "addressed"))
    if assessment.mentioned:
        named = [f"{_named(m.requirement)} ({_shown(m)})" for m in assessment.mentioned]
        parts.append(
            "only mentioned by a single generic word, not shown to be disclosed: "
            + _listed(named, "mentioned")
        )
    if assessment.missing:
        names = ", ".join(_missing(req) for req in assessment.missing[:MAX_LISTED])
        extra = len(assessment.missing) - MAX_LISTED
        parts.append(f"not found in {searched}: {names}" + (f" and {extra} more" if extra > 0 else ""))
    return f"{head} — " + "; ".join(parts) + "."
