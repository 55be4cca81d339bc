"""A quote widened to the whole sentence(s) of the source that hold it.

An analysis model asked for "the one sentence" may return a fragment: "its Scope 3 emissions were
14.2 Mt CO2e in 2023" cut out of "Auditors rejected the company's statement that its Scope 3
emissions were 14.2 Mt CO2e in 2023 and put them at 19 Mt." The fragment is in the source, so the
quote check passes, yet the sentence says the opposite. The checks of what a quote means
(`app.verification.reading.same_fact`) read the whole sentence, and the verdict shows it.

Sentences are found as the claims pipeline splits a page (`app.language.sentences.split_sentences`)
and compared as the quote check compares (`normalize_for_match`: case, whitespace and hyphens do not
decide). A quote with ellipses spans from its first part's sentence to its last part's.
"""

from __future__ import annotations

import re

from app.language.sentences import split_sentences
from app.language.textmatch import normalize_for_match

_ELLIPSIS = re.compile(r"\.\.\.|…|\[\.\.\.\]")
#: Widened quotes longer than this are cut: a model quoting a whole page is not quoting a sentence.
MAX_SENTENCE_CHARS = 1200


def whole_sentences(quote: str, text: str, title: str = "") -> str | None:
    """The sentence(s) of `title` or `text` holding `quote`, joined; None when the quote (or one of
    its elided parts) is not there."""
    parts = [normalize_for_match(part.strip(" \"'“”‘’")) for part in _ELLIPSIS.split(quote)]
    parts = [part for part in parts if part]
    if not parts:
        return None
    if title and all(part in normalize_for_match(title) for part in parts):
        return title.strip()
    sentences = [sentence.text for sentence in split_sentences(1, text)]
    normalised = [normalize_for_match(sentence) for sentence in sentences]
    joined = "".join(normalised)
    starts: list[int] = []
    position = 0
    for sentence in normalised:
        starts.append(position)
        position += len(sentence)
    first = joined.find(parts[0])
    if first < 0:
        return None
    last_start = first
    for part in parts[1:]:
        found = joined.find(part, last_start)
        if found < 0:
            return None
        last_start = found
    end = last_start + len(parts[-1])
    indices = [i for i, begin in enumerate(starts) if begin < end and begin + len(normalised[i]) > first]
    if not indices:
        return None
    widened = " ".join(sentences[i].strip() for i in range(indices[0], indices[-1] + 1))
    return widened[:MAX_SENTENCE_CHARS]
