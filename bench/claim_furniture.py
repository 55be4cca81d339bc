"""Page furniture left in rule claims: glued footnote markers and running headers or footers.

Extracts the rule claims of each shared report (`../shared/data/sustainability-reports`, read at
run time, never copied here) and scans every claim with checks that do not share the extractor's
code, so a fix is judged by something other than itself:

- a glued footnote marker: a token of a lower-case word and one to three digits ("zero28",
  "levels10,") or a word, a full stop and digits ("emissions.3"), where the page has a line that
  starts with that number (its footnote);
- a running line: a line of text (digits read as "#") that appears among the first or last five
  lines of at least a quarter of the pages, has letters and two or more words, found inside a claim.

    python -m bench.claim_furniture

Prints the counts per report. Skipped, with a message, when ../shared is absent.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from app.claims.rules import RuleClaim, extract_rule_claims
from bench.common import print_summary, print_table
from tests.support.reports import report_pages, shared_report_paths

_GLUED = re.compile(r"(?<![\w.])[a-z]{3,}\.?(\d{1,3})(?=[.,;:)]?(?:\s|$))")
_NOTE_LINE = re.compile(r"^\s*(\d{1,3})[.)]?\s+\S", re.MULTILINE)
_DIGITS = re.compile(r"\d+")
_EDGE_LINES = 5
_RUNNING_SHARE = 0.25


def _key(line: str) -> str:
    return _DIGITS.sub("#", " ".join(line.split()).casefold())


def running_lines(pages: Sequence[tuple[int, str]]) -> set[str]:
    """Lines at a page's edge on at least a quarter of the pages (digits as "#"), with 2+ letters."""
    seen: Counter[str] = Counter()
    for _, text in pages:
        lines = [line for line in text.split("\n") if line.strip()]
        seen.update({_key(line) for line in lines[:_EDGE_LINES] + lines[-_EDGE_LINES:]})
    least = max(3, _RUNNING_SHARE * len(pages))
    return {key for key, count in seen.items() if count >= least and len(re.findall(r"[a-z]", key)) >= 2}


def glued_markers(claim: RuleClaim, page_text: str) -> list[str]:
    notes = {match.group(1) for match in _NOTE_LINE.finditer(page_text)}
    return [match.group(0) for match in _GLUED.finditer(claim.text) if match.group(1) in notes]


def carries_running_line(claim: RuleClaim, running: set[str]) -> bool:
    text = _key(claim.text)
    return any(f" {key} " in f" {text} " for key in running if len(key.split()) >= 2)


def main() -> None:
    paths = shared_report_paths()
    if not paths:
        print("skipped: ../shared/data/sustainability-reports is absent")
        return
    rows = []
    totals = Counter[str]()
    for path in paths:
        pages = report_pages(path)
        texts = dict(pages)
        running = running_lines(pages)
        claims = extract_rule_claims(pages)
        markers = [(claim, glued_markers(claim, texts[claim.source_page])) for claim in claims]
        glued = [pair for pair in markers if pair[1]]
        headed = [claim for claim in claims if carries_running_line(claim, running)]
        for claim, found in glued[:3]:
            print(f"  {path.stem} p{claim.source_page} marker {found}: {claim.text[:100]!r}")
        for claim in headed[:3]:
            print(f"  {path.stem} p{claim.source_page} running line: {claim.text[:100]!r}")
        rows.append((path.stem, len(claims), len(glued), len(headed)))
        totals.update(claims=len(claims), glued=len(glued), running=len(headed))
    print_table("Furniture in rule claims", ("report", "claims", "glued markers", "running lines"), rows)
    print_summary({"bench": "claim_furniture", **totals})


if __name__ == "__main__":
    main()
