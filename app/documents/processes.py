"""PDF work in separate processes, so a document that crashes the PDF library fails alone.

PyMuPDF is not thread-safe: two damaged PDFs read in two threads of one process can take the whole
process down (a segfault in libmupdf), and with it a worker's other jobs or the API. So every
PyMuPDF call of the application runs in a small set of child processes, each reading one document
at a time, in one thread, under an address-space limit, with a time limit enforced from outside:

- a child that dies (a signal, the memory limit, an `exit`) fails only the call it was making,
  with `DocumentCrashed`; the next call starts a fresh child;
- a call that runs past its time limit kills its child and fails with `DocumentTimedOut`;
- a `PdfRejected` raised in the child arrives as the same typed refusal in the caller.

Children are started with `spawn` (never `fork`: the parent has threads and an event loop) and
reused for many calls; they exit when the parent does (their pipe closes).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import resource
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

import pymupdf

from app.config import Settings
from app.documents.pdf import PdfProblem, PdfRejected

logger = logging.getLogger(__name__)

T = TypeVar("T")
#: Calls one child serves before it is replaced (bounds any slow leak in the PDF library).
CALLS_PER_CHILD = 200
_CONTEXT = multiprocessing.get_context("spawn")


class DocumentCrashed(Exception):
    """The document process died while working on the document (it crashed the PDF reader)."""


class DocumentTimedOut(Exception):
    """The document took longer than the time limit to read; its process was stopped."""


class DocumentFailed(Exception):
    """The PDF library raised an unexpected error on the document (the message says which)."""


def _serve(connection: Connection, memory_bytes: int) -> None:
    """A child's loop: run each `(function, args)` received and send back its outcome."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    # A damaged file makes MuPDF print hundreds of lines to stderr; its errors reach the caller anyway.
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    while True:
        try:
            function, args = connection.recv()
        except EOFError:  # the parent is gone
            return
        try:
            outcome: tuple[str, Any] = ("ok", function(*args))
        except PdfRejected as exc:
            outcome = ("rejected", (exc.problem.value, exc.message))
        except MemoryError:
            outcome = ("failed", "the document needs more memory than a document process may use")
        except Exception as exc:  # noqa: BLE001 - every library error goes back to the caller
            outcome = ("failed", f"{type(exc).__name__}: {exc}")
            logger.debug("document call failed: %s", traceback.format_exc())
        connection.send(outcome)


@dataclass
class _Child:
    process: BaseProcess
    connection: Connection
    calls: int = 0

    @classmethod
    def start(cls, memory_bytes: int) -> _Child:
        parent_end, child_end = _CONTEXT.Pipe()
        process = _CONTEXT.Process(target=_serve, args=(child_end, memory_bytes), daemon=True)
        process.start()
        child_end.close()
        return cls(process, parent_end)

    def call(self, function: Callable[..., T], args: tuple[Any, ...], timeout: float) -> T:
        self.calls += 1
        try:
            self.connection.send((function, args))
            if not self.connection.poll(timeout):
                self.kill()
                raise DocumentTimedOut(f"reading the document took longer than {timeout:g} s")
            status, payload = self.connection.recv()
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

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()


class DocumentProcesses:
    """At most `size` documents read at once, each in a child process of its own (see the module
    docstring). Safe to share between threads and event loops."""

    def __init__(self, size: int, timeout_seconds: float, memory_mb: int) -> None:
        self.size = size
        self.timeout_seconds = timeout_seconds
        self._memory_bytes = memory_mb * 1024 * 1024
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle: list[_Child] = []
        self._busy: list[_Child] = []

    def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run `function(*args)` in a document process (blocking; call it from a thread).

        `function` must be importable by name (a module-level function) and its result picklable.

        Raises:
            PdfRejected: the function refused the document.
            DocumentCrashed / DocumentTimedOut / DocumentFailed: see the module docstring.
        """
        with self._slots:
            child = self._take()
            with self._lock:
                self._busy.append(child)
            try:
                result = child.call(function, args, self.timeout_seconds)
            except (DocumentCrashed, DocumentTimedOut):
                self._forget(child)
                child.kill()
                raise
            except BaseException:
                self._give_back(child)
                raise
            self._give_back(child)
            return result

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """`run` from async code (the waiting happens in a thread, the work in the process)."""
        return await asyncio.to_thread(self.run, function, *args)

    def close(self) -> None:
        """Stop every idle child (busy ones stop when their call ends and the parent exits)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for child in idle:
            child.kill()

    def _take(self) -> _Child:
        with self._lock:
            while self._idle:
                child = self._idle.pop()
                if child.process.is_alive():
                    return child
                child.kill()
        return _Child.start(self._memory_bytes)

    def pids(self) -> list[int]:
        """Process ids of the children alive now, busy or idle (for diagnostics and tests)."""
        with self._lock:
            children = [*self._busy, *self._idle]
        return [child.process.pid for child in children if child.process.pid and child.process.is_alive()]

    def _forget(self, child: _Child) -> None:
        with self._lock:
            if child in self._busy:
                self._busy.remove(child)

    def _give_back(self, child: _Child) -> None:
        self._forget(child)
        if child.calls >= CALLS_PER_CHILD or not child.process.is_alive():
            child.kill()
            return
        with self._lock:
            self._idle.append(child)


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
