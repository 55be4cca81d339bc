"""The shape every extractor (rules or LLM) hands to the rest of the claims agent."""

from __future__ import annotations

from dataclasses import dataclass

CLAIM_TYPES = ("geographic", "quantitative", "legal_governance", "strategic", "environmental")
PRIORITIES = ("high", "medium", "low")
PRIORITY_ORDER = {priority: rank for rank, priority in enumerate(PRIORITIES)}


@dataclass(frozen=True)
class CandidateClaim:
    """A claim found in one chunk, before the location check, de-duplication and IFRS mapping.

    `suggested_ifrs` holds the extractor's own guesses at paragraph ids (the LLM's, or none from the
    rules); the mapping step validates them against the registry and the knowledge base.
    `footnotes` are the numbers of the footnote markers dropped from `text` (the rules know them;
    the footnotes themselves are on `source_page`).
    """

    text: str
    claim_type: str
    priority: str
    source_page: int
    source_context: str
    reasoning: str
    method: str
    suggested_ifrs: tuple[str, ...] = ()
    chunk_index: int = 0
    footnotes: tuple[int, ...] = ()
