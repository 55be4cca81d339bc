"""`sibyl run`: embedded services (when no URLs are set), migrations, then the API and a worker,
kept up until Ctrl-C.

The API (uvicorn) and the ARQ worker run as separate child processes in their own sessions, so
Ctrl-C reaches only this supervisor. A process that dies (the API, the worker, or an embedded Redis
or Postgres this command started) is restarted after a capped, doubling delay, on the same port
and data directory; each death and restart is logged. Restarts that keep failing
(`RESTART_MAX_FAILURES` in a row) stop everything. Ctrl-C stops the API, the worker, Redis, then
Postgres, in that order.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Protocol

from app.banner import announce
from app.config import Settings
from app.db.migrate import upgrade
from app.db.session import create_engine, create_session_factory
from app.embedded.postgres import EmbeddedPostgres, postmaster_pid, process_runs, start_postgres
from app.embedded.redis import EmbeddedRedis, free_port
from app.organisations.local import local_api_key

logger = logging.getLogger(__name__)

EMBEDDED_DATABASE = "sibyl"
#: Per-message deflate costs more CPU than it saves bytes on small event messages over fast links.
UVICORN_WS_OPTIONS = ("--ws-per-message-deflate", "false")
CHILD_STOP_SECONDS = 15
CHECK_SECONDS = 0.25
REAP_SECONDS = 2.0
#: Ctrl-C stops the processes in this order: nothing new comes in, then work stops, then storage.
STOP_ORDER = ("api", "worker", "redis", "postgres")
PR_SET_CHILD_SUBREAPER = 36


class _Stop(Exception):
    pass


class Service(Protocol):
    """A process the supervisor starts, watches, restarts and stops."""

    name: str

    def start(self) -> None: ...
    def is_running(self) -> bool: ...
    def pid(self) -> int | None: ...
    def exit_detail(self) -> str: ...
    def stop(self) -> None: ...


@dataclass
class ChildProcess:
    """The API or the worker: a Python child process in a session of its own."""

    name: str
    args: list[str]
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.args, env=self.env, start_new_session=True, stdin=subprocess.DEVNULL
        )

    def is_running(self) -> bool:
        running = self.process is not None and self.process.poll() is None
        if not running and self.process is not None:
            _kill_group(self.process.pid)  # what it left behind (e.g. its document processes)
        return running

    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def exit_detail(self) -> str:
        return _describe_exit(None if self.process is None else self.process.poll())

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(CHILD_STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        _kill_group(self.process.pid)


@dataclass
class RedisService:
    """The embedded Redis (valkey), restarted on the same port and data directory."""

    server: EmbeddedRedis
    name: str = "redis"

    def start(self) -> None:
        self.server.start()

    def is_running(self) -> bool:
        return self.server.is_running()

    def pid(self) -> int | None:
        return self.server.pid

    def exit_detail(self) -> str:
        return _describe_exit(self.server.returncode)

    def stop(self) -> None:
        self.server.stop()


@dataclass
class PostgresService:
    """The embedded Postgres, restarted on the same data directory (and so the same socket)."""

    server: EmbeddedPostgres
    name: str = "postgres"

    def start(self) -> None:
        self.server.restart()

    def is_running(self) -> bool:
        return self.server.is_running()

    def pid(self) -> int | None:
        return self.server.pid()

    def exit_detail(self) -> str:
        return "the postmaster is gone"

    def stop(self) -> None:
        self.server.stop()
        pid = self.server.pid()
        if pid is not None:
            process_runs(pid)  # reap it if it was adopted


def _describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "exited"
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-returncode).name}"
    return f"exit code {returncode}"


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _adopt_orphans() -> None:
    """Become a child subreaper (Linux): a daemon we start (the postmaster) becomes our child when
    its parent exits, so we can reap it if it is killed, where init does not."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _reap_orphans(known: set[int]) -> None:
    """Reap adopted children that exited (Postgres backends after a postmaster crash); the API,
    worker and Redis processes are left to their Popen objects."""
    me = str(os.getpid())
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(entry.parent.name)
        if fields[0] == "Z" and fields[1] == me and pid not in known:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


@dataclass
class _Watch:
    service: Service
    started_at: float
    failures: int = 0
    restart_at: float | None = None


