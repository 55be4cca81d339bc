"""What an investigator is, and what it is handed: the pipeline's side of the contract.

An investigator is an async function from one `SpecialistTask` (its claims, routing, info
requests) to an `InvestigationOutcome` (findings, requests, responses). It reaches the world only
through `InvestigationTools`, which the pipeline implements (`app.pipeline.runtime.PipelineTools`)
and a test can fake, so no investigator knows of LangGraph, the run's events or SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from app.verification.records import FindingDraft, InfoRequest, InvestigationOutcome, SpecialistTask

if TYPE_CHECKING:
    from app.config import Settings
    from app.knowledge.search import KnowledgeSearch
    from app.llm import LLMClient, UsageTrace
    from app.search.sources import SourceTexts
    from app.search.web import EvidenceSearch


class InvestigationTools(Protocol):
    """The services an investigator may use and the ways it reports while it works."""

    @property
    def settings(self) -> Settings: ...

    @property
    def llm(self) -> LLMClient | None:
        """The analysis model, or None when none is configured (then every step reads by rules)."""

    @property
    def usage(self) -> UsageTrace:
        """Where LLM calls and their fallbacks to rules are counted for the run's warnings."""

    @property
    def knowledge(self) -> KnowledgeSearch:
        """The IFRS requirement texts, searched by meaning."""

    @property
    def search(self) -> EvidenceSearch:
        """Web and evidence-library search for independent sources."""

    def source_texts(self) -> SourceTexts:
        """Reads a found source's full text (the library's stored text, or the page fetched)."""

    async def report_pages(self) -> list[tuple[int, str]]:
        """The parsed report's `(page number, text)` pairs in page order."""

    async def think(self, message: str, **data: Any) -> None:
        """Narrate progress (an `agent_thinking` event)."""

    async def emit(self, event_type: str, data: dict[str, Any] | None = None) -> None:
        """Report one step of the work as it happens (`search_executed`, `source_evaluated`, …)."""

    async def claim_checked(
        self,
        task: SpecialistTask,
        claim_id: str,
        findings: Sequence[FindingDraft],
        request: InfoRequest | None = None,
    ) -> None:
        """One claim is finished: its findings are kept should the investigator fail later, and it
        counts toward the run's progress."""

    async def searches_done(self, agent: str, iteration: int) -> None:
        """The investigator's searches are over: what failed or fell back to rules is added to the
        run's warnings."""


Investigator = Callable[[SpecialistTask, InvestigationTools], Awaitable[InvestigationOutcome]]
