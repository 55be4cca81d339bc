"""One report's live event feed inside an API process (see `app.events.hub`).

A `ReportFeed` turns the report's Redis messages into a contiguous, gap-free tail of events held in
a bounded buffer. It alone talks to Postgres for the report's live tail: it fills a gap (a lost or
reordered PUBLISH) and, when Redis has been silent for a poll interval or is down, checks once for
newer events, so idle subscribers cost one query per report, not one each.

Subscribers keep only a cursor (the last sequence number they yielded) and read the buffer from it;
nothing is copied per subscriber and the feed never waits for anyone. A subscriber that has fallen
behind the buffer (a slow consumer, or one replaying history after `afterSequence`) catches up from
Postgres through `read_after`, which serialises the report's reads and keeps the last few batches,
so subscribers at similar positions share one query per batch instead of each holding a session.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from itertools import islice

from app.events.log import REPLAY_BATCH, StreamEvent

logger = logging.getLogger(__name__)

#: Recent Postgres batches a feed keeps for subscribers catching up at similar positions.
SHARED_BATCHES = 8
#: Events one buffer read hands a subscriber at once (it comes back for the rest).
MAX_SLICE = 200

Replay = Callable[[uuid.UUID, int], Awaitable[Sequence[StreamEvent]]]
Head = Callable[[uuid.UUID], Awaitable[int]]


class ReportFeed:
    """The contiguous live tail of one report's events, shared by its in-process subscribers."""

    def __init__(self, report_id: uuid.UUID, replay: Replay, head: Head, buffer_size: int) -> None:
        self.report_id = report_id
        self.subscribers = 0
        self.subscribed = asyncio.Event()  # Redis confirmed the SUBSCRIBE (or gave up: polling)
        self._replay = replay
        self._read_head = head
        self._buffer: deque[StreamEvent] = deque(maxlen=buffer_size)
        self._head: int | None = None
        self._inbox: list[StreamEvent] = []
        self._stash: dict[int, StreamEvent] = {}
        self._kick = asyncio.Event()
        self._check = False
        self._advanced = asyncio.Event()
        self._primed = asyncio.Event()
        self._read_lock = asyncio.Lock()
        self._batches: deque[list[StreamEvent]] = deque(maxlen=SHARED_BATCHES)

    # -- fed by the hub -------------------------------------------------------------------------

    def deliver(self, event: StreamEvent) -> None:
        """A live event from Redis (any order, possibly duplicated)."""
        self._inbox.append(event)
        self._kick.set()

    def request_check(self) -> None:
        """Ask the pump to look in Postgres for events Redis did not bring (after a Redis outage)."""
        self._check = True
        self._kick.set()

    async def pump(self, poll_seconds: Callable[[], float], subscribe_timeout: float) -> None:
        """Prime the head, then apply live events and periodic checks until cancelled."""
        try:
            await asyncio.wait_for(self.subscribed.wait(), subscribe_timeout)
        except TimeoutError:
            logger.info("no Redis subscription for report %s yet; polling Postgres", self.report_id)
        self._head = await self._read_head(self.report_id)
        self._primed.set()
        while True:
            try:
                await asyncio.wait_for(self._kick.wait(), poll_seconds())
            except TimeoutError:
                self._check = True  # silence: one Postgres check for the whole report
            self._kick.clear()
            try:
                await self._apply()
            except Exception:  # a bug must not silence the report for every subscriber
                logger.exception("event feed of report %s failed; retrying", self.report_id)
                self._check = True
                await asyncio.sleep(poll_seconds())

    async def _apply(self) -> None:
        inbox, self._inbox = self._inbox, []
        assert self._head is not None
        for event in inbox:
            if event.seq > self._head:
                self._stash[event.seq] = event
        self._take_stashed()
        if self._stash or self._check:
            self._check = False
            await self._catch_up()
            self._take_stashed()

    def _take_stashed(self) -> None:
        assert self._head is not None
        while (event := self._stash.pop(self._head + 1, None)) is not None:
            self._accept([event])
        self._stash = {seq: event for seq, event in self._stash.items() if seq > self._head}

    async def _catch_up(self) -> None:
        """Read Postgres after the head until it has no more (fills gaps and lost PUBLISHes)."""
        assert self._head is not None
        while True:
            batch = await self._replay(self.report_id, self._head)
            self._accept(batch)
            if len(batch) < REPLAY_BATCH:
                return

    def _accept(self, events: Sequence[StreamEvent]) -> None:
        assert self._head is not None
        accepted = False
        for event in events:
            if event.seq == self._head + 1:
                self._buffer.append(event)
                self._head = event.seq
                accepted = True
        if accepted:
            advanced, self._advanced = self._advanced, asyncio.Event()
            advanced.set()

    # -- read by subscribers --------------------------------------------------------------------

    async def wait_primed(self) -> None:
        await self._primed.wait()

    def buffered_after(self, cursor: int) -> list[StreamEvent] | None:
        """Buffered events after `cursor` ([] at the head), or None when the buffer no longer has
        `cursor + 1` (the subscriber must catch up from Postgres)."""
        head = self._head
        if head is None:
            return None
        if cursor >= head:
            return []
        if not self._buffer or cursor + 1 < self._buffer[0].seq:
            return None
        start = cursor + 1 - self._buffer[0].seq
        return list(islice(self._buffer, start, start + MAX_SLICE))

    async def wait_beyond(self, cursor: int) -> None:
        """Return once the head has moved past `cursor`."""
        while self._head is None or self._head <= cursor:
            await self._advanced.wait()

    async def read_after(self, cursor: int) -> list[StreamEvent]:
        """Stored events after `cursor`: from a batch another subscriber just read, else one query
        (one at a time per report, so a crowd catching up shares batches instead of the pool)."""
        shared = self._shared_batch(cursor)
        if shared is not None:
            return shared
        async with self._read_lock:
            shared = self._shared_batch(cursor)
            if shared is not None:
                return shared
            batch = list(await self._replay(self.report_id, cursor))
            if batch:
                self._batches.append(batch)
            return batch

    def _shared_batch(self, cursor: int) -> list[StreamEvent] | None:
        for batch in self._batches:
            first = batch[0].seq
            if first <= cursor + 1 <= batch[-1].seq:
                return batch[cursor + 1 - first :]
        return None
