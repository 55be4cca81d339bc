"""Who may hold the document processes: at most `size` calls at once, and at most `size - 1` of
them for one organisation, so one tenant's uploads, page images or parses always leave a process
for everyone else (with a single process there is nothing to share, and the one organisation may
hold it).

Calls of no organisation (the evidence library, the IFRS corpus) are bounded only by `size`.
Waiting callers are admitted in arrival order among those the limits allow; async callers wait
on the event loop, not in a thread, so a crowd of one organisation's waiting requests cannot
occupy every thread `asyncio.to_thread` has and keep another organisation's call from starting.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

#: Who a call is for: an organisation id, or None for the application's own work.
Holder = Hashable | None


@dataclass(eq=False)
class _Waiter:
    holder: Holder
    wake: Callable[[], object]
    granted: bool = field(default=False)


class DocumentSlots:
    """Admission to `size` document processes; see the module docstring. Safe across threads and
    event loops."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.per_organisation = max(1, size - 1)
        self._lock = threading.Lock()
        self._busy = 0
        self._held: Counter[Hashable] = Counter()
        self._waiting: deque[_Waiter] = deque()

    def take(self, holder: Holder) -> None:
        """Block this thread until `holder` may have a slot, and take it."""
        event = threading.Event()
        with self._lock:
            if self._take_now(holder):
                return
            self._waiting.append(_Waiter(holder, event.set))
        event.wait()

    async def take_async(self, holder: Holder) -> None:
        """Wait on the event loop until `holder` may have a slot, and take it."""
        loop = asyncio.get_running_loop()
        admitted: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._take_now(holder):
                return
            waiter = _Waiter(holder, lambda: loop.call_soon_threadsafe(_resolve, admitted))
            self._waiting.append(waiter)
        try:
            await admitted
        except asyncio.CancelledError:
            self._withdraw(waiter)
            raise

    def give_back(self, holder: Holder) -> None:
        """Return `holder`'s slot and admit the waiters the limits now allow, oldest first."""
        with self._lock:
            self._release(holder)
            self._admit_waiting()

    def held(self) -> dict[Hashable, int]:
        """Slots held now per organisation (for diagnostics and tests)."""
        with self._lock:
            return dict(self._held)

    def _take_now(self, holder: Holder) -> bool:
        if not self._allows(holder):
            return False
        self._grant(holder)
        return True

    def _allows(self, holder: Holder) -> bool:
        if self._busy >= self.size:
            return False
        return holder is None or self._held[holder] < self.per_organisation

    def _grant(self, holder: Holder) -> None:
        self._busy += 1
        if holder is not None:
            self._held[holder] += 1

    def _release(self, holder: Holder) -> None:
        self._busy -= 1
        if holder is not None:
            self._held[holder] -= 1
            if not self._held[holder]:
                del self._held[holder]

    def _admit_waiting(self) -> None:
        """Grant every waiter the limits allow, in arrival order (called with the lock held)."""
        for waiter in list(self._waiting):
            if not self._allows(waiter.holder):
                continue
            self._waiting.remove(waiter)
            self._grant(waiter.holder)
            try:
                waiter.wake()
            except RuntimeError:  # its event loop is closed: nobody will use the slot
                self._release(waiter.holder)
                continue
            waiter.granted = True

    def _withdraw(self, waiter: _Waiter) -> None:
        """A cancelled async waiter leaves the queue, or returns the slot it was just granted."""
        with self._lock:
            if waiter.granted:
                self._release(waiter.holder)
                self._admit_waiting()
            elif waiter in self._waiting:
                self._waiting.remove(waiter)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
