"""Store a node's run warnings (`app.degradation`) on the run and emit each as a `warning` event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.degradation import WARNING_EVENT, RunWarning
from app.pipeline.persistence import add_run_warnings

if TYPE_CHECKING:
    from app.events.log import EventTransaction
    from app.pipeline.runtime import NodeRecorder


async def record_warnings(
    recorder: NodeRecorder, transaction: EventTransaction, warnings: Sequence[RunWarning]
) -> None:
    """Store the warnings on the run and emit each as a `warning` event, in the node's transaction."""
    if not warnings:
        return
    await add_run_warnings(transaction.session, recorder.run_id, warnings)
    for warning in warnings:
        await recorder.emit_in(transaction, WARNING_EVENT, dict(warning))
