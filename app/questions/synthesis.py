"""Step 3 of `ask_report` with an LLM: an answer written from the retrieved passages.

The model sees the passages under short ids ("P1", "P2", ...) and must cite them. Its citations are
checked statement by statement (`markers`): a statement citing only ids that were not among the
passages given is dropped, and an answer left citing none of them is refused (`UncitedAnswer`), so
the caller answers extractively: what Sibyl shows as an answer always rests on passages it retrieved.
"""

from __future__ import annotations

import logging

from pydantic import BaseModel, Field

from app.knowledge.registry import requirement
from app.llm import LLMClient, LLMRole, UsageTrace
from app.questions.answer import label_name, verdict_counts_text
from app.questions.citations import CitationList, clip
from app.questions.markers import CheckedAnswer, check_markers
from app.questions.prompts import ANSWER_SYSTEM_PROMPT, ANSWER_USER_PROMPT
from app.questions.retrieve import Retrieved
from app.questions.types import Passage, QueryType, ReportFacts

logger = logging.getLogger(__name__)

#: Most passages handed to the model, and characters of each.
LLM_PASSAGES = 12
LLM_PASSAGE_CHARS = 900
MAX_LLM_CAVEATS = 3

DROPPED_STATEMENTS = (
    "{count} statement(s) of the LLM's answer cited only passages it was not given and were removed."
)
UNKNOWN_CITATIONS = "Citations to passages the LLM was not given were removed from its answer."
UNCITED_STATEMENTS = (
    "{count} statement(s) of this answer cite no passage; check them against the cited passages."
)


class UncitedAnswer(Exception):
    """The model answered, but no statement of its answer cites a passage it was given."""

    def __init__(self, unknown: list[str]) -> None:
        super().__init__(f"no valid citation (unknown markers: {sorted(set(unknown))})")
        self.unknown = unknown


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

    Raises `LLMUnavailable` when no model answers and `UncitedAnswer` when its answer cites no passage
    it was given; the caller then answers extractively.
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
    checked = check_markers(result.answer, by_label, cited)
    if not cited.citations:
        raise UncitedAnswer(checked.unknown)
    for reference in result.citations:
        passage = by_label.get(reference.strip().upper())
        if passage is not None:
            cited.cite(passage)
    unknown = {*checked.unknown, *(ref for ref in result.citations if ref.strip().upper() not in by_label)}
    if unknown:
        logger.warning("LLM answer cited passages it was not given, dropped: %s", sorted(unknown))
    own = [clip(caveat, 300) for caveat in result.caveats if caveat.strip()][:MAX_LLM_CAVEATS]
    return checked.text, cited, [*check_caveats(checked), *own]


def check_caveats(checked: CheckedAnswer) -> list[str]:
    """What the citation check took out of the answer, or found uncited in it."""
    caveats = []
    if checked.dropped:
        caveats.append(DROPPED_STATEMENTS.format(count=checked.dropped))
    elif checked.unknown:
        caveats.append(UNKNOWN_CITATIONS)
    if checked.uncited:
        caveats.append(UNCITED_STATEMENTS.format(count=checked.uncited))
    return caveats
