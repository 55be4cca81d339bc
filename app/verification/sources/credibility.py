"""Source credibility tiers: the company speaking for itself is Tier 3, then the domain table, else
Tier 4. A model's opinion never sets a tier (docs/decisions.md, tiers): it is recorded with the
source, but an unlisted outlet stays Tier 4 (`app.verification.reading.source_reading`).

Tier 1: investigative journalism, enforcement actions, court records, registries of record (the SBTi
target dashboard). Tier 2: established news, trade press, government reports, research and
standard-setters. Tier 3: press releases, wire services, the company's own site, analysts. Tier 4:
blogs, social media, anything unknown.
Entries may carry a path ("reuters.com/investigates"); the most specific match wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.language.company_names import COMMON_LEGAL_FORMS, GROUP_WORDS
from app.search.domains import matches
from app.verification.sources.company_names import distinctive_key, name_words
from app.verification.sources.own_documents import (
    OWN_DISCLOSURE_PATHS,
    is_own_report_title,
    names_parent_company,
)

TIER_WEIGHTS: dict[int, float] = {1: 4.0, 2: 3.0, 3: 2.0, 4: 1.0}
UNKNOWN_TIER = 4

TIER_1_DOMAINS: tuple[str, ...] = (
    "propublica.org",
    "reuters.com/investigates",
    "icij.org",
    "sec.gov/litigation",
    "sec.gov/enforcement",
    "sec.gov/newsroom",
    "justice.gov",
    "courtlistener.com",
    "supremecourt.gov",
    "uscourts.gov",
    "epa.gov/enforcement",
    "fca.org.uk/news",
    "asic.gov.au",
    "bailii.org",
    "curia.europa.eu",
    "insideclimatenews.org",
    "desmog.com",
    "globalwitness.org",
    # The registries of record for what they list: a validation status there is the primary source.
    "sciencebasedtargets.org/target-dashboard",
    "sciencebasedtargets.org/companies-taking-action",
)
#: Research, standard-setters and data bodies (Tier 2); the academic agent aims its web search here.
RESEARCH_DOMAINS: tuple[str, ...] = (
    "ipcc.ch",
    "iea.org",
    "unfccc.int",
    "sciencebasedtargets.org",
    "ghgprotocol.org",
    "ifrs.org",
    "cdp.net",
    "nature.com",
    "science.org",
    "sciencedirect.com",
    "springer.com",
    "wiley.com",
    "doi.org",
    "arxiv.org",
    "pnas.org",
    "iop.org",
    "ssrn.com",
    "nber.org",
    "oecd.org",
    "worldbank.org",
    "iso.org",
)
TIER_2_DOMAINS: tuple[str, ...] = (
    "reuters.com",
    "apnews.com",
    "bloomberg.com",
    "ft.com",
    "wsj.com",
    "nytimes.com",
    "washingtonpost.com",
    "bbc.com",
    "bbc.co.uk",
    "theguardian.com",
    "economist.com",
    "lemonde.fr",
    "spiegel.de",
    "handelsblatt.com",
    "faz.net",
    "nikkei.com",
    "abc.net.au",
    "afr.com",
    "cbc.ca",
    "theglobeandmail.com",
    "carbonbrief.org",
    "climatechangenews.com",
    "edie.net",
    "esgtoday.com",
    "responsible-investor.com",
    "mining.com",
    "argusmedia.com",
    "spglobal.com",
    "epa.gov",
    "gov.uk",
    "europa.eu",
    "un.org",
    *RESEARCH_DOMAINS,
)
#: Wires that publish what companies send them: a release there is the company's own word.
PRESS_WIRE_DOMAINS: tuple[str, ...] = (
    "prnewswire.com",
    "businesswire.com",
    "globenewswire.com",
    "accesswire.com",
    "newswire.ca",
)
TIER_3_DOMAINS: tuple[str, ...] = (
    *PRESS_WIRE_DOMAINS,
    "marketscreener.com",
    "seekingalpha.com",
    "morningstar.com",
    "goldmansachs.com",
    "morganstanley.com",
    "jpmorgan.com",
    "msci.com",
    "sustainalytics.com",
)
SOCIAL_MEDIA: tuple[str, ...] = (
    "twitter.com",
    "x.com",
    "facebook.com",
    "linkedin.com",
    "instagram.com",
    "tiktok.com",
    "reddit.com",
)
TIER_4_DOMAINS: tuple[str, ...] = (
    "medium.com",
    "substack.com",
    "wordpress.com",
    "blogspot.com",
    "tumblr.com",
    *SOCIAL_MEDIA,
    "quora.com",
    "youtube.com",
)
DOMAIN_TIERS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, TIER_1_DOMAINS),
    (2, TIER_2_DOMAINS),
    (3, TIER_3_DOMAINS),
    (4, TIER_4_DOMAINS),
)
#: Social media and aggregators every news search leaves out: social media is Tier 4 and never
#: decides anything, and an aggregator only links to the outlets that published.
ALWAYS_EXCLUDED_DOMAINS: tuple[str, ...] = (*SOCIAL_MEDIA, "news.google.com")
_PRESS_RELEASE = re.compile(
    r"for immediate release|press release|\bannounces?\b|news release|media release", re.IGNORECASE
)
#: A press release's own wording, self-reported even on an outlet of the table: its release line, the
#: company "today said/announced" (a news story says "said on Tuesday"; "Recycling Today reported"
#: names a publication, so "today" counts in lower case only), its contacts block.
_RELEASE_WORDING = re.compile(
    r"for immediate release|^\W*(?:press|news|media) release\b|\b(?-i:today)\s+(?:said|announced|reported|"
    r"confirmed|unveiled|published)\b|\bcontacts?\s*:\s*(?:investor|media|press)\s+relations\b|"
    r"\b(?:media|press|investor)\s+contacts?\s*:|\binvestor\s+relations\s+contacts?\b",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class TierAssignment:
    """A source's tier and how it was decided.

    `basis` is "domain", "press_release", "company_site", "company_report" (its own report or CDP
    response) or "default"; stored findings may also carry "llm", a model's tier, which counts as
    no tier (`app.verification.judge.grounding`).
    """

    tier: int
    basis: str
    reasoning: str


def tier_by_domain(url: str) -> int | None:
    """The tier of the most specific matching table entry (a path entry beats its bare domain)."""
    best: tuple[int, int] | None = None  # (specificity, tier)
    for tier, patterns in DOMAIN_TIERS:
        for pattern in patterns:
            if matches(url, [pattern]):
                specificity = pattern.count("/") * 100 + pattern.count(".")
                if best is None or specificity > best[0]:
                    best = (specificity, tier)
    return best[1] if best else None


def registrable_label(domain: str) -> str:
    """The label a company registers: "tesco" in tesco.co.uk and bhp.com.au, "riotinto" in riotinto.com."""
    labels = domain.lower().removeprefix("www.").split(".")
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL:
        return labels[-3]
    return labels[-2] if len(labels) >= 2 else labels[0]


def is_company_site(domain: str, company_name: str | None) -> bool:
    """Whether the domain looks like the company's own: its whole name ("riotinto.com" for "Rio Tinto
    plc"), or its distinctive first word alone or first in the label ("costco.com" for "Costco Wholesale
    Corporation", "volkswagen-group.com" / "volkswagenag.com" for "Volkswagen AG", "nordavia-energy.se"
    for "Nordavia Metals"). A generic first word ("General", "First", "The") needs the next word too
    (`company_names.distinctive_key`). A domain of the credibility table is never the company's: an
    outlet does not become self-reported because its name starts like the company's."""
    if not company_name or not domain or tier_by_domain(domain) is not None or _reserved(domain):
        return False
    words = name_words(company_name)
    stem = "".join(words)
    if len(stem) < 3:
        return False
    label = registrable_label(domain)
    flat = label.replace("-", "")
    if flat == stem or flat in {stem + suffix for suffix in _NAME_SUFFIXES}:
        return True
    key = distinctive_key(company_name)
    if key is None or not flat.startswith(key):
        return False
    return _own_remainder(label, key, words)


