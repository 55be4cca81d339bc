"""The official-PDF parser, and the guard that our registry summaries never copy the standards.

The real PDFs live beside the project in `../shared` (they are copyrighted, so never in the repo);
tests that need them skip when it is absent. A small synthetic PDF covers the layout rules anyway.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from app.knowledge.ifrs_pdf import StandardText, attach_to_registry, missing_registry_ids, parse_standard_pdf
from app.knowledge.registry import REQUIREMENTS

IFRS_DIR = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "ifrs-issb"
SHARED_RUN = 8  # consecutive words a summary may never share with the official text
BODY_PARAGRAPHS = {"S1": 86, "S2": 37}


@pytest.fixture(scope="module", params=["S1", "S2"])
def parsed(request: pytest.FixtureRequest) -> tuple[str, StandardText]:
    """(the standard the file is, what the parser made of it), parsed once per module."""
    path = IFRS_DIR / f"ifrs-{request.param.lower()}.pdf"
    if not path.is_file():
        pytest.skip(f"official IFRS PDFs not available at {IFRS_DIR}")
    return request.param, parse_standard_pdf(path)


@pytest.fixture(scope="module")
def official(parsed: tuple[str, StandardText]) -> StandardText:
    return parsed[1]


def words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).split()


def runs(text: str, length: int = SHARED_RUN) -> set[tuple[str, ...]]:
    tokens = words(text)
    return {tuple(tokens[i : i + length]) for i in range(len(tokens) - length + 1)}


def registry_ids(standard: str) -> list[str]:
    return [r.paragraph_id for r in REQUIREMENTS if r.standard == standard]


@pytest.mark.shared_data
def test_detects_the_standard_from_its_text(parsed: tuple[str, StandardText]) -> None:
    expected, official = parsed
    assert official.standard == expected
    assert all(pid.startswith(f"{official.standard}.") for pid in official.paragraphs)


@pytest.mark.shared_data
def test_body_paragraphs_are_all_found_in_order(official: StandardText) -> None:
    body = [pid for pid in official.paragraphs if re.fullmatch(r"S[12]\.\d+", pid)]
    count = BODY_PARAGRAPHS[official.standard]
    assert body == [f"{official.standard}.{n}" for n in range(1, count + 1)]


@pytest.mark.shared_data
def test_most_registry_ids_get_printed_text(official: StandardText) -> None:
    ids = registry_ids(official.standard)
    attached = attach_to_registry(official)
    assert len(attached) / len(ids) >= 0.9, missing_registry_ids(official)
    assert set(attached) == set(ids) - set(missing_registry_ids(official))
    assert all(attached[pid] == official.paragraphs[pid] for pid in attached)


@pytest.mark.shared_data
def test_running_headers_footers_and_footnotes_are_dropped(official: StandardText) -> None:
    for pid, text in official.paragraphs.items():
        assert "© IFRS Foundation" not in text, pid
        assert "SUSTAINABILITY DISCLOSURE STANDARDS" not in text, pid
        assert "JUNE 2023" not in text, pid
        assert "used interchangeably" not in text, pid  # footnote 1 of both standards


@pytest.mark.shared_data
def test_appendices_neither_replace_nor_leak_into_body_paragraphs(official: StandardText) -> None:
    std = official.standard
    last = official.paragraphs[f"{std}.{BODY_PARAGRAPHS[std]}"]
    assert "Appendix" not in last and "Defined terms" not in last
    assert f"{std}.B1" in official.paragraphs
    assert official.paragraphs[f"{std}.B1"] != official.paragraphs[f"{std}.1"]
    assert official.paragraphs[f"{std}.1"].startswith(f"The objective of IFRS {std}")
    # Appendix A (definitions) holds no requirements and is not parsed into ids.
    assert not any(pid.startswith(f"{std}.A") for pid in official.paragraphs)


@pytest.mark.shared_data
def test_known_paragraph_texts(official: StandardText) -> None:
    text = official.paragraphs
    if official.standard == "S2":
        assert "Scope 1" in text["S2.29(a)(i)"]
        assert text["S2.29(a)(i)(1)"].startswith("Scope 1") and "Scope 2" not in text["S2.29(a)(i)(1)"]
        assert "governance body" in text["S2.6"]
        assert text["S2.29(g)(ii)"] in text["S2.29"]  # a paragraph includes its sub-paragraphs
        assert "(vi) for Scope 3" in text["S2.29(a)"]
        assert "climate-related" in text["S2.22(a)(iii)(1)"]  # line-end hyphens are kept, not spaced
    else:
        assert "governance body" in text["S1.27(a)"]
        assert text["S1.78(b)(ii)"] in text["S1.78"]
        assert "12 months" in text["S1.66"]


@pytest.mark.shared_data
def test_summaries_do_not_copy_the_official_text(official: StandardText) -> None:
    """Our summaries must be our own words: no run of 8 words shared with the standard."""
    whole = " ".join(t for pid, t in official.paragraphs.items() if "(" not in pid)
    whole_runs = runs(whole)
    copied = []
    for r in REQUIREMENTS:
        if r.standard != official.standard:
            continue
        own = runs(official.paragraphs.get(r.paragraph_id, ""))
        for field in (r.summary, r.title):
            shared = runs(field) & (own | whole_runs)
            copied += [f"{r.paragraph_id}: {' '.join(run)}" for run in shared]
    assert copied == []


def _write_pdf(path: Path, pages: list[list[tuple[float, float, str, str]]]) -> None:
    """A PDF whose text lines sit at given (x, baseline, font, text) positions on A4 pages."""
    opener: Any = pymupdf.open
    document: Any = opener()
    for lines in pages:
        page = document.new_page(width=595, height=842)
        for x, y, font, text in lines:
            page.insert_text((x, y), text, fontname=font, fontsize=11 if font == "helv" else 8.5)
    document.save(str(path))
    document.close()


def test_synthetic_layout_nesting_headers_and_appendix(tmp_path: Path) -> None:
    header = (165, 105, "helv", "IFRS S2 CLIMATE-RELATED DISCLOSURES")
    even = [
        header,
        (112, 140, "helv", "Objective"),
        (112, 170, "tiro", "1"),
        (154, 170, "tiro", "An entity shall disclose:"),
        (154, 185, "tiro", "(a)"),
        (183, 185, "tiro", "governance-"),
        (183, 197, "tiro", "related facts; and"),
        (183, 212, "tiro", "(i)"),
        (211, 212, "tiro", "who oversees them;"),
        (154, 227, "tiro", "(b)"),
        (183, 227, "tiro", "targets."),
        (154, 242, "tiro", "Closing words of paragraph one."),
        (112, 260, "tiro", "2"),
        (154, 260, "tiro", "Second paragraph starts"),
        (112, 735, "helv", "4"),
        (246, 735, "helv", "© IFRS Foundation"),
    ]
    odd = [
        header,
        (180, 140, "tiro", "and ends on the next page."),
        (137, 160, "helv", "Appendix A"),
        (137, 180, "tiro", "term"),
        (237, 180, "tiro", "A definition that is not a requirement."),
        (137, 200, "helv", "Appendix B"),
        (137, 220, "tiro", "B1"),
        (180, 220, "tiro", "Guidance text."),
        (137, 240, "tiro", "3"),
        (180, 240, "tiro", "A stray number in the appendix is not body paragraph 3."),
        (137, 260, "helv", "Approval by the ISSB of IFRS S2"),
        (137, 280, "tiro", "Members"),
    ]
    path = tmp_path / "synthetic.pdf"
    _write_pdf(path, [even, odd])
    parsed = parse_standard_pdf(path)
    assert parsed.standard == "S2"
    text = parsed.paragraphs
    assert set(text) == {"S2.1", "S2.1(a)", "S2.1(a)(i)", "S2.1(b)", "S2.2", "S2.B1"}
    assert text["S2.1(a)"] == "governance-related facts; and (i) who oversees them;"
    assert text["S2.1(a)(i)"] == "who oversees them;"
    assert text["S2.1"] == (
        "An entity shall disclose: (a) governance-related facts; and (i) who oversees them; "
        "(b) targets. Closing words of paragraph one."
    )
    assert text["S2.2"] == "Second paragraph starts and ends on the next page."
    assert text["S2.B1"].startswith("Guidance text.")


def test_rejects_a_document_that_is_not_an_ifrs_standard(tmp_path: Path) -> None:
    path = tmp_path / "other.pdf"
    _write_pdf(path, [[(112, 200, "tiro", "A sustainability report, not a standard.")]])
    with pytest.raises(ValueError):
        parse_standard_pdf(path)
