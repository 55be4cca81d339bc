"""Reading a registry's spreadsheet or CSV into rows, and finding the table's header row.

Registries put title lines, notes or a second header band above their column names, so a table is
found by its columns, not by its position: the first row (of the first sheet) that holds every
required column is the header. Workbooks are read with calamine (Rust), which reads the 14,000-row
SBTi export in about a second where openpyxl takes ten or more.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from python_calamine import CalamineError, CalamineWorkbook

from app.registries import cells
from app.registries.cells import Cell
from app.registries.records import RegistryFileProblem

T = TypeVar("T")
#: How far down a sheet its header row may sit.
HEADER_SCAN_ROWS = 30


@dataclass(frozen=True)
class Sheet:
    """The rows of one sheet (or of a CSV file), and where they came from for messages."""

    file: str
    where: str
    rows: Sequence[Sequence[Cell]]


def read_workbook(path: Path) -> list[Sheet]:
    """Every sheet of an .xlsx/.xls/.ods workbook, in order.

    Raises:
        RegistryFileProblem: The file is missing or is not a workbook calamine can read.
    """
    _require_file(path)
    try:
        workbook = CalamineWorkbook.from_path(str(path))
        return [
            Sheet(path.name, f"{path.name} (sheet {name!r})", workbook.get_sheet_by_name(name).to_python())
            for name in workbook.sheet_names
        ]
    except CalamineError as exc:
        raise RegistryFileProblem(f"{path.name} is not a readable Excel workbook ({exc}).") from exc


def read_csv(path: Path) -> list[Sheet]:
    """A CSV file as one sheet of text cells (UTF-8, with or without a byte-order mark, else Windows-1252).

    Raises:
        RegistryFileProblem: The file is missing, binary, or not CSV text.
    """
    _require_file(path)
    data = path.read_bytes()
    if b"\x00" in data[:4096]:
        raise RegistryFileProblem(f"{path.name} is not a CSV file (it holds binary data).")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise RegistryFileProblem(f"{path.name} is not a readable CSV file ({exc}).") from exc
    return [Sheet(path.name, path.name, rows)]


def _require_file(path: Path) -> None:
    if not path.is_file():
        raise RegistryFileProblem(f"{path} does not exist or is not a file.")


def column_key(name: Cell) -> str:
    """A header cell as compared: spaces collapsed, case folded ("Scope 1  total " is "scope 1 total")."""
    return " ".join(str(name or "").split()).casefold()


@dataclass(frozen=True)
class Table:
    """A sheet's rows under its header, with the column of each header name."""

    where: str
    columns: dict[str, int]
    rows: Sequence[Sequence[Cell]]

    def cell(self, row: Sequence[Cell], name: str) -> Cell:
        """The row's cell under `name`; None where the table has no such column or the row is short."""
        position = self.columns.get(name)
        if position is None:
            position = self.columns.get(column_key(name))
        return row[position] if position is not None and position < len(row) else None

    def read(self, row: Sequence[Cell], name: str, convert: Callable[[Cell], T]) -> T:
        """`convert` (a `cells` function) of the row's cell under `name`.

        Raises:
            RegistryFileProblem: The cell holds a value of the wrong kind; the message says where.
        """
        try:
            return convert(self.cell(row, name))
        except ValueError as exc:
            number = next((i for i, r in enumerate(self.rows, 1) if r is row), 0)
            raise RegistryFileProblem(f"{self.where}, data row {number}, column {name!r}: {exc}.") from exc

    def text(self, row: Sequence[Cell], name: str) -> str | None:
        return self.read(row, name, cells.text)

    def whole(self, row: Sequence[Cell], name: str) -> int | None:
        return self.read(row, name, cells.whole)

    def number(self, row: Sequence[Cell], name: str) -> float | None:
        return self.read(row, name, cells.number)

    def year(self, row: Sequence[Cell], name: str) -> int | None:
        return self.read(row, name, cells.year)

    def day(self, row: Sequence[Cell], name: str) -> datetime.date | None:
        return self.read(row, name, cells.day)


def find_table(sheets: Sequence[Sheet], required: Sequence[str], what: str) -> Table:
    """The first sheet's table whose header row holds every `required` column.

    Raises:
        RegistryFileProblem: No sheet has them; the message names the columns missing from the
            closest header row and what file the registry expects (`what`).
    """
    wanted = [column_key(name) for name in required]
    closest: tuple[int, str, list[str]] | None = None
    for sheet in sheets:
        for index, row in enumerate(sheet.rows[:HEADER_SCAN_ROWS]):
            columns: dict[str, int] = {}
            for position, cell in enumerate(row):
                columns.setdefault(column_key(cell), position)
            missing = [name for name, key in zip(required, wanted, strict=True) if key not in columns]
            if not missing:
                return Table(sheet.where, columns, sheet.rows[index + 1 :])
            found = len(required) - len(missing)
            if found and (closest is None or found > closest[0]):
                closest = (found, sheet.where, missing)
    if closest is None:
        names = " and ".join(dict.fromkeys(sheet.file for sheet in sheets)) or "the file"
        raise RegistryFileProblem(
            f"{names} has none of the columns of {what} ({', '.join(required)}): is it the right file?"
        )
    _, where, missing = closest
    raise RegistryFileProblem(f"{where} lacks the column(s) {', '.join(missing)} that {what} has.")
