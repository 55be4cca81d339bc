"""Document bombs: what a small hostile PDF costs a document process, and the tenants after it.

Synthetic bombs from `tests.fixtures.bomb_pdfs` (nothing is downloaded):

1. Memory bomb, 228 KB (64 MB of text operators drawn at one spot), read as an upload is inspected,
   at the default limit (`DOCUMENT_MEMORY_MB` 2048) and at 512 MB (where MuPDF's allocations fail).
   For the document process: resident memory (VmRSS) before, its peak during the bomb (sampled, and
   VmHWM), and after; whether it went back to the pool; how long the bomb held its document slot;
   and the next page render: which process served it, how long it took, and whether it worked.
2. Text bomb, 15 KB (one page of 4 MB of text lines), inspected as an upload and read as a parse:
   the text it yields and the time.
3. Two slots, one organisation's two memory bombs, then another organisation's page render: how
   long the render waits for a slot.

Run: `cd /work/main && .venv/bin/python -m bench.document_bomb`. It works against older versions of
`app.documents` too (what they lack, such as organisations or the text limit, is left out), so the
same script measures a checkout before a change.
"""

from __future__ import annotations

import asyncio
import inspect
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import Settings
from app.documents.page_images import render_page
from app.documents.processes import DocumentProcesses
from app.documents.reading import count_pages, inspect_document, read_page_range
from tests.fixtures import pdfs
from tests.fixtures.bomb_pdfs import memory_bomb_pdf, text_bomb_pdf

MEMORY_BOMB_MB = 64
TEXT_BOMB_MB = 4
TIMEOUT_S = 120.0
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
DEFAULTS = Settings(_env_file=None)  # type: ignore[call-arg]


