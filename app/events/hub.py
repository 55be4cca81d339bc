"""The process-wide event hub: one Redis pub/sub connection per process, fanned out in memory.

A pub/sub connection, decoding and gap-filling from Postgres per subscriber do not scale: hundreds of
subscribers of one live report would exhaust the connection pool, and the pool error would end their
subscriptions. So:

* one listener task owns one pub/sub connection; it SUBSCRIBEs to a report's channel while anyone in
  the process follows the report, decodes each message once and hands it to the report's
  `ReportFeed` (`app.events.feed`), which keeps the contiguous tail in a bounded buffer;
* a subscriber is a cursor over that buffer: slow ones fall behind it and then catch up from
  Postgres in batches shared by the report's subscribers, so a slow consumer never blocks the
  others and the buffer never grows;
* every Postgres read of the hub goes through `_db`: at most `max_db_reads` at once (so followers
  alone never take more than that many pooled connections), and a read that fails because the pool
  is exhausted or the database is unreachable waits and retries instead of ending a subscription;
* when Redis goes away, or stops answering (a silent connection is PINGed; no PONG in time counts
  as lost), the listener reconnects every second and re-subscribes; meanwhile, and after
  it comes back, each feed checks Postgres (once per report, not per subscriber), so nothing is
  lost, duplicated or reordered;
* the listener runs only while something is followed: the last subscriber leaving closes it.

Organisation channels (`follow_organisation`) are live only: each subscriber has a bounded queue;
on overflow the oldest event is dropped and logged (`Report.verdicts` has them all).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

from redis.asyncio import Redis
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy import select

from app.db.models import Report
from app.db.outages import is_transient_db_error
from app.db.session import SessionFactory
from app.events.feed import ReportFeed
from app.events.log import REPLAY_BATCH, EventLog, StreamEvent, channel_for, organisation_channel_for

logger = logging.getLogger(__name__)

T = TypeVar("T")

REDIS_RETRY_SECONDS = 1.0
DB_RETRY_FIRST_SECONDS = 0.05
DB_RETRY_MAX_SECONDS = 2.0
LISTEN_TIMEOUT_SECONDS = 1.0
#: After this long without a message the listener PINGs over its pub/sub connection; a Redis that
#: has not answered the PING within `pong_timeout` is taken for hung and the connection is remade.
HEARTBEAT_SECONDS = 5.0
DEFAULT_PONG_TIMEOUT_SECONDS = 2.0
ORGANISATION_QUEUE = 1000

Replay = Callable[[uuid.UUID, int, int], Awaitable[Sequence[StreamEvent]]]


class _LiveQueue:
    """An organisation subscriber's bounded queue (drops the oldest on overflow)."""

    def __init__(self) -> None:
        self.events: deque[StreamEvent] = deque(maxlen=ORGANISATION_QUEUE)
        self.ready = asyncio.Event()

    def put(self, event: StreamEvent) -> None:
        if len(self.events) == self.events.maxlen:
            logger.warning("organisation subscriber too slow: dropped an event of %s", event.report_id)
        self.events.append(event)
        self.ready.set()