def _own_remainder(label: str, key: str, words: list[str]) -> bool:
    """Whether what follows the company's key in a domain label keeps it the company's own: nothing,
    a legal form, more of its name, or a hyphenated part ("-group", "-energy"), never a watchdog's
    word ("amazonwatch", "exxon-secrets")."""
    if label.startswith(key + "-"):
        parts = label[len(key) + 1 :].split("-")
        return not set(parts) & _WATCHDOG_WORDS
    rest = label.replace("-", "")[len(key) :]
    if not rest or rest in _NAME_SUFFIXES:
        return True
    following = "".join(words[1 if words[0] == key else 2 :])
    return (
        bool(following)
        and rest.startswith(following)
        and rest.removeprefix(following) in {"", *_NAME_SUFFIXES}
    )


_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "gov", "ac"})
#: Names reserved for documentation and tests (RFC 2606): nobody's company site.
_RESERVED_TLDS = frozenset({"example", "test", "invalid", "localhost"})
_RESERVED_DOMAINS = frozenset({"example.com", "example.net", "example.org"})


def _reserved(domain: str) -> bool:
    labels = domain.lower().removeprefix("www.").split(".")
    return labels[-1] in _RESERVED_TLDS or ".".join(labels[-2:]) in _RESERVED_DOMAINS