def memory_of(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM and VmSize of a live process, in MB (empty if it is gone)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    fields = (line.split(":", 1) for line in lines)
    return {
        name: int(value.split()[0]) // 1024 for name, value in fields if name in ("VmRSS", "VmHWM", "VmSize")
    }


class PeakSampler:
    """Samples a process's resident memory every 50 ms while the bomb runs."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak_mb, self._stop = pid, 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            self.peak_mb = max(self.peak_mb, memory_of(self.pid).get("VmRSS", 0))


def timed(function: Callable[[], Any]) -> tuple[float, str, Any]:
    """Seconds, outcome ("ok" or the exception's type and first words) and result of a call."""
    started = time.perf_counter()
    try:
        result = function()
    except Exception as exc:  # noqa: BLE001 - the outcome is what is measured
        problem = getattr(getattr(exc, "problem", None), "value", type(exc).__name__)
        return time.perf_counter() - started, f"{problem}: {str(exc)[:60]}", None
    return time.perf_counter() - started, "ok", result


@dataclass(frozen=True)
class BombFigures:
    memory_mb: int
    rss_before_mb: int
    rss_peak_mb: int
    hwm_after_mb: int
    rss_after_mb: int
    kept: bool
    slot_held_s: float
    bomb_outcome: str
    next_render_s: float
    next_render_outcome: str
    next_same_process: bool
    next_rss_mb: int

    def row(self) -> list[object]:
        return [
            self.memory_mb,
            self.rss_before_mb,
            self.rss_peak_mb,
            self.rss_after_mb if self.kept else "retired",
            "yes" if self.kept else "no",
            f"{self.slot_held_s:.1f}",
            self.bomb_outcome[:40],
            f"{self.next_render_s:.2f}",
            self.next_render_outcome[:20],
            "yes" if self.next_same_process else "no",
            self.next_rss_mb,
        ]


def memory_bomb(memory_mb: int, page: str) -> BombFigures:
    """A memory bomb inspected in a one-process pool, then an ordinary page render."""
    pool = DocumentProcesses(1, TIMEOUT_S, memory_mb)
    bomb = memory_bomb_pdf(MEMORY_BOMB_MB)
    try:
        pool.run(render_page, page, 1, 1.0, [])
        [pid] = pool.pids()
        before = memory_of(pid)
        with PeakSampler(pid) as sampler:
            held_s, outcome, _ = timed(lambda: pool.run(inspect_document, bomb, MAX_UPLOAD_BYTES, 500, 40))
        after, kept = memory_of(pid), pid in pool.pids()
        render_s, render_outcome, _ = timed(lambda: pool.run(render_page, page, 1, 1.0, []))
        [next_pid] = pool.pids() or [0]
        return BombFigures(
            memory_mb,
            before["VmRSS"],
            max(sampler.peak_mb, after.get("VmHWM", 0)),
            after.get("VmHWM", 0),
            after.get("VmRSS", 0),
            kept,
            held_s,
            outcome,
            render_s,
            render_outcome,
            next_pid == pid,
            memory_of(next_pid).get("VmRSS", 0),
        )
    finally:
        pool.close()


def text_limit_args() -> tuple[Any, ...]:
    """The default text limit, for versions of `app.documents` that have one."""
    try:
        from app.documents.text import TextLimit
    except ImportError:
        return ()
    return (TextLimit.from_settings(DEFAULTS),)


def text_bomb() -> list[list[object]]:
    """A text bomb inspected as an upload, then read whole as a parse."""
    pool = DocumentProcesses(1, TIMEOUT_S, DEFAULTS.document_memory_mb)
    bomb, limit = text_bomb_pdf(TEXT_BOMB_MB), text_limit_args()
    try:
        pool.run(count_pages, bomb)  # the process is started before anything is timed
        upload_s, upload, _ = timed(
            lambda: pool.run(inspect_document, bomb, MAX_UPLOAD_BYTES, 500, 40, *limit)
        )
        with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
            file.write(bomb)
            file.flush()
            parse_args = (*limit, 0) if limit else ()
            parse_s, parse, batch = timed(lambda: pool.run(read_page_range, file.name, 1, 10, *parse_args))
        stored = sum(len(text.encode()) for _, text in batch.pages) if batch else 0
        return [
            ["upload inspection", f"{len(bomb) / 1024:.0f} KB", "-", f"{upload_s:.2f}", upload[:70]],
            [
                "parse",
                f"{len(bomb) / 1024:.0f} KB",
                f"{stored / 1_048_576:.1f} MB",
                f"{parse_s:.2f}",
                parse[:70],
            ],
        ]
    finally:
        pool.close()


async def crowded_render(page: str) -> tuple[float, str]:
    """Two slots; one organisation sends two memory bombs, then another asks for a page render."""
    pool = DocumentProcesses(2, TIMEOUT_S, DEFAULTS.document_memory_mb)
    by_organisation = "organisation" in inspect.signature(pool.call).parameters
    crowd: dict[str, Any] = {"organisation": "crowd"} if by_organisation else {}
    other: dict[str, Any] = {"organisation": "other"} if by_organisation else {}
    bomb = memory_bomb_pdf(MEMORY_BOMB_MB)
    try:
        await asyncio.gather(
            pool.call(render_page, page, 1, 1.0, []), pool.call(render_page, page, 1, 1.0, [])
        )
        bombs = [
            asyncio.create_task(pool.call(inspect_document, bomb, MAX_UPLOAD_BYTES, 500, 40, **crowd))
            for _ in range(2)
        ]
        await asyncio.sleep(0.2)
        started = time.perf_counter()
        await pool.call(render_page, page, 1, 1.0, [], **other)
        waited = time.perf_counter() - started
        await asyncio.gather(*bombs, return_exceptions=True)
        return waited, "per organisation" if by_organisation else "first come"
    finally:
        pool.close()


def main() -> None:
    from bench.common import print_summary, print_table  # here: each spawned process imports this module

    with tempfile.TemporaryDirectory() as folder:
        page = str(Path(folder) / "report.pdf")
        Path(page).write_bytes(pdfs.synthetic_report(3).pdf)
        bombs = [memory_bomb(DEFAULTS.document_memory_mb, page), memory_bomb(512, page)]
        texts = text_bomb()
        waited, admission = asyncio.run(crowded_render(page))
    print_table(
        f"Memory bomb: {len(memory_bomb_pdf(MEMORY_BOMB_MB)) // 1024} KB, {MEMORY_BOMB_MB} MB of operators",
        [
            "limit MB",
            "RSS before",
            "RSS peak",
            "RSS after",
            "kept",
            "slot held s",
            "bomb outcome",
            "next render s",
            "next render",
            "same process",
            "next RSS",
        ],
        [figures.row() for figures in bombs],
    )
    print_table(
        f"Text bomb: {TEXT_BOMB_MB} MB of text lines", ["path", "file", "text", "s", "outcome"], texts
    )
    print_table(
        "Another organisation's page render while one organisation's two bombs run (2 slots)",
        ["admission", "render waited s"],
        [[admission, f"{waited:.2f}"]],
    )
    print_summary(
        {
            "bombs": [figures.__dict__ for figures in bombs],
            "text_bomb": texts,
            "crowded_render_wait_s": round(waited, 2),
            "admission": admission,
        }
    )


if __name__ == "__main__":
    main()
