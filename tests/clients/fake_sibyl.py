"""A scripted stand-in for the Sibyl API, speaking real GraphQL-over-HTTP (JSON and multipart) and
graphql-transport-ws, so the client and CLI run their real network code against known answers."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from strawberry.relay import GlobalID

from tests.support.http_server import serve_asgi

REPORT_UUID = "11111111-1111-1111-1111-111111111111"
REPORT_ID = "UmVwb3J0OjExMTExMTExLTExMTEtMTExMS0xMTExLTExMTExMTExMTExMQ=="
PQ_NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
OPERATION = re.compile(r"^\s*(?:query|mutation|subscription)\s+(\w+)")
UNAUTHENTICATED = {"errors": [{"message": "Invalid API key.", "extensions": {"code": "UNAUTHENTICATED"}}]}
UNAVAILABLE = {
    "data": None,
    "errors": [
        {
            "message": "The database is unavailable; retry shortly.",
            "extensions": {"code": "SERVICE_UNAVAILABLE"},
        }
    ],
}


def report_json(status: str, progress: float = 0.0, stage: str | None = None, **extra: Any) -> dict[str, Any]:
    """A `ReportFields` answer; an analysis is included once `stage` is given."""
    analysis = None
    if stage is not None:
        analysis = {
            "id": "run-1",
            "status": "COMPLETED" if status == "COMPLETED" else "RUNNING",
            "pipelineStage": stage,
            "progressPercent": progress,
            "activeAgents": extra.pop("active_agents", []),
            "iterationCount": 0,
            "claimsCount": 2,
            "findingsCount": 3,
            "verdictsCount": 2 if status == "COMPLETED" else 0,
            "errorMessage": extra.pop("analysis_error", None),
            "warnings": extra.pop("warnings", []),
        }
    return {
        "id": REPORT_ID,
        "status": status,
        "filename": "report.pdf",
        "companyName": "Northwind Minerals plc",
        "pageCount": extra.pop("page_count", 12),
        "errorMessage": extra.pop("error_message", None),
        "queuePosition": extra.pop("queue_position", None),
        "analysis": analysis,
    }


def claim_json(number: int, page: int, verdict: str | None, text: str = "") -> dict[str, Any]:
    return {
        "id": f"claim-{number}",
        "text": text or f"Claim number {number} says something measurable about emissions.",
        "claimType": "QUANTITATIVE",
        "priority": "HIGH",
        "sourcePage": page,
        "verdict": None if verdict is None else {"verdict": verdict, "confidence": 0.8, "reasoning": "why"},
    }


@dataclass
class FakeSibyl:
    """Scripted answers and a record of what the client sent."""

    url: str = ""
    api_key: str | None = None  # when set, every other key is refused (401 / close 4403)
    reports: list[dict[str, Any]] = field(default_factory=lambda: [report_json("PARSED", page_count=12)])
    claims: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    existing_event_sequences: list[int] = field(default_factory=list)
    upload_result: dict[str, Any] | None = None
    start_result: dict[str, Any] | None = None
    rate_limited: int = 0  # answer the next N requests with 429
    retry_after: str | None = "0"
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    ws_inits: list[dict[str, Any]] = field(default_factory=list)
    subscriptions: list[dict[str, Any]] = field(default_factory=list)
    pongs: list[dict[str, Any]] = field(default_factory=list)
    drop_after: int | None = None  # close the WebSocket after sending this many events (once)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    ask_result: dict[str, Any] | None = None
    persisted: dict[str, str] = field(default_factory=dict)  # APQ: sha256 -> registered document
    persisted_misses: int = 0  # hash-only requests answered PERSISTED_QUERY_NOT_FOUND
    #: Answer the next N requests for an operation ("*": any) with SERVICE_UNAVAILABLE, as the API
    #: does while its database is away.
    unavailable: dict[str, int] = field(default_factory=dict)

    def _unavailable(self, operation: str) -> bool:
        for key in (operation, "*"):
            if self.unavailable.get(key, 0) > 0:
                self.unavailable[key] -= 1
                return True
        return False

    def operations(self) -> list[str]:
        return [self._operation(request) for request in self.requests]

    @staticmethod
    def _operation(request: dict[str, Any]) -> str:
        match = OPERATION.match(str(request.get("query", "")))
        return match.group(1) if match else "?"

    def _authorised(self, value: str | None) -> bool:
        return self.api_key is None or value == f"Bearer {self.api_key}"

    async def http(self, request: Request) -> Response:
        self.headers.append(dict(request.headers))
        if request.headers.get("content-type", "").startswith("multipart/form-data"):
            async with request.form() as form:
                body = json.loads(str(form["operations"]))
                upload = form["0"]
                body["file"] = await upload.read() if not isinstance(upload, str) else upload
                body["map"] = json.loads(str(form["map"]))
        else:
            body = await request.json()
        if (missing := self._persisted_query(body)) is not None:
            return JSONResponse(missing)
        self.requests.append(body)
        if self.rate_limited:
            self.rate_limited -= 1
            error = {"message": "Slow down.", "extensions": {"code": "RATE_LIMITED", "retryAfterSeconds": 0}}
            headers = {"Retry-After": self.retry_after} if self.retry_after is not None else {}
            return JSONResponse({"errors": [error]}, 429, headers)
        if not self._authorised(request.headers.get("authorization")):
            return JSONResponse(UNAUTHENTICATED, 401)
        if self._unavailable(self._operation(body)):
            return JSONResponse(UNAVAILABLE)
        return JSONResponse(self.answer(self._operation(body), body.get("variables") or {}))

    def _persisted_query(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """Apollo's APQ: fill `query` from a known hash, register a sent one; None when runnable,
        else the PERSISTED_QUERY_NOT_FOUND response."""
        persisted = (body.get("extensions") or {}).get("persistedQuery")
        if not persisted:
            return None
        sha = persisted["sha256Hash"]
        if body.get("query") is not None:
            assert hashlib.sha256(body["query"].encode()).hexdigest() == sha, "client sent a wrong hash"
            self.persisted[sha] = body["query"]
            return None
        if sha not in self.persisted:
            self.persisted_misses += 1
            return {"errors": [{"message": "PersistedQueryNotFound", "extensions": {"code": PQ_NOT_FOUND}}]}
        body["query"] = self.persisted[sha]
        return None

    def answer(self, operation: str, variables: dict[str, Any]) -> dict[str, Any]:
        """The response body for one operation."""
        if operation == "UploadReport":
            success = {"__typename": "UploadReportSuccess", "created": True, "report": self.reports[0]}
            return {"data": {"uploadReport": self.upload_result or success}}
        if operation == "StartAnalysis":
            success = {
                "__typename": "StartAnalysisSuccess",
                "report": report_json("ANALYZING", 0, "queued"),
                "analysis": report_json("ANALYZING", 0, "queued")["analysis"],
            }
            return {"data": {"startAnalysis": self.start_result or success}}
        if operation == "Report":
            report = self.reports.pop(0) if len(self.reports) > 1 else self.reports[0]
            return {"data": {"report": report}}
        if operation == "ReportEventSequences":
            after, first = variables["afterSequence"], variables["first"]
            sequences = [n for n in self.existing_event_sequences if n > after][:first]
            return {"data": {"report": {"events": [{"sequence": n} for n in sequences]}}}
        if operation == "AskReport" and self.ask_result is not None:
            return {"data": {"askReport": self.ask_result}}
        if operation == "Claims":
            return {"data": {"report": {"claims": self._claims_page(variables)}}}
        return {"errors": [{"message": f"fake has no answer for {operation}"}]}

    def _claims_page(self, variables: dict[str, Any]) -> dict[str, Any]:
        start = int(variables.get("after") or 0)
        end = start + int(variables.get("first") or 50)
        page = self.claims[start:end]
        return {
            "totalCount": len(self.claims),
            "pageInfo": {"hasNextPage": end < len(self.claims), "endCursor": str(end) if page else None},
            "edges": [{"cursor": str(start + n + 1), "node": claim} for n, claim in enumerate(page)],
        }

    async def websocket(self, ws: WebSocket) -> None:
        await ws.accept(subprotocol="graphql-transport-ws")
        init = json.loads(await ws.receive_text())
        self.ws_inits.append(init)
        if not self._authorised((init.get("payload") or {}).get("authorization")):
            await ws.close(
                code=4403, reason="UNAUTHENTICATED: The API key is not valid (unknown, malformed or revoked)."
            )
            return
        await ws.send_text(json.dumps({"type": "connection_ack"}))
        subscribe = json.loads(await ws.receive_text())
        while (missing := self._persisted_query(subscribe["payload"])) is not None:
            await ws.send_text(
                json.dumps({"id": subscribe["id"], "type": "error", "payload": missing["errors"]})
            )
            subscribe = json.loads(await ws.receive_text())
        self.subscriptions.append(subscribe["payload"])
        await ws.send_text(json.dumps({"type": "ping"}))
        self.pongs.append(json.loads(await ws.receive_text()))
        try:
            await self._stream(ws, subscribe)
        except WebSocketDisconnect:
            return

    async def _stream(self, ws: WebSocket, subscribe: dict[str, Any]) -> None:
        if "verdictIssued" in subscribe["payload"]["query"]:
            for verdict in self.verdicts:
                payload = {"data": {"verdictIssued": verdict}}
                await ws.send_text(json.dumps({"id": subscribe["id"], "type": "next", "payload": payload}))
            await ws.send_text(json.dumps({"id": subscribe["id"], "type": "complete"}))
            return
        after = int(subscribe["payload"]["variables"].get("afterSequence") or 0)
        sent = 0
        for event in [event for event in self.events if event["sequence"] > after]:
            if self.drop_after is not None and sent == self.drop_after:
                self.drop_after = None
                await ws.close(code=1011)
                return
            payload = {"data": {"analysisEvents": event}}
            await ws.send_text(json.dumps({"id": subscribe["id"], "type": "next", "payload": payload}))
            sent += 1
        while True:  # like the real server: a subscription stays open until the client leaves
            message = await ws.receive_text()
            if json.loads(message).get("type") == "complete":
                return


def event(sequence: int, event_type: str, agent: str | None = None, **data: Any) -> dict[str, Any]:
    """A `StreamEvent` of `REPORT_ID` as the subscription delivers it."""
    return {
        "id": str(GlobalID("StreamEvent", f"{REPORT_UUID}:{sequence}")),
        "sequence": sequence,
        "eventType": event_type,
        "agentName": agent,
        "data": data,
        "timestamp": "2026-01-01T00:00:00+00:00",
    }


@asynccontextmanager
async def serve_fake(fake: FakeSibyl, port: int | None = None) -> AsyncIterator[FakeSibyl]:
    """Serve `fake` on a free port (or `port`, to bring it back where it was); its `url` is set
    while the block runs."""
    app = Starlette(
        routes=[Route("/graphql", fake.http, methods=["POST"]), WebSocketRoute("/graphql", fake.websocket)]
    )
    async with serve_asgi(app, port=port, ws_per_message_deflate=False) as url:
        fake.url = url
        yield fake
