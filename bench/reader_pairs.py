"""The rule reader against labelled claim–source sentence pairs (`bench/reader_pairs.json`).

Each pair is one claim of a fictional company and one sentence a Tier-2 outlet might print about it,
labelled by a reader who had only the rules of evidence (not the reader's code): "supports",
"contradicts" or "neither" (off the claim's fact, another company, year, scope or metric, an
intention set against an outcome, or the company's own word relayed). Each source is taken as
published at the end of June after the claim's year, as news of a year's figures is. It is read the way
the searching agents read one (`read_source`, without an LLM, its quote checked against the
sentence itself), and the reading is what the judge can use of it: the stance of a source that
counts and is not the company's word, else "neither".

The pairs are split by a fixed hash of the claim (every source of one claim falls in one half): A,
the tuning half, whose pairs and errors rules may be fitted to, and B, held out, of which only the
figures are read. Two more sets, written later by two other annotators given the same rules (and
neither the reader's code nor these pairs), widen each side: `reader_pairs_tuning.json` to
`reader_pairs_tuning_12.json` (T, twelve annotators; the ninth wrote sources of several figures each, the
tenth sources where the claim's value belongs to something else, the eleventh shares of one whole that
count its parts, the twelfth the same quantity in other words and its near misses) are tuned on like A,
and
`reader_pairs_fresh.json`
(F), `reader_pairs_fresh_2.json` (G, a sixth annotator, written after the fifth tuning set was
tuned on), `reader_pairs_fresh_3.json` (H, an eighth, written after the seventh was tuned on) and
`reader_pairs_fresh_4.json` (I, a ninth, written once that tuning had ended) and
`reader_pairs_fresh_5.json` (J, an eleventh, written beside the eighth tuning set by a tenth) and
`reader_pairs_fresh_6.json` (K, a twelfth, written while the eighth was tuned on) and
`reader_pairs_fresh_7.json` (L, a fourteenth, sources of several figures each, written beside the
ninth tuning set by a thirteenth) and `reader_pairs_fresh_8.json` (M, a fifteenth, written while the
ninth was tuned on) and `reader_pairs_fresh_9.json` (N, a seventeenth, shares of one whole, written
beside the eleventh tuning set) and `reader_pairs_fresh_10.json` (O, a nineteenth, a mix of wordings,
written beside the twelfth tuning set) are held out like B,
only their figures read.

    python -m bench.reader_pairs [--misread] [--llm]

`--misread` lists the tuning sets' misread pairs (A and T, never those of the held-out sets).
`--llm` reads the pairs with the analysis model the settings configure (`LLM_API_KEY`,
`LLM_BASE_URL`, the analysis role's model), as the searching agents do when a key is set: its
stance, quote-checked and held to the same fact. A reading the model could not give falls back to
the rules and is counted, so the figures say which reader they are of.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.config import Settings
from app.llm import LLMRole, UsageTrace
from app.llm.client import LLMClient, create_llm_client
from app.search.results import SearchResult
from app.search.sources import SourceTexts
from app.verification.investigators.news_media import NEWS_PROFILE
from app.verification.reading.source_reading import SourceReading, read_source
from app.verification.records import ClaimState
from bench.common import print_summary, print_table

PAIRS = Path(__file__).with_name("reader_pairs.json")
#: More pairs by other annotators: two sets to tune on, one held out (see the module docstring).
TUNING_PAIRS = tuple(
    Path(__file__).with_name(name)
    for name in (
        "reader_pairs_tuning.json",
        "reader_pairs_tuning_2.json",
        "reader_pairs_tuning_3.json",
        "reader_pairs_tuning_4.json",
        "reader_pairs_tuning_5.json",
        "reader_pairs_tuning_6.json",
        "reader_pairs_tuning_7.json",
        "reader_pairs_tuning_8.json",
        "reader_pairs_tuning_9.json",
        "reader_pairs_tuning_10.json",
        "reader_pairs_tuning_11.json",
        "reader_pairs_tuning_12.json",
    )
)
FRESH_PAIRS = Path(__file__).with_name("reader_pairs_fresh.json")
#: A later held-out set by a sixth annotator (G), written after the fifth tuning set was tuned on.
FRESH_PAIRS_2 = Path(__file__).with_name("reader_pairs_fresh_2.json")
#: A held-out set by an eighth annotator (H), written after the seventh tuning set was tuned on.
FRESH_PAIRS_3 = Path(__file__).with_name("reader_pairs_fresh_3.json")
#: A held-out set by a ninth annotator (I), written after the tuning on the seventh set had ended.
FRESH_PAIRS_4 = Path(__file__).with_name("reader_pairs_fresh_4.json")
#: A held-out set by an eleventh annotator (J), written beside the eighth tuning set, scored before it
#: was tuned on.
FRESH_PAIRS_5 = Path(__file__).with_name("reader_pairs_fresh_5.json")
#: A held-out set by a twelfth annotator (K), written while the eighth tuning set was tuned on.
FRESH_PAIRS_6 = Path(__file__).with_name("reader_pairs_fresh_6.json")
#: A held-out set by a fourteenth annotator (L), sources of several figures each, written beside the
#: ninth tuning set and scored before it was tuned on.
FRESH_PAIRS_7 = Path(__file__).with_name("reader_pairs_fresh_7.json")
#: A held-out set by a fifteenth annotator (M), written while the ninth tuning set was tuned on.
FRESH_PAIRS_8 = Path(__file__).with_name("reader_pairs_fresh_8.json")
#: A held-out set by a seventeenth annotator (N), shares of one whole that count its parts, written
#: beside the eleventh tuning set by a sixteenth and scored before it was tuned on.
FRESH_PAIRS_9 = Path(__file__).with_name("reader_pairs_fresh_9.json")
#: A held-out set by a nineteenth annotator (O), the same mix of wordings as the tuning sets, written
#: beside the twelfth tuning set by an eighteenth and scored before it was tuned on.
FRESH_PAIRS_10 = Path(__file__).with_name("reader_pairs_fresh_10.json")
#: The held-out files and their sets' names.
HELD_OUT_FILES = (
    (FRESH_PAIRS, "F"),
    (FRESH_PAIRS_2, "G"),
    (FRESH_PAIRS_3, "H"),
    (FRESH_PAIRS_4, "I"),
    (FRESH_PAIRS_5, "J"),
    (FRESH_PAIRS_6, "K"),
    (FRESH_PAIRS_7, "L"),
    (FRESH_PAIRS_8, "M"),
    (FRESH_PAIRS_9, "N"),
    (FRESH_PAIRS_10, "O"),
)
#: The sets' names as printed, tuning sets first.
HALF_NAMES = {
    "all": "all",
    "A": "A (tuning)",
    "T": "T (tuning, 2nd)",
    "B": "B (held-out)",
    "F": "F (held-out, 2nd)",
    "G": "G (held-out, 3rd)",
    "H": "H (held-out, 4th)",
    "I": "I (held-out, 5th)",
    "J": "J (held-out, 6th)",
    "K": "K (held-out, 7th)",
    "L": "L (held-out, 8th)",
    "M": "M (held-out, 9th)",
    "N": "N (held-out, 10th)",
    "O": "O (held-out, 11th)",
}
TUNING = frozenset({"A", "T"})
LABELS = ("supports", "contradicts", "neither")
#: A Tier-2 outlet: its reading counts on its own, so what is scored is the reading, not the tier.
OUTLET_URL = "https://www.reuters.com/sustainability/climate-energy/report"
TARGET_HELD_OUT_ACCURACY = 0.9


@dataclass(frozen=True)
class Pair:
    claim: str
    company: str
    source: str
    label: str
    kind: str
    claim_year: int | None
    #: The set a pair of the later files belongs to ("T" or "F"); None for the first file's, split by hash.
    set_name: str | None = None

    @property
    def half(self) -> str:
        """A (tuning) or B (held out), by a fixed hash of the claim, for the first file's pairs;
        the later files' own set otherwise."""
        if self.set_name is not None:
            return self.set_name
        return "A" if hashlib.sha256(self.claim.encode()).digest()[0] % 2 == 0 else "B"


