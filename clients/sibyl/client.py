"""`SibylClient`: the async Python API over Sibyl's GraphQL endpoint (HTTP and WebSocket)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Collection
from contextlib import aclosing
from pathlib import Path
from types import TracebackType
from typing import Any

from clients.sibyl import documents
from clients.sibyl.errors import NotFound, RateLimitedError, ServerUnreachable, WaitTimeout, raise_for_union
from clients.sibyl.models import (
    Analysis,
    Answer,
    Claim,
    ClaimPage,
    IssuedVerdict,
    Report,
    StartedAnalysis,
    StreamEvent,
    Upload,
)
from clients.sibyl.subscriptions import ConnectionLost, subscribe
from clients.sibyl.transport import (
    HttpTransport,
    RetryListener,
    backoff,
    resolve_api_key,
    resolve_base_url,
    websocket_url,
)

#: Consecutive dropped connections `events` survives before giving up.
MAX_RECONNECTS = 5
#: Longest wait before reconnecting a rate-limited subscription, whatever the server asked.
MAX_RATE_LIMIT_WAIT = 60.0


class Outage:
    """How long a failing connection has been retried, against the `retry_seconds` budget."""

    def __init__(self, retry_seconds: float) -> None:
        self.retry_seconds = retry_seconds
        self.since: float | None = None

    def wait(self, attempt: int) -> float | None:
        """The pause before the next retry, or None once the budget is spent."""
        now = time.monotonic()
        self.since = now if self.since is None else self.since
        left = self.since + self.retry_seconds - now
        return min(backoff(attempt), left) if left > 0 else None

    def over(self) -> None:
        """The connection works again: the next outage gets a whole budget."""
        self.since = None


class SibylClient:
    """Async client for one Sibyl server; use as `async with SibylClient(...) as sibyl:`.

    Args:
        base_url: Server root; default `SIBYL_API_URL` or http://127.0.0.1:8000.
        api_key: API key; default `SIBYL_API_KEY` (none: only servers allowing anonymous use answer).
        timeout: Seconds for each HTTP request and for opening a WebSocket.
        max_retries: Retries of a rate-limited (429) request, each after the server's Retry-After.
        persisted_queries: Send documents as automatic persisted queries (hash first, the document
            only when the server asks for it); on by default.
        retry_seconds: How long a request, or the event subscription, keeps retrying a server
            that is unreachable or answers `SERVICE_UNAVAILABLE` (restarting, database briefly
            away) before the error is raised; 0 (the default) raises at once.
        on_retry: Called with the error and the wait before each such retry.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        persisted_queries: bool = True,
        retry_seconds: float = 0.0,
        on_retry: RetryListener | None = None,
    ) -> None:
        self.base_url = resolve_base_url(base_url)
        self.api_key = resolve_api_key(api_key)
        self.timeout = timeout
        self.retry_seconds = retry_seconds
        self.on_retry = on_retry
        self._http = HttpTransport(
            self.base_url,
            self.api_key,
            timeout,
            max_retries,
            persisted_queries=persisted_queries,
            retry_seconds=retry_seconds,
            on_retry=on_retry,
        )

    async def __aenter__(self) -> SibylClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP connection pool (subscriptions close when their iterator does)."""
        await self._http.aclose()

    async def execute(self, query: str, **variables: Any) -> dict[str, Any]:
        """Run any GraphQL query or mutation; returns `data` (raises on errors)."""
        return await self._http.execute(query, variables)

    async def upload_report(
        self, file: str | Path | bytes, company_name: str | None = None, filename: str | None = None
    ) -> Upload:
        """Upload a report PDF; identical bytes return the existing report with `created=False`."""
        if isinstance(file, bytes):
            content, name = file, filename or "report.pdf"
        else:
            path = Path(file)
            content, name = await asyncio.to_thread(path.read_bytes), filename or path.name
        data = await self._http.upload(
            documents.UPLOAD_REPORT, {"companyName": company_name}, "file", name, content
        )
        result = data["uploadReport"]
        raise_for_union(result)
        return Upload(Report.from_json(result["report"]), bool(result["created"]))

    async def start_analysis(self, report_id: str, skip_claims_extraction: bool = False) -> StartedAnalysis:
        """Queue an analysis of a PARSED (or previously analysed) report."""
        data = await self.execute(documents.START_ANALYSIS, reportId=report_id, skip=skip_claims_extraction)
        result = data["startAnalysis"]
        raise_for_union(result)
        return StartedAnalysis(Report.from_json(result["report"]), Analysis.from_json(result["analysis"]))

    async def report(self, report_id: str) -> Report:
        """The report with its latest analysis; `NotFound` if unknown (or another organisation's)."""
        data = await self.execute(documents.REPORT, id=report_id)
        if data.get("report") is None:
            raise NotFound("Report", "NOT_FOUND", f"No report with id {report_id!r}.", "id")
        return Report.from_json(data["report"])

    async def claims_page(
        self,
        report_id: str,
        first: int = 200,
        after: str | None = None,
        type: str | None = None,
        priority: str | None = None,
        verdict: str | None = None,
        order_by: str = "PAGE",
    ) -> ClaimPage:
        """One page of the report's claims, each with its final verdict."""
        data = await self.execute(
            documents.CLAIMS,
            id=report_id,
            first=first,
            after=after,
            type=type,
            priority=priority,
            verdict=verdict,
            orderBy=order_by,
        )
        if data.get("report") is None:
            raise NotFound("Report", "NOT_FOUND", f"No report with id {report_id!r}.", "id")
        connection = data["report"]["claims"]
        return ClaimPage(
            claims=[Claim.from_json(edge["node"]) for edge in connection["edges"]],
            total_count=int(connection["totalCount"]),
            has_next_page=bool(connection["pageInfo"]["hasNextPage"]),
            end_cursor=connection["pageInfo"]["endCursor"],
        )

    async def claims(
        self,
        report_id: str,
        first: int = 200,
        after: str | None = None,
        type: str | None = None,
        priority: str | None = None,
        verdict: str | None = None,
        order_by: str = "PAGE",
    ) -> list[Claim]:
        """Every matching claim after `after`, fetched `first` at a time."""
        claims: list[Claim] = []
        while True:
            page = await self.claims_page(report_id, first, after, type, priority, verdict, order_by)
            claims.extend(page.claims)
            if not page.has_next_page or not page.end_cursor:
                return claims
            after = page.end_cursor

    async def ask(self, report_id: str, question: str) -> Answer:
        """Ask a question about an analysed report; typed refusals raise `MutationFailed`/`NotFound`."""
        data = await self.execute(documents.ASK_REPORT, reportId=report_id, question=question)
        result = data["askReport"]
        raise_for_union(result)
        return Answer.from_json(result)

    async def last_event_sequence(self, report_id: str) -> int:
        """The sequence of the report's latest event (0 if none), to follow only what happens next."""
        last, page_size = 0, 500
        while True:
            data = await self.execute(
                documents.REPORT_EVENT_SEQUENCES, id=report_id, afterSequence=last, first=page_size
            )
            if data.get("report") is None:
                raise NotFound("Report", "NOT_FOUND", f"No report with id {report_id!r}.", "id")
            sequences = [int(event["sequence"]) for event in data["report"]["events"]]
            if sequences:
                last = sequences[-1]
            if len(sequences) < page_size:
                return last

    async def wait_for_status(
        self,
        report_id: str,
        statuses: Collection[str],
        timeout: float | None = None,  # noqa: ASYNC109 - part of the public API, not a cancel scope
        poll_interval: float = 0.5,
    ) -> Report:
        """Poll until the report is in one of `statuses`; `WaitTimeout` after `timeout` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            report = await self.report(report_id)
            if report.status in statuses:
                return report
            if deadline is not None and time.monotonic() >= deadline:
                message = f"Report {report_id} is still {report.status} after {timeout:.1f} s."
                raise WaitTimeout(message, report.status)
            await asyncio.sleep(poll_interval)

    async def events(self, report_id: str, after_sequence: int = 0) -> AsyncGenerator[StreamEvent, None]:
        """The report's events after sequence `after_sequence`, replayed then live, forever (break to stop).

        A dropped connection is resumed from the last event seen, so nothing is missed or repeated:
        up to `MAX_RECONNECTS` times in a row, and for `retry_seconds` while the server cannot be
        reached or is unavailable (an API restart); a connection refused for the rate limit is
        retried after the wait the server asks for.
        """
        failures, outage = 0, Outage(self.retry_seconds)
        while True:
            try:
                stream = self._subscribe(
                    documents.ANALYSIS_EVENTS, reportId=report_id, afterSequence=after_sequence
                )
                async with aclosing(stream):
                    async for data in stream:
                        event = StreamEvent.from_json(data["analysisEvents"])
                        after_sequence, failures = event.sequence, 0
                        outage.over()
                        yield event
                return
            except ServerUnreachable as error:
                failures += 1
                wait = outage.wait(failures)
                if wait is None and not (isinstance(error, ConnectionLost) and failures <= MAX_RECONNECTS):
                    raise
                wait = backoff(failures) if wait is None else wait
                if self.on_retry is not None:
                    self.on_retry(error, wait)
                await asyncio.sleep(wait)
            except RateLimitedError as error:  # a reconnect refused for now: wait as the server asks
                failures += 1
                if failures > MAX_RECONNECTS:
                    raise
                await asyncio.sleep(min(MAX_RATE_LIMIT_WAIT, error.retry_after or 1.0))

    async def verdicts(self, report_id: str | None = None) -> AsyncGenerator[IssuedVerdict, None]:
        """Verdicts as the judge issues them: of one report, or (None) of every report you can see."""
        stream = self._subscribe(documents.VERDICT_ISSUED, reportId=report_id)
        async with aclosing(stream):
            async for data in stream:
                yield IssuedVerdict.from_json(data["verdictIssued"])

    def _subscribe(self, query: str, **variables: Any) -> AsyncGenerator[dict[str, Any], None]:
        return subscribe(
            websocket_url(self.base_url),
            self.api_key,
            query,
            variables,
            self.timeout,
            persisted=self._http.persisted_queries,
        )
