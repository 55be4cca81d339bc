"""On one WebSocket, `verdictIssued` delivers a run's verdicts before `analysisEvents` delivers the
run's last event, so a client may stop reading there; a verdict stream that is stuck holds that
event back no longer than `VERDICTS_FIRST_TIMEOUT_SECONDS`."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace

import pytest
from redis.asyncio import Redis
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import Event, Report, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.organisations import LOCAL_ORGANISATION_ID
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import InvestigationTools
from app.verification.records import InvestigationOutcome, SpecialistTask
from schema import fast_execution, verdicts_first
from schema.fast_execution import fanout
from tests.conftest import make_settings, serve_api
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient
from tests.support.investigators import outcome_for, supporting
from tests.support.live_subscriptions import until_organisation_followed, until_report_followed
from tests.support.one_connection import Multiplexed, one_connection
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices
from tests.support.slow_link import slow_link

VERDICTS = """
subscription Verdicts($reportId: ID) { verdictIssued(reportId: $reportId) { id isFinal claim { text } } }
"""
EVENTS = "subscription Live($reportId: ID!) { analysisEvents(reportId: $reportId) { eventType } }"
#: A database in another availability zone, behind a busy network: 2 ms each way.
DATABASE_DELAY_SECONDS = 0.002
RUN_ENDS = {"pipeline_completed", "run_cancelled"}

#: 24 quantitative claims: the data-metrics specialist judges each, twice with `weak_support_each_pass`.
MANY_CLAIMS = [
    {
        "text": f"Total water withdrawal at site {n + 1} was {400 + 7 * n} megalitres in 2023.",
        "claim_type": "quantitative",
        "page": n % 3 + 1,
    }
    for n in range(24)
]


async def weak_support_each_pass(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Weak support worded anew each pass, so each claim is judged again in the next pass."""
    draft = supporting(0.3, tier=4)
    return outcome_for(task, replace(draft, summary=f"A weak source (pass {task['iteration'] + 1})."))


def report_gid(report_id: uuid.UUID) -> str:
    return str(GlobalID("Report", str(report_id)))


def uuid_of(global_id: str) -> uuid.UUID:
    return uuid.UUID(GlobalID.from_id(global_id).node_id)


async def until_run_end(connection: Multiplexed, events: str) -> tuple[list[uuid.UUID], list[str]]:
    """What a client that stops at the run's last event gets: the verdicts' ids and the event types,
    in the order they arrived."""
    verdicts: list[uuid.UUID] = []
    kinds: list[str] = []
    while True:
        operation, data = await connection.next(timeout=90)
        if operation != events:
            verdicts.append(uuid_of(data["verdictIssued"]["id"]))
            continue
        kinds.append(data["analysisEvents"]["eventType"])
        if kinds[-1] in RUN_ENDS:
            return verdicts, kinds


async def events_so_far(session_factory: SessionFactory, report_id: uuid.UUID) -> int:
    async with session_factory() as session:
        return int(await session.scalar(select(Report.last_event_seq).where(Report.id == report_id)) or 0)


async def issued_verdicts(session_factory: SessionFactory, run_id: uuid.UUID) -> list[uuid.UUID]:
    async with session_factory() as session:
        events = await session.scalars(
            select(Event)
            .where(Event.analysis_run_id == run_id, Event.event_type == "verdict_issued")
            .order_by(Event.seq)
        )
        return [uuid.UUID(event.data["verdict_id"]) for event in events]


class Dashboard:
    """Another connection running the same `analysisEvents` operation: a crowd of them forms a
    fan-out group, whose leader writes each event straight onto the connections parked behind it."""

    def __init__(self, connection: Multiplexed) -> None:
        self.connection = connection
        self.kinds: list[str] = []
        self.arrived: list[float] = []

    async def read(self) -> None:
        while True:
            self.kinds.append((await self.connection.next(timeout=120))[1]["analysisEvents"]["eventType"])
            self.arrived.append(time.monotonic())


@asynccontextmanager
async def dashboards(
    client: GraphQLClient, report_id: uuid.UUID, count: int
) -> AsyncIterator[list[Dashboard]]:
    async with AsyncExitStack() as stack:
        crowd = [Dashboard(await stack.enter_async_context(one_connection(client))) for _ in range(count)]
        readers = []
        for dashboard in crowd:
            await dashboard.connection.subscribe(EVENTS, reportId=report_gid(report_id))
            readers.append(asyncio.ensure_future(dashboard.read()))
        try:
            yield crowd
        finally:
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)


@pytest.fixture
async def distant_client(services: RunningServices, api_key: str) -> AsyncIterator[GraphQLClient]:
    """A client of an API whose Postgres is `DATABASE_DELAY_SECONDS` away each way."""
    async with slow_link(services.database_url, DATABASE_DELAY_SECONDS) as database_url:
        async with serve_api(make_settings(services, database_url=database_url)) as base_url:
            client = GraphQLClient(base_url, api_key)
            try:
                yield client
            finally:
                await client.aclose()


