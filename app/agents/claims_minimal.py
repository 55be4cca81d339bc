"""A deliberately small rule-based claim extractor that feeds the pipeline until the claims agent
(FRD-03) lands: sentences that state a figure, a target year or a governance fact, typed by keyword.

It is labelled `rules-minimal` in the data; nothing downstream depends on its quality.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from app.agents.state import ClaimState

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])")
_HAS_FIGURE = re.compile(r"\d")
_TOPIC = re.compile(
    r"emission|scope\s*[123]|ghg|carbon|co2|climate|energy|renewable|water|waste|biodiversity|forest|"
    r"target|net[- ]zero|board|committee|governance|risk|transition|sustainab|recycl|hectare|facilit|site",
    re.IGNORECASE,
)
_TYPE_KEYWORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("legal_governance", re.compile(r"board|committee|governance|director|oversight|policy|complian", re.I)),
    ("strategic", re.compile(r"target|net[- ]zero|commit|plan|strategy|by 20\d\d|transition|ambition", re.I)),
    ("geographic", re.compile(r"facilit|site|plant|mine|located|region|hectare|forest", re.I)),
    ("quantitative", re.compile(r"\d[\d,.]*\s*(?:%|t\b|kt|mt|tonnes?|mwh|gwh|m3|million|billion)", re.I)),
)
_HIGH_PRIORITY = re.compile(r"scope\s*[123]|emission|net[- ]zero|target", re.IGNORECASE)
MIN_CHARS, MAX_CHARS = 40, 400


def sentences(text: str) -> Iterable[str]:
    for raw in _SENTENCE_END.split(re.sub(r"\s+", " ", text)):
        sentence = raw.strip()
        if MIN_CHARS <= len(sentence) <= MAX_CHARS:
            yield sentence


def claim_type_of(sentence: str) -> str:
    for claim_type, pattern in _TYPE_KEYWORDS:
        if pattern.search(sentence):
            return claim_type
    return "environmental"


def extract_minimal_claims(
    pages: Iterable[tuple[int, str]], make_id: Callable[[int, int], str]
) -> list[ClaimState]:
    """Claims from `(page number, text)` pairs; `make_id(page, index)` names each claim."""
    claims: list[ClaimState] = []
    seen: set[str] = set()
    for number, text in pages:
        for index, sentence in enumerate(sentences(text)):
            key = sentence.lower()
            if key in seen or not (_HAS_FIGURE.search(sentence) and _TOPIC.search(sentence)):
                continue
            seen.add(key)
            claims.append(
                ClaimState(
                    claim_id=make_id(number, index),
                    text=sentence,
                    claim_type=claim_type_of(sentence),
                    priority="high" if _HIGH_PRIORITY.search(sentence) else "medium",
                    source_page=number,
                    source_context=sentence,
                    ifrs_paragraphs=[],
                )
            )
    return claims