def load_pairs(path: Path = PAIRS, set_name: str | None = None) -> list[Pair]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [
        Pair(
            row["claim"],
            row["company"],
            row["source"],
            row["label"],
            row["kind"],
            row["claim_year"],
            set_name,
        )
        for row in rows
    ]


def load_all_pairs() -> list[Pair]:
    """The first file's pairs, then the later sets' (each only when its file is there)."""
    pairs = load_pairs()
    for path, name in (*((path, "T") for path in TUNING_PAIRS), *HELD_OUT_FILES):
        if path.is_file():
            pairs += load_pairs(path, name)
    return pairs


class _OwnTexts(SourceTexts):
    """The quote check against the source's own text, as for a library document (nothing fetched)."""

    def __init__(self) -> None:
        super().__init__(Settings(), session_factory=None)  # type: ignore[arg-type]

    async def _retrieve(self, result: SearchResult) -> tuple[str | None, str]:
        return result.content, "library_document"


@dataclass
class _Tools:
    """What `read_source` uses of the investigation tools: the analysis model, if any, and the trace."""

    llm: LLMClient | None = None
    usage: UsageTrace | None = None


def _result(pair: Pair, index: int) -> SearchResult:
    return SearchResult(
        title="",
        url=f"{OUTLET_URL}-{index}",
        snippet=pair.source,
        # News of a year's figures comes the year after; a claim of no year has no such date.
        published_date=f"{pair.claim_year + 1}-06-30" if pair.claim_year else None,
        source_domain="reuters.com",
        relevance_score=None,
        provider="library",
        content=pair.source,
        document_id=None,
    )


def reading_label(reading: SourceReading) -> str:
    """What the judge can use of the reading: the stance of a counting independent source."""
    if not reading.counts or reading.self_reported:
        return "neither"
    return reading.assessment.stance


