"""Sources that are the reporting company speaking for itself, whatever their address says.

The credibility table tiers outlets; it cannot see that a document in the evidence library is the
company's own sustainability report, that a CDP page is the company's questionnaire answer, or that
a site belongs to a subsidiary. Each of these would otherwise be read as independent evidence for
the very report it repeats (the report in the library confirming itself), so here, by rule:

- `is_own_report_title`: a title that is nothing but the company's name and the name of one of its
  own publications ("Nordavia Metals Sustainability Report 2023", "Acme plc CDP Climate Change
  Questionnaire 2024", "Acme ESG Data Book FY23"). A title that says anything else ("… report
  overstates cuts, NGO says") is someone writing about the report, not the report.
- `OWN_DISCLOSURE_PATHS`: addresses whose pages are companies' own answers (CDP responses).
- `names_parent_company`: a text that says its speaker belongs to the company ("a Nordavia Metals
  subsidiary", "part of Nordavia Metals", "Nordavia Metals' energy unit").
"""

from __future__ import annotations

import re

from app.language.company_names import search_name, without_legal_forms

#: Paths of CDP's public response pages: a company's own questionnaire answers, not CDP's research.
OWN_DISCLOSURE_PATHS: tuple[str, ...] = ("cdp.net/en/responses", "cdp.net/en/formatted_responses")

#: Words a company's own publication is titled with (besides its name and years).
_PUBLICATION_WORDS = frozenset(
    """sustainability annual integrated climate change esg report reports reporting questionnaire
    response responses cdp data book databook factbook fact sheet tcfd disclosure disclosures filing
    form 10 k 20 f 10k 20f responsibility corporate impact environmental social governance non
    financial nonfinancial statement statements and water security forests fiscal fy year full
    summary results strategic carbon ghg emissions transition plan universal registration document
    performance csr the of our""".split()
)
#: At least one of these makes the words a publication's name rather than a topic.
_PUBLICATION_NOUNS = frozenset(
    """report reports questionnaire response responses filing 10k 20f book databook factbook sheet
    statement statements disclosure disclosures document plan form""".split()
)
_YEARS = re.compile(r"\b(?:fy\s?)?(?:19|20)?\d{2}(?:\s?[/–-]\s?(?:19|20)?\d{2})?\b", re.IGNORECASE)


def _name_pattern(company: str) -> str:
    """The company's search name as a regex, any whitespace between its words."""
    return r"\s+".join(re.escape(word) for word in search_name(company).split())


def is_own_report_title(title: str | None, company: str | None) -> bool:
    """Whether `title` is just the company's name and one of its own publications' names."""
    if not title or not company or not search_name(company):
        return False
    named = re.search(rf"(?<!\w){_name_pattern(company)}(?!\w)", title, re.IGNORECASE)
    if named is None:
        return False
    rest = title[: named.start()] + " " + title[named.end() :]
    rest = re.sub(r"['’]s?\b", " ", rest)  # the possessive left by the name
    rest = without_legal_forms(rest)
    rest = _YEARS.sub(" ", rest)
    words = re.findall(r"[a-z0-9]+", rest.lower())
    return bool(words) and set(words) <= _PUBLICATION_WORDS and bool(set(words) & _PUBLICATION_NOUNS)


_PARENT_PATTERNS = (
    r"\b(?:a|an|the)\s+(?:wholly[\s-]owned\s+)?{name}(?:['’]s?)?\s+(?:subsidiary|unit|division|affiliate)\b",
    r"\b(?:subsidiary|unit|division|affiliate|part|member)\s+of\s+(?:the\s+)?{name}",
    r"\b(?:wholly\s+|majority[\s-])?owned\s+by\s+(?:the\s+)?{name}",
    r"(?<!\w){name}['’]s?\s+(?:\w+\s+){{0,3}}?(?:subsidiary|unit|division)\b",
)


def names_parent_company(text: str | None, company: str | None) -> bool:
    """Whether `text` says its subject is part of the company ("a Nordavia Metals subsidiary")."""
    if not text or not company or not search_name(company):
        return False
    name = _name_pattern(company)
    return any(
        re.search(pattern.format(name=name), text, re.IGNORECASE) is not None for pattern in _PARENT_PATTERNS
    )
