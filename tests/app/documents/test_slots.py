"""Document slots: at most `size` calls at once, at most `size - 1` for one organisation, waiting
callers admitted in arrival order, and a cancelled wait gives nothing away."""

from __future__ import annotations

import asyncio
import threading

from app.documents.slots import DocumentSlots


async def test_one_organisation_holds_at_most_all_slots_but_one() -> None:
    slots = DocumentSlots(3)
    await slots.take_async("a")
    await slots.take_async("a")

    third = asyncio.create_task(slots.take_async("a"))
    await asyncio.sleep(0)  # each task runs to its wait
    assert not third.done()
    await asyncio.wait_for(slots.take_async("b"), 1)  # the slot left is another organisation's

    slots.give_back("a")
    await asyncio.wait_for(third, 1)
    assert slots.held() == {"a": 2, "b": 1}


async def test_with_one_slot_one_organisation_may_hold_it() -> None:
    slots = DocumentSlots(1)
    await asyncio.wait_for(slots.take_async("a"), 1)
    assert slots.per_organisation == 1


async def test_calls_of_no_organisation_may_take_every_slot() -> None:
    slots = DocumentSlots(2)
    await slots.take_async(None)
    await asyncio.wait_for(slots.take_async(None), 1)
    assert slots.held() == {}


async def test_waiters_are_admitted_in_arrival_order() -> None:
    slots = DocumentSlots(2)
    await slots.take_async("a")
    await slots.take_async("b")
    admitted: list[str] = []

    async def wait(holder: str) -> None:
        await slots.take_async(holder)
        admitted.append(holder)

    waiting = [asyncio.create_task(wait(holder)) for holder in ("c", "d")]
    await asyncio.sleep(0)  # each task runs to its wait
    slots.give_back("a")
    slots.give_back("b")
    await asyncio.wait_for(asyncio.gather(*waiting), 1)
    assert admitted == ["c", "d"]


async def test_a_cancelled_wait_takes_no_slot() -> None:
    slots = DocumentSlots(2)
    await slots.take_async("a")
    await slots.take_async("b")
    cancelled = asyncio.create_task(slots.take_async("c"))
    await asyncio.sleep(0)  # each task runs to its wait

    cancelled.cancel()
    await asyncio.gather(cancelled, return_exceptions=True)
    slots.give_back("a")

    await asyncio.wait_for(slots.take_async("d"), 1)
    assert slots.held() == {"b": 1, "d": 1}


def test_threads_wait_for_slots_too() -> None:
    slots = DocumentSlots(2)
    slots.take("a")
    taken = threading.Event()
    waiter = threading.Thread(target=lambda: (slots.take("a"), taken.set()))
    waiter.start()
    assert not taken.wait(0.05)

    slots.give_back("a")
    assert taken.wait(1)
    waiter.join()
