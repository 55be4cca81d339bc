"""PDF work in separate processes, so a document that crashes the PDF library fails alone.

PyMuPDF is not thread-safe: two damaged PDFs read in two threads of one process can take the whole
process down (a segfault in libmupdf), and with it a worker's other jobs or the API. So every
PyMuPDF call of the application runs in a small set of child processes, each reading one document
at a time, in one thread, under an address-space limit, with a time limit enforced from outside:

- a child that dies (a signal, the memory limit, an `exit`) fails only the call it was making,
  with `DocumentCrashed`; the next call starts a fresh child;
- a call that runs past its time limit kills its child and fails with `DocumentTimedOut`; the
  limit counts the call alone: a fresh child first reports ready (spawned, libraries imported)
  within `STARTUP_TIMEOUT_SECONDS`, so a slow start never eats into a document's time;
- a `PdfRejected` raised in the child arrives as the same typed refusal in the caller;
- a child that ran short of memory (a `MemoryError`, or MuPDF's "malloc … failed"), or that used
  more than half the memory it had free when it started (its address space now, or its peak
  resident memory), is retired after the call, never given to another caller: a document that came
  near the limit can leave the child's heap too large or too fragmented for the next one, which
  would then fail for no fault of its own;
- idle children are handed out least recently used first, so the next call does not always land
  on the child that just finished the heaviest document;
- at most `size - 1` children work for one organisation at once (`app.documents.slots`).

Children are started with `spawn` (never `fork`: the parent has threads and an event loop) and
reused for many calls; they exit when the parent does (their pipe closes).
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import importlib
import logging
import multiprocessing
import re
import resource
import threading
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

import pymupdf

from app.config import Settings
from app.documents.pdf import PdfProblem, PdfRejected
from app.documents.slots import DocumentSlots, Holder

logger = logging.getLogger(__name__)

T = TypeVar("T")
#: Calls one child serves before it is replaced (bounds any slow leak in the PDF library).
CALLS_PER_CHILD = 200
#: How long a fresh child may take to start and import the PDF library before it reports ready.
STARTUP_TIMEOUT_SECONDS = 60.0
#: Share of the memory free when a child started that a call may use and leave the child reusable.
RETIRE_ABOVE_FRACTION = 0.5
#: Modules every child imports before it reports ready, so no call pays for importing them.
READER_MODULES = ("app.documents.reading", "app.documents.page_images")
_CONTEXT = multiprocessing.get_context("spawn")
#: How MuPDF and C libraries word a failed allocation ("malloc (123 bytes) failed", ENOMEM, …).
_OUT_OF_MEMORY = re.compile(
    r"\b(?:malloc|calloc|realloc)\b[^\n]*\bfailed|cannot allocate|out of memory|FzErrorMemory", re.IGNORECASE
)
_MEMORY_MESSAGE = "the document needs more memory than a document process may use"


class DocumentCrashed(Exception):
    """The document process died while working on the document (it crashed the PDF reader)."""


class DocumentTimedOut(Exception):
    """The document took longer than the time limit to read; its process was stopped."""


class DocumentFailed(Exception):
    """The PDF library raised an unexpected error on the document (the message says which)."""


class DocumentProcessUnavailable(RuntimeError):
    """A fresh document process did not start (not the document's fault: an unexpected error)."""


def _serve(connection: Connection, memory_bytes: int, modules: tuple[str, ...]) -> None:
    """A child's loop: report ready, then run each `(function, args)` received and send back its
    outcome and whether the child should be retired."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    # A damaged file makes MuPDF print hundreds of lines to stderr; its errors reach the caller anyway.
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    for module in modules:
        importlib.import_module(module)
    ready = memory_in_use()
    retire_above = ready + RETIRE_ABOVE_FRACTION * (memory_bytes - ready)
    connection.send(("ready", None))
    while True:
        try:
            function, args = connection.recv()
        except EOFError:  # the parent is gone
            return
        outcome, short_of_memory = _outcome(function, args)
        connection.send((*outcome, short_of_memory or memory_in_use() > retire_above))


def _outcome(function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[tuple[str, Any], bool]:
    """`(status, payload)` of one call, and whether it failed for want of memory."""
    try:
        return ("ok", function(*args)), False
    except PdfRejected as exc:
        return ("rejected", (exc.problem.value, exc.message)), ran_out_of_memory(exc)
    except MemoryError:
        return ("failed", _MEMORY_MESSAGE), True
    except Exception as exc:  # noqa: BLE001 - every library error goes back to the caller
        logger.debug("document call failed: %s", traceback.format_exc())
        if ran_out_of_memory(exc):
            return ("failed", f"{_MEMORY_MESSAGE} ({exc})"), True
        return ("failed", f"{type(exc).__name__}: {exc}"), False


def ran_out_of_memory(exc: BaseException) -> bool:
    """Whether `exc`, or an exception it was raised from, is an allocation failure (a MuPDF error
    reaches Python as a RuntimeError, often wrapped in a `PdfRejected` CORRUPT)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, MemoryError) or _OUT_OF_MEMORY.search(f"{type(seen).__name__}: {seen}"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def memory_in_use() -> int:
    """Bytes this process holds: the larger of its address space now (what the limit counts) and
    its peak resident memory (a call that went near the limit leaves the C heap grown and
    fragmented even when it gave the pages back)."""
    fields: dict[str, int] = {}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                name, _, value = line.partition(":")
                if name in ("VmSize", "VmHWM"):
                    fields[name] = int(value.split()[0]) * 1024
    except OSError:  # not Linux: the peak resident set is what the platform reports
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return max(fields.values(), default=0)


@dataclass
class _Child:
    process: BaseProcess
    connection: Connection
    calls: int = 0
    retire: bool = False

    @classmethod
    def start(cls, memory_bytes: int, modules: tuple[str, ...], startup_timeout: float) -> _Child:
        """A fresh child that has reported ready within `startup_timeout` seconds.

        Raises:
            DocumentProcessUnavailable: it did not.
        """
        parent_end, child_end = _CONTEXT.Pipe()
        process = _CONTEXT.Process(target=_serve, args=(child_end, memory_bytes, modules), daemon=True)
        process.start()
        child_end.close()
        child = cls(process, parent_end)
        try:
            if parent_end.poll(startup_timeout) and parent_end.recv() == ("ready", None):
                return child
        except (EOFError, OSError):
            pass
        child.kill()
        raise DocumentProcessUnavailable(
            f"a document process did not start within {startup_timeout:g} s (exit code {process.exitcode})"
        )

    def call(self, function: Callable[..., T], args: tuple[Any, ...], timeout: float) -> T:
        self.calls += 1
        try:
            self.connection.send((function, args))
            if not self.connection.poll(timeout):
                self.kill()
                raise DocumentTimedOut(f"reading the document took longer than {timeout:g} s")
            status, payload, self.retire = self.connection.recv()
        except (EOFError, BrokenPipeError, ConnectionResetError) as exc:
            self.process.join(timeout=5)
            code = self.process.exitcode
            how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            raise DocumentCrashed(f"the PDF reader crashed on the document ({how})") from exc
        if status == "rejected":
            problem, message = payload
            raise PdfRejected(PdfProblem(problem), message)
        if status == "failed":
            raise DocumentFailed(str(payload))
        return payload  # type: ignore[no-any-return]

    def reusable(self) -> bool:
        return not self.retire and self.calls < CALLS_PER_CHILD and self.process.is_alive()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()


class DocumentProcesses:
    """At most `size` documents read at once, each in a child process of its own (see the module
    docstring). Safe to share between threads and event loops."""

    def __init__(
        self,
        size: int,
        timeout_seconds: float,
        memory_mb: int,
        *,
        startup_timeout_seconds: float = STARTUP_TIMEOUT_SECONDS,
        modules: tuple[str, ...] = READER_MODULES,
    ) -> None:
        self.size = size
        self.timeout_seconds = timeout_seconds
        self.startup_timeout_seconds = startup_timeout_seconds
        self.slots = DocumentSlots(size)
        self._memory_bytes = memory_mb * 1024 * 1024
        self._modules = modules
        self._lock = threading.Lock()
        self._idle: deque[_Child] = deque()
        self._busy: list[_Child] = []

    def run(self, function: Callable[..., T], *args: Any, organisation: Holder = None) -> T:
        """Run `function(*args)` in a document process (blocking; call it from a thread).

        `function` must be importable by name (a module-level function) and its result picklable.
        `organisation` is whom the call is for (None: the application's own work); it bounds how
        many processes one organisation holds at once.

        Raises:
            PdfRejected: the function refused the document.
            DocumentCrashed / DocumentTimedOut / DocumentFailed: see the module docstring.
            DocumentProcessUnavailable: no process could be started.
        """
        self.slots.take(organisation)
        return self._run_holding(organisation, function, args)

    async def call(self, function: Callable[..., T], *args: Any, organisation: Holder = None) -> T:
        """`run` from async code: the wait for a slot happens on the event loop, the wait for the
        process in a thread, the work in the process."""
        await self.slots.take_async(organisation)
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        try:
            running = loop.run_in_executor(None, context.run, self._run_holding, organisation, function, args)
        except BaseException:
            self.slots.give_back(organisation)
            raise
        return await running  # if this is cancelled, the thread gives the slot back when the call ends

    def close(self) -> None:
        """Stop every idle child (busy ones stop when their call ends and the parent exits)."""
        with self._lock:
            idle, self._idle = list(self._idle), deque()
        for child in idle:
            child.kill()

    def pids(self) -> list[int]:
        """Process ids of the children alive now, busy or idle (for diagnostics and tests)."""
        with self._lock:
            children = [*self._busy, *self._idle]
        return [child.process.pid for child in children if child.process.pid and child.process.is_alive()]

    def idle_pids(self) -> list[int]:
        """Process ids of the idle children, in the order they will be handed out."""
        with self._lock:
            return [child.process.pid for child in self._idle if child.process.pid]

    def _run_holding(self, organisation: Holder, function: Callable[..., T], args: tuple[Any, ...]) -> T:
        """Run the call in a child, with the slot `organisation` already holds; give the slot back."""
        try:
            child = self._take()
            try:
                result = child.call(function, args, self.timeout_seconds)
            except (DocumentCrashed, DocumentTimedOut):
                self._forget(child)
                child.kill()
                raise
            finally:
                self._give_back(child)
            return result
        finally:
            self.slots.give_back(organisation)

    def _take(self) -> _Child:
        """The idle child returned longest ago that is still alive, or a fresh one."""
        with self._lock:
            while self._idle:
                child = self._idle.popleft()
                if child.process.is_alive():
                    self._busy.append(child)
                    return child
                child.kill()
        child = _Child.start(self._memory_bytes, self._modules, self.startup_timeout_seconds)
        with self._lock:
            self._busy.append(child)
        return child

    def _forget(self, child: _Child) -> None:
        with self._lock:
            if child in self._busy:
                self._busy.remove(child)

    def _give_back(self, child: _Child) -> None:
        with self._lock:
            if child not in self._busy:
                return
            self._busy.remove(child)
            if child.reusable():
                self._idle.append(child)
                return
        if child.retire:
            logger.info("document process %s retired: it ran short of memory", child.process.pid)
        child.kill()


_shared: dict[tuple[int, float, int], DocumentProcesses] = {}
_shared_lock = threading.Lock()


def document_processes(settings: Settings) -> DocumentProcesses:
    """The process-wide document processes for these settings (created on first use)."""
    key = (settings.document_workers, settings.document_timeout_seconds, settings.document_memory_mb)
    with _shared_lock:
        if key not in _shared:
            _shared[key] = DocumentProcesses(*key)
        return _shared[key]


@atexit.register
def _close_all() -> None:
    with _shared_lock:
        for processes in _shared.values():
            processes.close()