@dataclass
class Supervisor:
    """Watches services and restarts the ones that die, with capped exponential backoff."""

    settings: Settings
    watches: list[_Watch] = field(default_factory=list)
    _reaped_at: float = 0.0

    def add(self, service: Service) -> None:
        """Watch a service that has just been started."""
        self.watches.append(_Watch(service, time.monotonic()))
        logger.info("%s started (pid %s)", service.name, service.pid())

    def start(self, service: Service) -> None:
        """Start a service and watch it (watched first, so a Ctrl-C meanwhile still stops it)."""
        watch = _Watch(service, time.monotonic())
        self.watches.append(watch)
        service.start()
        logger.info("%s started (pid %s)", service.name, service.pid())

    def check(self) -> bool:
        """Restart what died and is due; False once a service keeps failing."""
        now = time.monotonic()
        for watch in self.watches:
            if watch.restart_at is None:
                if not watch.service.is_running() and not self._died(watch, now):
                    return False
            elif now >= watch.restart_at and not self._restart(watch, now):
                return False
        if sys.platform == "linux" and now - self._reaped_at >= REAP_SECONDS:
            self._reaped_at = now
            _reap_orphans({pid for watch in self.watches if (pid := watch.service.pid()) is not None})
        return True

    def _died(self, watch: _Watch, now: float) -> bool:
        uptime = now - watch.started_at
        if uptime >= self.settings.restart_backoff_max_seconds:
            watch.failures = 0
        return self._schedule(watch, now, f"died: {watch.service.exit_detail()} after {uptime:.1f}s up")

    def _restart(self, watch: _Watch, now: float) -> bool:
        try:
            watch.service.start()
        except Exception as exc:  # noqa: BLE001 - a failed restart is retried, then gives up
            return self._schedule(watch, time.monotonic(), f"did not restart: {type(exc).__name__}: {exc}")
        watch.started_at, watch.restart_at = time.monotonic(), None
        logger.warning("%s restarted (pid %s)", watch.service.name, watch.service.pid())
        return True

    def _schedule(self, watch: _Watch, now: float, event: str) -> bool:
        watch.failures += 1
        limit = self.settings.restart_max_failures
        if watch.failures > limit:
            logger.error("%s %s; %d failed restart(s) in a row, giving up", watch.service.name, event, limit)
            return False
        delay = min(
            self.settings.restart_backoff_seconds * 2 ** (watch.failures - 1),
            self.settings.restart_backoff_max_seconds,
        )
        watch.restart_at = now + delay
        logger.warning(
            "%s %s; restarting in %.1fs (failure %d of %d)",
            watch.service.name, event, delay, watch.failures, limit,
        )  # fmt: skip
        return True

    def stop_all(self) -> None:
        """Stop every service, API first and Postgres last."""
        rank = {name: index for index, name in enumerate(STOP_ORDER)}
        for watch in sorted(self.watches, key=lambda w: rank.get(w.service.name, -1)):
            logger.info("stopping %s", watch.service.name)
            watch.service.stop()
            logger.info("stopped %s", watch.service.name)


class _Signals:
    """SIGINT/SIGTERM: raise `_Stop` while starting up, only set a flag while supervising (so a
    restart in progress is never cut in half)."""

    def __init__(self) -> None:
        self.received = False
        self.interrupt = True

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.received = True
        if self.interrupt:
            raise _Stop


@contextlib.contextmanager
def _handled_signals() -> Iterator[_Signals]:
    handler = _Signals()
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield handler
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def provide_database(settings: Settings, stack: ExitStack, say: Callable[[str], None] = print) -> str:
    """DATABASE_URL, or the embedded server's URL (started if needed, and then stopped on exit)."""
    if settings.database_url:
        return settings.database_url
    postgres, started = _embedded_postgres(settings, say)
    if started:
        stack.callback(postgres.stop)
    return postgres.url(EMBEDDED_DATABASE)


def _embedded_postgres(settings: Settings, say: Callable[[str], None]) -> tuple[EmbeddedPostgres, bool]:
    """The embedded server, started unless one already runs on its data; True if started here."""
    data_dir = settings.data_dir / "postgres"
    pid = postmaster_pid(data_dir.expanduser().resolve())
    already_running = pid is not None and process_runs(pid)
    postgres = start_postgres(data_dir)
    postgres.ensure_database(EMBEDDED_DATABASE)
    say(f"embedded Postgres (pgvector) data in {data_dir}")
    return postgres, not already_running


def _start_storage(settings: Settings, supervisor: Supervisor) -> dict[str, str]:
    """DATABASE_URL and REDIS_URL, from the settings or from embedded servers the supervisor watches."""
    if settings.database_url:
        database_url = settings.database_url
    else:
        postgres, started = _embedded_postgres(settings, print)
        if started:
            supervisor.add(PostgresService(postgres))
        database_url = postgres.url(EMBEDDED_DATABASE)
    if settings.redis_url:
        return {"DATABASE_URL": database_url, "REDIS_URL": settings.redis_url}
    redis = EmbeddedRedis(settings.data_dir / "redis", settings.embedded_redis_port or free_port())
    supervisor.start(RedisService(redis))
    print(f"embedded Redis (valkey) at {redis.url}, data in {settings.data_dir / 'redis'}", flush=True)
    return {"DATABASE_URL": database_url, "REDIS_URL": redis.url}


async def _local_key(database_url: str, settings: Settings) -> str:
    engine = create_engine(database_url, pool_size=1)
    try:
        return await local_api_key(create_session_factory(engine), settings.data_dir)
    finally:
        await engine.dispose()


def _children(settings: Settings, env: dict[str, str]) -> list[ChildProcess]:
    api = [sys.executable, "-m", "uvicorn", "schema.asgi:app", "--host", settings.api_host,
           "--port", str(settings.api_port), "--no-access-log", *UVICORN_WS_OPTIONS]  # fmt: skip
    return [ChildProcess("api", api, env), ChildProcess("worker", [sys.executable, "-m", "workers"], env)]


def run(settings: Settings) -> int:
    """Run Sibyl until Ctrl-C (exit code 0) or until restarts keep failing (exit code 1)."""
    _adopt_orphans()
    supervisor = Supervisor(settings)
    with _handled_signals() as signals:
        try:
            env = {**os.environ, **_start_storage(settings, supervisor)}
            print("applying database migrations…", flush=True)
            upgrade(env["DATABASE_URL"])
            api_key = asyncio.run(_local_key(env["DATABASE_URL"], settings))
            for child in _children(settings, env):
                supervisor.start(child)
            announce(settings, api_key)
            signals.interrupt = False
            while not signals.received:
                if not supervisor.check():
                    print("restarts keep failing; stopping Sibyl", file=sys.stderr, flush=True)
                    return 1
                time.sleep(CHECK_SECONDS)
            raise _Stop
        except _Stop:
            signals.interrupt = False
            print("\nstopping Sibyl…", flush=True)
            return 0
        finally:
            signals.interrupt = False
            supervisor.stop_all()
