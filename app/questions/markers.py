"""Checking an LLM answer's citation markers statement by statement, so that what it says rests on
passages Sibyl gave it.

Stripping an unknown marker is not enough: "verified by Reuters and the BBC [P99]" would stay,
stated as fact with nothing behind it. So the answer is cut into statements (list lines, and the
sentences of a line up to the one that carries the markers: models often cite once at the end of
a run of sentences), and a statement whose markers all point at passages the model was not given
("[P99]", or a bare "[1]" in a format it was never shown) is dropped whole. Markers of given
passages become citation numbers in reading order; other markers go. Statements with no marker at
all are kept (a model says "the report does not say" without a citation) and counted, so the
answer can carry a caveat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.questions.citations import CitationList
from app.questions.types import Passage

#: A citation marker as models write them: "[P3]", "[P1, P4]", "[3]", "[1-2]", "(P3)".
_REF = r"P?\d{1,3}"
_PREF = r"P\d{1,3}"
MARKER = re.compile(
    rf"\[\s*{_REF}(?:\s*(?:[,;–-]|and)\s*{_REF})*\s*\]|\(\s*{_PREF}(?:\s*[,;]\s*{_PREF})*\s*\)", re.IGNORECASE
)
_ID = re.compile(r"P?\d+", re.IGNORECASE)
#: The end of a sentence, with any markers written after its full stop.
_END = re.compile(rf"[.!?]+(?:\s*(?:{MARKER.pattern}))*(?=\s|$)", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass
class CheckedAnswer:
    """The answer as shown, and what the check took out or found uncited."""

    text: str
    dropped: int = 0  # statements removed because they cited only passages not given
    uncited: int = 0  # statements kept that cite nothing
    unknown: list[str] = field(default_factory=list)  # markers that pointed at no given passage


def check_markers(answer: str, by_label: dict[str, Passage], cited: CitationList) -> CheckedAnswer:
    """`answer` with every statement checked against the passages the model was given (`by_label`,
    "P1" to its passage); given passages are cited in `cited` in reading order."""
    checked = CheckedAnswer("")
    lines = [_check_line(line, by_label, cited, checked) for line in answer.split("\n")]
    kept = [line for line, original in zip(lines, answer.split("\n"), strict=True) if line or not original]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(kept))
    checked.text = text.strip()
    return checked


def _check_line(line: str, by_label: dict[str, Passage], cited: CitationList, checked: CheckedAnswer) -> str:
    """One line with its statements checked; "" when none survives."""
    out: list[str] = []
    pending: list[str] = []
    for sentence in _sentences(line):
        pending.append(sentence)
        refs = [ref for marker in MARKER.findall(sentence) for ref in _ID.findall(marker)]
        if not refs:
            continue
        known = [ref.upper() for ref in refs if ref.upper() in by_label]
        checked.unknown += [ref for ref in refs if ref.upper() not in by_label]
        if known:
            out += [_renumber(piece, by_label, cited) for piece in pending]
        else:
            checked.dropped += max(1, sum(1 for piece in pending if _WORD.search(piece)))
        pending = []
    checked.uncited += sum(1 for piece in pending if _is_statement(piece))
    out += pending
    if not any(piece.strip() for piece in out):
        return ""
    indent = line[: len(line) - len(line.lstrip())]
    return indent + _tidy("".join(out).strip())


def _sentences(line: str) -> list[str]:
    """The sentences of a line, each with the space before it, so that they join back verbatim."""
    pieces, start = [], 0
    for match in _END.finditer(line):
        pieces.append(line[start : match.end()])
        start = match.end()
    if line[start:].strip():
        pieces.append(line[start:])
    return pieces


def _renumber(piece: str, by_label: dict[str, Passage], cited: CitationList) -> str:
    """`piece` with markers of given passages as citation numbers and all other markers removed."""

    def replace(match: re.Match[str]) -> str:
        refs = [ref.upper() for ref in _ID.findall(match.group())]
        return "".join(cited.cite(by_label[ref]) for ref in refs if ref in by_label)

    return MARKER.sub(replace, piece)


def _is_statement(piece: str) -> bool:
    """Whether an uncited piece says something: words, and not a heading that introduces a list."""
    stripped = piece.strip()
    return bool(_WORD.search(stripped)) and not stripped.endswith(":")


def _tidy(text: str) -> str:
    """Spaces left where markers were removed: none before punctuation, never two in a row."""
    text = re.sub(r"[ \t]{2,}", " ", text)
    return re.sub(r"[ \t]+([.,;:])", r"\1", text)
