"""The text a PDF may yield: bounded by its page count and its file size, far above any real
report (every shared report reads whole under the defaults) and far below a text bomb."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Settings
from app.documents.pdf import PdfProblem, PdfRejected
from app.documents.reading import count_pages, inspect_document, read_page_range
from app.documents.text import RATIO_FREE_TEXT_BYTES, TextLimit
from tests.fixtures import pdfs
from tests.fixtures.bomb_pdfs import text_bomb_pdf
from tests.support.reports import shared_report_paths

DEFAULTS = TextLimit.from_settings(Settings(_env_file=None))  # type: ignore[call-arg]
IFRS = Path(__file__).resolve().parents[4] / "shared" / "data" / "ifrs-issb"
REAL_PDFS = [*shared_report_paths(), *(sorted(IFRS.glob("*.pdf")) if IFRS.is_dir() else [])]


def read_all(source: bytes | str, batch: int = 10) -> int:
    """Read every page in batches, as a parse does; the text's size in bytes."""
    pages = count_pages(source)
    used = 0
    for start in range(1, pages + 1, batch):
        used += read_page_range(source, start, start + batch - 1, DEFAULTS, used).text_bytes
    return used


def test_the_budget_is_the_smaller_of_the_page_and_the_size_allowances() -> None:
    limit = TextLimit(bytes_per_page=1000, ratio=10)
    assert limit.budget(file_bytes=10_000_000, page_count=3) == 3000
    assert limit.budget(file_bytes=200_000, page_count=10_000) == 2_000_000
    assert limit.budget(file_bytes=1000, page_count=10_000) == RATIO_FREE_TEXT_BYTES


@pytest.mark.parametrize("path", REAL_PDFS, ids=lambda path: path.stem)
def test_every_real_report_reads_whole_within_a_tenth_of_the_default_limit(path: Path) -> None:
    data = path.read_bytes()
    used = read_all(str(path))
    assert 0 < used * 10 < DEFAULTS.budget(len(data), count_pages(str(path)))
    assert inspect_document(data, 50 << 20, 500, 40, DEFAULTS).page_count > 0


def test_a_generated_report_reads_whole() -> None:
    assert read_all(pdfs.synthetic_report(12).pdf) > 0


def test_a_batch_is_refused_once_the_document_passes_its_budget_across_batches() -> None:
    bomb = text_bomb_pdf(0.2, pages=12, opening_page=True)  # 13 pages of ~200 KB of text, 4 KB on disk
    limit = TextLimit(bytes_per_page=65536, ratio=20)  # 13 pages: 832 KB

    first = read_page_range(bomb, 1, 3, limit, 0)  # about 400 KB
    with pytest.raises(PdfRejected) as refused:
        read_page_range(bomb, 4, 6, limit, first.text_bytes)

    assert refused.value.problem is PdfProblem.TEXT_TOO_LARGE
    assert "by page 6 it passed 832 KB" in refused.value.message


def test_without_a_limit_nothing_is_refused() -> None:
    assert read_page_range(text_bomb_pdf(1), 1, 1).text_bytes > 900_000