async def test_a_client_stopping_at_pipeline_completed_has_every_verdict_of_the_run(
    distant_client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    redis: Redis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # given a report of 24 claims, each judged in two passes, and one connection following both
    # streams (the verdicts first: they are live only)
    seeded = await seed_report(session_factory, MANY_CLAIMS)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=2
    )
    agents = investigators(data_metrics=weak_support_each_pass)
    so_far = await events_so_far(session_factory, seeded.report_id)
    async with one_connection(distant_client) as connection:
        await connection.subscribe(VERDICTS, reportId=report_gid(seeded.report_id))
        await until_report_followed(redis, seeded.report_id)
        events = await connection.subscribe(EVENTS, reportId=report_gid(seeded.report_id))
        replayed = [(await connection.next())[0] for _ in range(so_far)]

        # when the run goes from start to end while the client reads until `pipeline_completed`
        reading = asyncio.ensure_future(until_run_end(connection, events))
        async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
            outcome = await runner.run(started.run.id)
        received, kinds = await asyncio.wait_for(reading, 120)

    # then it has received every verdict the run issued, each once
    issued = await issued_verdicts(session_factory, started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    assert replayed == [events] * so_far
    assert kinds[-1] == "pipeline_completed"
    assert len(issued) >= 40
    assert sorted(received) == sorted(issued)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # in time, not timed out


#: The bound the stuck-stream tests run with (the default is a few seconds).
BOUND_SECONDS = 1.5


@asynccontextmanager
async def verdicts_unreadable(engine: AsyncEngine) -> AsyncIterator[None]:
    """Every read of the verdicts table waits until the block ends (a lock Postgres holds them on)."""
    async with engine.connect() as connection:
        transaction = await connection.begin()
        await connection.execute(text("LOCK TABLE verdicts IN ACCESS EXCLUSIVE MODE"))
        try:
            yield
        finally:
            await transaction.rollback()


async def verdicts_of(session_factory: SessionFactory, run_id: uuid.UUID) -> dict[uuid.UUID, uuid.UUID]:
    """The final verdict of each claim of the run."""
    async with session_factory() as session:
        rows = await session.scalars(
            select(Verdict).where(Verdict.analysis_run_id == run_id, Verdict.is_final)
        )
        return {row.claim_id: row.id for row in rows}


async def issue(
    event_log: EventLog, report_id: uuid.UUID, run_id: uuid.UUID, verdicts: dict[uuid.UUID, uuid.UUID]
) -> None:
    """The judge's events for `verdicts`, then the run's end."""
    for claim_id, verdict_id in verdicts.items():
        data = {"claim_id": str(claim_id), "verdict_id": str(verdict_id), "is_final": True}
        await event_log.append(report_id, "verdict_issued", data, agent_name="judge", analysis_run_id=run_id)
    await event_log.append(
        report_id, "pipeline_completed", {"total_verdicts": len(verdicts)}, analysis_run_id=run_id
    )


async def followed_by_both(connection: Multiplexed, redis: Redis, report_id: uuid.UUID, scope: str) -> str:
    """`verdictIssued` for the report (or the organisation) and `analysisEvents`, both following
    live; returns the events' operation id."""
    await connection.subscribe(VERDICTS, reportId=report_gid(report_id) if scope == "report" else None)
    if scope == "organisation":
        await until_organisation_followed(redis, LOCAL_ORGANISATION_ID)
    else:
        await until_report_followed(redis, report_id)
    events = await connection.subscribe(EVENTS, reportId=report_gid(report_id))
    await until_report_followed(redis, report_id)
    return events


@pytest.mark.parametrize("scope", ["report", "organisation"])
async def test_a_stuck_verdict_stream_holds_the_run_end_back_no_longer_than_the_bound(
    scope: str,
    client: GraphQLClient,
    engine: AsyncEngine,
    session_factory: SessionFactory,
    event_log: EventLog,
    redis: Redis,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # given a connection following a report's verdicts and events, and verdicts it cannot read
    monkeypatch.setattr(verdicts_first, "VERDICTS_FIRST_TIMEOUT_SECONDS", BOUND_SECONDS)
    seeded = await seed_analysed_report(session_factory, 2)
    verdicts = await verdicts_of(session_factory, seeded.run_id)
    async with one_connection(client) as connection:
        events = await followed_by_both(connection, redis, seeded.report_id, scope)
        async with verdicts_unreadable(engine):
            # when the run issues its verdicts and ends
            await issue(event_log, seeded.report_id, seeded.run_id, verdicts)
            issued = time.monotonic()
            received, kinds = await until_run_end(connection, events)
            held = time.monotonic() - issued
        late = [uuid_of((await connection.next())[1]["verdictIssued"]["id"]) for _ in verdicts]

    # then the end waited for the verdicts, then went without them; they came once readable
    assert received == []
    assert kinds == ["verdict_issued", "verdict_issued", "pipeline_completed"]
    assert BOUND_SECONDS * 0.9 <= held < BOUND_SECONDS + 5.0
    assert sorted(late) == sorted(verdicts.values())
    [warning] = [record for record in caplog.records if record.name == verdicts_first.__name__]
    assert warning.levelno == logging.WARNING and "still behind" in warning.getMessage()


@pytest.mark.parametrize("scope", ["report", "organisation"])
async def test_a_run_that_ended_before_the_verdict_stream_began_is_replayed_without_waiting(
    scope: str,
    client: GraphQLClient,
    session_factory: SessionFactory,
    event_log: EventLog,
    redis: Redis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # given a run that ended before the connection subscribed (its verdicts were never streamed here)
    seeded = await seed_analysed_report(session_factory, 2)
    await issue(event_log, seeded.report_id, seeded.run_id, await verdicts_of(session_factory, seeded.run_id))

    # when the connection replays the report's events while following its verdicts
    async with one_connection(client) as connection:
        events = await followed_by_both(connection, redis, seeded.report_id, scope)
        started = time.monotonic()
        received, kinds = await until_run_end(connection, events)
        replayed = time.monotonic() - started

    # then the end comes at once: nothing was owed
    assert received == []
    assert kinds == ["verdict_issued", "verdict_issued", "pipeline_completed"]
    assert replayed < verdicts_first.VERDICTS_FIRST_TIMEOUT_SECONDS / 2
    assert not [record for record in caplog.records if record.name == verdicts_first.__name__]


async def until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def member_of(connection: Multiplexed) -> fanout.Member | None:
    """The fan-out member of the connection's `analysisEvents`, if it is in a group."""
    port = connection.ws.local_address[1]
    members = [member for group in fanout._groups.values() for member in group.members]
    return next((m for m in members if m.handler.websocket.ws.client.port == port), None)


def parked(connection: Multiplexed) -> bool:
    member = member_of(connection)
    return member is not None and member.parked


@pytest.mark.skipif(not fast_execution.enabled(), reason="fan-out is one of the FAST_EXECUTION shortcuts")
async def test_a_connection_parked_behind_a_fanout_leader_still_gets_the_verdicts_first(
    client: GraphQLClient,
    engine: AsyncEngine,
    session_factory: SessionFactory,
    event_log: EventLog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given dashboards of a report, and a connection whose `analysisEvents` has parked behind their
    # leader before it subscribed to the report's verdicts too
    monkeypatch.setattr(verdicts_first, "VERDICTS_FIRST_TIMEOUT_SECONDS", BOUND_SECONDS)
    seeded = await seed_analysed_report(session_factory, 2)
    verdicts = await verdicts_of(session_factory, seeded.run_id)
    await event_log.append(seeded.report_id, "ready")
    async with dashboards(client, seeded.report_id, 4) as crowd, one_connection(client) as connection:
        await until(lambda: all(dashboard.kinds == ["ready"] for dashboard in crowd))
        events = await connection.subscribe(EVENTS, reportId=report_gid(seeded.report_id))
        assert (await connection.next())[1]["analysisEvents"]["eventType"] == "ready"
        await event_log.append(seeded.report_id, "second")
        assert (await connection.next())[1]["analysisEvents"]["eventType"] == "second"
        await until(lambda: parked(connection))
        await connection.subscribe(VERDICTS, reportId=report_gid(seeded.report_id))
        await until(lambda: not parked(connection))  # the verdict stream took it off fan-out

        # when the run issues verdicts this connection cannot read yet, and ends
        async with verdicts_unreadable(engine):
            await issue(event_log, seeded.report_id, seeded.run_id, verdicts)
            issued = time.monotonic()
            received, kinds = await until_run_end(connection, events)
            held = time.monotonic() - issued
            await until(lambda: all(dashboard.kinds[-1:] == ["pipeline_completed"] for dashboard in crowd))
        late = [uuid_of((await connection.next())[1]["verdictIssued"]["id"]) for _ in verdicts]

    # then its end waited for its verdicts (the leader did not write it past them), the dashboards' did not
    assert received == []
    assert kinds == ["verdict_issued", "verdict_issued", "pipeline_completed"]
    assert held >= BOUND_SECONDS * 0.9
    assert all(dashboard.arrived[-1] - issued < BOUND_SECONDS * 0.9 for dashboard in crowd)
    assert sorted(late) == sorted(verdicts.values())
