"""One readable line per pipeline event ("judge  VERIFIED claim p.4 …"), for `--follow`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from clients.console.render import shorten
from clients.sibyl.models import StreamEvent

AGENT_WIDTH = 12
LABEL_TEXT_WIDTH = 50
#: Chatty events whose gist other lines already give.
QUIET_EVENTS = frozenset({"evidence_evaluation", "parse_progress", "info_request_routed"})

Labels = Mapping[str, str]


def claim_label(page: Any, text: str) -> str:
    """How a claim is named in activity lines: its page and the start of its text."""
    where = f"p.{page} " if page is not None else ""
    return f'{where}"{shorten(text, LABEL_TEXT_WIDTH)}"'


def referenced_claims(event: StreamEvent) -> list[str]:
    """The claim ids an event refers to."""
    single = event.get("claim_id", "claimId")
    many = event.get("claim_ids", "claimIds")
    ids = [single] if isinstance(single, str) else []
    return ids + [item for item in many if isinstance(item, str)] if isinstance(many, list) else ids


def labels_in(event: StreamEvent) -> dict[str, str]:
    """Labels of the claims a `claims_extracted` event announces (id → label)."""
    claims = event.get("claims")
    if event.event_type != "claims_extracted" or not isinstance(claims, list):
        return {}
    return {
        str(claim["claim_id"]): claim_label(claim.get("source_page"), str(claim.get("text", "")))
        for claim in claims
        if isinstance(claim, dict) and claim.get("claim_id")
    }


def _claim(event: StreamEvent, labels: Labels) -> str:
    claim_id = event.get("claim_id", "claimId")
    return labels.get(str(claim_id), f"#{str(claim_id)[:8]}") if claim_id else "?"


def _started(event: StreamEvent, labels: Labels) -> str:
    assigned = event.get("claims_assigned", "claimsAssigned")
    if assigned is not None:
        return f"investigating {assigned} claim(s)"
    return {"claims": "extracting claims", "orchestrator": "routing claims", "judge": "judging evidence"}.get(
        event.agent_name or "", "started"
    )


def _investigating(event: StreamEvent, labels: Labels) -> str:
    return f"investigating claim {_claim(event, labels)}"


def _evidence(event: StreamEvent, labels: Labels) -> str:
    stance = {True: "supports", False: "CONTRADICTS"}.get(event.get("supports_claim", "supportsClaim"), "")
    summary = shorten(str(event.get("summary") or ""), 70)
    about = f"claim {_claim(event, labels)}" if event.get("claim_id", "claimId") else "the report"
    return f"evidence on {about}: {stance + ' — ' if stance else ''}{summary}"


def _search(event: StreamEvent, labels: Labels) -> str:
    query = shorten(str(event.get("query") or ""), 60)
    return f'searched "{query}": {event.get("results_count", "resultsCount") or 0} result(s)'


def _source(event: StreamEvent, labels: Labels) -> str:
    url = str(event.get("source_url", "sourceUrl") or "?")
    if event.event_type == "contradiction_detected":
        return f"CONTRADICTION for claim {_claim(event, labels)}: {url}"
    return f"source {url} ({event.get('relevance')}, tier {event.get('tier')})"


def _verdict(event: StreamEvent, labels: Labels) -> str:
    label = str(event.get("verdict") or "?").upper()
    confidence = event.get("confidence")
    suffix = f" ({confidence} confidence)" if isinstance(confidence, str) else ""
    return f"{label} claim {_claim(event, labels)}{suffix}"


def _routed(event: StreamEvent, labels: Labels) -> str:
    agents = event.get("assigned_agents", "assignedAgents") or []
    return f"claim {_claim(event, labels)} → {', '.join(map(str, agents))}"


def _reinvestigation(event: StreamEvent, labels: Labels) -> str:
    count = len(referenced_claims(event))
    agents = ", ".join(map(str, event.get("target_agents", "targetAgents") or []))
    return f"re-investigating {count} claim(s) with {agents} (cycle {event.get('cycle')})"


def _extracted(event: StreamEvent, labels: Labels) -> str:
    pages = event.get("pages") or ["?", "?"]
    return (
        f"chunk {event.get('chunk')}/{event.get('chunks')} (pages {pages[0]}–{pages[-1]}): "
        f"{event.get('count') or 0} claim(s)"
    )


def _completed(event: StreamEvent, labels: Labels) -> str:
    if event.event_type == "pipeline_completed":
        return f"completed: {event.get('total_verdicts', 'totalVerdicts')} verdict(s)"
    findings = event.get("findings_count", "findingsCount")
    return f"done, {findings} finding(s)" if findings is not None else "done"


def _warning(event: StreamEvent, labels: Labels) -> str:
    return f"WARNING {event.get('message') or event.get('code') or 'something degraded'}"


def _resumed(event: StreamEvent, labels: Labels) -> str:
    """A worker took the run over after the previous one died: say so, and where it goes on."""
    stage = str(event.get("stage") or "?").replace("_", " ")
    attempt, reason = event.get("attempt"), event.get("reason") or "the previous attempt stopped"
    return f"RESUMED attempt {attempt} at {stage} from the last checkpoint: {reason}"


def _message(event: StreamEvent, labels: Labels) -> str:
    prefix = "ERROR " if event.event_type in ("error", "parse_failed") else ""
    text = event.get("message", "description", "summary") or event.event_type.replace("_", " ")
    return prefix + str(text)


DESCRIBERS: dict[str, Callable[[StreamEvent, Labels], str]] = {
    "agent_started": _started,
    "agent_thinking": _message,
    "agent_completed": _completed,
    "pipeline_completed": _completed,
    "claims_extracted": _extracted,
    "claim_routed": _routed,
    "claim_investigating": _investigating,
    "search_executed": _search,
    "source_evaluated": _source,
    "contradiction_detected": _source,
    "evidence_found": _evidence,
    "verdict_issued": _verdict,
    "reinvestigation": _reinvestigation,
    "info_request_posted": _message,
    "info_response_posted": _message,
    "error": _message,
    "warning": _warning,
    "parse_failed": _message,
    "run_resumed": _resumed,
    "run_cancelled": _message,
}


def describe(event: StreamEvent, labels: Labels) -> str | None:
    """`agent  what happened`, or None for events not worth a line."""
    if event.event_type in QUIET_EVENTS:
        return None
    describer = DESCRIBERS.get(event.event_type)
    text = describer(event, labels) if describer else event.event_type.replace("_", " ")
    agent = event.agent_name or ("pipeline" if event.event_type != "report_uploaded" else "upload")
    return f"{agent.ljust(AGENT_WIDTH)} {text}"