class EventHub:
    """Followers of report and organisation channels in this process, over one pub/sub connection."""

    def __init__(
        self,
        session_factory: SessionFactory,
        redis: Redis,
        replay: Replay,
        *,
        poll_seconds: float = 5.0,
        buffer_size: int = 2048,
        max_db_reads: int = 4,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        pong_timeout: float | None = None,
    ) -> None:
        self._heartbeat = _Heartbeat(heartbeat_seconds, pong_timeout or _command_timeout(redis))
        self._session_factory = session_factory
        self._redis = redis
        self._replay = replay
        self._poll_seconds = poll_seconds
        self._buffer_size = buffer_size
        self._db_slots = asyncio.Semaphore(max_db_reads)
        self._feeds: dict[uuid.UUID, ReportFeed] = {}
        self._pumps: dict[uuid.UUID, asyncio.Task[None]] = {}
        self._organisations: dict[uuid.UUID, set[_LiveQueue]] = {}
        self._pubsub: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._redis_up = False
        self.db_reads = 0  # Postgres reads made for followers (tests and benches watch it)

    @classmethod
    def following(
        cls, log: EventLog, *, poll_seconds: float = 5.0, buffer_size: int = 2048, max_db_reads: int = 4
    ) -> EventHub:
        """A hub for what `log` appends: its Redis channels live, its Postgres record for the rest.
        Made in the event loop that will use it."""
        return cls(
            log.session_factory,
            log.redis,
            log.replay,
            poll_seconds=poll_seconds,
            buffer_size=buffer_size,
            max_db_reads=max_db_reads,
        )

    # -- following ------------------------------------------------------------------------------

    async def follow(self, report_id: uuid.UUID, after_seq: int = 0) -> AsyncIterator[StreamEvent]:
        """Every event after `after_seq`, exactly once and in order, then live ones, forever."""
        feed = self._join(report_id)
        try:
            await feed.wait_primed()
            cursor = after_seq
            while True:
                batch = feed.buffered_after(cursor)
                if batch is None:
                    batch = await feed.read_after(cursor)
                if not batch:
                    await feed.wait_beyond(cursor)
                    continue
                for event in batch:
                    if event.seq == cursor + 1:
                        yield event
                        cursor = event.seq
        finally:
            await self._leave(feed)

    async def follow_organisation(self, organisation_id: uuid.UUID) -> AsyncIterator[StreamEvent]:
        """The organisation channel's events as they are published (live only), forever."""
        queue = _LiveQueue()
        followers = self._organisations.setdefault(organisation_id, set())
        followers.add(queue)
        if len(followers) == 1:
            self._ensure_listener()  # nothing else may be followed: the listener subscribes the channel
            await self._subscribe(organisation_channel_for(organisation_id))
        try:
            while True:
                await queue.ready.wait()
                queue.ready.clear()
                while queue.events:
                    yield queue.events.popleft()
        finally:
            followers.discard(queue)
            if not followers:
                del self._organisations[organisation_id]
                await self._unsubscribe(organisation_channel_for(organisation_id))
                self._stop_if_idle()

    def _join(self, report_id: uuid.UUID) -> ReportFeed:
        feed = self._feeds.get(report_id)
        if feed is None:
            feed = ReportFeed(report_id, self._replay_retrying, self._head, self._buffer_size)
            self._feeds[report_id] = feed
            self._ensure_listener()
            if self._redis_up:
                asyncio.get_running_loop().create_task(self._subscribe(channel_for(report_id)))
            self._pumps[report_id] = asyncio.get_running_loop().create_task(
                feed.pump(self._current_poll_seconds, subscribe_timeout=REDIS_RETRY_SECONDS)
            )
        feed.subscribers += 1
        return feed

    async def _leave(self, feed: ReportFeed) -> None:
        feed.subscribers -= 1
        if feed.subscribers > 0 or self._feeds.get(feed.report_id) is not feed:
            return
        del self._feeds[feed.report_id]
        pump = self._pumps.pop(feed.report_id)
        pump.cancel()
        await self._unsubscribe(channel_for(feed.report_id))
        self._stop_if_idle()

    def _current_poll_seconds(self) -> float:
        return self._poll_seconds if self._redis_up else min(self._poll_seconds, REDIS_RETRY_SECONDS)

    # -- Postgres, never fatal ------------------------------------------------------------------

    async def _db(self, read: Callable[[], Awaitable[T]]) -> T:
        """Run a read, waiting and retrying while the pool is exhausted or the database is away."""
        delay = DB_RETRY_FIRST_SECONDS
        while True:
            try:
                async with self._db_slots:
                    self.db_reads += 1
                    return await read()
            except Exception as exc:
                if not is_transient_db_error(exc):  # a bug: the subscription ends with it
                    raise
                logger.warning("event read failed (%s); retrying in %.2f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, DB_RETRY_MAX_SECONDS)

    async def _replay_retrying(self, report_id: uuid.UUID, after_seq: int) -> Sequence[StreamEvent]:
        return await self._db(lambda: self._replay(report_id, after_seq, REPLAY_BATCH))

    async def _head(self, report_id: uuid.UUID) -> int:
        async def read() -> int:
            async with self._session_factory() as session:
                seq = await session.scalar(select(Report.last_event_seq).where(Report.id == report_id))
            return int(seq or 0)

        return await self._db(read)

    # -- the one Redis connection ---------------------------------------------------------------

    def _ensure_listener(self) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.get_running_loop().create_task(self._listen())

    def _stop_if_idle(self) -> None:
        if not self._feeds and not self._organisations and self._listener is not None:
            self._listener.cancel()
            self._listener = None

    def _channels(self) -> list[str]:
        return [channel_for(report) for report in self._feeds] + [
            organisation_channel_for(organisation) for organisation in self._organisations
        ]

    async def _subscribe(self, channel: str) -> None:
        if self._pubsub is not None and self._redis_up:
            try:
                await self._pubsub.subscribe(channel)
            except (RedisError, OSError) as exc:  # the listener reconnects and re-subscribes
                logger.info("SUBSCRIBE %s failed: %s", channel, exc)

    async def _unsubscribe(self, channel: str) -> None:
        if self._pubsub is not None and self._redis_up:
            try:
                await self._pubsub.unsubscribe(channel)
            except (RedisError, OSError) as exc:
                logger.info("UNSUBSCRIBE %s failed: %s", channel, exc)

    async def _listen(self) -> None:
        """Hold the pub/sub connection, reconnecting after any Redis failure, until cancelled."""
        while True:
            pubsub = self._redis.pubsub()
            try:
                channels = self._channels()
                if not channels:
                    return  # everyone left while we were connecting; `_join` starts a new listener
                await pubsub.subscribe(*channels)
                self._pubsub, self._redis_up = pubsub, True
                joined_meanwhile = [channel for channel in self._channels() if channel not in channels]
                if joined_meanwhile:
                    await pubsub.subscribe(*joined_meanwhile)
                for feed in self._feeds.values():
                    feed.request_check()  # whatever was published while we were away
                await self._receive(pubsub)
            except (RedisError, OSError) as exc:
                logger.info("event hub lost Redis (%s); feeds poll Postgres until it is back", exc)
                self._redis_up, self._pubsub = False, None
                for feed in self._feeds.values():
                    feed.request_check()  # now, and from then on at the short poll interval
                await asyncio.sleep(REDIS_RETRY_SECONDS)
            finally:
                self._redis_up, self._pubsub = False, None
                await _close_quietly(pubsub)

    async def _receive(self, pubsub: Any) -> None:
        """Dispatch messages until Redis fails or stops answering (raises a `RedisError`).

        The wait for a message has its own timeout (an idle subscription is healthy, however long it
        is silent), so the client's command timeout does not apply to it; silence is checked with
        PINGs instead, whose PONG arrives as a message like any other.
        """
        loop = asyncio.get_running_loop()
        self._heartbeat.heard(loop.time())
        while True:
            message = await pubsub.get_message(timeout=LISTEN_TIMEOUT_SECONDS)
            now = loop.time()
            if message is not None:
                self._heartbeat.heard(now)
                self._dispatch(message)
            elif self._heartbeat.hung(now):
                raise RedisTimeoutError("no PONG from Redis on the pub/sub connection")
            elif self._heartbeat.due(now):
                await pubsub.ping()
                self._heartbeat.pinged(now)

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel = _text(message.get("channel"))
        if message["type"] == "subscribe":
            feed = self._feed_of(channel)
            if feed is not None:
                feed.subscribed.set()
            return
        if message["type"] != "message":
            return
        event = StreamEvent.from_json(message["data"])
        feed = self._feed_of(channel)
        if feed is not None:
            feed.deliver(event)
            return
        for queue in self._organisations.get(_organisation_of(channel), ()):
            queue.put(event)

    def _feed_of(self, channel: str) -> ReportFeed | None:
        prefix = channel_for(uuid.UUID(int=0))[:-36]
        if not channel.startswith(prefix):
            return None
        return self._feeds.get(uuid.UUID(channel[len(prefix) :]))

    async def aclose(self) -> None:
        """Stop every pump and the listener (the API's lifespan calls this at shutdown)."""
        tasks = [*self._pumps.values(), *([self._listener] if self._listener else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._pumps.clear()
        self._feeds.clear()
        self._listener = None


class _Heartbeat:
    """When the listener last heard from Redis, and whether a PING is due or went unanswered."""

    def __init__(self, interval: float, pong_timeout: float) -> None:
        self._interval = interval
        self._pong_timeout = pong_timeout
        self._last_heard = 0.0
        self._ping_sent: float | None = None

    def heard(self, now: float) -> None:
        self._last_heard, self._ping_sent = now, None

    def pinged(self, now: float) -> None:
        self._ping_sent = now

    def due(self, now: float) -> bool:
        return self._ping_sent is None and now - self._last_heard >= self._interval

    def hung(self, now: float) -> bool:
        return self._ping_sent is not None and now - self._ping_sent >= self._pong_timeout


def _command_timeout(redis: Redis) -> float:
    """The client's own command timeout (the API's REDIS_COMMAND_TIMEOUT_SECONDS), if it has one."""
    configured = redis.connection_pool.connection_kwargs.get("socket_timeout")
    return float(configured) if configured else DEFAULT_PONG_TIMEOUT_SECONDS


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _organisation_of(channel: str) -> uuid.UUID:
    prefix = organisation_channel_for(uuid.UUID(int=0))[:-36]
    try:
        return uuid.UUID(channel[len(prefix) :]) if channel.startswith(prefix) else uuid.UUID(int=0)
    except ValueError:
        return uuid.UUID(int=0)


async def _close_quietly(pubsub: Any) -> None:
    try:
        await pubsub.aclose()
    except (RedisError, OSError):
        pass
