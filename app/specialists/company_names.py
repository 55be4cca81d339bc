"""The reporting company's name as the outside world writes it: without its legal form."""

from __future__ import annotations

import re

LEGAL_FORMS = re.compile(
    r"[\s,]+(?:plc|ltd\.?|limited|inc\.?|corp\.?|corporation|company|ag|se|s\.a\.|sa|n\.v\.|nv|co\.?|group|"
    r"llc)$",
    re.IGNORECASE,
)


def search_name(company_name: str | None) -> str:
    """The company as people search for it ("Rio Tinto plc" -> "Rio Tinto")."""
    name = (company_name or "").strip()
    while True:
        shorter = LEGAL_FORMS.sub("", name).strip()
        if shorter == name:
            return name
        name = shorter


#: First words too common to stand for a company on their own ("General", "United").
COMMON_NAME_WORDS = frozenset(
    """general international american national united global first royal standard british
    european energy power public digital national pacific atlantic northern southern eastern
    western central""".split()
)


def names_company(text: str, company: str) -> bool:
    """Whether `company` (its search name, or a distinctive first word of it) appears in `text`."""
    if not company:
        return False
    if re.search(rf"(?<!\w){re.escape(company)}(?!\w)", text, re.IGNORECASE):
        return True
    first = company.split()[0]
    # A distinctive first word ("Costco", "Siemens") as written, never a common one ("General").
    distinctive = len(first) >= 5 and first.lower() not in COMMON_NAME_WORDS
    return distinctive and re.search(rf"(?<!\w){re.escape(first)}(?!\w)", text) is not None


def about_company(company: str, *texts: str | None) -> bool:
    """Whether a source is about the report's company: one of its texts (title, passage, fuller
    content) names it. With no company name known, every source may be."""
    return not company or any(names_company(text or "", company) for text in texts)