async def read_pair(
    pair: Pair, index: int, llm: LLMClient | None = None, usage: UsageTrace | None = None
) -> SourceReading:
    claim = ClaimState(
        claim_id=f"c{index}", text=pair.claim, claim_type="quantitative", priority="high", source_page=1
    )
    tools = _Tools(llm=llm, usage=usage if usage is not None else UsageTrace())
    return await read_source(
        tools,  # type: ignore[arg-type]
        _OwnTexts(),
        NEWS_PROFILE.rules,
        claim,
        pair.company,
        _result(pair, index),
        pair.claim,
        "company_specific",
    )


async def read_all(pairs: Sequence[Pair]) -> list[str]:
    """The rule reader's labels of `pairs`."""
    return [reading_label(await read_pair(pair, index)) for index, pair in enumerate(pairs)]


@dataclass
class ModelReading:
    """The analysis model's labels of a set of pairs, with what it took."""

    labels: list[str]
    #: Readings the model could not give (the rules read those pairs instead).
    fell_back: int
    usage: UsageTrace


async def read_all_by_model(pairs: Sequence[Pair], llm: LLMClient) -> ModelReading:
    """The pairs read with the analysis model, all at once (the client limits its concurrency)."""
    usage = UsageTrace()
    readings = await asyncio.gather(*(read_pair(pair, index, llm, usage) for index, pair in enumerate(pairs)))
    fell_back = sum(reading.llm_error is not None for reading in readings)
    return ModelReading([reading_label(reading) for reading in readings], fell_back, usage)


def _read_with_model(pairs: Sequence[Pair]) -> tuple[list[str], dict[str, object]]:
    """The labels by the configured analysis model, and what the summary says of the run."""
    settings = Settings()
    llm = create_llm_client(settings)
    if llm is None:
        raise SystemExit(
            "--llm needs an analysis model: set LLM_API_KEY (and LLM_BASE_URL for another endpoint)"
        )

    async def run() -> ModelReading:
        try:
            return await read_all_by_model(pairs, llm)
        finally:
            await llm.aclose()

    reading = asyncio.run(run())
    print(
        f"read by {llm.model_for(LLMRole.ANALYSIS)}: {reading.fell_back} of {len(pairs)} readings fell back "
        f"to the rules; {reading.usage.total.calls} calls, cost {reading.usage.total.cost_usd}"
    )
    return reading.labels, {
        "reader": f"llm:{llm.model_for(LLMRole.ANALYSIS)}",
        "fell_back": reading.fell_back,
    }


def accuracy(pairs: Sequence[Pair], read: Sequence[str]) -> tuple[int, int]:
    return sum(pair.label == got for pair, got in zip(pairs, read, strict=True)), len(pairs)


def confusion(pairs: Sequence[Pair], read: Sequence[str]) -> list[list[object]]:
    counts = Counter((pair.label, got) for pair, got in zip(pairs, read, strict=True))
    return [[label, *(counts[(label, got)] for got in LABELS)] for label in LABELS]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misread", action="store_true", help="list the tuning half's misread pairs")
    parser.add_argument("--llm", action="store_true", help="read with the configured analysis model")
    args = parser.parse_args(argv)
    pairs = load_all_pairs()
    summary: dict[str, object] = {"reader": "rules"}
    if args.llm:
        read, about = _read_with_model(pairs)
        summary.update(about)
    else:
        read = asyncio.run(read_all(pairs))
    rows = []
    for half, name in HALF_NAMES.items():
        chosen = [(p, r) for p, r in zip(pairs, read, strict=True) if half in ("all", p.half)]
        if not chosen:
            continue
        right, total = accuracy([p for p, _ in chosen], [r for _, r in chosen])
        rows.append([name, total, right, f"{right / total:.3f}"])
        summary[f"accuracy_{half}"] = round(right / total, 3)
    print_table("Accuracy of the reading", ["half", "pairs", "read right", "accuracy"], rows)
    print_table(
        "Label (rows) against reading (columns), all pairs", ["label", *LABELS], confusion(pairs, read)
    )
    for held in ("B", *(name for _, name in HELD_OUT_FILES)):
        held_out = [(p, r) for p, r in zip(pairs, read, strict=True) if p.half == held]
        if held_out:
            print_table(
                f"Label (rows) against reading (columns), {HALF_NAMES[held]}",
                ["label", *LABELS],
                confusion([p for p, _ in held_out], [r for _, r in held_out]),
            )
    if args.misread:
        for pair, got in zip(pairs, read, strict=True):
            if pair.half in TUNING and pair.label != got:
                print(f"\n[{pair.kind}] labelled {pair.label}, read {got}")
                print(f"  claim:  {pair.claim}\n  source: {pair.source}")
    summary["target_held_out"] = TARGET_HELD_OUT_ACCURACY
    print_summary(summary)


if __name__ == "__main__":
    main()
