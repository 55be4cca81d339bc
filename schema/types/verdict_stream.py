"""The `verdictIssued` subscription: verdicts as the judge issues them, for one report or all.

Each `verdict_issued` event makes every subscriber load the verdict it announces. Subscribers of one
organisation share that load (`_SharedLoads`: one query per verdict and organisation, the result kept
briefly), and a load that fails because the pool is exhausted waits and retries, so a crowd of
dashboards neither multiplies the queries nor loses its subscriptions when the database is busy.

`isFinal` comes from the event, not from the loaded row: the row is marked final only when the run
completes (`compile_report`), so reading it at delivery time made the flag depend on how late the
subscriber read it. The judge knows at issue time whether a later pass will judge the claim again,
and says so in the event (`is_final`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import uuid
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Annotated

import strawberry
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.db.models import Claim as ClaimModel
from app.db.models import Report as ReportModel
from app.db.models import Verdict as VerdictModel
from app.events import StreamEvent as StoredEvent
from schema.context import Context
from schema.types.claims import Verdict
from schema.types.reports_lookup import followed_report

logger = logging.getLogger(__name__)

VERDICT_EVENT = "verdict_issued"
#: Read failures a verdict load retries on. Broader than `app.db.outages.is_transient_db_error`,
#: which the event hub uses (so there a bad query ends the subscription); kept as it was.
TRANSIENT_DB_ERRORS: tuple[type[BaseException], ...] = (PoolTimeout, DBAPIError, OSError, TimeoutError)


#: How long a loaded verdict is reused for other subscribers of the same organisation.
SHARED_LOAD_SECONDS = 5.0
SHARED_LOADS_KEPT = 512
RETRY_FIRST_SECONDS = 0.05
RETRY_MAX_SECONDS = 2.0


class _SharedLoads:
    """Verdict loads by (verdict, organisation): one query for every subscriber, kept briefly."""

    def __init__(self) -> None:
        self._loads: OrderedDict[
            tuple[uuid.UUID, uuid.UUID], tuple[float, asyncio.Future[Verdict | None]]
        ] = OrderedDict()

    async def load(
        self, key: tuple[uuid.UUID, uuid.UUID], read: Callable[[], Awaitable[Verdict | None]]
    ) -> Verdict | None:
        loop = asyncio.get_running_loop()
        entry = self._loads.get(key)
        if entry is not None and entry[1].get_loop() is loop and loop.time() - entry[0] < SHARED_LOAD_SECONDS:
            return await asyncio.shield(entry[1])
        future: asyncio.Future[Verdict | None] = loop.create_future()
        self._loads[key] = (loop.time(), future)
        while len(self._loads) > SHARED_LOADS_KEPT:
            self._loads.popitem(last=False)
        try:
            verdict = await _retrying(read)
        except BaseException as exc:
            self._loads.pop(key, None)
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()
            raise
        future.set_result(verdict)
        return verdict


async def _retrying(read: Callable[[], Awaitable[Verdict | None]]) -> Verdict | None:
    delay = RETRY_FIRST_SECONDS
    while True:
        try:
            return await read()
        except TRANSIENT_DB_ERRORS as exc:
            logger.warning("verdict load failed (%s); retrying in %.2f s", exc, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_SECONDS)


_SHARED = _SharedLoads()


async def _load_verdict(info: strawberry.Info[Context], verdict_id: str) -> Verdict | None:
    """The verdict an event announces, if it belongs to the caller's organisation."""
    try:
        wanted = uuid.UUID(verdict_id)
    except ValueError:
        return None
    organisation_id = info.context.organisation_id
    return await _SHARED.load((wanted, organisation_id), lambda: _read_verdict(info, wanted, organisation_id))


async def _read_verdict(
    info: strawberry.Info[Context], wanted: uuid.UUID, organisation_id: uuid.UUID
) -> Verdict | None:
    async with info.context.services.session_factory() as session:
        row = (
            await session.execute(
                select(VerdictModel, ClaimModel.report_id)
                .join(ClaimModel, ClaimModel.id == VerdictModel.claim_id)
                .join(ReportModel, ReportModel.id == ClaimModel.report_id)
                .where(VerdictModel.id == wanted, ReportModel.organisation_id == organisation_id)
            )
        ).one_or_none()
    return Verdict.from_model(row[0], row[1]) if row else None


async def _events(
    info: strawberry.Info[Context], report_id: strawberry.ID | None
) -> AsyncIterator[StoredEvent]:
    event_hub = info.context.services.event_hub
    if report_id is None:
        return event_hub.follow_organisation(info.context.organisation_id)
    report = await followed_report(info, report_id)
    return event_hub.follow(report.id, report.last_event_seq)


def _as_issued(verdict: Verdict, event: StoredEvent) -> Verdict:
    """The verdict with `isFinal` as the judge issued it (events from before the judge said so keep
    the stored flag). A copy: loads are shared between subscribers."""
    issued_final = event.data.get("is_final")
    if not isinstance(issued_final, bool) or issued_final == verdict.is_final:
        return verdict
    return dataclasses.replace(verdict, is_final=issued_final)


@strawberry.type
class VerdictSubscription:
    @strawberry.subscription(
        description="Each verdict as the judge issues it, pass by pass, from now on: for one report, or "
        "with no `reportId` for every report of your organisation. `isFinal` is true when no later pass "
        "of the run will judge the claim again: it is the claim's final verdict (`Report.verdicts` "
        "marks it so once the run completes; if the run fails it never becomes final). A run's verdicts "
        "are all in when every claim has had an `isFinal` verdict (`Analysis.claimsCount` claims). A "
        "client that reconnects catches up with `Report.verdicts`."
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
                yield _as_issued(verdict, event)
