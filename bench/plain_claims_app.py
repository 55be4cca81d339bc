"""The baseline of `bench.partner_api`: a plain Starlette JSON endpoint running the same SQL.

`GET /claims/{report_id}` returns the report's first 200 claims (page order) with each claim's
current verdict and its findings, using the very queries the GraphQL DataLoaders run (claims page,
count, latest run, verdicts and findings by claim ids), without GraphQL parsing, validation,
limits, authentication or per-field resolution. Run: `uvicorn bench.plain_claims_app:app`.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

from sqlalchemy import func, select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from app.db.models import Claim, Report
from app.db.session import create_engine, create_session_factory
from app.heap import freeze_startup_heap
from schema.loaders import Loaders
from schema.types.claims import current_verdict

PAGE = 200


async def claims(request: Request) -> JSONResponse:
    factory = request.app.state.session_factory
    report_id = uuid.UUID(request.path_params["report_id"])
    async with factory() as session:  # one session for all five statements, as the API's queries have
        organisation_id = await session.scalar(select(Report.organisation_id).where(Report.id == report_id))
        query = select(Claim).where(Claim.report_id == report_id)
        rows = list(
            await session.scalars(
                query.order_by(Claim.source_page, Claim.page_offset, Claim.id).limit(PAGE + 1)
            )
        )
        total = await session.scalar(select(func.count()).select_from(query.subquery()))
        loaders = Loaders(lambda: nullcontext(session), organisation_id)
        ids = [row.id for row in rows[:PAGE]]
        verdicts = await loaders.verdicts_by_claim.load_many(ids)
        findings = await loaders.findings_by_claim.load_many(ids)
    return JSONResponse(
        {
            "totalCount": total,
            "claims": [
                _claim(row, current_verdict(claim_verdicts), claim_findings)
                for row, claim_verdicts, claim_findings in zip(rows[:PAGE], verdicts, findings, strict=True)
            ],
        }
    )


def _claim(row: Claim, verdict: Any, findings: list[Any]) -> dict[str, Any]:
    return {
        "id": str(row.id),
        "text": row.text,
        "claimType": row.claim_type.upper(),
        "priority": row.priority.upper(),
        "sourcePage": row.source_page,
        "verdict": verdict
        and {
            "verdict": verdict.verdict.upper(),
            "confidence": verdict.confidence,
            "reasoning": verdict.reasoning,
        },
        "findings": [
            {
                "agent": f.agent,
                "summary": f.summary,
                "supportsClaim": f.supports_claim,
                "confidence": f.confidence,
            }
            for f in findings
        ],
    }


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    engine = create_engine(os.environ["DATABASE_URL"])
    app.state.session_factory = create_session_factory(engine)
    freeze_startup_heap()  # as the API does, so the two are compared alike
    yield
    await engine.dispose()


app = Starlette(routes=[Route("/claims/{report_id}", claims)], lifespan=lifespan)
