"""Step 3 without an LLM: a readable answer assembled from the retrieved passages and facts.

Each question type gets the shape a person would write: label counts and the claims listed for a
verdict summary, a claim's verdict and its evidence by stance, paragraphs by compliance status, the
report's best sentences with their pages for a disclosure question (then the claims on its topic),
or the report's own most relevant sentences for a lookup. Every statement carries its citation marker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from app.knowledge.registry import requirement
from app.questions.citations import CitationList, clip
from app.questions.retrieve import MAX_PASSAGES, Retrieved
from app.questions.types import VERDICT_LABELS, Confidence, Passage, QueryType, ReportFacts

STATUS_NAMES = {
    "contradicted": "contradicted",
    "unsupported": "unsupported",
    "partially_supported": "partially supported",
    "supported": "supported",
    "no_claims": "without claims",
    "not_assessed": "not assessed",
}
STANCE_HEADINGS = (
    (False, "Evidence contradicting it"),
    (True, "Evidence supporting it"),
    (None, "Inconclusive findings"),
)


def extractive_answer(question: str, retrieved: Retrieved, facts: ReportFacts) -> tuple[str, CitationList]:
    """The answer text and the citations its markers refer to."""
    cited = CitationList(question)
    cited.rank_against(retrieved.passages)
    if retrieved.query_type is QueryType.VERDICT_SUMMARY:
        text = _verdict_summary(retrieved, cited)
    elif retrieved.query_type is QueryType.COMPLIANCE:
        text = _compliance(retrieved, cited)
    elif retrieved.query_type is QueryType.EVIDENCE and retrieved.target_claims:
        text = _evidence(retrieved, cited)
    elif retrieved.query_type is QueryType.DISCLOSURE:
        text = _disclosure(retrieved, cited)
    else:
        text = _lookup(retrieved, facts, cited)
    return text, cited


def label_name(label: object) -> str:
    """A verdict label as answers write it: "INSUFFICIENT EVIDENCE"."""
    return str(label).replace("_", " ").upper()


def verdict_counts_text(counts: Counter[str]) -> str:
    """ "6 claims have a verdict: 2 contradicted, 1 unverified and 3 verified." """
    total = sum(counts.values())
    parts = [f"{counts[label]} {label.replace('_', ' ')}" for label in VERDICT_LABELS if counts[label]]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" and {parts[-1]}"
    noun = "claim has" if total == 1 else "claims have"
    return f"{total} {noun} a verdict: {listed}."


def _verdict_summary(retrieved: Retrieved, cited: CitationList) -> str:
    counts = retrieved.verdict_counts
    if not counts:
        return "No claim of this report has a verdict yet."
    lines = [verdict_counts_text(counts)]
    labels = " or ".join(label_name(label) for label in retrieved.focus_labels)
    if retrieved.topic:
        heading = f'Claims matching "{retrieved.topic}"' + (
            f" judged {labels}" if retrieved.focus_labels else ""
        )
    else:
        heading = f"Claims judged {labels}"
    if not retrieved.passages:
        lines.append(f"{heading}: none.")
        return "\n".join(lines)
    lines.append(f"{heading}:")
    lines += [_verdict_line(passage, cited) for passage in retrieved.passages[:MAX_PASSAGES]]
    lines += _more(len(retrieved.passages) - MAX_PASSAGES)
    return "\n".join(lines)


def _verdict_line(passage: Passage, cited: CitationList, bullet: str = "- ") -> str:
    attributes = passage.attributes
    confidence = attributes.get("confidence")
    confidence_text = f", confidence {float(confidence):.2f}" if isinstance(confidence, int | float) else ""
    claim = clip(str(attributes.get("claim_text") or passage.text), 220)
    return (
        f'{bullet}"{claim}" (page {passage.page_number}): {label_name(attributes.get("label"))}'
        f"{confidence_text} {cited.cite(passage)}"
    )


def _evidence(retrieved: Retrieved, cited: CitationList) -> str:
    blocks = [_claim_evidence(claim, retrieved, cited) for claim in retrieved.target_claims]
    return "\n\n".join(blocks)


def _claim_evidence(claim: Passage, retrieved: Retrieved, cited: CitationList) -> str:
    lines = [f'The claim "{clip(claim.text, 220)}" (page {claim.page_number}) {cited.cite(claim)}']
    verdict = retrieved.verdict_by_claim.get(claim.claim_id) if claim.claim_id else None
    if verdict is not None:
        lines[0] += f" was judged {_verdict_phrase(verdict)} {cited.cite(verdict)}."
    else:
        lines[0] += " has no verdict yet."
    findings = [p for p in retrieved.passages if p.kind == "finding" and p.claim_id == claim.claim_id]
    if not findings:
        lines.append("No specialist finding on this claim was recorded.")
    for stance, heading in STANCE_HEADINGS:
        group = [p for p in findings if p.attributes.get("supports_claim") is stance]
        if group:
            lines.append(f"{heading}:")
            lines += [_finding_line(finding, cited) for finding in group[:MAX_PASSAGES]]
    return "\n".join(lines)


def _verdict_phrase(verdict: Passage) -> str:
    confidence = verdict.attributes.get("confidence")
    label = label_name(verdict.attributes.get("label"))
    return f"{label} (confidence {float(confidence):.2f})" if isinstance(confidence, int | float) else label


def _finding_line(finding: Passage, cited: CitationList) -> str:
    attributes = finding.attributes
    source = f" Source: {attributes['source_url']}" if attributes.get("source_url") else ""
    summary = clip(str(attributes.get("summary") or finding.text), 260)
    agent = f"{attributes.get('agent')} ({attributes.get('evidence_type')})"
    return f"- {agent}: {summary} {cited.cite(finding)}{source}"


def _compliance(retrieved: Retrieved, cited: CitationList) -> str:
    counts = retrieved.compliance_counts
    if not counts:
        return "No claim of this report is mapped to an IFRS S1/S2 paragraph yet."
    if retrieved.compliance_assessed:
        parts = [f"{counts[s]} {STATUS_NAMES[s]}" for s in STATUS_NAMES if counts[s]]
        lines = [f"IFRS paragraphs assessed: {sum(counts.values())} ({', '.join(parts)})."]
    else:
        lines = [
            "No IFRS compliance assessment is available yet; the report's claims map to "
            f"{sum(counts.values())} paragraph(s)."
        ]
    if not retrieved.compliance:
        lines.append("No paragraph matches what the question asks about.")
        return "\n".join(lines)
    claims = {str(passage.claim_id): passage for passage in retrieved.passages}
    for paragraph_id, entry in list(retrieved.compliance.items())[:MAX_PASSAGES]:
        lines.append(_paragraph_line(paragraph_id, entry, claims, retrieved, cited))
    lines += _more(len(retrieved.compliance) - MAX_PASSAGES, noun="paragraph")
    return "\n".join(lines)


def _paragraph_line(
    paragraph_id: str,
    entry: dict[str, object],
    claims: dict[str, Passage],
    retrieved: Retrieved,
    cited: CitationList,
) -> str:
    found = requirement(paragraph_id)
    title = f" {found.title}" if found is not None else ""
    status = STATUS_NAMES.get(str(entry.get("status")), str(entry.get("status")))
    claim_ids = entry.get("claim_ids")
    listed = [claims[str(c)] for c in claim_ids if str(c) in claims] if isinstance(claim_ids, list) else []
    quoted = "; ".join(_claim_ref(claim, retrieved, cited) for claim in listed[:3])
    more = f" and {len(listed) - 3} more" if len(listed) > 3 else ""
    return f"- {paragraph_id}{title}: {status}" + (f" — {quoted}{more}" if quoted else "")


def _claim_ref(claim: Passage, retrieved: Retrieved, cited: CitationList) -> str:
    verdict = retrieved.verdict_by_claim.get(claim.claim_id) if claim.claim_id else None
    judged = f", {label_name(verdict.attributes.get('label'))}" if verdict is not None else ""
    return f'"{clip(claim.text, 160)}" (page {claim.page_number}{judged}) {cited.cite(claim)}'


NOT_ADDRESSED = (
    "The report does not appear to address this: no passage holds what the question asks about, "
    "in the question's words or in the wording reports use for them."
)
#: What a "not addressed" answer says was looked for, so a reader can judge the search.
SEARCHED = "Searched for: {words}."
#: How an answer introduces passages that only come closest (`Confidence.LOW`).
CLOSEST = "No passage states this directly; these are the closest passages found on the question's subject"
CONFIDENCE_LINE = "Confidence: {level}."
#: How an extractive answer introduces what it quotes: retrieval finds passages that appear to bear
#: on the question; it cannot tell whether they answer it, so the answer never says they do.
APPEAR_TO_ADDRESS = "These passages appear to address this"


def paragraphs_line(paragraph_ids: Iterable[str]) -> str:
    """ "IFRS requirement this question maps to: S2.22 Climate resilience and scenario analysis." """
    named = []
    for paragraph_id in paragraph_ids:
        found = requirement(paragraph_id)
        named.append(f"{paragraph_id} {found.title}" if found is not None else paragraph_id)
    if not named:
        return ""
    noun = "requirement" if len(named) == 1 else "requirements"
    return f"IFRS {noun} this question maps to: {'; '.join(named)}."


def _disclosure(retrieved: Retrieved, cited: CitationList) -> str:
    """Where the report appears to address the question: its best sentences, page by page, then the
    claims Sibyl extracted on the topic, with how confident the match is; or an honest "not
    addressed" naming what was searched, with nothing cited."""
    windows = [passage for passage in retrieved.passages if passage.kind == "page"]
    claims = [passage for passage in retrieved.passages if passage.kind == "claim"]
    mapped = paragraphs_line(retrieved.paragraphs)
    if not windows:
        words = ", ".join(retrieved.searched_words)
        searched = SEARCHED.format(words=words) if words else ""
        return "\n".join(line for line in (NOT_ADDRESSED, searched, mapped) if line)
    pages = list(dict.fromkeys(window.page_number for window in windows if window.page_number))
    listed = f" (page{'s' if len(pages) > 1 else ''} {', '.join(map(str, pages))})" if pages else ""
    opening = CLOSEST if retrieved.confidence is Confidence.LOW else APPEAR_TO_ADDRESS
    lines = [f"{opening}{listed}:"]
    lines += [
        f'- Page {window.page_number}: "{_quote(window, cited)}" {cited.cite(window)}' for window in windows
    ]
    if claims:
        lines.append("Claims Sibyl extracted on this topic:")
        lines += [_passage_line(claim, retrieved, cited) for claim in claims]
    if mapped:
        lines.append(mapped)
    if retrieved.confidence is not None:
        lines.append(CONFIDENCE_LINE.format(level=retrieved.confidence.value.lower()))
    return "\n".join(lines)


