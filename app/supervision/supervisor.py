"""`sibyl run`: embedded services (when no URLs are set), migrations, then the API and a worker,
kept up until Ctrl-C.

Before starting anything it locks DATA_DIR (one `sibyl run` per data folder,
`app.supervision.run_lock`), stops what a dead previous run left behind, and checks the API port and
any configured database URLs (`app.supervision.preflight`), failing in seconds with one line per
problem. The banner is printed once `/healthz` answers.

The API (uvicorn) and the ARQ worker run as separate child processes in their own sessions, so
Ctrl-C reaches only this supervisor; they (and Redis) die with it, and a guardian process stops
the embedded Postgres if the supervisor is killed (`app.supervision.guardian`). A process that dies is
restarted after a capped, doubling delay, on the same port and data directory; each death and
restart is logged. When restarts keep failing (`RESTART_MAX_FAILURES` in a row) the supervisor
gives up on that process alone, logs it at ERROR and records it for `/readyz`, and the API keeps
serving; only an API that cannot be kept up stops everything. Ctrl-C stops the API, the worker,
Redis, then Postgres, in that order.
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
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from app.config import Settings
from app.db.migrate import upgrade
from app.db.session import create_engine, create_session_factory
from app.organisations.local import local_api_key
from app.supervision.banner import announce, local_url
from app.supervision.database import (
    EMBEDDED_DATABASE,
    StartupRefused,
    check_vector_support,
    embedded_data_dir,
    embedded_postgres,
)
from app.supervision.embedded.redis import EmbeddedRedis, free_port
from app.supervision.guardian import STOP_WORD, stop_left_behind
from app.supervision.preflight import startup_problems
from app.supervision.run_lock import DataDirInUse, RunLock, acquire, describe_owner, owner_alive
from app.supervision.supervised import ChildProcess, PostgresService, RedisService, Service

logger = logging.getLogger(__name__)

#: Per-message deflate costs more CPU than it saves bytes on small event messages over fast links.
UVICORN_WS_OPTIONS = ("--ws-per-message-deflate", "false")
#: The API's HTTP protocol cuts off clients whose headers are slow (REQUEST_HEADER_TIMEOUT_SECONDS).
UVICORN_HTTP_OPTIONS = ("--http", "schema.uvicorn_http:SibylHttpProtocol")
CHECK_SECONDS = 0.25
HEALTH_POLL_SECONDS = 0.1
REAP_SECONDS = 2.0
#: Ctrl-C stops the processes in this order: nothing new comes in, then work stops, then storage.
STOP_ORDER = ("api", "worker", "redis", "postgres")
PR_SET_CHILD_SUBREAPER = 36
#: Without these the rest is useless: when one cannot be kept up, everything stops (exit 1).
ESSENTIAL = frozenset({"api"})


class _Stop(Exception):
    pass


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
    given_up: bool = False


@dataclass
class Supervisor:
    """Watches services and restarts the ones that die, with capped exponential backoff; records
    each one's pid (and those it gave up on) in the DATA_DIR lock's run record."""

    settings: Settings
    lock: RunLock | None = None
    watches: list[_Watch] = field(default_factory=list)
    _reaped_at: float = 0.0

    def add(self, service: Service) -> None:
        """Watch a service that has just been started."""
        self.watches.append(_Watch(service, time.monotonic()))
        self._started(service, "started")

    def start(self, service: Service) -> None:
        """Start a service and watch it (watched first, so a Ctrl-C meanwhile still stops it)."""
        watch = _Watch(service, time.monotonic())
        self.watches.append(watch)
        service.start()
        self._started(service, "started")

    def _started(self, service: Service, verb: str) -> None:
        log = logger.info if verb == "started" else logger.warning
        log("%s %s (pid %s)", service.name, verb, service.pid())
        if self.lock is not None:
            self.lock.child(service.name, service.pid())

    def check(self) -> bool:
        """Restart what died and is due; False once an essential service (the API) keeps failing."""
        now = time.monotonic()
        for watch in self.watches:
            if watch.given_up:
                continue
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
        self._started(watch.service, "restarted")
        if self.lock is not None:
            self.lock.restarted(watch.service.name)
        return True

    def _schedule(self, watch: _Watch, now: float, event: str) -> bool:
        watch.failures += 1
        limit = self.settings.restart_max_failures
        if watch.failures > limit:
            return self._give_up(watch, event, limit)
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

    def _give_up(self, watch: _Watch, event: str, limit: int) -> bool:
        """Stop restarting `watch`'s service; False (stop everything) if it is essential."""
        name = watch.service.name
        if name in ESSENTIAL:
            logger.error("%s %s; %d failed restart(s) in a row, giving up", name, event, limit)
            return False
        watch.given_up = True
        logger.error(
            "%s %s; %d failed restart(s) in a row, giving up on the %s; the API keeps serving "
            "(GET /readyz reports it down); restart `sibyl run` once the cause is fixed",
            name, event, limit, name,
        )  # fmt: skip
        if self.lock is not None:
            self.lock.down(name, f"{event}; gave up after {limit} failed restart(s) in a row")
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


