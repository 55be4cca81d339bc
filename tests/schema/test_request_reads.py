"""One read session per HTTP query (`schema.transport.request_reads`): a claims page with everything nested
checks out one pooled connection, readers take turns, and a failed read does not fail the next."""

from __future__ import annotations

import asyncio
from contextlib import AbstractContextManager

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import Pool

from app.db.session import SessionFactory
from schema.transport.request_reads import RequestReads
from tests.schema.test_partner_graph import FULL_PAGE, report_gid
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient
from tests.support.sqlalchemy_events import recorded


def counted_checkouts() -> AbstractContextManager[list[int]]:
    """Every connection any pool of this process lends inside the block."""
    return recorded(Pool, "checkout", lambda dbapi_connection, *_: id(dbapi_connection))


async def test_a_claims_page_with_everything_nested_reads_through_one_connection(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 30, filename="one-session.pdf")
    await client.data(FULL_PAGE, id=report_gid(seeded.report_id), first=5)  # the key is cached after this
    with counted_checkouts() as checkouts:
        data = await client.data(FULL_PAGE, id=report_gid(seeded.report_id), first=30)
    assert len(data["report"]["claims"]["edges"]) == 30
    assert all(
        edge["node"]["verdict"] and edge["node"]["findings"] for edge in data["report"]["claims"]["edges"]
    )
    # report lookup, the page and its count, the run summary, verdicts, findings and routing: one checkout
    assert len(checkouts) == 1, checkouts


async def test_readers_in_concurrent_tasks_take_turns_on_the_one_session(
    session_factory: SessionFactory,
) -> None:
    reads = RequestReads(session_factory)
    seen: list[int] = []

    async def reader(value: int) -> int:
        async with reads.session() as session:
            seen.append(id(session))
            return int(await session.scalar(text(f"SELECT {value} FROM pg_sleep(0.05)")))

    try:
        assert await asyncio.gather(*(reader(value) for value in range(4))) == [0, 1, 2, 3]
    finally:
        await reads.aclose()
    assert len(set(seen)) == 1


async def test_a_reader_reopening_it_within_its_turn_gets_the_same_session(
    session_factory: SessionFactory,
) -> None:
    reads = RequestReads(session_factory)
    try:
        async with reads.session() as outer:
            async with asyncio.timeout(5):  # taking the lock again would wait for ever
                async with reads.session() as inner:
                    assert inner is outer
                    assert await inner.scalar(text("SELECT 1")) == 1
    finally:
        await reads.aclose()


async def test_a_failed_read_does_not_fail_the_next_one(session_factory: SessionFactory) -> None:
    reads = RequestReads(session_factory)
    try:
        with pytest.raises(DBAPIError, match="division by zero"):
            async with reads.session() as session:
                await session.scalar(text("SELECT 1 / 0"))
        async with reads.session() as session:
            assert await session.scalar(text("SELECT 2")) == 2
    finally:
        await reads.aclose()


async def test_closing_returns_the_connection_and_a_later_read_opens_a_new_session(
    session_factory: SessionFactory,
) -> None:
    reads = RequestReads(session_factory)
    with counted_checkouts() as checkouts:
        async with reads.session() as first:
            await first.scalar(text("SELECT 1"))
        await reads.aclose()
        async with reads.session() as second:
            await second.scalar(text("SELECT 1"))
        await reads.aclose()
    assert second is not first and len(checkouts) == 2