def _quote(window: Passage, cited: CitationList) -> str:
    cited.cite(window)
    return cited.excerpt_for(window)


def _lookup(retrieved: Retrieved, facts: ReportFacts, cited: CitationList) -> str:
    lines = _overview(facts, retrieved) if retrieved.query_type is QueryType.GENERAL else []
    relevant = [passage for passage in retrieved.passages if passage.relevant]
    if not relevant:
        lines.append("The report does not appear to address this: no passage matches the question.")
        return "\n".join(lines)
    if retrieved.overview:
        lines.append("Key claims, worst verdicts first:")
    else:
        lines.append("Most relevant passages:" if lines else f"{APPEAR_TO_ADDRESS}:")
    lines += [_passage_line(passage, retrieved, cited) for passage in relevant[:MAX_PASSAGES]]
    return "\n".join(lines)


def _overview(facts: ReportFacts, retrieved: Retrieved) -> list[str]:
    company = f" by {facts.company_name}" if facts.company_name else ""
    lines = [f"{facts.filename}{company}: {facts.page_count} pages, {facts.claim_count} claims extracted."]
    if retrieved.verdict_counts:
        lines.append(verdict_counts_text(retrieved.verdict_counts))
    return lines


def _passage_line(passage: Passage, retrieved: Retrieved, cited: CitationList) -> str:
    marker = cited.cite(passage)
    excerpt = cited.excerpt_for(passage)
    if passage.kind == "claim":
        verdict = retrieved.verdict_by_claim.get(passage.claim_id) if passage.claim_id else None
        judged = f" — judged {_verdict_phrase(verdict)} {cited.cite(verdict, passage)}" if verdict else ""
        return f'- Claim on page {passage.page_number}: "{excerpt}" {marker}{judged}'
    if passage.kind == "page":
        return f'- Page {passage.page_number}: "{excerpt}" {marker}'
    if passage.kind == "verdict":
        return _verdict_line(passage, cited)
    claim = passage.attributes.get("claim_text")
    about = f' on "{clip(str(claim), 120)}"' if claim else ""
    return f"- Finding by {passage.attributes.get('agent')}{about}: {excerpt} {marker}"


def _more(extra: int, noun: str = "claim") -> Iterable[str]:
    return [f"… and {extra} more {noun}{'s' if extra > 1 else ''}."] if extra > 0 else []
