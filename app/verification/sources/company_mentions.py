"""Which companies a text names that share the first word of the reporting company's name.

`company_names.names_company` accepts a source that names the company's distinctive first word, so
"Nordavia Mining, the Chilean copper producer" passes for "Nordavia Metals", and its Scope 3 figure
would then verify or contradict Nordavia Metals' claim: another company's figure would decide this
company's claim. This module reads each capitalised name that starts with that first word and
decides whether it is the reporting company:

- the whole name, or a leading part of it, is the company: "Rio Tinto" for "Rio Tinto plc",
  "Costco" and "Costco Wholesale" for "Costco Wholesale Corporation", "Nordavia's" (a possessive);
- a legal form (AG, plc, Inc., Corporation, Group, SE ...) adds nothing: "Volkswagen Group" and
  "Volkswagen AG" are one company;
- a name that continues with another distinctive capitalised word is another company: "Nordavia
  Mining" or "Nordavia Energy AB" for "Nordavia Metals". Words that often follow a company's name
  without being part of it ("Scope", "CEO", "Sustainability Report", month names ...) end the name.
  After a one-word name only a sector word makes another company ("Siemens Energy" for "Siemens"):
  "Siemens Germany" or "Costco Wholesale" may still be the company.

A bare first word ("Nordavia said ...") counts as the company only when the text names no other
company with that word: next to "Nordavia Mining" it may just as well be a short name of that one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.company_names import search_name

#: Legal forms and group words that do not make a name another company's.
LEGAL_WORDS = frozenset(
    """ag se plc inc inc. incorporated corp corp. corporation co co. company companies group ltd ltd.
    limited llc lp sa s.a. nv n.v. ab asa oyj gmbh kgaa spa s.p.a. bv b.v. holding holdings pty""".split()
)
#: Capitalised words that follow a company's name in news and reports without extending it.
NOT_NAME_WORDS = frozenset(
    """scope scopes ceo cfo coo chief chair chairman chairwoman president board boards director directors
    spokesperson spokesman spokeswoman executive executives annual sustainability esg climate report
    reports reporting statement statements press release results investor investors shares share stock
    said says say told reported reports announced confirmed added on in at for of and the a an to
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday q1 q2 q3 q4 h1 h2 fy net zero""".split()
)
#: Words that make a name continuing a one-word company name another company ("Siemens Energy").
SECTOR_WORDS = frozenset(
    """energy mining metals minerals resources power oil gas petroleum chemicals steel bank banking
    capital financial finance insurance motors automotive airlines airways foods pharma
    pharmaceuticals technologies technology systems solutions industries logistics shipping
    renewables utilities electric telecom healthcare health healthineers realty properties retail
    travel mobility copper gold aluminium aluminum coal cement materials""".split()
)
_POSSESSIVE = re.compile(r"['’]s?$")


@dataclass(frozen=True)
class Mention:
    """A capitalised name in a text starting with the company's first word: `name` as written
    (legal form and possessive dropped), and whether it is the reporting company (`own`; None for a
    bare first word, which is decided by the rest of the text)."""

    name: str
    own: bool | None


def _name_words(company: str) -> list[str]:
    words = re.findall(r"[\w&-]+", search_name(company))
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    return [word for word in words if word.lower() not in LEGAL_WORDS] or words


def _following_words(text: str, at: int) -> list[str]:
    """The capitalised words written right after offset `at` (single spaces between them)."""
    words: list[str] = []
    position = at
    while len(words) < 4:
        match = re.match(r" ([A-Z][\w.&’'-]*)", text[position:])
        if match is None:
            break
        words.append(match.group(1))
        position += match.end()
        if _POSSESSIVE.search(match.group(1)) or match.group(1).endswith("."):
            break
    return words


def mentions(text: str, company: str) -> list[Mention]:
    """Every name in `text` that starts with the company's first word (see the module docstring)."""
    name = _name_words(company)
    if not name or not text:
        return []
    first = name[0]
    found: list[Mention] = []
    for match in re.finditer(rf"(?<![\w-]){re.escape(first)}(?:['’]s)?(?![\w-])", text, re.IGNORECASE):
        if not match.group(0)[:1].isupper():
            continue  # "rio" or "general" in running text is not a name
        if _POSSESSIVE.search(match.group(0)):
            found.append(Mention(first, None if len(name) > 1 else True))
            continue
        found.append(_read_mention(name, _following_words(text, match.end())))
    return found


def _read_mention(name: list[str], following: list[str]) -> Mention:
    """Whether the words after the first one continue the company's name or another's."""
    written = [name[0]]
    for index, raw in enumerate(following, start=1):
        word = _POSSESSIVE.sub("", raw).rstrip(".,")
        lower = word.lower()
        if lower in LEGAL_WORDS or lower in NOT_NAME_WORDS or lower.rstrip(".") in LEGAL_WORDS:
            break
        if index < len(name) and lower.rstrip("s") == name[index].lower().rstrip("s"):  # Motor(s)
            written.append(word)
            if _POSSESSIVE.search(raw):
                break
            continue
        if index >= len(name):
            if len(name) == 1 and lower in SECTOR_WORDS:
                return Mention(" ".join([*written, word]), False)  # "Siemens Energy" for "Siemens"
            break  # the whole name was written; what follows is not part of it
        return Mention(" ".join([*written, word]), False)
    if len(written) == len(name) or len(written) > 1:
        return Mention(" ".join(written), True)
    return Mention(" ".join(written), None if len(name) > 1 else True)


def other_company(text: str, company: str) -> str | None:
    """The other company `text` is about, if it names one sharing the company's first word and
    never names the reporting company itself; None otherwise."""
    found = mentions(text, company)
    others = [mention.name for mention in found if mention.own is False]
    if not others:
        return None
    if any(mention.own is True for mention in found):
        return None
    return others[0]


def names_only_others(company: str, *texts: str | None) -> str | None:
    """The other company a source is about when its texts (title, passage, fuller content) name
    companies sharing the company's first word, but never the company itself."""
    found = [mention for text in texts for mention in mentions(text or "", company)]
    others = [mention.name for mention in found if mention.own is False]
    if others and not any(mention.own is True for mention in found):
        return others[0]
    return None
