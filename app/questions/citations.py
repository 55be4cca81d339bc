"""Turning passages into numbered citations with short excerpts, shared by both answer methods.

A page chunk is ~1200 characters; its excerpt is the sentence or two that share most words with the
question, so a reader sees why it was cited.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.embeddings.tokens import tokenize
from app.language.sentences import split_sentences
from app.questions.types import LOW_CONFIDENCE, Citation, Passage

EXCERPT_CHARS = 300
_WORDS = re.compile(r"[^\W_]+")


def clip(value: str, limit: int = EXCERPT_CHARS) -> str:
    """`value` on one line, cut at a word boundary with an ellipsis when longer than `limit`."""
    value = " ".join(value.split())
    if len(value) <= limit:
        return value
    cut = value[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def best_sentences(passage_text: str, question: str, count: int = 2) -> str:
    """The `count` sentences of `passage_text` sharing most content words with `question`, in reading
    order; the first sentence when none shares any."""
    sentences = [sentence.text for sentence in split_sentences(0, passage_text)] or [passage_text]
    wanted = set(tokenize(question))
    scored = [(len(wanted & set(tokenize(sentence))), index) for index, sentence in enumerate(sentences)]
    best = sorted((item for item in scored if item[0] > 0), key=lambda item: (-item[0], item[1]))[:count]
    chosen = sorted(index for _, index in best) or [0]
    return " ".join(sentences[index] for index in chosen)


def focused_sentences(passage_text: str, focus: dict[str, float], count: int = 2) -> str:
    """The `count` sentences of `passage_text` whose words weigh most in `focus` (search lexemes,
    stemmed by Postgres, matched as word prefixes: "analysi" matches "analyses"), in reading order."""
    sentences = [sentence.text for sentence in split_sentences(0, passage_text)] or [passage_text]
    scored = []
    for index, sentence in enumerate(sentences):
        words = set(_WORDS.findall(sentence.lower()))
        weight = sum(
            value for lexeme, value in focus.items() if any(word.startswith(lexeme) for word in words)
        )
        scored.append((weight, index))
    best = sorted((item for item in scored if item[0] > 0), key=lambda item: (-item[0], item[1]))[:count]
    chosen = sorted(index for _, index in best) or [0]
    return " ".join(sentences[index] for index in chosen)


def excerpt(passage: Passage, question: str) -> str:
    """What a citation shows of a passage: the claim, the verdict and its reasoning, the finding's
    summary, or the page's sentences that matter to the question."""
    attributes = passage.attributes
    if passage.kind == "verdict":
        label = str(attributes.get("label", "")).replace("_", " ").upper()
        return clip(f"{label}: {attributes.get('reasoning') or passage.text}")
    if passage.kind == "finding":
        return clip(str(attributes.get("summary") or passage.text))
    focus = attributes.get("focus")
    if passage.kind == "page" and isinstance(focus, dict) and focus:
        return clip(focused_sentences(passage.text, focus))
    if passage.kind == "page":
        return clip(best_sentences(passage.text, question))
    return clip(passage.text)


def is_low_confidence(passage: Passage) -> bool:
    """Whether a verdict passage's confidence is low (the judge's level, else its score)."""
    if passage.kind != "verdict":
        return False
    level = passage.attributes.get("confidence_level")
    if level:
        return bool(level == "low")
    confidence = passage.attributes.get("confidence")
    return isinstance(confidence, int | float) and confidence < LOW_CONFIDENCE


@dataclass
class CitationList:
    """Numbers passages in the order an answer first cites them ([1], [2], ...)."""

    question: str
    citations: list[Citation] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    _numbers: dict[uuid.UUID, int] = field(default_factory=dict)
    _top_score: float = 0.0

    def rank_against(self, candidates: Sequence[Passage]) -> None:
        """Scores become relative to the best of `candidates` (1.0); structured picks score 1.0."""
        self._top_score = max((passage.score for passage in candidates), default=0.0)

    def cite(self, passage: Passage, scored_as: Passage | None = None) -> str:
        """The marker for `passage`, e.g. "[3]", adding it to the citations on first use.

        `scored_as` lends its score to a passage cited alongside it (a claim's verdict).
        """
        number = self._numbers.get(passage.id)
        if number is None:
            number = len(self.citations) + 1
            self._numbers[passage.id] = number
            self.passages.append(passage)
            raw = (scored_as or passage).score
            score = raw / self._top_score if self._top_score > 0 else 1.0
            self.citations.append(
                Citation(
                    kind=passage.kind,
                    claim_id=passage.claim_id,
                    page_number=passage.page_number,
                    excerpt=excerpt(passage, self.question),
                    score=round(min(score, 1.0), 4),
                )
            )
        return f"[{number}]"

    def excerpt_for(self, passage: Passage) -> str:
        """The excerpt of a passage already cited."""
        return self.citations[self._numbers[passage.id] - 1].excerpt

    def low_confidence_count(self) -> int:
        """How many cited verdicts have low confidence."""
        return sum(1 for passage in self.passages if is_low_confidence(passage))
