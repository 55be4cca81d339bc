"""Keeps a report's question index (`report_passages`) in step with the report's latest analysis.

The index is derived data, built lazily by the first question after the report's state changed: a
new run, a status change, or new claims/findings/verdicts of a run still going. That state is the
index "version"; it also names the embedder, so a new embedder re-embeds. Building happens in one
transaction under an advisory lock on the report, so two first questions at once build it once
and the other waits, then reads the fresh index.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AnalysisRun, Claim, Finding, ReportPassage, ReportPassageIndex, Verdict
from app.db.runs import latest_run
from app.db.session import SessionFactory
from app.embeddings import Embedder, EmbeddingUnavailable
from app.questions.passages import PassageDraft, build_drafts

logger = logging.getLogger(__name__)

#: Bump when what goes into passages changes, so every index is rebuilt.
INDEX_FORMAT = "q3"
#: An index built while the embedder was down is retried after this long (each try embeds it all).
EMBED_RETRY = timedelta(minutes=5)
#: First key of the advisory lock: "Sibyl question index".
LOCK_NAMESPACE = 0x5151
#: Rows per INSERT (asyncpg takes at most 32767 parameters).
INSERT_BATCH = 500


@dataclass(frozen=True)
class IndexState:
    """The report state an index reflects: its version, and the run the passages came from."""

    version: str
    run: AnalysisRun | None
    claim_count: int
    verdict_count: int


@dataclass(frozen=True)
class ReadyIndex:
    """A report's current index: its state, and whether its passages have vectors of the embedder."""

    state: IndexState
    embedded: bool
    rebuilt: bool


async def current_state(session: AsyncSession, report_id: uuid.UUID, embedder_name: str) -> IndexState:
    """The report's state now, as the version an up-to-date index must carry."""
    run = await latest_run(session, report_id)
    run_id = run.id if run is not None else None
    counts = (
        await session.execute(
            select(
                select(func.count()).select_from(Claim).where(Claim.report_id == report_id).scalar_subquery(),
                select(func.count())
                .select_from(Finding)
                .where(Finding.analysis_run_id == run_id)
                .scalar_subquery(),
                select(func.count())
                .select_from(Verdict)
                .where(Verdict.analysis_run_id == run_id)
                .scalar_subquery(),
            )
        )
    ).one()
    claims, findings, verdicts = (int(value or 0) for value in counts)
    if run is None:
        run_part = "run=none"
    else:
        completed = run.completed_at.isoformat() if run.completed_at else "-"
        run_part = f"run={run.id}:{run.status}:{completed}:{run.iteration_count}"
    version = f"{INDEX_FORMAT}|{run_part}|c{claims}f{findings}v{verdicts}|{embedder_name}"
    return IndexState(version=version, run=run, claim_count=claims, verdict_count=verdicts)


async def ensure_index(
    session_factory: SessionFactory, embedder: Embedder, report_id: uuid.UUID
) -> ReadyIndex:
    """The report's index, rebuilt first if the report changed since it was built.

    The cheap check runs without a lock; only a stale index takes the lock, checks again (another
    request may have just built it) and rebuilds.
    """
    async with session_factory() as session:
        state = await current_state(session, report_id, embedder.name)
        stored = await session.get(ReportPassageIndex, report_id)
        if _is_fresh(stored, state):
            assert stored is not None
            return ReadyIndex(state, embedded=stored.embedding_model is not None, rebuilt=False)
    async with session_factory() as session, session.begin():
        await session.execute(
            text("SELECT pg_advisory_xact_lock(:namespace, hashtext(:key))"),
            {"namespace": LOCK_NAMESPACE, "key": str(report_id)},
        )
        state = await current_state(session, report_id, embedder.name)
        stored = await session.get(ReportPassageIndex, report_id, populate_existing=True)
        if _is_fresh(stored, state):
            assert stored is not None
            return ReadyIndex(state, embedded=stored.embedding_model is not None, rebuilt=False)
        embedded = await _rebuild(session, embedder, report_id, state)
    return ReadyIndex(state, embedded=embedded, rebuilt=True)


def _is_fresh(stored: ReportPassageIndex | None, state: IndexState) -> bool:
    if stored is None or stored.version != state.version:
        return False
    if stored.embedding_model is not None:
        return True
    return datetime.now(UTC) - stored.built_at < EMBED_RETRY


async def _rebuild(
    session: AsyncSession, embedder: Embedder, report_id: uuid.UUID, state: IndexState
) -> bool:
    """Replace the report's passages and index row; returns whether the passages got vectors."""
    drafts = await build_drafts(session, report_id, state.run)
    known = await _known_vectors(session, report_id, embedder.name)
    vectors = await _embed(embedder, [draft.text for draft in drafts], known)
    model = embedder.name if vectors is not None else None
    await session.execute(delete(ReportPassage).where(ReportPassage.report_id == report_id))
    rows = [
        _row(report_id, position, draft, vectors[position] if vectors is not None else None, model)
        for position, draft in enumerate(drafts)
    ]
    for start in range(0, len(rows), INSERT_BATCH):
        await session.execute(insert(ReportPassage).values(rows[start : start + INSERT_BATCH]))
    values = {"version": state.version, "embedding_model": model, "passage_count": len(rows)}
    await session.execute(
        insert(ReportPassageIndex)
        .values(report_id=report_id, **values)
        .on_conflict_do_update(index_elements=["report_id"], set_={**values, "built_at": func.now()})
    )
    logger.info("question index of report %s rebuilt: %d passages (%s)", report_id, len(rows), state.version)
    return vectors is not None


async def _known_vectors(session: AsyncSession, report_id: uuid.UUID, model: str) -> dict[str, list[float]]:
    """The vectors the report's current passages already have, by text: a rebuild while an analysis
    runs changes a few passages, and only those need the embedder."""
    rows = await session.execute(
        select(ReportPassage.text, ReportPassage.embedding).where(
            ReportPassage.report_id == report_id, ReportPassage.embedding_model == model
        )
    )
    return {passage_text: list(vector) for passage_text, vector in rows if vector is not None}


async def _embed(
    embedder: Embedder, texts: list[str], known: dict[str, list[float]]
) -> list[list[float]] | None:
    """A vector per text (reusing `known` ones), or None when the embedder fails."""
    missing = list(dict.fromkeys(item for item in texts if item not in known))
    try:
        fresh = await embedder.embed(missing) if missing else []
    except EmbeddingUnavailable as exc:
        logger.warning("question index built without vectors (full-text search only): %s", exc)
        return None
    vectors = {**known, **dict(zip(missing, fresh, strict=True))}
    return [vectors[item] for item in texts]


def _row(
    report_id: uuid.UUID, position: int, draft: PassageDraft, vector: list[float] | None, model: str | None
) -> dict[str, Any]:
    return {
        "id": uuid.uuid4(),
        "report_id": report_id,
        "analysis_run_id": draft.analysis_run_id,
        "kind": draft.kind,
        "claim_id": draft.claim_id,
        "page_number": draft.page_number,
        "position": position,
        "text": draft.text,
        "attributes": draft.attributes,
        "embedding": vector,
        "embedding_model": model if vector is not None else None,
    }
