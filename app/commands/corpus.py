"""`sibyl corpus …`: load the official IFRS texts into the knowledge base, re-embed it, inspect it.

The repository ships only our own summaries of each requirement; a user who has the official
S1/S2 PDFs (from the IFRS Foundation) adds their paragraph text with `sibyl corpus ingest`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands.database import run_with_database
from app.config import Settings, get_settings
from app.db.session import SessionFactory
from app.documents.processes import DocumentCrashed, DocumentFailed, DocumentTimedOut, document_processes
from app.embeddings import create_embedder
from app.knowledge.ifrs_pdf import attach_to_registry, parse_standard_pdf
from app.knowledge.registry import REQUIREMENTS
from app.knowledge.store import attach_official_text, corpus_status, embed_stale, sync_registry


def add_corpus_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `sibyl corpus ingest|reindex|status`."""
    corpus = commands.add_parser("corpus", help="the IFRS knowledge base: ingest official texts, re-index")
    actions = corpus.add_subparsers(dest="action", required=True)
    ingest = actions.add_parser("ingest", help="attach the text of official IFRS S1/S2 PDFs to the registry")
    ingest.add_argument("pdfs", nargs="+", type=Path, help="IFRS S1 and/or S2 PDF files")
    ingest.set_defaults(handler=_ingest)
    reindex = actions.add_parser("reindex", help="re-embed every passage with the configured embedder")
    reindex.set_defaults(handler=_reindex)
    status = actions.add_parser("status", help="passages, official-text coverage and embedders")
    status.set_defaults(handler=_status)


def _ingest(args: argparse.Namespace) -> int:
    missing = [path for path in args.pdfs if not path.is_file()]
    if missing:
        print(f"no such file: {', '.join(map(str, missing))}")
        return 2
    pdfs: list[Path] = args.pdfs

    async def ingest(factory: SessionFactory, settings: Settings) -> int:
        return await ingest_pdfs(factory, settings, pdfs)

    return run_with_database(get_settings(), ingest)


def _reindex(args: argparse.Namespace) -> int:
    return run_with_database(get_settings(), reindex)


def _status(args: argparse.Namespace) -> int:
    return run_with_database(get_settings(), print_status)


async def ingest_pdfs(session_factory: SessionFactory, settings: Settings, pdfs: list[Path]) -> int:
    """Parse each PDF, attach its paragraphs to registry ids and re-embed them; 0 when all worked."""
    embedder = create_embedder(settings)
    await sync_registry(session_factory, embedder)
    failures = 0
    for path in pdfs:
        try:
            # In a document process: a damaged file fails alone instead of taking the command down.
            parsed = await document_processes(settings).call(parse_standard_pdf, path)
        except (DocumentFailed, DocumentCrashed, DocumentTimedOut) as exc:
            print(f"{path}: not ingested: {exc}")
            failures += 1
            continue
        texts = attach_to_registry(parsed)
        wanted = sum(1 for requirement in REQUIREMENTS if requirement.standard == parsed.standard)
        report = await attach_official_text(
            session_factory, embedder, f"ifrs_{parsed.standard.lower()}", texts
        )
        print(
            f"{path}: IFRS {parsed.standard}, text for {len(texts)} of {wanted} registry paragraphs "
            f"({report})"
        )
    return 1 if failures else 0


async def reindex(session_factory: SessionFactory, settings: Settings) -> int:
    """Re-embed every passage with the configured embedder."""
    embedder = create_embedder(settings)
    await sync_registry(session_factory, embedder)
    count = await embed_stale(session_factory, embedder, everything=True)
    print(f"re-embedded {count} passage(s) with {embedder.name}")
    return 0


async def print_status(session_factory: SessionFactory, settings: Settings) -> int:
    """One line per source type."""
    rows = await corpus_status(session_factory)
    if not rows:
        print("the knowledge base is empty: a worker indexes it at start, or run `sibyl corpus reindex`")
    for row in rows:
        models = ", ".join(f"{model}: {count}" for model, count in sorted(row.embedding_models.items()))
        print(
            f"{row.source_type}: {row.passages} passages, {row.with_official_text} with official text; "
            f"vectors by {models}"
        )
    return 0
