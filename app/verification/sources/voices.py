"""Who is speaking in a source: the key that makes two publishers one voice.

Two independent publishers corroborate a claim; two sites carrying one wire story do not, and a
reworded copy of one wire story is one voice, not two. So:

- a copy credited to another outlet — "(Reuters)", "Reuters reported", "— Reuters", a
  "/news/reuters/" path, the same for AP, Bloomberg, AFP and Dow Jones — is that outlet's voice
  (`credited_outlet`; a marketscreener.com copy of a Reuters story and reuters.com are one voice);
- otherwise the publisher (the site's domain, or the library document) is the voice (`voice_of`);
- reworded copies of one story are one voice too (`same_story`): both dated the same day, stating
  the same figures, and sharing most of their words; copies word for word are one voice by their
  shared quote (`group_voices`).

`group_voices` applies all of these to cited sources; the judge counts one vote per group.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TypeVar
from urllib.parse import urlsplit

from app.language.figures import Figure, parse_figures
from app.verification.reading.contradictions import content_words, same_value

#: Outlets whose stories others carry, and the publisher they are counted as.
WIRE_OUTLETS: dict[str, str] = {
    "reuters": "reuters.com",
    "ap": "apnews.com",
    "associated press": "apnews.com",
    "bloomberg": "bloomberg.com",
    "afp": "afp.com",
    "agence france-presse": "afp.com",
    "dow jones": "dowjones.com",
}
_NAMES = (
    r"Reuters|Bloomberg(?:\s+News)?|AFP|Agence\s+France-Presse|Dow\s+Jones(?:\s+Newswires)?|"
    r"Associated\s+Press"
)
_CREDITS = (
    # "(Reuters)", "(AP)", "(Bloomberg) --"
    re.compile(rf"\((?:{_NAMES}|AP)\)"),
    # "Reuters reported", "the Associated Press reported", "AP reported", "told Reuters"
    re.compile(rf"\b(?:the\s+)?(?:{_NAMES}|AP)\s+(?:reported|reports|said|wrote|first\s+reported)\b"),
    re.compile(rf"\b(?:told|according\s+to|reporting\s+by|via)\s+(?:the\s+)?(?:{_NAMES}|AP)\b"),
    # "— Reuters", "- AP" as a credit line
    re.compile(rf"(?:^|\s)[—–-]{{1,2}}\s*(?:{_NAMES}|AP)\s*(?:$|[.)])", re.MULTILINE),
)
#: Shares of the two quotes' content words that make a rewording of one story.
SAME_STORY_OVERLAP = 0.6
#: A quote this long (letters and digits) shared word for word makes two publishers one voice.
MIN_SHARED_QUOTE_CHARS = 20

_Source = TypeVar("_Source", bound=Mapping[str, object])


def _outlet(name: str) -> str:
    key = " ".join(name.lower().split()).removesuffix(" news").removesuffix(" newswires")
    return WIRE_OUTLETS.get(key, WIRE_OUTLETS.get(key.split()[0], key))


def credited_outlet(text: str | None, url: str | None = None) -> str | None:
    """The outlet a copy is credited to ("reuters.com" for "… (Reuters)" or a /news/reuters/ path),
    or None when the text and address credit no other outlet."""
    path = urlsplit(url).path.lower() if url and "://" in url else ""
    for segment in path.split("/"):
        if segment in WIRE_OUTLETS and segment != "ap" or segment == "ap" and "/news/" in path:
            return WIRE_OUTLETS[segment]
    for pattern in _CREDITS:
        found = pattern.search(text or "")
        if found:
            named = re.search(rf"{_NAMES}|AP", found.group(0))
            return _outlet(named.group(0)) if named else None
    return None


def voice_key(publisher: str, text: str | None, url: str | None) -> str:
    """Who speaks in a source: the outlet it credits, else its publisher."""
    return credited_outlet(text, url) or publisher


def voice_of(source: Mapping[str, object]) -> str:
    """A cited source's voice: as read from its whole text (`voice`, stored with its finding), else
    from what the citation carries (its address and quote), else its publisher."""
    stored = source.get("voice")
    if isinstance(stored, str) and stored:
        return stored
    quote = source.get("quote")
    url = source.get("url")
    return voice_key(
        str(source.get("publisher") or ""),
        quote if isinstance(quote, str) else None,
        url if isinstance(url, str) else None,
    )


def same_story(first: Mapping[str, object], second: Mapping[str, object]) -> bool:
    """Whether two quotes are rewordings of one story: the same day, the same figures, and most
    words shared (shared content words over all of both, at least `SAME_STORY_OVERLAP`)."""
    date = first.get("published_date")
    one, two = first.get("quote"), second.get("quote")
    if (
        not date
        or date != second.get("published_date")
        or not isinstance(one, str)
        or not isinstance(two, str)
    ):
        return False
    figures_one, figures_two = parse_figures(one), parse_figures(two)
    if not figures_one or not figures_two:
        return False
    if not _all_matched(figures_one, figures_two) or not _all_matched(figures_two, figures_one):
        return False
    words_one, words_two = content_words(one), content_words(two)
    every = words_one | words_two
    return bool(every) and len(words_one & words_two) / len(every) >= SAME_STORY_OVERLAP


def _all_matched(mine: Sequence[Figure], theirs: Sequence[Figure]) -> bool:
    return all(any(a.same_kind(b) and same_value(a, b) for b in theirs) for a in mine)


def _letters(text: str) -> str:
    return "".join(character for character in text.casefold() if character.isalnum())


def group_voices(sources: Sequence[_Source]) -> list[list[_Source]]:
    """The sources grouped by who is speaking: one voice (`voice_of`) is one group, publishers
    carrying the same quote word for word are one group, and rewordings of one story (`same_story`)
    are one group. Groups keep the sources' order."""
    parent = list(range(len(sources)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    first_of: dict[str, int] = {}
    for index, source in enumerate(sources):
        keys = [f"voice:{voice_of(source)}"]
        quote = source.get("quote")
        letters = _letters(quote) if isinstance(quote, str) else ""
        if len(letters) >= MIN_SHARED_QUOTE_CHARS:
            keys.append(f"quote:{letters}")
        for key in keys:
            if key in first_of:
                parent[root(index)] = root(first_of[key])
            else:
                first_of[key] = index
        for other in range(index):
            if root(other) != root(index) and same_story(sources[other], source):
                parent[root(index)] = root(other)
    groups: dict[int, list[_Source]] = {}
    for index, source in enumerate(sources):
        groups.setdefault(root(index), []).append(source)
    return list(groups.values())
