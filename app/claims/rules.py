"""The rule-based claim extractor: sentences that pass the check-worthiness bar, typed and ranked.

It needs no LLM, so it can run before (or instead of) the claims agent and give the pipeline
something useful at once. Claim texts are verbatim slices of the normalised page text
(`app.language.page_text.normalise_text`), so they can be found again on the page. The page's
furniture (running headers, footers, page numbers: `app.language.furniture`) is read past, and
footnote markers glued to words are left out of the text and kept as the claim's `footnotes`.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from app.claims.classify import assign_priority, build_reasoning, classify_claim_type
from app.claims.ranking import rank_score
from app.claims.signals import NOTICE_START, VERB
from app.claims.worthiness import CLAIM_THRESHOLD, check_worthiness, is_boilerplate
from app.language.furniture import find_furniture
from app.language.page_text import NormalisedPage, normalise_page
from app.language.sentences import block_spans, sentence_spans

__all__ = [
    "RuleClaim",
    "assign_priority",
    "check_worthiness",
    "classify_claim_type",
    "extract_rule_claims",
    "is_boilerplate",
    "is_check_worthy",
]

#: The most claims per page a long document keeps (its claims per 100 pages stay within 150).
MAX_CLAIMS_PER_PAGE = 1.5
#: Any document may keep this many claims, however short. A 100-200 page report is well served by
#: 50-200 claims, and more than 300 is over-extraction; but a short, dense document (a 15-page
#: climate plan, a page of claims sentences) with under 100 check-worthy sentences is not
#: over-extracted, and cutting it to a per-page quota only drops claims a reader would check (on short
#: documents whose claims were labelled by hand, about a third of them).
MIN_BUDGET = 100
#: The share of the budget each claim type present is first given (see `within_budget`).
TYPE_SHARE = 0.08
MAX_CLAIM_CHARS = 400
MAX_SENTENCE_CHARS = 1200
MIN_TRIMMED_CHARS = 120
MAX_NEIGHBOUR_CHARS = 300
_CLAUSE_END = re.compile(r"(?:;|,|:| –| —)\s")
#: A heading glued onto a sentence has at most this many words on its last line ...
MAX_HEADING_WORDS = 3
#: ... and, in capitals, at least this many letters (shorter capitals are acronyms: "CT REIT").
MIN_CAPS_HEADING = 6


@dataclass(frozen=True)
class RuleClaim:
    """A check-worthy sentence with its type, priority, location and the reasons it was picked.

    `score` is its check-worthiness; `rank` orders claims for the density budget
    (`app.claims.ranking`: environmental assertions by the entity first).
    """

    text: str
    claim_type: str
    priority: str
    source_page: int
    source_context: str
    reasoning: str
    score: float
    signals: tuple[str, ...]
    rank: float
    footnotes: tuple[int, ...] = ()


def extract_rule_claims(pages: Iterable[tuple[int, str]], *, budget: bool = True) -> list[RuleClaim]:
    """Claims from `(page number, page text)` pairs, in page order.

    A sentence repeated word for word (after normalisation, ignoring case) is kept once, where it
    first appears: running headers and repeated highlights would otherwise count many times.
    `budget=False` skips the density budget (`within_budget`); only benchmarks use it, to show
    what the budget cuts.
    """
    page_list = list(pages)
    furniture = find_furniture(page_list)
    claims: list[RuleClaim] = []
    seen: set[str] = set()
    page_count = 0
    for number, text in page_list:
        page_count += 1
        for claim in _page_claims(number, normalise_page(text, furniture.lines(number, text))):
            key = claim.text.casefold()
            if key not in seen:
                seen.add(key)
                claims.append(claim)
    return within_budget(claims, page_count) if budget else claims


def is_check_worthy(sentence: str) -> bool:
    """Whether the extractor would keep `sentence` (one normalised sentence), before the budget."""
    return len(sentence) <= MAX_SENTENCE_CHARS and check_worthiness(sentence)[0] >= CLAIM_THRESHOLD


def within_budget(claims: list[RuleClaim], page_count: int) -> list[RuleClaim]:
    """Keep at most `MAX_CLAIMS_PER_PAGE` claims per page of the document, the best-ranked ones.

    Dense climate reports state a figure or an environmental assertion in almost every sentence;
    far more than one claim per page is over-extraction. A verifier's time is best spent on what it
    can check: claims with a specific figure first, then the environmental claims the entity makes
    about itself, the most specific and assertive first (`app.claims.ranking`). A document of any
    length may keep `MIN_BUDGET`. Order stays by page.

    Ranking alone would leave whole claim types out (a board's oversight of climate risk has no
    figure and no environmental property, and ranks last), and with them whole IFRS pillars:
    each type present first gets its best-ranked `TYPE_SHARE` of the budget.
    """
    budget = max(MIN_BUDGET, math.floor(page_count * MAX_CLAIMS_PER_PAGE))
    if len(claims) <= budget:
        return claims
    ranked = sorted(range(len(claims)), key=lambda index: (-claims[index].rank, index))
    per_type = math.ceil(budget * TYPE_SHARE)
    taken: Counter[str] = Counter()
    kept: set[int] = set()
    for index in ranked:
        if taken[claims[index].claim_type] < per_type:
            taken[claims[index].claim_type] += 1
            kept.add(index)
    for index in ranked:
        if len(kept) >= budget:
            break
        kept.add(index)
    return [claims[index] for index in sorted(kept)]


def _page_claims(number: int, page: NormalisedPage) -> list[RuleClaim]:
    spans = sentence_spans(page)
    line_starts = [line_start for line_start, _ in page.lines]
    notice = _notice_sentences(page, spans)
    claims: list[RuleClaim] = []
    for index, (start, end) in enumerate(spans):
        sentence = page.text[start:end]
        if len(sentence) > MAX_SENTENCE_CHARS or index in notice:
            continue
        body = _after_heading(page.text, start, end, line_starts)
        if body != start:
            sentence = page.text[body:end]
            if not VERB.search(sentence):
                continue  # an item under a heading (a table cell, a timeline entry) asserts nothing
        score, signals = check_worthiness(sentence)
        if score < CLAIM_THRESHOLD:
            continue
        text = _trim(sentence)
        claim_type = classify_claim_type(text)
        claims.append(
            RuleClaim(
                text=text,
                claim_type=claim_type,
                priority=assign_priority(text, claim_type, signals),
                source_page=number,
                source_context=_context(page.text, spans, index),
                reasoning=build_reasoning(text, claim_type, signals),
                score=score,
                signals=signals,
                rank=rank_score(text, score),
                footnotes=page.footnotes_in(body, body + len(text)),
            )
        )
    return claims


def _after_heading(text: str, start: int, end: int, line_starts: list[int]) -> int:
    """Where the sentence proper begins when a heading's last line was glued onto it.

    PDF columns put a heading ("2024 & beyond", "AUDIT COMMITTEE") right above its first line; when
    the layout shows no break, the segmenter reads them as one sentence ("beyond Ongoing work ...").
    A first line of a few words with no full stop, either lower case (a heading's tail) or in
    capitals, followed by a line that starts with a capital, is cut off. The rest is still a
    verbatim slice of the page.
    """
    after = bisect.bisect_right(line_starts, start)  # the first line that starts inside the sentence
    if after == len(line_starts):
        return start
    line_start = line_starts[after]
    if line_start >= end or not text[line_start].isupper():
        return start
    lead = text[start:line_start].split()
    return line_start if len(lead) <= MAX_HEADING_WORDS and _heading_tail(lead) else start


def _heading_tail(words: list[str]) -> bool:
    """Words of a heading: letters only (not "GRI 305-3," or a figure), all lower case or capitals."""
    if not words or not all(word.isalpha() or word == "&" for word in words):
        return False
    if all(word[0].islower() for word in words):
        return True
    letters = "".join(char for word in words for char in word if char.isalpha())
    return len(letters) >= MIN_CAPS_HEADING and letters.isupper()


def _notice_sentences(page: NormalisedPage, spans: list[tuple[int, int]]) -> set[int]:
    """The sentences that follow the start of a forward-looking notice in the same block of text.

    A forward-looking notice runs on for several sentences, and only the first names itself
    ("Certain statements ... are forward-looking"); those after it ("These are provided to help
    readers ...") belong to it just the same.
    """
    if not NOTICE_START.search(page.text):
        return set()  # most pages: no need to find the blocks again
    blocks = block_spans(page)
    inside: set[int] = set()
    notice_block = -1
    block = 0
    for index, (start, end) in enumerate(spans):
        while block < len(blocks) - 1 and start >= blocks[block][1]:
            block += 1
        if block == notice_block:
            inside.add(index)
        elif NOTICE_START.search(page.text, start, end):
            notice_block = block
    return inside


def _trim(sentence: str) -> str:
    """Cut an over-long sentence at the last clause boundary that keeps it under the limit.

    The result is a prefix of the sentence, so it stays a verbatim slice of the page.
    """
    if len(sentence) <= MAX_CLAIM_CHARS:
        return sentence
    cut = None
    for match in _CLAUSE_END.finditer(sentence, MIN_TRIMMED_CHARS, MAX_CLAIM_CHARS):
        cut = match.start()
    if cut is None:
        cut = sentence.rfind(" ", 0, MAX_CLAIM_CHARS)
    return sentence[:cut].rstrip(" ,;:–—")


def _context(text: str, spans: list[tuple[int, int]], index: int) -> str:
    """The sentence with its neighbours on the same page, as one verbatim slice of the page."""
    start, end = spans[index]
    if index > 0 and spans[index - 1][1] - spans[index - 1][0] <= MAX_NEIGHBOUR_CHARS:
        start = spans[index - 1][0]
    if index + 1 < len(spans) and spans[index + 1][1] - spans[index + 1][0] <= MAX_NEIGHBOUR_CHARS:
        end = spans[index + 1][1]
    return text[start:end]
