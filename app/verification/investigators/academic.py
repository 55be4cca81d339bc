"""The academic/research specialist: research and standard-setters' sources on methodology,
certification and target-validation claims.

It uses the news agent's search loop (`web_evidence`) with its own profile: queries aimed at what
the claim asserts (an SBTi validation, a certificate, a methodology), web search restricted to
scholarly and standards domains, the evidence library, and rules that look for validation or
certification status before falling back to the general contradiction rules.
"""

from __future__ import annotations

import datetime as dt
import re

from app.language.company_names import search_name
from app.language.sentences import split_sentences
from app.verification.contract.investigator import InvestigationTools
from app.verification.investigators.search_queries import PlannedQuery, claim_time_range, topic_terms
from app.verification.investigators.source_findings import EvidenceKinds
from app.verification.investigators.web_evidence import SearchProfile, investigate_with_search
from app.verification.reading.contradictions import SourceAssessment, assess_by_rules
from app.verification.records import ClaimState, InvestigationOutcome, SpecialistTask
from app.verification.sources.company_names import names_company
from app.verification.sources.credibility import RESEARCH_DOMAINS

_I = re.IGNORECASE
TARGET_VALIDATION = re.compile(
    r"\bsbti\b|science[- ]based|1\.5\s?°?\s?c|paris[- ]aligned|well[- ]below 2", _I
)
CERTIFICATE = re.compile(
    r"\bISO\s?\d{4,5}\b|\bB\s?Corp\b|\bFSC\b|\bRSPO\b|\bLEED\b|\bBREEAM\b|\bResponsibleSteel\b|"
    r"\bASI\b|\bFairtrade\b|\bEMAS\b|\bIRMA\b|\bMSC\b|\bPEFC\b",
)
CERTIFIED = re.compile(r"\bcertif\w*|\baccredit\w*|\bregistered\b", _I)
METHODOLOGY = re.compile(
    r"ghg protocol|market[- ]based|location[- ]based|emission factors?|methodolog\w*|pcaf|life[- ]cycle|"
    r"scenario analysis|carbon price|offsets?|removals?",
    _I,
)
VALIDATED = re.compile(r"\bvalidat\w*|\bapproved\b|\btargets? set\b|\bset (?:near|long)-term targets\b", _I)
NOT_VALIDATED = re.compile(
    r"\b(?:commitment removed|removed|expired|withdrawn|not (?:been )?validated|no validated|"
    r"missed (?:its|the) deadline|lapsed)\b",
    _I,
)
LOST_CERTIFICATE = re.compile(r"\b(?:suspended|withdrawn|revoked|expired|lost|terminated|cancell?ed)\b", _I)


def check_kind(text: str) -> str:
    """What the academic agent checks in a claim: target validation, certification, methodology."""
    if TARGET_VALIDATION.search(text):
        return "target_validation"
    if CERTIFICATE.search(text):
        return "certification"
    if METHODOLOGY.search(text):
        return "methodology"
    return "benchmark"


def academic_queries(claim: ClaimState, company_name: str | None, today: dt.date) -> list[PlannedQuery]:
    """Queries for what the claim asserts, aimed at research and standards sources."""
    company = search_name(company_name)
    topic = " ".join(topic_terms(claim["text"], limit=4, known=company))
    time_range = claim_time_range(claim["text"], today)
    kind = check_kind(claim["text"])
    if kind == "target_validation":
        texts = [
            f"{company} science based targets validation status",
            f"{topic} science-based target 1.5C pathway",
        ]
    elif kind == "certification":
        certificate = CERTIFICATE.search(claim["text"])
        name = certificate.group(0) if certificate else "certification"
        texts = [f"{company} {name} certification", f"{name} certification requirements {topic}"]
    elif kind == "methodology":
        method = METHODOLOGY.search(claim["text"])
        texts = [
            f"{method.group(0) if method else ''} {topic} methodology guidance",
            f"{company} {topic} methodology",
        ]
    else:
        study = "" if re.search(r"\bstud(?:y|ies)\b", topic, _I) else " study"
        texts = [f"{topic} peer-reviewed research benchmark", f"{company} {topic}{study}"]
    return [PlannedQuery(" ".join(text.split()), kind, time_range) for text in texts if text.strip()]


def assess_research(
    claim_text: str, company: str, title: str, source_text: str, published: str | None = None
) -> SourceAssessment:
    """Validation or certification status stated about the company, else the general rules."""
    kind = check_kind(claim_text)
    if kind in {"target_validation", "certification"}:
        for sentence in [title, *(s.text for s in split_sentences(1, source_text))]:
            if company and not names_company(sentence, company):
                continue
            found = _status(kind, claim_text, sentence)
            if found is not None:
                return found
    return assess_by_rules(claim_text, company, title, source_text, published)


def _status(kind: str, claim_text: str, sentence: str) -> SourceAssessment | None:
    quote = sentence.strip()
    if kind == "target_validation" and TARGET_VALIDATION.search(sentence):
        if NOT_VALIDATED.search(sentence):
            return SourceAssessment(
                "contradicts",
                "direct",
                0.8,
                "The target registry or research source reports the company's target as not validated, "
                "removed or expired.",
                quote,
                "target_not_validated",
            )
        if VALIDATED.search(sentence):
            return SourceAssessment(
                "supports",
                None,
                0.7,
                "The source reports the company's target as validated.",
                quote,
                "target_validated",
            )
    if kind == "certification":
        certificate = CERTIFICATE.search(claim_text)
        if certificate and certificate.group(0).lower() in sentence.lower():
            if LOST_CERTIFICATE.search(sentence):
                return SourceAssessment(
                    "contradicts",
                    "direct",
                    0.8,
                    f"The source reports the company's {certificate.group(0)} certification as suspended, "
                    "withdrawn or expired.",
                    quote,
                    "certificate_lost",
                )
            if CERTIFIED.search(sentence):
                return SourceAssessment(
                    "supports",
                    None,
                    0.65,
                    f"The source confirms the company's {certificate.group(0)} certification.",
                    quote,
                    "certificate_confirmed",
                )
    return None


ACADEMIC_PROFILE = SearchProfile(
    agent="academic",
    kinds=EvidenceKinds(
        source="research_source",
        contradiction="research_contradiction",
        summary="research_investigation_summary",
    ),
    rules=assess_research,
    plan=academic_queries,
    include_domains=RESEARCH_DOMAINS,
    posts_requests=False,
)


async def investigate_academic(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Investigate the task's claims through research and standards sources."""
    return await investigate_with_search(task, tools, ACADEMIC_PROFILE)
