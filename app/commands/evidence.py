"""`sibyl evidence …`: import a folder of evidence documents into the library, list the library.

A sidecar `<file>.json` (e.g. `article.html.json`) next to a file may give its metadata:
`{"title": …, "source_url": …, "published_date": "YYYY-MM-DD"}`.
"""

from __future__ import annotations

import argparse
import json
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from app.commands.database import run_with_database
from app.config import Settings, get_settings
from app.db.session import SessionFactory
from app.embeddings import Embedder, create_embedder
from app.evidence.errors import EvidenceRejected
from app.evidence.extract import SUFFIXES
from app.evidence.fields import parse_published_date
from app.evidence.ingest import EvidenceOutcome, add_evidence_document
from app.evidence.library import list_evidence_documents
from app.organisations.keys import LOCAL_ORGANISATION_ID, LOCAL_ORGANISATION_NAME, find_organisation

SIDECAR_KEYS = frozenset({"title", "source_url", "published_date"})


class SidecarInvalid(ValueError):
    """A sidecar file that is not a JSON object of the known keys."""


@dataclass(frozen=True)
class Sidecar:
    """Metadata for one file; None where the sidecar (if any) says nothing."""

    title: str | None = None
    source_url: str | None = None
    published_date: str | None = None


def add_evidence_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `sibyl evidence import|list`."""
    evidence = commands.add_parser("evidence", help="the local evidence library the agents search")
    actions = evidence.add_subparsers(dest="action", required=True)
    add = actions.add_parser(
        "import", help="add .pdf/.html/.htm/.txt/.md files (folders are searched recursively)"
    )
    add.add_argument("paths", nargs="+", type=Path, help="files and/or folders")
    add.add_argument(
        "--published-date", metavar="YYYY-MM-DD", help="publication date of files whose sidecar gives none"
    )
    add.set_defaults(handler=_import)
    listing = actions.add_parser("list", help="the documents in the library, newest first")
    listing.set_defaults(handler=_list)
    for command in (add, listing):
        command.add_argument(
            "--organisation",
            "--org",
            default=LOCAL_ORGANISATION_NAME,
            help="whose library (default: local, the organisation of unauthenticated local use)",
        )


def _import(args: argparse.Namespace) -> int:
    try:
        default_date = parse_published_date(args.published_date)
    except EvidenceRejected as exc:
        print(f"--published-date: {exc.message}")
        return 2
    paths: list[Path] = args.paths

    async def run(factory: SessionFactory, settings: Settings) -> int:
        organisation_id = await _organisation_id(factory, args.organisation)
        if organisation_id is None:
            return 2
        return await import_paths(factory, settings, paths, default_date, organisation_id)

    return run_with_database(get_settings(), run)


def _list(args: argparse.Namespace) -> int:
    async def run(factory: SessionFactory, settings: Settings) -> int:
        organisation_id = await _organisation_id(factory, args.organisation)
        if organisation_id is None:
            return 2
        return await print_library(factory, organisation_id)

    return run_with_database(get_settings(), run)


async def _organisation_id(factory: SessionFactory, name: str) -> uuid.UUID | None:
    async with factory() as session:
        organisation = await find_organisation(session, name)
    if organisation is None:
        print(f"no organisation called {name!r} (`sibyl keys create --organisation {name}` creates it)")
        return None
    return organisation.id


def collect_files(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """The files to import (folders expanded to their readable files, recursively) and missing paths.

    Files named explicitly are imported whatever their extension (an unreadable one is reported);
    in folders only the library's extensions are taken, so sidecars and stray files are skipped.
    """
    files: list[Path] = []
    missing: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(
                    found
                    for found in path.rglob("*")
                    if found.is_file()
                    and found.suffix.lower() in SUFFIXES
                    and not any(part.startswith(".") for part in found.relative_to(path).parts)
                )
            )
        elif path.is_file():
            files.append(path)
        else:
            missing.append(path)
    return list(dict.fromkeys(files)), missing


async def import_paths(
    session_factory: SessionFactory,
    settings: Settings,
    paths: list[Path],
    published_date: date | None,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
) -> int:
    """Import every file under `paths`, one line each and a summary; 1 if any failed, else 0."""
    files, missing = collect_files(paths)
    counts: Counter[str] = Counter()
    for path in missing:
        print(f"error      {path}: no such file or folder")
        counts["failed"] += 1
    embedder = create_embedder(settings)
    for path in files:
        try:
            outcome = await import_file(
                session_factory, embedder, settings, path, published_date, organisation_id
            )
        except (EvidenceRejected, SidecarInvalid, OSError) as exc:
            print(f"error      {path}: {getattr(exc, 'message', None) or exc}")
            counts["failed"] += 1
            continue
        document = outcome.document
        if outcome.duplicate:
            print(f'duplicate  {path}: same text as "{document.title}" ({document.id})')
            counts["duplicate"] += 1
        else:
            print(f'added      {path}: "{document.title}" ({_passages(document.chunk_count)}, {document.id})')
            counts["added"] += 1
    print(f"{counts['added']} added, {counts['duplicate']} duplicate, {counts['failed']} failed")
    return 1 if counts["failed"] else 0


async def import_file(
    session_factory: SessionFactory,
    embedder: Embedder,
    settings: Settings,
    path: Path,
    published_date: date | None,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
) -> EvidenceOutcome:
    """Add one file with the metadata of its sidecar (the command's date where the sidecar has none)."""
    sidecar = read_sidecar(path)
    with path.open("rb") as handle:  # one byte past the limit is enough to refuse a huge file
        content = handle.read(settings.evidence_max_document_bytes + 1)
    return await add_evidence_document(
        session_factory,
        embedder,
        settings,
        title=sidecar.title,
        content=content,
        filename=path.name,
        source_url=sidecar.source_url,
        published_date=sidecar.published_date or published_date,
        organisation_id=organisation_id,
    )


def read_sidecar(path: Path) -> Sidecar:
    """The metadata in `<path>.json`, or none if there is no such file.

    Raises:
        SidecarInvalid: The sidecar is not a JSON object of string values for the known keys.
    """
    sidecar = path.with_name(path.name + ".json")
    if not sidecar.is_file():
        return Sidecar()
    try:
        data: Any = json.loads(sidecar.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise SidecarInvalid(f"{sidecar.name} is not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise SidecarInvalid(f"{sidecar.name} must hold a JSON object")
    unknown = sorted(set(data) - SIDECAR_KEYS)
    if unknown:
        raise SidecarInvalid(
            f"{sidecar.name} has unknown keys {', '.join(unknown)} (known: {', '.join(sorted(SIDECAR_KEYS))})"
        )
    values = {key: data.get(key) for key in SIDECAR_KEYS}
    if any(value is not None and not isinstance(value, str) for value in values.values()):
        raise SidecarInvalid(f"{sidecar.name}: every value must be a string or null")
    return Sidecar(**values)


async def print_library(
    session_factory: SessionFactory, organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID
) -> int:
    """One line per document: id, publication date, domain, passages, title."""
    documents = await list_evidence_documents(session_factory, organisation_id)
    if not documents:
        print("the evidence library is empty: add documents with `sibyl evidence import <folder>`")
    for document in documents:
        published = document.published_date.isoformat() if document.published_date else "----------"
        print(
            f"{document.id}  {published}  {document.source_domain or '-'}  "
            f"{_passages(document.chunk_count)}  {document.title}"
        )
    print(f"{len(documents)} document(s)")
    return 0


def _passages(count: int) -> str:
    return f"{count} passage" if count == 1 else f"{count} passages"
