"""A plain-text progress bar on stderr: redrawn in place on a terminal, a few lines otherwise.

Logs and CI capture stderr as a file, where a redrawn bar would be hundreds of lines; there the
bar is printed at each quarter instead.
"""

from __future__ import annotations

from typing import TextIO

WIDTH = 30


class ProgressLine:
    """Told (done, total) as records are stored; (0, 0) means the files are being read."""

    def __init__(self, label: str, stream: TextIO) -> None:
        self._label = label
        self._stream = stream
        self._live = stream.isatty()
        self._quarter = -1
        self._drawn = False

    def update(self, done: int, total: int) -> None:
        if total == 0:
            self._write(f"{self._label}reading the file(s)…")
            return
        quarter = done * 4 // total
        if not self._live and quarter == self._quarter:
            return
        self._quarter = quarter
        filled = WIDTH * done // total
        self._write(f"{self._label}[{'#' * filled}{'.' * (WIDTH - filled)}] {done:,}/{total:,} records")

    def close(self) -> None:
        """End the redrawn line, so what follows starts on its own."""
        if self._live and self._drawn:
            self._stream.write("\n")
            self._stream.flush()

    def _write(self, text: str) -> None:
        if self._live:
            self._stream.write(f"\r\033[K{text}")
        else:
            self._stream.write(f"{text}\n")
        self._stream.flush()
        self._drawn = True
