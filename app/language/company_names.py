"""Company names and their legal forms: one list of the forms, and the names as each reader needs them.

A legal form ("plc", "AG", "S.p.A.", "Pty Ltd") says how a company is incorporated, not who it is,
so it is left out wherever names are compared or searched for:

- `search_name`: the name as the outside world writes it ("Rio Tinto plc" -> "Rio Tinto"), every
  trailing legal form and "Group" removed;
- `without_legal_forms`: a text with every legal form in it blanked (a title once the company's
  name is taken out of it);
- `normalise_name`: the normal form registry entities are matched in ("RIO TINTO LIMITED" and
  "Rio Tinto Ltd." meet), which keeps "Group" and "Holdings": they often tell a parent from its
  subsidiary.

Two readers need fewer forms than `LEGAL_FORMS`, each for a reason of its own:
`COMMON_LEGAL_FORMS` are the only ones a company's web address runs on from its name
("costcoinc", "basfse"): a rarer short form glued to a name reads as the end of another word
("tex" + "as"); and `PROSE_LEGAL_FORM` finds a name in running text by its form as usually
capitalised ("Siemens AG"), without "Company" or "Co", which open ordinary phrases ("the Company").
"""

from __future__ import annotations

import re
import unicodedata

#: Legal forms, as they read lower-case with punctuation removed ("S.p.A." is "spa", "Pty. Ltd." two words).
LEGAL_FORMS = frozenset(
    {
        "ab", "ag", "as", "asa", "bhd", "bv", "cia", "co", "company", "corp", "corporation", "cv",
        "gmbh", "inc", "incorporated", "jsc", "kg", "kgaa", "kk", "limited", "llc", "llp", "lp", "ltd",
        "ltda", "nv", "oy", "oyj", "pjsc", "plc", "pte", "pty", "pvt", "sa", "saa", "sab", "sas", "se",
        "spa", "srl", "tbk", "ulc",
    }
)  # fmt: skip
#: The legal forms most common in the markets reports come from (see the module docstring).
COMMON_LEGAL_FORMS = frozenset(
    {"plc", "ltd", "limited", "inc", "corp", "corporation", "company", "ag", "se", "sa", "nv", "co", "llc"}
)
#: Legal forms written out, as their words read after normalising ("Aktiengesellschaft"), which
#: `normalise_name` keeps because only their last word, if any, is an abbreviation it knows.
LONG_LEGAL_FORMS = (
    "aktiengesellschaft", "public limited company", "public company limited", "societas europaea",
    "kommanditgesellschaft auf aktien", "gesellschaft mit beschrankter haftung", "societe anonyme",
    "sociedad anonima", "societa per azioni", "naamloze vennootschap", "besloten vennootschap",
    "limited liability company", "proprietary limited", "aktiebolag", "aktieselskab", "berhad",
    "and co", "and company",  # "Wells Fargo & Co." normalises to "wells fargo and"
)  # fmt: skip
#: Trailing words that name a company's group rather than the company ("BHP Group", "X Holdings").
GROUP_WORDS = ("group", "holdings", "holding")
#: A name followed by one of these in running text is a company's full name ("Northwind Minerals plc").
PROSE_LEGAL_FORM = (
    r"plc|PLC|Inc\.?|AG|SE|Ltd\.?|Limited|Corporation|Corp\.?|Group|N\.V\.|S\.A\.|Holdings|LLC|"
    r"Real Estate Investment Trust|REIT|GmbH|KGaA|ASA|Oyj|AB"
)


def _as_written(form: str) -> str:
    """A legal form as a regex that allows a full stop after each letter ("s.p.a.", "Ltd.")."""
    return r"\.?".join(re.escape(letter) for letter in form) + r"\.?"


#: Any of `LEGAL_FORMS` or "group" as written, longest first so "kgaa" is not read as "kg".
_FORM_AS_WRITTEN = "|".join(
    _as_written(form) for form in sorted({*LEGAL_FORMS, "group"}, key=lambda f: -len(f))
)
_TRAILING_FORM = re.compile(rf"[\s,]+(?:{_FORM_AS_WRITTEN})$", re.IGNORECASE)
_ANY_FORM = re.compile(rf"(?<!\w)(?:{_FORM_AS_WRITTEN})(?!\w)", re.IGNORECASE)
_JOINED = re.compile(r"[.'’`]")
_SEPARATORS = re.compile(r"[^0-9a-z]+")


def search_name(company_name: str | None) -> str:
    """The company as people search for it ("Rio Tinto plc" -> "Rio Tinto", "Acme Pty Ltd" -> "Acme")."""
    name = (company_name or "").strip()
    while True:
        shorter = _TRAILING_FORM.sub("", name).strip()
        if shorter == name:
            return name
        name = shorter


def without_legal_forms(text: str) -> str:
    """`text` with every legal form in it (and "Group") replaced by a space."""
    return _ANY_FORM.sub(" ", text)


def normalise_name(name: str) -> str:
    """The name's normal form for matching ("" for a name of punctuation only).

    Lower case, accents folded, `&` read as "and", punctuation dropped, a leading "the" and trailing
    legal forms removed. This is the first step of entity matching, not all of it.
    """
    folded = name.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKD", folded)
        folded = "".join(char for char in folded if not unicodedata.combining(char))
    folded = _JOINED.sub("", folded.replace("&", " and "))
    words = _SEPARATORS.sub(" ", folded).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    kept = list(words)
    while len(kept) > 1 and kept[-1] in LEGAL_FORMS:
        kept.pop()
    return " ".join(kept)
