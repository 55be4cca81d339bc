"""Verdict loads of the `verdictIssued` subscriptions: one query per burst, shared, retried.

The judge issues a pass's verdicts in a burst. A subscriber that read them one query at a time fell
behind the event stream by a round trip (or two, with the claim) per verdict; on a database a
network hop away that was most of a second for a report of 60 claims. So:

* a subscription starts loading the verdicts of the events as they arrive, all the verdicts of
  the events that arrived together in one query, with their claims (which prime the connection's
  claim loader: `Verdict.claim` is then no query);
* loads are shared by (verdict, organisation): subscribers of one organisation get the same
  in-flight or recent load (`SHARED_LOAD_SECONDS`), so a crowd of dashboards makes one query;
* a load that fails because the pool is exhausted or the database is away waits and retries
  (`TRANSIENT_DB_ERRORS`), so subscriptions outlive a busy database; a subscription that goes away
  cancels the loads it started, and whoever shared one loads it again itself.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.db.models import Claim as ClaimModel
from app.db.models import Report as ReportModel
from app.db.models import Verdict as VerdictModel
from app.db.session import SessionFactory
from schema.types.claims import Verdict

logger = logging.getLogger(__name__)

#: Read failures a verdict load retries on. Broader than `app.db.outages.is_transient_db_error`,
#: which the event hub uses (so there a bad query ends the subscription); kept as it was.
TRANSIENT_DB_ERRORS: tuple[type[BaseException], ...] = (PoolTimeout, DBAPIError, OSError, TimeoutError)
#: How long a loaded verdict is reused for other subscribers of the same organisation.
SHARED_LOAD_SECONDS = 5.0
SHARED_LOADS_KEPT = 4096
RETRY_FIRST_SECONDS = 0.05
RETRY_MAX_SECONDS = 2.0


@dataclass(frozen=True)
class LoadedVerdict:
    """A verdict of the caller's organisation, with its claim's row (shared: never changed)."""

    verdict: Verdict
    claim: ClaimModel


Load = asyncio.Future[LoadedVerdict | None]
ReadMany = Callable[[list[uuid.UUID]], Awaitable[dict[uuid.UUID, LoadedVerdict]]]


class SharedLoads:
    """Verdict loads by (verdict, organisation), process-wide: in flight or recent."""

    def __init__(self) -> None:
        self._loads: OrderedDict[tuple[uuid.UUID, uuid.UUID], tuple[float, Load]] = OrderedDict()

    def start(
        self,
        organisation_id: uuid.UUID,
        verdict_ids: Sequence[uuid.UUID],
        read_many: ReadMany,
        started: set[asyncio.Task[None]],
    ) -> list[Load]:
        """A load for each verdict: a shared one if there is one, else a new one; the new ones run
        as one query in a task put in `started` (its owner cancels it when it goes away)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        loads: list[Load] = []
        missing: dict[uuid.UUID, Load] = {}
        for verdict_id in verdict_ids:
            key = (verdict_id, organisation_id)
            entry = self._loads.get(key)
            if entry is None or entry[1].get_loop() is not loop or now - entry[0] >= SHARED_LOAD_SECONDS:
                entry = (now, loop.create_future())
                self._loads[key] = entry
                missing[verdict_id] = entry[1]
            loads.append(entry[1])
        while len(self._loads) > SHARED_LOADS_KEPT:
            self._loads.popitem(last=False)
        if missing:
            task = loop.create_task(self._fill(missing, read_many))
            started.add(task)
            task.add_done_callback(started.discard)
            task.add_done_callback(lambda _: self._forget_unfinished(organisation_id, missing))
        return loads

    @staticmethod
    async def _fill(loads: dict[uuid.UUID, Load], read_many: ReadMany) -> None:
        try:
            found = await _retrying(lambda: read_many(list(loads)))
        except Exception as exc:
            for load in loads.values():
                load.set_exception(exc)
                load.exception()  # retrieved: its awaiters re-raise it, nobody else must log it
            return
        for verdict_id, load in loads.items():
            load.set_result(found.get(verdict_id))

    def _forget_unfinished(self, organisation_id: uuid.UUID, loads: dict[uuid.UUID, Load]) -> None:
        """Once a fill task is over: a load it did not finish (cancelled, even before it ran) is
        cancelled, and a failed or cancelled one is not shared any more."""
        for verdict_id, load in loads.items():
            if not load.done():
                load.cancel()
            key = (verdict_id, organisation_id)
            entry = self._loads.get(key)
            if entry is not None and entry[1] is load and (load.cancelled() or load.exception() is not None):
                del self._loads[key]


async def outcome(load: Load, again: Callable[[], Load]) -> LoadedVerdict | None:
    """The load's verdict; if whoever ran it went away first, `again()` (a new load) instead."""
    while True:
        try:
            return await asyncio.shield(load)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not load.cancelled() or (task is not None and task.cancelling()):
                raise
            load = again()


async def _retrying(
    read: Callable[[], Awaitable[dict[uuid.UUID, LoadedVerdict]]],
) -> dict[uuid.UUID, LoadedVerdict]:
    delay = RETRY_FIRST_SECONDS
    while True:
        try:
            return await read()
        except TRANSIENT_DB_ERRORS as exc:
            logger.warning("verdict load failed (%s); retrying in %.2f s", exc, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_SECONDS)


def verdicts_reader(session_factory: SessionFactory, organisation_id: uuid.UUID) -> ReadMany:
    """Reads verdicts (with their claims) of `organisation_id` by id, in one query."""

    async def read(verdict_ids: list[uuid.UUID]) -> dict[uuid.UUID, LoadedVerdict]:
        async with session_factory() as session:
            rows = (
                await session.execute(
                    select(VerdictModel, ClaimModel)
                    .join(ClaimModel, ClaimModel.id == VerdictModel.claim_id)
                    .join(ReportModel, ReportModel.id == ClaimModel.report_id)
                    .where(VerdictModel.id.in_(verdict_ids), ReportModel.organisation_id == organisation_id)
                )
            ).all()
        return {
            verdict.id: LoadedVerdict(Verdict.from_model(verdict, claim.report_id), claim)
            for verdict, claim in rows
        }

    return read


SHARED = SharedLoads()