def _start_storage(settings: Settings, supervisor: Supervisor) -> dict[str, str]:
    """DATABASE_URL and REDIS_URL, from the settings or from embedded servers the supervisor watches."""
    if settings.database_url:
        database_url = settings.database_url
    else:
        postgres, started = embedded_postgres(settings, print)
        if started:
            supervisor.add(PostgresService(postgres))
        database_url = postgres.url(EMBEDDED_DATABASE)
    if settings.redis_url:
        return {"DATABASE_URL": database_url, "REDIS_URL": settings.redis_url}
    redis = EmbeddedRedis(
        settings.data_dir / "redis", settings.embedded_redis_port or free_port(), die_with_parent=True
    )
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
           "--port", str(settings.api_port), "--no-access-log",
           *UVICORN_WS_OPTIONS, *UVICORN_HTTP_OPTIONS]  # fmt: skip
    return [ChildProcess("api", api, env), ChildProcess("worker", [sys.executable, "-m", "workers"], env)]


@dataclass
class _Guardian:
    """`app.supervision.guardian`, stopping our processes (Postgres above all) should this one be killed."""

    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, lock: RunLock, pgdata: Path | None) -> _Guardian:
        args = [sys.executable, "-m", "app.supervision.guardian", str(lock.path), str(pgdata or "")]
        return cls(subprocess.Popen(args, stdin=subprocess.PIPE, start_new_session=True))

    def stop(self) -> None:
        """We stopped everything ourselves: tell it so, and let it go."""
        with contextlib.suppress(OSError, ValueError):
            if self.process.stdin is not None:
                self.process.stdin.write(STOP_WORD)
                self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _stop_left_behind(lock: RunLock, settings: Settings) -> None:
    """Stop what a previous run on this DATA_DIR left running when it was killed, naming it."""
    previous = lock.previous
    if not previous.get("pid") or owner_alive(previous):
        return
    stopped = stop_left_behind(previous, embedded_data_dir(settings))
    if stopped:
        print(
            f"{describe_owner(previous)} ended without stopping what it started; "
            f"stopped {', '.join(stopped)}",
            flush=True,
        )


def _serving(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:  # noqa: S310 - our own http URL
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _wait_until_serving(settings: Settings, supervisor: Supervisor) -> bool:
    """Keep supervising until the API's `/healthz` answers; False if the API cannot be kept up."""
    url = f"{local_url(settings)}/healthz"
    while not _serving(url):
        if not supervisor.check():
            return False
        time.sleep(HEALTH_POLL_SECONDS)
    return True


def _supervise(settings: Settings, supervisor: Supervisor) -> int:
    """Start storage, migrate, start the API and worker, announce, and keep them up until Ctrl-C."""
    with _handled_signals() as signals:
        try:
            env = {**os.environ, **_start_storage(settings, supervisor)}
            check_vector_support(settings, env["DATABASE_URL"])
            print("applying database migrations…", flush=True)
            upgrade(env["DATABASE_URL"])
            api_key = asyncio.run(_local_key(env["DATABASE_URL"], settings))
            for child in _children(settings, env):
                supervisor.start(child)
            if not _wait_until_serving(settings, supervisor):
                print("the API cannot be kept up; stopping Sibyl", file=sys.stderr, flush=True)
                return 1
            announce(settings, api_key)
            signals.interrupt = False
            while not signals.received:
                if not supervisor.check():
                    print("restarts of the API keep failing; stopping Sibyl", file=sys.stderr, flush=True)
                    return 1
                time.sleep(CHECK_SECONDS)
            raise _Stop
        except StartupRefused as exc:
            print(f"sibyl: {exc}", file=sys.stderr, flush=True)
            return 1
        except _Stop:
            signals.interrupt = False
            print("\nstopping Sibyl…", flush=True)
            return 0
        finally:
            signals.interrupt = False
            supervisor.stop_all()


def run(settings: Settings) -> int:
    """Run Sibyl until Ctrl-C (exit code 0); 1 when DATA_DIR is in use, a start-up check fails, or
    the API cannot be kept up."""
    _adopt_orphans()
    try:
        lock = acquire(settings.data_dir, local_url(settings))
    except DataDirInUse as exc:
        print(f"sibyl: {exc}", file=sys.stderr, flush=True)
        return 1
    guardian: _Guardian | None = None
    try:
        _stop_left_behind(lock, settings)
        problems = startup_problems(settings)
        for problem in problems:
            print(f"sibyl: {problem}", file=sys.stderr, flush=True)
        if problems:
            return 1
        guardian = _Guardian.start(lock, embedded_data_dir(settings))
        return _supervise(settings, Supervisor(settings, lock))
    finally:
        if guardian is not None:
            guardian.stop()
        lock.release()
