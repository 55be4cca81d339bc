"""SibylClient against the real API server and worker: uploads, waits, claim paging and filters, and
both subscriptions over the real graphql-transport-ws endpoint."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from contextlib import aclosing

import pytest
from redis.asyncio import Redis
from strawberry.relay import GlobalID

from clients.sibyl import IssuedVerdict, NotFound, SibylClient, StreamEvent
from tests.fixtures import pdfs
from tests.support.live_subscriptions import until_report_followed


async def _collect_verdicts(client: SibylClient, report_id: str, into: list[IssuedVerdict]) -> None:
    async with aclosing(client.verdicts(report_id)) as verdicts:
        async for verdict in verdicts:
            into.append(verdict)


async def _events_until(client: SibylClient, report_id: str, event_type: str) -> list[StreamEvent]:
    seen: list[StreamEvent] = []
    async with aclosing(client.events(report_id)) as events:
        async for event in events:
            seen.append(event)
            if event.event_type == event_type:
                return seen
    return seen


async def test_client_uploads_analyses_and_follows_a_report(
    api_url: str, worker: object, api_key: str, redis: Redis
) -> None:
    content = pdfs.synthetic_report().pdf
    async with SibylClient(api_url, api_key) as client:
        upload = await client.upload_report(content, company_name=pdfs.COMPANY)
        again = await client.upload_report(content)
        parsed = await client.wait_for_status(upload.report.id, {"PARSED"}, timeout=60)
        parse_events = await asyncio.wait_for(_events_until(client, parsed.id, "parse_completed"), 30)

        verdicts: list[IssuedVerdict] = []
        collecting = asyncio.create_task(_collect_verdicts(client, parsed.id, verdicts))
        # the verdict stream is live only: open before the first verdict can exist
        await until_report_followed(redis, uuid.UUID(GlobalID.from_id(parsed.id).node_id))
        started = await client.start_analysis(parsed.id)
        done = await client.wait_for_status(parsed.id, {"COMPLETED", "ERROR"}, timeout=90)
        claims = await client.claims(parsed.id)
        paged = await client.claims(parsed.id, first=5)
        verified = await client.claims(parsed.id, verdict="VERIFIED")
        collecting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await collecting
        with pytest.raises(NotFound):
            await client.report("UmVwb3J0OjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMA==")

    assert upload.created and not again.created and again.report.id == upload.report.id
    assert parsed.page_count == 12 and [event.sequence for event in parse_events][0] == 1
    assert started.report.status == "ANALYZING"
    assert done.status == "COMPLETED" and done.analysis is not None and done.analysis.progress_percent == 100
    assert claims and all(claim.verdict is not None for claim in claims)
    assert [claim.id for claim in paged] == [claim.id for claim in claims]
    assert {claim.verdict.verdict for claim in verified if claim.verdict} <= {"VERIFIED"}
    assert verdicts and {verdict.report_id for verdict in verdicts} == {parsed.id}
