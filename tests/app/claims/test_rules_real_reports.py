"""The rule-based extractor on the real reports beside the project (skipped when ../shared is absent).

Only counts and properties are asserted; no report text is copied into the repository. Per report:
a sane claim density, claim texts that are verbatim page text, no duplicates, valid types and
priorities; and the largest report must extract in well under the time budget.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from app.claims.classify import CLAIM_TYPES, PRIORITIES
from app.claims.rules import MIN_BUDGET, RuleClaim, extract_rule_claims
from app.language.footnotes import footnote_numbers
from app.language.furniture import find_furniture
from app.language.page_text import normalise_page
from tests.support.reports import report_pages, shared_report_paths

REPORTS = shared_report_paths()
MIN_PER_100_PAGES, MAX_PER_100_PAGES = 15, 150
#: Ten times the speed target (< 5 s of CPU for the 158-page Siemens report, which
#: `python -m bench.claims_extraction` measures): a slower CPU, or one shared with other processes
#: (this took 5.5 s of CPU on a loaded 2-core machine), still passes; a blow-up in the extractor
#: (quadratic matching, runaway backtracking) does not.
MAX_SECONDS = 50.0

pytestmark = [
    pytest.mark.shared_data,
    pytest.mark.skipif(not REPORTS, reason="../shared/data/sustainability-reports is not present"),
]


@cache
@cache
def claims_of(path: Path) -> tuple[RuleClaim, ...]:
    return tuple(extract_rule_claims(report_pages(path)))


def letters_and_digits(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).lower()


@pytest.mark.parametrize("path", REPORTS, ids=[path.stem for path in REPORTS])
def test_claim_density_is_sane(path: Path, record_property: pytest.RecordProperty) -> None:
    pages, claims = report_pages(path), claims_of(path)
    per_100_pages = len(claims) * 100 / len(pages)
    types = Counter(claim.claim_type for claim in claims)
    priorities = Counter(claim.priority for claim in claims)
    summary = f"{path.stem}: {len(claims)} claims, {len(pages)} pages, {per_100_pages:.1f} per 100 pages"
    print(f"{summary}; types {dict(types)}; priorities {dict(priorities)}")
    record_property("claims", len(claims))
    record_property("per_100_pages", round(per_100_pages, 1))
    # A short report may keep the extractor's floor of MIN_BUDGET claims, however dense that is per page.
    assert MIN_PER_100_PAGES <= per_100_pages, summary
    assert per_100_pages <= MAX_PER_100_PAGES or len(claims) <= MIN_BUDGET, summary


@pytest.mark.parametrize("path", REPORTS, ids=[path.stem for path in REPORTS])
def test_claims_are_verbatim_unique_and_well_formed(path: Path) -> None:
    pages = report_pages(path)
    furniture = find_furniture(pages)  # claims and contexts are read past the running lines
    text_of = {number: normalise_page(text, furniture.lines(number, text)).text for number, text in pages}
    letters_of = {number: letters_and_digits(text) for number, text in report_pages(path)}
    raw_of = dict(report_pages(path))
    claims = claims_of(path)
    for claim in claims:
        assert claim.text in text_of[claim.source_page], claim.text
        assert claim.text in claim.source_context and claim.source_context in text_of[claim.source_page]
        if claim.footnotes:  # its markers left the text: each names a footnote of the page
            notes = footnote_numbers(raw_of[claim.source_page])
            assert all(str(number) in notes for number in claim.footnotes), claim
        else:
            assert letters_and_digits(claim.text) in letters_of[claim.source_page], claim.text
        assert claim.claim_type in CLAIM_TYPES and claim.priority in PRIORITIES
        assert claim.reasoning and claim.signals and claim.score > 0
    texts = [claim.text.casefold() for claim in claims]
    assert len(texts) == len(set(texts)), "duplicate claim texts"
    assert [claim.source_page for claim in claims] == sorted(claim.source_page for claim in claims)


def test_the_largest_report_extracts_quickly() -> None:
    largest = max(REPORTS, key=lambda path: len(report_pages(path)))
    pages = report_pages(largest)
    # CPU time of this single-threaded extraction: wall time on a busy test machine measures the
    # other processes, not the extractor.
    started = time.process_time()
    extract_rule_claims(pages)
    elapsed = time.process_time() - started
    print(f"{largest.stem}: {len(pages)} pages in {elapsed:.2f} s of CPU")
    assert elapsed < MAX_SECONDS
