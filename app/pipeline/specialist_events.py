"""The events a specialist pass records in the transaction that stores its findings, in the order
the pass reports them: its evidence, its info exchange with the other agents, then how it ended."""

from __future__ import annotations

from app.events.log import EventTransaction
from app.pipeline.progress import failure_warnings
from app.pipeline.runtime import NodeRecorder
from app.pipeline.warnings import record_warnings
from app.verification.records import Finding, InfoRequest, InfoResponse, SpecialistTask


async def emit_findings(
    recorder: NodeRecorder, transaction: EventTransaction, findings: list[Finding]
) -> None:
    """An `evidence_found` event per finding that is evidence (an error finding is not)."""
    for finding in findings:
        if finding["evidence_type"] != "error":
            await recorder.emit_in(
                transaction,
                "evidence_found",
                {
                    "claim_id": finding["claim_id"],
                    "finding_id": finding["finding_id"],
                    "evidence_type": finding["evidence_type"],
                    "summary": finding["summary"],
                    "supports_claim": finding["supports_claim"],
                    "method": finding["method"],
                },
            )


async def emit_info_exchange(
    recorder: NodeRecorder,
    transaction: EventTransaction,
    agent: str,
    posted: list[InfoRequest],
    responses: list[InfoResponse],
) -> None:
    """The info requests the agent posted, then its answers to the others' requests."""
    for request in posted:
        await recorder.emit_in(
            transaction,
            "info_request_posted",
            {"requesting_agent": agent, "description": request["description"]},
        )
    for response in responses:
        await recorder.emit_in(
            transaction,
            "info_response_posted",
            {
                "responding_agent": agent,
                "requesting_agent": response["requesting_agent"],
                "summary": response["summary"],
            },
        )


async def emit_pass_end(
    recorder: NodeRecorder,
    transaction: EventTransaction,
    task: SpecialistTask,
    error: str | None,
    findings: list[Finding],
    unchanged: int,
) -> None:
    """How the pass ended: the error and the run's failure warnings, or `agent_completed`."""
    if error:
        await recorder.emit_in(transaction, "error", {"message": error, "node": recorder.node})
        warnings = await failure_warnings(transaction.session, recorder.run_id, task["iteration"])
        await record_warnings(recorder, transaction, warnings)
        return
    await recorder.emit_in(
        transaction,
        "agent_completed",
        {
            "claims_processed": len(task["claims"]),
            "findings_count": len(findings),
            "unchanged_findings": unchanged,
            "contradictions_count": sum(finding["supports_claim"] is False for finding in findings),
        },
    )
