"""The API key `sibyl run` prints for local use: one key of the `local` organisation, kept in a file.

Only a key's hash is stored in the database, so the plaintext is kept in `data_dir/local-api-key`
(readable by its owner only) to print the same key at every start. A key that no longer works
(revoked, or a new database) is replaced by a fresh one.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.db.session import SessionFactory
from app.organisations.keys import LOCAL_ORGANISATION_NAME, authenticate, create_api_key, ensure_organisation

KEY_FILE_NAME = "local-api-key"
KEY_LABEL = "local development (sibyl run)"


async def local_api_key(session_factory: SessionFactory, data_dir: Path) -> str:
    """A working key of the `local` organisation: the one kept in `data_dir`, or a new one."""
    path = data_dir / KEY_FILE_NAME
    kept = _read_key(path)
    async with session_factory() as session, session.begin():
        if kept and await authenticate(session, kept) is not None:
            return kept
        organisation = await ensure_organisation(session, LOCAL_ORGANISATION_NAME)
        _, plaintext = await create_api_key(session, organisation, KEY_LABEL)
    _write_key(path, plaintext)
    return plaintext


def _read_key(path: Path) -> str:
    return path.read_text().strip() if path.exists() else ""


def _write_key(path: Path, plaintext: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(plaintext + "\n")
