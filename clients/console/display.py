"""Live progress on stderr: a redrawn bar with activity lines above it on a terminal, plain lines
(a progress line only when it changes) when stderr is a pipe or a file."""

from __future__ import annotations

import shutil
from typing import TextIO

from clients.sibyl.models import Report

BAR_WIDTH = 24
PLAIN_LINE_WIDTH = 200


def progress_text(report: Report) -> str:
    """`[#####.....]  42%  investigating · geography, legal` for a report's latest analysis."""
    analysis = report.analysis
    percent = analysis.progress_percent if analysis else 0.0
    filled = round(BAR_WIDTH * min(max(percent, 0.0), 100.0) / 100)
    stage = (analysis.pipeline_stage if analysis else None) or report.status.lower()
    agents = f" · {', '.join(analysis.active_agents)}" if analysis and analysis.active_agents else ""
    return f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {percent:3.0f}%  {stage}{agents}{_queued(report)}"


def _queued(report: Report) -> str:
    """` · queued, 3 jobs ahead` while the report's job waits for a worker (organisations take turns)."""
    ahead = report.queue_position
    if ahead is None:
        return ""
    return (
        " · queued, starts next" if ahead == 0 else f" · queued, {ahead} job{'s' if ahead > 1 else ''} ahead"
    )


class Display:
    """Writes progress and activity to `stream`; `live` redraws one bar line in place (a TTY)."""

    def __init__(self, stream: TextIO, live: bool | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self._bar = ""
        self._last_plain = ""

    def _width(self) -> int:
        return shutil.get_terminal_size((100, 24)).columns - 1 if self.live else PLAIN_LINE_WIDTH

    def _fit(self, line: str) -> str:
        width = self._width()
        return line if len(line) <= width else line[: width - 1] + "…"

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def line(self, text: str) -> None:
        """A line that stays (activity, notes), above the bar on a terminal."""
        if self.live:
            self._write(f"\r\x1b[K{self._fit(text)}\n{self._bar}")
        else:
            self._write(self._fit(text) + "\n")

    def progress(self, report: Report) -> None:
        """Show the report's progress: redraw the bar, or print a line if it changed."""
        text = progress_text(report)
        if self.live:
            self._bar = self._fit(text)
            self._write(f"\r\x1b[K{self._bar}")
        elif text != self._last_plain:
            self._last_plain = text
            self._write(f"progress     {text}\n")

    def close(self) -> None:
        """End the bar's line so later output starts on a fresh line."""
        if self.live and self._bar:
            self._write("\n")
        self._bar = ""
