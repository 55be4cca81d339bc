"""Step 3 with an LLM (the REF spec's TruthSynthesizer): an answer written from the retrieved passages.

The model sees the passages under short ids ("P1", "P2", ...) and must cite them. Its citations are
checked: an id that was not among the passages given is dropped (and its marker removed from the
text), so an answer can only ever point at something Sibyl actually retrieved.
"""

from __future__ import annotations

import logging
import re

from pydantic import BaseModel, Field

from app.knowledge.registry import requirement
from app.llm import LLMClient, LLMRole, UsageTrace
from app.questions.answer import label_name, verdict_counts_text
from app.questions.citations import CitationList, clip
from app.questions.prompts import ANSWER_SYSTEM_PROMPT, ANSWER_USER_PROMPT
from app.questions.retrieve import Retrieved
from app.questions.types import Passage, QueryType, ReportFacts

logger = logging.getLogger(__name__)

#: Most passages handed to the model, and characters of each.
LLM_PASSAGES = 12
LLM_PASSAGE_CHARS = 900
MAX_LLM_CAVEATS = 3
_MARKER = re.compile(r"\[\s*(P\d+(?:\s*[,;]\s*P\d+)*)\s*\]", re.IGNORECASE)
_ID = re.compile(r"P\d+", re.IGNORECASE)


class CitedAnswer(BaseModel):
    """The synthesis model's answer."""

    reasoning: str = ""
    answer: str = Field(min_length=1)
    citations: list[str] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)


def passages_for_llm(retrieved: Retrieved) -> list[Passage]:
    """What the model may cite: the claims an evidence answer is about, then the retrieved passages
    (only the relevant ones of a search) and the verdicts on the claims among them."""
    candidates = [*retrieved.target_claims, *retrieved.passages]
    if retrieved.query_type in (QueryType.CLAIM_LOOKUP, QueryType.GENERAL, QueryType.DISCLOSURE):
        candidates = [passage for passage in candidates if passage.relevant]
    candidates += list(retrieved.verdict_by_claim.values())
    unique = {passage.id: passage for passage in candidates}
    return list(unique.values())[:LLM_PASSAGES]


def facts_text(retrieved: Retrieved, facts: ReportFacts) -> str:
    """The structured facts the model may state besides the passages (counts, analysis state)."""
    company = f" ({facts.company_name})" if facts.company_name else ""
    lines = [
        f"Report: {facts.filename}{company}, {facts.page_count} pages, {facts.claim_count} claims.",
        f"Latest analysis: {facts.run_status or 'never analysed'}.",
    ]
    if retrieved.verdict_counts:
        lines.append(verdict_counts_text(retrieved.verdict_counts))
    if retrieved.compliance:
        assessed = "" if retrieved.compliance_assessed else " (not assessed yet; mapped claims only)"
        lines.append(f"IFRS paragraphs asked about{assessed}:")
        lines += [
            f"- {paragraph}: {entry.get('status')}, {entry.get('claims')} claim(s)"
            for paragraph, entry in retrieved.compliance.items()
        ]
    for paragraph_id in retrieved.paragraphs:
        found = requirement(paragraph_id)
        if found is not None:
            lines.append(
                f"IFRS requirement the question maps to: {paragraph_id} {found.title}: {found.summary}"
            )
    return "<facts>\n" + "\n".join(lines) + "\n</facts>"


def format_passage(label: str, passage: Passage) -> str:
    """One passage as the model reads it."""
    header = f"[{label}] {passage.kind}, page {passage.page_number or '?'}"
    if passage.kind == "verdict":
        header += f", {label_name(passage.attributes.get('label'))}"
        confidence = passage.attributes.get("confidence")
        if isinstance(confidence, int | float):
            header += f" (confidence {confidence:.2f})"
    return f"{header}\n{clip(passage.text, LLM_PASSAGE_CHARS)}"


async def llm_answer(
    llm: LLMClient, question: str, retrieved: Retrieved, facts: ReportFacts, trace: UsageTrace | None = None
) -> tuple[str, CitationList, list[str]]:
    """The model's answer with its valid citations renumbered [1], [2], ... and its own caveats.

    Raises `LLMUnavailable` when no model answers; the caller then answers extractively.
    """
    passages = passages_for_llm(retrieved)
    by_label = {f"P{index}": passage for index, passage in enumerate(passages, start=1)}
    user = ANSWER_USER_PROMPT.format(
        query_type=retrieved.query_type.value,
        question=question,
        context=facts_text(retrieved, facts),
        passages="\n\n".join(format_passage(label, passage) for label, passage in by_label.items())
        or "(no passage matched the question)",
    )
    result = await llm.complete_json(
        LLMRole.ANALYSIS,
        system=ANSWER_SYSTEM_PROMPT,
        user=user,
        schema=CitedAnswer,
        trace=trace,
        max_tokens=1500,
    )
    cited = CitationList(question)
    cited.rank_against(passages)
    text = _renumber(result.answer, by_label, cited)
    for reference in result.citations:
        passage = by_label.get(reference.strip().upper())
        if passage is not None:
            cited.cite(passage)
    dropped = {
        ref for ref in [*result.citations, *_ID.findall(result.answer)] if ref.strip().upper() not in by_label
    }
    if dropped:
        logger.warning("LLM answer cited passages it was not given, dropped: %s", sorted(dropped))
    caveats = [clip(caveat, 300) for caveat in result.caveats if caveat.strip()][:MAX_LLM_CAVEATS]
    return text, cited, caveats


def _renumber(answer: str, by_label: dict[str, Passage], cited: CitationList) -> str:
    """`answer` with "[P3]" markers replaced by citation numbers in reading order; unknown ids go."""

    def replace(match: re.Match[str]) -> str:
        markers = [
            cited.cite(by_label[ref.upper()])
            for ref in _ID.findall(match.group(1))
            if ref.upper() in by_label
        ]
        return "".join(markers)

    text = _MARKER.sub(replace, answer)
    return re.sub(r"[ \t]+([.,;:])", r"\1", re.sub(r"[ \t]{2,}", " ", text)).strip()
