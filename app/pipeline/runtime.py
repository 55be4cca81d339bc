"""What pipeline nodes need besides the state: services, and a recorder for their events.

The graph passes a `PipelineDeps` to every node as LangGraph's run context (never checkpointed).
Nodes report through a `NodeRecorder`, which gives each event a deterministic dedupe key
(run, node, pass, running number): a node that re-runs after a crash re-emits the same keys, and
the event log keeps the first copy only. Investigators get a `PipelineTools`, the pipeline's
`InvestigationTools` (`app.verification.contract.investigator`).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from app.config import Settings
from app.db.report_pages import load_report_pages
from app.db.session import SessionFactory
from app.embeddings import Embedder
from app.events.log import EventLog, EventTransaction
from app.knowledge.search import KnowledgeSearch
from app.llm import LLMClient, UsageTrace
from app.pipeline.persistence import count_claim_completed, set_agent_status, update_run
from app.pipeline.progress import claim_done
from app.pipeline.search_coverage import record_search_warnings
from app.pipeline.state import PipelineInput
from app.search.sources import SourceTexts
from app.search.web import EvidenceSearch
from app.verification.contract.investigator import Investigator
from app.verification.records import FindingDraft, InfoRequest, SpecialistTask


@dataclass
class PipelineTools:
    """The pipeline's `InvestigationTools`: an investigator's events go through the node's
    recorder, its reads and progress through the run's database session."""

    recorder: NodeRecorder
    settings: Settings
    llm: LLMClient | None
    usage: UsageTrace
    session_factory: SessionFactory
    knowledge: KnowledgeSearch
    search: EvidenceSearch
    _pages: list[tuple[int, str]] | None = field(default=None, init=False, repr=False)

    def source_texts(self) -> SourceTexts:
        return SourceTexts(self.settings, self.session_factory)

    async def think(self, message: str, **data: Any) -> None:
        await self.recorder.emit("agent_thinking", {"message": message, **data})

    async def emit(self, event_type: str, data: dict[str, Any] | None = None) -> None:
        await self.recorder.emit(event_type, data)

    async def report_pages(self) -> list[tuple[int, str]]:
        """Read once, then cached."""
        if self._pages is None:
            async with self.session_factory() as session:
                self._pages = await load_report_pages(session, self.recorder.report_id)
        return self._pages

    async def claim_checked(
        self,
        task: SpecialistTask,
        claim_id: str,
        findings: Sequence[FindingDraft],
        request: InfoRequest | None = None,
    ) -> None:
        """Kept should the agent fail later (`claim_done`), and counted in the agent's status so
        that `progressPercent` moves through a long investigating stage."""
        claim_done(claim_id, findings, request)
        async with self.session_factory() as session, session.begin():
            await count_claim_completed(session, self.recorder.run_id, task["agent"], task["iteration"])

    async def searches_done(self, agent: str, iteration: int) -> None:
        await record_search_warnings(self.recorder, agent, iteration, self.search, self.usage)


@dataclass(frozen=True)
class PipelineDeps:
    """Services shared by every node of every run in this process."""

    settings: Settings
    session_factory: SessionFactory
    event_log: EventLog
    llm: LLMClient | None
    investigators: Mapping[str, Investigator]
    embedder: Embedder
    knowledge: KnowledgeSearch


class NodeRecorder:
    """Emits one node's events (in its own transactions or alongside the node's writes)."""

    @classmethod
    def for_run(
        cls,
        deps: PipelineDeps,
        state: PipelineInput | SpecialistTask,
        *,
        node: str,
        iteration: int,
        agent_name: str | None,
    ) -> NodeRecorder:
        """The recorder of `node` in the run that `state` belongs to."""
        return cls(
            deps,
            report_id=state["report_id"],
            run_id=state["run_id"],
            node=node,
            iteration=iteration,
            agent_name=agent_name,
        )

    def __init__(
        self,
        deps: PipelineDeps,
        *,
        report_id: str,
        run_id: str,
        node: str,
        iteration: int,
        agent_name: str | None,
    ) -> None:
        self.deps = deps
        self.report_id = uuid.UUID(report_id)
        self.run_id = uuid.UUID(run_id)
        self.node = node
        self.iteration = iteration
        self.agent_name = agent_name
        self._count = 0

    def _next_key(self) -> str:
        self._count += 1
        return f"{self.run_id}/{self.node}/{self.iteration}/{self._count}"

    async def emit_in(
        self,
        transaction: EventTransaction,
        event_type: str,
        data: dict[str, Any] | None = None,
    ) -> None:
        """Record an event inside `transaction` (published when it commits)."""
        await transaction.emit(
            self.report_id,
            event_type,
            data or {},
            agent_name=self.agent_name,
            analysis_run_id=self.run_id,
            dedupe_key=self._next_key(),
        )

    async def emit(self, event_type: str, data: dict[str, Any] | None = None) -> None:
        """Record and publish one event on its own."""
        async with self.transaction() as transaction:
            await self.emit_in(transaction, event_type, data)

    async def start(
        self, stage: str, data: dict[str, Any] | None = None, *, agent_status: dict[str, Any] | None = None
    ) -> None:
        """Announce the node (`agent_started`) and move the run to `stage` (and, if given, record
        some agents' statuses) in one transaction."""
        async with self.transaction() as transaction:
            await update_run(transaction.session, self.run_id, pipeline_stage=stage)
            if agent_status:
                await set_agent_status(transaction.session, self.run_id, agent_status)
            await self.emit_in(transaction, "agent_started", {"iteration": self.iteration, **(data or {})})

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[EventTransaction]:
        """A transaction for the node's writes and events together."""
        async with self.deps.event_log.transaction() as transaction:
            yield transaction
