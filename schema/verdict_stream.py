"""The `verdictIssued` subscription: verdicts as the judge issues them, for one report or all."""

from __future__ import annotations

import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Annotated

import strawberry
from sqlalchemy import select

from app.db.models import Claim as ClaimModel
from app.db.models import Report as ReportModel
from app.db.models import Verdict as VerdictModel
from app.events import StreamEvent as StoredEvent
from schema.claims import Verdict
from schema.context import Context
from schema.errors import ErrorCode, client_error
from schema.reports_lookup import find_report

VERDICT_EVENT = "verdict_issued"


async def _load_verdict(info: strawberry.Info[Context], verdict_id: str) -> Verdict | None:
    """The verdict an event announces, if it belongs to the caller's organisation."""
    try:
        wanted = uuid.UUID(verdict_id)
    except ValueError:
        return None
    async with info.context.services.session_factory() as session:
        row = (
            await session.execute(
                select(VerdictModel, ClaimModel.report_id)
                .join(ClaimModel, ClaimModel.id == VerdictModel.claim_id)
                .join(ReportModel, ReportModel.id == ClaimModel.report_id)
                .where(VerdictModel.id == wanted, ReportModel.organisation_id == info.context.organisation_id)
            )
        ).one_or_none()
    return Verdict.from_model(row[0], row[1]) if row else None


async def _events(
    info: strawberry.Info[Context], report_id: strawberry.ID | None
) -> AsyncIterator[StoredEvent]:
    event_log = info.context.services.event_log
    if report_id is None:
        return event_log.follow_organisation(info.context.organisation_id)
    report = await find_report(info, report_id)
    if report is None:
        raise client_error(ErrorCode.NOT_FOUND, f"No report with id {report_id!r}.", argument="reportId")
    return event_log.follow(report.id, report.last_event_seq)


@strawberry.type
class VerdictSubscription:
    @strawberry.subscription(
        description="Each verdict as the judge issues it, pass by pass, from now on: for one report, or "
        "with no `reportId` for every report of your organisation. A claim's last verdict of a run is "
        "its final one (`isFinal` is set when the run completes). A client that reconnects catches up "
        "with `Report.verdicts`."
    )
    async def verdict_issued(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID | None,
            strawberry.argument(description="The report to follow; omit for your whole organisation."),
        ] = None,
    ) -> AsyncGenerator[Verdict, None]:
        async for event in await _events(info, report_id):
            if event.event_type != VERDICT_EVENT:
                continue
            verdict = await _load_verdict(info, str(event.data.get("verdict_id", "")))
            if verdict is not None:
                yield verdict
