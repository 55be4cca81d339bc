"""The import's progress bar: redrawn in place on a terminal, a line per quarter in a log."""

from __future__ import annotations

import io

from app.registries.progress import ProgressLine


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_a_line_per_quarter() -> None:
    stream = io.StringIO()
    line = ProgressLine("sbti: ", stream)

    line.update(0, 0)
    for done in (1000, 2000, 2500, 5000, 7500, 10000):
        line.update(done, 10000)
    line.close()

    assert stream.getvalue().splitlines() == [
        "sbti: reading the file(s)…",
        "sbti: [###...........................] 1,000/10,000 records",
        "sbti: [#######.......................] 2,500/10,000 records",
        "sbti: [###############...............] 5,000/10,000 records",
        "sbti: [######################........] 7,500/10,000 records",
        "sbti: [##############################] 10,000/10,000 records",
    ]


def test_a_terminal_gets_one_line_redrawn() -> None:
    stream = Terminal()
    line = ProgressLine("nger: ", stream)

    line.update(0, 0)
    line.update(417, 417)
    line.close()

    assert stream.getvalue() == (
        "\r\033[Knger: reading the file(s)…\r\033[Knger: [##############################] 417/417 records\n"
    )
