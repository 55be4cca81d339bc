"""Apply Alembic migrations from code (used by `sibyl migrate`, `sibyl run` and the tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def alembic_config(database_url: str) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logging"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database at `database_url` up to `revision`. Blocking; call outside an event loop."""
    command.upgrade(alembic_config(database_url), revision)
