"""Find the places a text names: capitalised word runs matched against the gazetteer.

The longest name wins ("New South Wales" over "Wales"). A name that is also an ordinary word, a
month, a short fragment, a word the same text uses in lower case, or part of a longer proper noun
("Mobile Devices", "Canadian Tire", "Lake Victoria") needs a cue of place: "in Reading", or
"Reading, England". A name followed by "Agreement", "Protocol", "Stock Exchange"... is a named
thing, and words inside the company's own name are not places ("Rio Tinto" in a Rio Tinto report).

A name several places share is resolved by the countries the same sentence names ("Perth,
Scotland"), then by kind (a country, state or region over a town of its name) and population.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.geo.gazetteer import Gazetteer, GazetteerEntry, Place, load_gazetteer
from app.geo.names import Word, name_key, words
from app.geo.regions import UPPERCASE_ALIASES
from app.geo.words import (
    COMMON_WORDS,
    CONNECTORS,
    FUNCTION_WORDS,
    NON_PLACE_FOLLOWERS,
    PLACE_PREPOSITIONS,
    SHORT_NAME_LETTERS,
    TIME_WORDS,
)

#: Confidence that the words name the chosen place.
UNIQUE_CONFIDENCE = 0.9  # the only place of that name
CONTEXT_CONFIDENCE = 0.85  # the sentence names its country
DOMINANT_CONFIDENCE = 0.75  # an admin area over towns of its name, or a town 10x bigger than the next
AMBIGUOUS_CONFIDENCE = 0.5  # the biggest of several comparable towns
RISKY_FACTOR = 0.8  # also an ordinary word, accepted on a cue
ALTERNATE_FACTOR = 0.9  # matched by an alternate name
DOMINANCE_RATIO = 10

_KIND_RANK = {"country": 0, "state": 1, "region": 2, "city": 3}
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z\"“])")
_SOFT_HYPHEN = re.compile("\u00ad\\s*")
_LABEL_AFTER = re.compile(r"\s*(?:\d|[A-Z]\b|[IVX]+\b)")
_CUE_SEPARATORS = frozenset({",", "("})
_UPPERCASE_KEYS = frozenset(name_key(alias) for alias in UPPERCASE_ALIASES)


@dataclass(frozen=True)
class _Mention:
    first: int  # index of its first word
    last: int  # index of its last word
    text: str
    key: str
    primary: list[GazetteerEntry]  # places this is the own name of
    alternate: list[GazetteerEntry]  # places this is an alternate name of
    start: int
    end: int

    @property
    def candidates(self) -> list[GazetteerEntry]:
        return self.primary or self.alternate


def extract_places(
    text: str, *, exclude: Sequence[str] = (), gazetteer: Gazetteer | None = None
) -> list[Place]:
    """The distinct places `text` names, in order of first mention.

    Args:
        text: Any prose (a claim, its context).
        exclude: Phrases whose words are not places (the company's name).
        gazetteer: Defaults to the process's gazetteer (built on first use).
    """
    index = gazetteer or load_gazetteer()
    text = _SOFT_HYPHEN.sub("", text)  # "Elec\u00adtricity" is one word, not "Elec"
    lower_words = {word.text for word in words(text) if word.text.islower()}
    excluded = _excluded_spans(text, exclude)
    places: dict[tuple[str, str, str], Place] = {}
    for sentence_start, sentence in _sentences(text):
        for offset, length, place in _sentence_places(sentence, index, lower_words):
            start = sentence_start + offset
            if any(start < end and begin < start + length for begin, end in excluded):
                continue
            key = (place.name, place.kind, place.country_code)
            if key not in places or places[key].confidence < place.confidence:
                places[key] = place
    return list(places.values())


def _sentences(text: str) -> list[tuple[int, str]]:
    """`(offset, sentence)` pairs; a dot after an abbreviation ("U.S.", "St.") ends no sentence."""
    pieces: list[tuple[int, str]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        before = text[start : match.start()].split()
        last = before[-1] if before else ""
        if "." in last or len(last) <= 2 or last in {"St", "Mt", "Ft", "Ste"}:
            continue
        pieces.append((start, text[start : match.start() + 1]))
        start = match.end()
    pieces.append((start, text[start:]))
    return [(offset, piece) for offset, piece in pieces if piece.strip()]


def _excluded_spans(text: str, phrases: Sequence[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for phrase in phrases:
        parts = phrase.split()
        if parts:
            pattern = r"\s+".join(re.escape(part) for part in parts)
            spans += [(m.start(), m.end()) for m in re.finditer(pattern, text, re.IGNORECASE)]
    return spans


def _sentence_places(sentence: str, index: Gazetteer, lower_words: set[str]) -> list[tuple[int, int, Place]]:
    """`(offset in the sentence, length, place)` for each accepted mention."""
    ws = words(sentence)
    found = _mentions(sentence, ws, index)
    risky = {m.first: _risky(m, found, ws, lower_words) for m in found}
    kept = [m for m in found if _accepted(m, found, ws, sentence, risky=risky[m.first])]
    countries = {m.first: _country_of(m) for m in kept}
    return [
        (m.start, m.end - m.start, _resolve(m, _context(countries, m), index, risky=risky[m.first]))
        for m in kept
    ]


def _country_of(mention: _Mention) -> str | None:
    """The one country every place of that name is in ("Salzgitter", "Scotland"), else None."""
    codes = {candidate.country_code for candidate in mention.candidates}
    return codes.pop() if len(codes) == 1 and "" not in codes else None


def _context(countries: dict[int, str | None], mention: _Mention) -> set[str]:
    """The countries the *other* mentions of the sentence settle."""
    return {code for first, code in countries.items() if first != mention.first and code}


def _mentions(sentence: str, ws: list[Word], index: Gazetteer) -> list[_Mention]:
    """Longest-first, left-to-right matches of capitalised word runs against the gazetteer."""
    mentions: list[_Mention] = []
    i = 0
    while i < len(ws):
        match = _longest_at(sentence, ws, i, index) if ws[i].capitalised else None
        if match is None:
            i += 1
            continue
        mentions.append(match)
        i = match.last + 1
    return mentions


def _longest_at(sentence: str, ws: list[Word], first: int, index: Gazetteer) -> _Mention | None:
    for last in range(min(len(ws), first + index.max_words) - 1, first - 1, -1):
        span = ws[first : last + 1]
        if not _may_be_name(span):
            continue
        key = name_key(" ".join(word.text for word in span))
        primary, alternate = index.candidates(key)
        if primary or alternate:
            start, end = span[0].start, span[-1].end
            text = " ".join(sentence[start:end].split())
            return _Mention(first, last, text, key, primary, alternate, start, end)
    return None


def _may_be_name(span: list[Word]) -> bool:
    """Joined words, capitalised at both ends, connectors only inside; capitals only for "UK"..."""
    if not span[-1].capitalised or any(not word.joined for word in span[1:]):
        return False
    if any(not word.capitalised and word.text not in CONNECTORS for word in span[1:-1]):
        return False
    abbreviation = span[0].text.replace(".", "") if len(span) == 1 else ""
    if any(word.shouted for word in span) or name_key(abbreviation) in _UPPERCASE_KEYS:
        return abbreviation in UPPERCASE_ALIASES  # "US" is a country, "Us" a pronoun
    return True


def _accepted(
    mention: _Mention, found: list[_Mention], ws: list[Word], sentence: str, *, risky: bool
) -> bool:
    following = ws[mention.last + 1] if mention.last + 1 < len(ws) else None
    if following is not None and following.joined and following.text.lower() in NON_PLACE_FOLLOWERS:
        return False
    if not risky or _followed_by_area(mention, found, sentence):
        return True
    if _LABEL_AFTER.match(sentence, mention.end):
        return False  # "in March 2024", "in Annex A": a date or a label
    previous = ws[mention.first - 1] if mention.first > 0 else None
    after_preposition = (
        previous is not None and ws[mention.first].joined and previous.text.lower() in PLACE_PREPOSITIONS
    )
    return after_preposition and mention.key not in TIME_WORDS


def _risky(mention: _Mention, found: list[_Mention], ws: list[Word], lower_words: set[str]) -> bool:
    """Whether the name is as likely an ordinary word or part of another proper noun."""
    if _in_longer_proper_noun(mention, found, ws):
        return True
    if " " in mention.key:
        return False
    plain = mention.text.replace(".", "")
    return (
        mention.key in COMMON_WORDS
        or mention.key in TIME_WORDS
        or mention.text.lower() in lower_words
        or (len(mention.key) <= SHORT_NAME_LETTERS and plain not in UPPERCASE_ALIASES)
    )


def _in_longer_proper_noun(mention: _Mention, found: list[_Mention], ws: list[Word]) -> bool:
    """A capitalised word joined before it ("Canadian Tire") or after it, past any connectors
    ("Mobile Devices", "Centro de Recursos"), that is not itself a place."""
    starts = {other.first for other in found}
    previous = ws[mention.first - 1] if mention.first > 0 else None
    if (
        previous is not None
        and ws[mention.first].joined
        and previous.capitalised
        and previous.text.lower() not in FUNCTION_WORDS | PLACE_PREPOSITIONS
        and not any(other.last == mention.first - 1 for other in found)
    ):
        return True
    after = mention.last + 1
    while after < len(ws) and ws[after].joined and ws[after].text in CONNECTORS:
        after += 1
    return after < len(ws) and ws[after].joined and ws[after].capitalised and after not in starts


def _followed_by_area(mention: _Mention, found: list[_Mention], sentence: str) -> bool:
    """ "Reading, England" / "Perth (Scotland)": the next words name a country, state or region."""
    for other in found:
        if other.first == mention.last + 1:
            separator = sentence[mention.end : other.start].strip()
            return separator in _CUE_SEPARATORS and any(c.kind != "city" for c in other.candidates)
    return False


def _resolve(mention: _Mention, context: set[str], index: Gazetteer, *, risky: bool) -> Place:
    """Pick the place: own names in the sentence's countries, then alternates there, then the rest."""
    primary_here = [c for c in mention.primary if c.country_code in context]
    alternate_here = [c for c in mention.alternate if c.country_code in context]
    pool = primary_here or alternate_here or mention.candidates
    from_alternate = pool is alternate_here or not mention.primary
    areas = [c for c in pool if c.kind != "city"]
    ranked = sorted(areas or pool, key=lambda c: (_KIND_RANK[c.kind], -(c.population or 0)))
    chosen = ranked[0]
    everything = mention.primary + mention.alternate
    if len(everything) == 1:
        confidence = UNIQUE_CONFIDENCE
    elif (primary_here or alternate_here) and len(pool) == 1:
        confidence = CONTEXT_CONFIDENCE
    elif areas or _dominant(ranked):
        confidence = DOMINANT_CONFIDENCE
    else:
        confidence = AMBIGUOUS_CONFIDENCE
    confidence *= (RISKY_FACTOR if risky else 1.0) * (ALTERNATE_FACTOR if from_alternate else 1.0)
    return Place(
        name=chosen.name,
        kind=chosen.kind,
        country_code=chosen.country_code,
        country=index.country_name(chosen.country_code),
        latitude=chosen.latitude,
        longitude=chosen.longitude,
        population=chosen.population,
        matched_text=mention.text,
        confidence=round(confidence, 3),
        source=chosen.source,
    )


def _dominant(ranked: list[GazetteerEntry]) -> bool:
    if len(ranked) < 2:
        return True
    first, second = ranked[0].population or 0, ranked[1].population or 0
    return first >= DOMINANCE_RATIO * max(second, 1)