#: What may follow the company's name in its own domain label ("riotintogroup", "basfse"): only the
#: common legal forms (`COMMON_LEGAL_FORMS`), since a rarer short one glued to a name reads as the
#: end of another word.
_NAME_SUFFIXES = frozenset({*COMMON_LEGAL_FORMS, *GROUP_WORDS, "global"})
#: Words of sites that watch a company rather than speak for it.
_WATCHDOG_WORDS = frozenset(
    {"watch", "secrets", "sucks", "leaks", "truth", "files", "exposed", "kills", "lies", "boycott", "out"}
)


def assign_tier(
    url: str, domain: str, title: str, snippet: str, company_name: str | None
) -> TierAssignment | None:
    """The tier from rules alone: the company speaking for itself is Tier 3 and self-reported
    wherever it is published — its own or a subsidiary's site, its own report or CDP response, a press
    release (a release's own wording counts even on a Tier 1–2 domain) — else the domain table. None
    when the rules do not know the source (the caller then gives it `default_tier`)."""
    own = _own_voice(url, domain, title, snippet, company_name)
    if own is not None:
        return own
    by_domain = tier_by_domain(url)
    if by_domain is not None and by_domain <= 2:
        return TierAssignment(by_domain, "domain", f"{domain} is a known Tier {by_domain} source")
    if matches(url, PRESS_WIRE_DOMAINS):
        return TierAssignment(3, "press_release", f"{domain} publishes companies' own press releases")
    if _PRESS_RELEASE.search(f"{title} {snippet[:300]}"):
        return TierAssignment(3, "press_release", "the text reads as a press release (self-reported)")
    if by_domain is not None:
        return TierAssignment(by_domain, "domain", f"{domain} is a known Tier {by_domain} source")
    if names_parent_company(f"{title} {snippet}", company_name):
        return TierAssignment(
            3, "company_site", f"{domain or 'the source'} is part of the company (self-reported)"
        )
    return None


def _own_voice(
    url: str, domain: str, title: str, snippet: str, company_name: str | None
) -> TierAssignment | None:
    """The company's own publication, wherever it lives (see `own_documents`), or None."""
    if is_company_site(domain, company_name):
        return TierAssignment(3, "company_site", f"{domain} is the company's own website (self-reported)")
    if matches(url, OWN_DISCLOSURE_PATHS):
        return TierAssignment(
            3, "company_report", "a CDP response is the company's own disclosure (self-reported)"
        )
    if is_own_report_title(title, company_name):
        return TierAssignment(
            3, "company_report", f"\u201c{title}\u201d is the company's own publication (self-reported)"
        )
    if _RELEASE_WORDING.search(f"{title}\n{snippet}"):
        return TierAssignment(3, "press_release", "the text is worded as a press release (self-reported)")
    return None


def default_tier(domain: str) -> TierAssignment:
    """Tier 4 for a source nothing vouches for."""
    return TierAssignment(
        UNKNOWN_TIER, "default", f"{domain or 'the source'} is not a known outlet; lowest tier"
    )


def tier_weight(tier: int) -> float:
    """The weight of a tier (4.0 for Tier 1 .. 1.0 for Tier 4)."""
    return TIER_WEIGHTS.get(tier, TIER_WEIGHTS[UNKNOWN_TIER])


def domains_of_tiers(tiers: Sequence[int]) -> list[str]:
    """Bare domains of the given tiers' table entries (path entries dropped), for include filters."""
    wanted = set(tiers)
    return list(
        dict.fromkeys(
            pattern.split("/")[0] for tier, patterns in DOMAIN_TIERS if tier in wanted for pattern in patterns
        )
    )
