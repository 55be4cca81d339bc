"""Step 1 of `ask_report` (`service`): what kind of question this is, and what it names.

Keyword rules always run: they find the entities retrieval filters on exactly (verdict labels, IFRS
paragraphs, compliance statuses, pages) and, without an LLM or when it fails, the question type. With
an LLM configured, the routing model picks the type, since phrasing varies more than rules can follow.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from app.knowledge.registry import parse_paragraph_id
from app.llm import LLMClient, LLMRole, LLMUnavailable, UsageTrace
from app.questions.prompts import CLASSIFY_SYSTEM_PROMPT, CLASSIFY_USER_PROMPT
from app.questions.types import Classification, Entities, QueryType

logger = logging.getLogger(__name__)

_I = re.IGNORECASE

LABEL_PATTERNS: dict[str, re.Pattern[str]] = {
    "contradicted": re.compile(r"\bcontradicted\b|\bcontradictions?\b|\bdisproven\b", _I),
    "unverified": re.compile(r"\bunverified\b|\bnot (?:be(?:en)? )?verified\b", _I),
    "insufficient_evidence": re.compile(r"\binsufficient(?:[ _]evidence)?\b|\bnot enough evidence\b", _I),
    "verified": re.compile(r"(?<!not )(?<!be )(?<!been )\bverified\b|\bcorroborated\b", _I),
}
STATUS_PATTERNS: dict[str, re.Pattern[str]] = {
    "partially_supported": re.compile(r"\bpartial(?:ly)?\b", _I),
    "unsupported": re.compile(r"\bunsupported\b|\bnot supported\b|\bunmet\b|\bnot met\b|\bgaps?\b", _I),
    "supported": re.compile(r"(?<!partially )(?<!not )\bsupported\b|(?<!not )\bmet\b", _I),
    "contradicted": LABEL_PATTERNS["contradicted"],
}
_PARAGRAPH = re.compile(
    r"\b(?:ifrs\s*)?s[12]\s*(?:[.:\-]\s*|\s+)(?:(?:paragraphs?|paras?\.?|¶|§)\s*)?[a-e]?\d{1,3}"
    r"(?:\s*\((?:[a-z]{1,5}|\d{1,2})\))*",
    _I,
)
_STANDARD = re.compile(r"\b(?:ifrs\s*)?(s[12])\b", _I)
_PAGE = re.compile(r"\bpages?\s+(\d{1,4})\b", _I)
_CONTRADICTS = re.compile(r"\bcontradict(?:s|ing)?\b|\brefut\w*|\bdisput\w*|\bagainst\b|\bdebunk\w*", _I)
#: Who a disclosure question asks about: "the company", "the report", "the group", ...
_SUBJECT = (
    r"(?:the |this |their |its )?(?:company|companies|report|organi[sz]ation|group|firm|entity|business"
    r"|issuer|management|board|reit|bank|trust|fund|partnership|plan|strategy)\b"
)
#: What makes a question about Sibyl's own output or about compliance, not about the report's practice.
_NOT_PRACTICE = (
    r"(?!.*\b(?:claims?|verdicts?|findings?|evidence|sources?|compl(?:y|ies|iant|iance)\w*|accurate|true|false"
    r"|misleading|greenwash\w*|verified|unverified|contradicted|ifrs|paragraphs?)\b)"
)
_PRACTICE_QUESTION = re.compile(
    rf"^\W*(?:does|do|did|has|have)\s+{_NOT_PRACTICE}(?:[\w&.'’-]+\s+){{1,4}}?"
    r"(?:use|have|describe|report|disclose|set|apply|assess|measure|track|publish|provide|explain"
    r"|engage|conduct|consider|identify|manage|include|plan|commit|mention|give|perform|evaluate"
    r"|price|review|work|integrate|link|tie|monitor|quantify|participate|run|offer|own|operate"
    # "has the trust assessed", "have they quantified": the participles of the same verbs
    r"|used|had|described|reported|disclosed|applied|assessed|measured|tracked|published|provided"
    r"|explained|engaged|conducted|considered|identified|managed|included|planned|committed"
    r"|mentioned|given|performed|evaluated|priced|reviewed|worked|integrated|linked|tied|monitored"
    r"|quantified|participated|offered|owned|operated)\b",
    _I,
)
_LINKED_QUESTION = re.compile(
    rf"^\W*(?:is|are)\s+{_NOT_PRACTICE}(?:[\w&.'’-]+\s+){{1,5}}?(?:[\w]+-)?"
    r"(?:linked|tied|aligned|integrated|included|embedded|incorporated|considered|covered|based)\b",
    _I,
)
_WHICH_QUESTION = re.compile(
    rf"^\W*(?:which|what)\s+{_NOT_PRACTICE}(?:[\w&.'’-]+\s+){{0,5}}?"
    r"(?:(?:are|is|were|was)\s+(?:included|covered|reported|disclosed|counted|used|considered|set|identified)"
    r"|makes?\s+up|accounts?\s+for)\b",
    _I,
)
#: What a disclosure is about: a practice, a body, a plan or a measure the report would describe.
_PRACTICE_NOUN = (
    r"(?:process(?:es)?|procedures?|approach(?:es)?|strateg(?:y|ies)|plans?|polic(?:y|ies)|governance"
    r"|oversight|committees?|bod(?:y|ies)|roles?|responsibilit(?:y|ies)|risks?|opportunit(?:y|ies)"
    r"|targets?|goals?|objectives?|commitments?|metrics?|indicators?|kpis?|measures?|steps?|actions?"
    r"|assumptions?|scenarios?|methods?|methodolog(?:y|ies)|frameworks?|controls?|mechanisms?|criteria"
    r"|incentives?|initiatives?|programmes?|programs?|tools?|practices?|systems?)"
)
#: "What process does the company use ...", "Which governance body has responsibility ...", "What
#: are the company's interim targets?": a question for a practice the report would describe, asked
#: with an interrogative word; "What does the report say about ..." (no practice named) and "What
#: is the company's water use?" (a figure) stay claim look-ups.
_PRACTICE_ASKED = re.compile(
    rf"^\W*(?:what|which)\s+{_NOT_PRACTICE}(?:[\w&.'’-]+\s+){{0,6}}?{_PRACTICE_NOUN}\b"
    r"(?!\s+(?:say|says|said|states?|mentions?)\b)",
    _I,
)
_SUPPORTS = re.compile(r"\bsupport(?:s|ing)?\b|\bback(?:s|ed|ing)? up\b|\bcorroborat\w*|\bconfirm\w*", _I)

#: (pattern, weight) per type; the highest total wins, ties going to the earlier type.
TYPE_RULES: dict[QueryType, tuple[tuple[re.Pattern[str], float], ...]] = {
    QueryType.COMPLIANCE: (
        (re.compile(r"\bifrs\b|\bissb\b", _I), 1.5),
        (_STANDARD, 1.0),
        (re.compile(r"\bparagraphs?\b|\bparas?\b", _I), 1.0),
        (re.compile(r"\bcomplian\w*|\bcompl(?:y|ies)\b|\bnon-?complian\w*", _I), 1.5),
        (re.compile(r"\b(?:disclosure )?requirements?\b|\bpillars?\b", _I), 1.0),
        (STATUS_PATTERNS["unsupported"], 0.5),
        (STATUS_PATTERNS["partially_supported"], 0.5),
    ),
    QueryType.EVIDENCE: (
        (re.compile(r"(?<!insufficient )(?<!enough )\bevidence\b", _I), 2.0),
        (re.compile(r"\bsources?\b|\bfindings?\b|\bproof\b|\bprove\w*\b", _I), 1.5),
        (re.compile(r"\bnews\b|\barticles?\b|\bstud(?:y|ies)\b|\bresearch\b|\bmedia\b", _I), 1.0),
        (re.compile(r"\bwho (?:says|said|reported)\b|\baccording to\b|\bwhy\b", _I), 1.0),
        (_CONTRADICTS, 1.0),
        (_SUPPORTS, 0.5),
    ),
    QueryType.VERDICT_SUMMARY: (
        *((pattern, 2.0) for pattern in LABEL_PATTERNS.values()),
        (re.compile(r"\bverdicts?\b|\bjudge[ds]?\b|\bgreenwash\w*", _I), 2.0),
        (
            re.compile(r"\bhow many claims\b|\bwhich claims\b|\bclaims? (?:were|was|are|is|has|have)\b", _I),
            1.0,
        ),
        (re.compile(r"\boutcome\b|\bresults?\b|\btrue\b|\bfalse\b|\baccurate\b|\bmisleading\b", _I), 1.0),
    ),
    QueryType.DISCLOSURE: (
        # "Does the company report ...", "Has the group set ...": a yes/no question about what the
        # report discloses (never "does the report comply ...", a compliance question).
        (
            re.compile(
                rf"^\W*(?:does|do|did|has|have|is|are)\s+{_SUBJECT}(?!['’]s\b)(?!\s+(?:compl|meet|met\b|satisf|conform|accurate|true|false|misleading|greenwash))",
                _I,
            ),
            2.5,
        ),
        (
            re.compile(
                rf"\bhow (?:much |many |far |well )?(?:does|do|did|has|have|will|is|are)\s+{_SUBJECT}", _I
            ),
            2.5,
        ),
        # Reviewers' other openings: "Is there a board committee ...", "Which executives are
        # accountable ...", "How are climate risks integrated ...", "Is executive pay tied ...".
        (re.compile(r"^\W*(?:is|are|was|were)\s+there\b(?!.*\bclaims?\b)", _I), 2.5),
        # "Have the company's targets been validated ...": about what the company did, unless it
        # asks about Sibyl's own output ("Were the company's claims verified?").
        (
            re.compile(
                rf"^\W*(?:has|have|is|are|was|were)\s+{_SUBJECT}['’]s\s+"
                r"(?!.*\b(?:claims?|verdicts?|findings?|statements?)\b)"
                r"(?!.*\b(?:compl\w*|accurate|true|false|misleading|greenwash\w*)\b)",
                _I,
            ),
            2.5,
        ),
        (
            re.compile(
                r"^\W*(?:which|who)\s+(?:[\w-]+\s+){0,4}(?:is|are|was|were|has|have|holds?)\s+"
                r"(?:the\s+|overall\s+|primary\s+)?"
                r"(?:responsib\w*|accountab\w*|in charge|charged|tasked|oversight)\b",
                _I,
            ),
            2.5,
        ),
        (re.compile(r"^\W*how\s+(?:is|are|was|were)\s+(?!.*\b(?:claims?|verdicts?)\b)", _I), 2.0),
        (
            re.compile(
                r"^\W*(?:is|are)\s+(?:the\s+)?(?:executive|management|director|board|senior|ceo)\w*"
                r"\s+(?:[\w-]+\s+){0,3}?(?:pay|compensation|remuneration|bonus\w*|incentive\w*)\b",
                _I,
            ),
            2.5,
        ),
        # Yes/no questions about any named subject's practice, whatever the verb: "Does CT REIT use
        # climate scenario analysis?", "Does Rio Tinto have a net zero target?".
        (_PRACTICE_QUESTION, 2.5),
        # "Is executive pay climate-linked?", "Are suppliers' emissions included in Scope 3?"
        (_LINKED_QUESTION, 2.5),
        # "Which Scope 3 categories are included in the reported emissions?"
        (_WHICH_QUESTION, 2.5),
        # "What process does the company use to identify climate-related risks?"
        (_PRACTICE_ASKED, 2.5),
        (
            re.compile(
                r"\bdisclos(?:e|es|ed|ing|ure)\b|\bdescrib\w*|\bexplain\w*|\boutlin\w*"
                r"|\breport(?:s|ed|ing)? (?:on|its|the|any|how|whether)\b",
                _I,
            ),
            1.0,
        ),
    ),
    QueryType.CLAIM_LOOKUP: (
        (re.compile(r"\bwhat does (?:the|this|their|its) (?:report|company)\b", _I), 2.0),
        (re.compile(r"\b(?:says?|said|states?|mentions?|discloses?|reports?|claims?) about\b", _I), 1.5),
        (re.compile(r"\btargets?\b|\bcommit\w*|\bgoals?\b|\bplans?\b|\bpolic(?:y|ies)\b", _I), 0.5),
        (re.compile(r"\bwhat (?:is|are|was|were)\b|\bhow much\b|\bwhen\b|\bwhere\b", _I), 0.5),
    ),
    QueryType.GENERAL: (
        (re.compile(r"\bsummar\w*|\boverview\b|\bin short\b|\btl;?dr\b", _I), 2.0),
        (re.compile(r"\b(?:this|the) report about\b|\babout (?:this|the) report\b", _I), 2.0),
    ),
}


class ClassifyAnswer(BaseModel):
    """The routing model's answer."""

    reasoning: str = ""
    query_type: QueryType
    terms: list[str] = Field(default_factory=list, max_length=20)

    @field_validator("query_type", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value


def extract_entities(question: str, terms: Iterable[str] = ()) -> Entities:
    """The verdict labels, IFRS paragraphs, statuses, pages and stance `question` names."""
    paragraphs = _unique(
        paragraph_id
        for match in _PARAGRAPH.finditer(question)
        if (paragraph_id := parse_paragraph_id(match.group())) is not None
    )
    standards = _unique(match.group(1).upper() for match in _STANDARD.finditer(question))
    return Entities(
        labels=tuple(label for label, pattern in LABEL_PATTERNS.items() if pattern.search(question)),
        paragraphs=paragraphs,
        standards=tuple(s for s in standards if not any(p.startswith(f"{s}.") for p in paragraphs)),
        statuses=tuple(status for status, pattern in STATUS_PATTERNS.items() if pattern.search(question)),
        pages=tuple(int(page) for page in _unique(match.group(1) for match in _PAGE.finditer(question))),
        stance=_stance(question),
        terms=tuple(term.strip() for term in terms if term.strip()),
    )


def classify_by_rules(question: str) -> QueryType:
    """The type whose keywords weigh most in `question`; CLAIM_LOOKUP for a bare topic."""
    scores = {
        query_type: sum(weight * len(pattern.findall(question)) for pattern, weight in rules)
        for query_type, rules in TYPE_RULES.items()
    }
    best = max(scores, key=lambda query_type: scores[query_type])
    return best if scores[best] > 0 else QueryType.CLAIM_LOOKUP


async def classify(question: str, llm: LLMClient | None, trace: UsageTrace | None = None) -> Classification:
    """The question's type (by the LLM when there is one, else by rules) and its entities."""
    if llm is not None:
        try:
            answer = await llm.complete_json(
                LLMRole.ROUTING,
                system=CLASSIFY_SYSTEM_PROMPT,
                user=CLASSIFY_USER_PROMPT.format(question=question),
                schema=ClassifyAnswer,
                trace=trace,
                max_tokens=512,
                temperature=0.0,
            )
            return Classification(answer.query_type, extract_entities(question, answer.terms), "llm")
        except LLMUnavailable as exc:
            logger.warning("question classification by LLM failed, using rules: %s", exc)
    return Classification(classify_by_rules(question), extract_entities(question), "rules")


def _stance(question: str) -> Literal["supports", "contradicts"] | None:
    if _CONTRADICTS.search(question) or LABEL_PATTERNS["contradicted"].search(question):
        return "contradicts"
    if _SUPPORTS.search(question):
        return "supports"
    return None


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))
