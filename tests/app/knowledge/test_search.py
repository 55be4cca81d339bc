"""The knowledge base in Postgres: registry sync, hybrid search, fall-backs, official-text ingest."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import KnowledgePassage
from app.db.session import SessionFactory
from app.embeddings import EmbeddingUnavailable, HashingEmbedder
from app.knowledge.registry import REQUIREMENTS, is_under
from app.knowledge.search import KnowledgeSearch, rag_lookup
from app.knowledge.store import corpus_status, sync_registry

IFRS_DIR = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "ifrs-issb"
EMBEDDER = HashingEmbedder(384)


class BrokenEmbedder:
    """An embedder whose provider is down."""

    name = "hashing-v1:384"
    dimensions = 384

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise EmbeddingUnavailable("embeddings API unreachable (test)")


def sibyl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the `sibyl` command line as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
async def search(session_factory: SessionFactory) -> KnowledgeSearch:
    await sync_registry(session_factory, EMBEDDER)
    return KnowledgeSearch(session_factory, EMBEDDER)


async def test_registry_sync_is_idempotent_and_embeds_every_passage(session_factory: SessionFactory) -> None:
    await sync_registry(session_factory, EMBEDDER)

    again = await sync_registry(session_factory, EMBEDDER)

    assert (again.inserted, again.updated, again.embedded) == (0, 0, 0)
    assert again.unchanged == len(REQUIREMENTS)
    status = {row.source_type: row for row in await corpus_status(session_factory)}
    assert sum(status[kind].passages for kind in ("ifrs_s1", "ifrs_s2")) == len(REQUIREMENTS)
    assert status["ifrs_s2"].embedding_models == {EMBEDDER.name: status["ifrs_s2"].passages}


@pytest.mark.parametrize(
    ("query", "expected_under"),
    [
        ("absolute gross Scope 1 greenhouse gas emissions in tonnes of CO2 equivalent", "S2.29(a)"),
        ("Scope 3 emissions from purchased goods and the use of sold products", "S2.29(a)"),
        ("the board sustainability committee oversees climate-related risks", "S2.6"),
        ("climate transition plan and how we will meet our net zero target", "S2.14"),
        ("scenario analysis of climate resilience under a 1.5 degree pathway", "S2.22"),
        ("internal carbon price used in investment decisions", "S2.29(f)"),
    ],
)
async def test_hybrid_search_puts_the_matching_requirement_in_the_top_three(
    search: KnowledgeSearch, query: str, expected_under: str
) -> None:
    hits = await search.search(query, top_k=3)

    keys = [hit.key for hit in hits]
    assert any(key == expected_under or is_under(key, expected_under) for key in keys), keys
    assert hits[0].score >= hits[-1].score


async def test_source_type_filter_and_single_branch_modes(search: KnowledgeSearch) -> None:
    s1_only = await search.search(
        "governance body oversight of sustainability risks", top_k=5, source_types=["ifrs_s1"]
    )
    text_only = await search.search("Scope 2 location-based emissions", top_k=5, mode="text")
    vector_only = await search.search("Scope 2 location-based emissions", top_k=5, mode="vector")

    assert s1_only and all(hit.source_type == "ifrs_s1" for hit in s1_only)
    assert text_only and all(hit.vector_rank is None and hit.text_rank for hit in text_only)
    assert vector_only and all(hit.text_rank is None and hit.vector_rank for hit in vector_only)
    assert any(is_under(hit.key, "S2.29(a)") for hit in text_only)


async def test_rag_lookup_returns_json_ready_passages(search: KnowledgeSearch) -> None:
    found = await rag_lookup(search, "Scope 1 emissions", top_k=3, source_types=["ifrs_s2"])

    assert len(found) == 3
    assert {"paragraph_id", "title", "summary", "pillar", "score", "source_type"} <= set(found[0])
    assert all(item["source_type"] == "ifrs_s2" for item in found)


async def test_search_falls_back_to_full_text_when_the_embedder_is_down(
    search: KnowledgeSearch, session_factory: SessionFactory
) -> None:
    broken = KnowledgeSearch(session_factory, BrokenEmbedder())

    hits = await broken.search("Scope 1 greenhouse gas emissions", top_k=3)

    assert hits and all(hit.vector_rank is None for hit in hits)
    assert broken.embedding_failures == 1
    assert any(is_under(hit.key, "S2.29(a)") for hit in hits)


async def test_vectors_of_another_embedder_are_not_compared_until_reindexed(
    search: KnowledgeSearch, session_factory: SessionFactory
) -> None:
    other = HashingEmbedder(128)
    stale = KnowledgeSearch(session_factory, other)

    before = await stale.search("Scope 1 emissions", top_k=5, mode="vector")
    report = await sync_registry(session_factory, other)
    after = await stale.search("Scope 1 emissions", top_k=5, mode="vector")
    await sync_registry(session_factory, EMBEDDER)  # leave the shared database as the other tests expect

    assert before == []
    assert report.embedded == len(REQUIREMENTS)
    assert after


@pytest.mark.skipif(not IFRS_DIR.is_dir(), reason="../shared/data/ifrs-issb is not present")
async def test_corpus_ingest_command_attaches_official_text(
    settings: Settings, session_factory: SessionFactory, search: KnowledgeSearch
) -> None:
    env = {**os.environ, "DATABASE_URL": settings.require_database_url(), "EMBEDDING_PROVIDER": "hashing"}
    pdfs = [str(IFRS_DIR / "ifrs-s1.pdf"), str(IFRS_DIR / "ifrs-s2.pdf")]

    result = await asyncio.to_thread(sibyl, env, "corpus", "ingest", *pdfs)
    status = await asyncio.to_thread(sibyl, env, "corpus", "status")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "IFRS S1" in result.stdout and "IFRS S2" in result.stdout
    assert "ifrs_s2:" in status.stdout
    async with session_factory() as session:
        scope_1 = await session.scalar(select(KnowledgePassage).where(KnowledgePassage.key == "S2.29(a)(i)"))
    assert scope_1 is not None and scope_1.official_text and "Scope 1" in scope_1.official_text
    assert scope_1.embedding_model == EMBEDDER.name
    rows = {row.source_type: row for row in await corpus_status(session_factory)}
    for kind in ("ifrs_s1", "ifrs_s2"):
        assert rows[kind].with_official_text >= 0.9 * rows[kind].passages
    hits = await search.search("absolute gross Scope 1 greenhouse gas emissions", top_k=3)
    assert any(is_under(hit.key, "S2.29(a)") or hit.key == "S2.29(a)" for hit in hits)
