"""The labelled claims of `bench.verdict_quality` and the evidence planted for each of them.

The claims are the rule-based claims agent's on the shared real reports. Those reports are
copyrighted, so the labelled set (`verdict_quality_cases.json`) keeps no sentence of theirs: a
case is a locator (report, page, the figure as written, its year) plus its kind and the figure,
year, address and date of the document we plant. The planted document itself is written here, in
our own words, at run time: the claim's company (in the title), three of the words a search for the
claim uses (the rarest in the report, so that one claim's document rarely bears on another claim),
the kind of site the claim names, if any, and a figure, in a paragraph amid filler prose.

The set is chosen deterministically: every claim of the three small reports with a figure that
locates it alone on its page (and not worded like an already chosen one), then Siemens's claims,
one per page, up to 96; kinds in rotation so each has twelve.

Eight kinds, spread evenly, each with the verdict the judge should reach (see `KINDS`).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from app.claims.agent import ClaimsAgent
from app.config import Settings
from app.embeddings import Embedder
from app.knowledge.keywords import tokens
from app.knowledge.search import KnowledgeSearch
from app.language.company_names import search_name
from app.language.figures import Figure, parse_figures
from app.language.years import parse_years
from app.llm import UsageTrace
from app.verification.investigators.search_queries import key_terms
from app.verification.reading.change_mood import DECREASE, INCREASE
from app.verification.reading.contradictions import CRITICISM, DELAY, ENFORCEMENT, content_words
from tests.support.evidence import article

CASES_FILE = Path(__file__).with_name("verdict_quality_cases.json")
#: Reports in the order the set is filled: the small ones first, Siemens only to reach the target.
REPORTS: tuple[str, ...] = (
    "rio-tinto-climate-change-report-2023",
    "costco-climate-action-plan-2024",
    "ct-reit-esg-report-2022",
    "siemens-sustainability-report-fy2023",
)
#: A fictional company in each report's sector, for the `other_company` kind.
OTHER_COMPANIES: dict[str, str] = {
    "rio-tinto-climate-change-report-2023": "Norvale Minerals",
    "costco-climate-action-plan-2024": "Brightwater Wholesale",
    "ct-reit-esg-report-2022": "Larchmont Property Trust",
    "siemens-sustainability-report-fy2023": "Ostrava Industrietechnik",
}
#: Case kind -> the verdict the judge should give the claim.
KINDS: dict[str, str] = {
    "contradicting": "contradicted",
    "supporting": "verified",
    "other_company": "unverified",
    "other_year": "unverified",
    "unrelated": "unverified",
    "paraphrase": "verified",
    "press_release": "unverified",
    "tier4_blog": "insufficient_evidence",
}
TARGET_CASES = 96  # twelve per kind
MAX_SHARED_SHARE = 0.5  # a claim this close in wording to a chosen one is left out
TOPIC_WORDS = 3
#: Where a figure is for: a source on the same figure names the same kind of site too.
SITE_WORDS = frozenset("smelter refinery plant site mine facility factory division segment".split())
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_SIGNAL_WORDS = (DECREASE, INCREASE, DELAY, ENFORCEMENT, CRITICISM)
#: Common words that say nothing of a claim's topic; never used as its topic words.
GENERIC_WORDS = frozenset(
    """much many more less reach met previous previously present multiple opportunity aim support
    collectively represent expect estimate now able real exciting see some like make made take
    provide providing achieve achieved level relative approximately nearly almost already part
    each every first second third one two three four five six seven eight nine ten use used using
    mostly result whole deliver delivered believe momentum several other further order""".split()
)


@dataclass(frozen=True)
class ReportClaim:
    """A claim as the claims agent found it: its page and text."""

    page: int
    text: str


@dataclass(frozen=True)
class Case:
    """One labelled claim and the document planted for it (no text of the report)."""

    report: str
    page: int
    figure: str  # the claim's figure as written, e.g. "16.2 Mt"
    year: int | None  # the year that figure is stated for
    kind: str
    expected: str
    planted_figure: str | None  # the figure the planted document states
    planted_year: int | None
    url: str
    published: str


# --- claims and locators -------------------------------------------------------------------------


async def extract_claims(
    settings: Settings, embedder: Embedder, knowledge: KnowledgeSearch, pages: list[tuple[int, str]]
) -> tuple[list[ReportClaim], str | None]:
    """The rule-based claims agent's claims (as the pipeline's claims node finds them) and company."""
    agent = ClaimsAgent(settings, None, embedder, knowledge)
    mapped, stats = await agent.extract(pages, trace=UsageTrace())
    return [ReportClaim(item.claim.source_page, item.claim.text) for item in mapped], stats.company_name


def primary_figure(text: str) -> Figure | None:
    """The figure a case is located by: the first with a unit (or a currency amount with a scale)."""
    figures = parse_figures(text)
    scaled = [figure for figure in figures if figure.dimension != "currency" or figure.unit.count(" ")]
    return (scaled or figures or [None])[0]


def figure_year(text: str, figure: Figure) -> int | None:
    """The year a figure is stated for: "2022: 2.4 Mt", "2.3 Mt in 2023", else the nearest year."""
    label = re.search(r"\b(?:FY\s?)?(20\d\d)\s?:\s*$", text[: figure.start])
    after = re.match(
        r"\s*,?\s*(?:in|for|during)\s(?:FY\s?|fiscal\s(?:year\s)?)?(20\d\d)\b", text[figure.end :]
    )
    if label or after:
        return int((label or after).group(1))  # type: ignore[union-attr]
    years = parse_years(text)
    return min(years, key=lambda item: abs(item[1] - figure.start))[0] if years else None


def _compact(text: str) -> str:
    return " ".join(text.split())


def locate(case: Case, claims: Sequence[ReportClaim]) -> list[ReportClaim]:
    """The claims a case's locator fits: same page, containing the figure (and its year, if any)."""
    return claims_at(case.page, case.figure, case.year, claims)


def claims_at(page: int, figure: str, year: int | None, claims: Sequence[ReportClaim]) -> list[ReportClaim]:
    written = _compact(figure)
    on_page = [claim for claim in claims if claim.page == page and written in _compact(claim.text)]
    if len(on_page) > 1 and year is not None:
        on_page = [claim for claim in on_page if str(year) in claim.text] or on_page
    return on_page


# --- choosing the claims -------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    report: str
    claim: ReportClaim
    figure: Figure
    year: int | None


def candidates(report: str, claims: Sequence[ReportClaim]) -> list[Candidate]:
    """The report's claims with a figure whose locator finds them alone, years first, in page order."""
    found = []
    for claim in claims:
        figure = primary_figure(claim.text)
        if figure is None:
            continue
        candidate = Candidate(report, claim, figure, figure_year(claim.text, figure))
        if claims_at(claim.page, figure.text, candidate.year, claims) == [claim]:
            found.append(candidate)
    return sorted(found, key=lambda item: (item.year is None, item.claim.page))


def _too_close(candidate: Candidate, chosen: Sequence[Candidate]) -> bool:
    mine = content_words(candidate.claim.text)
    for other in chosen:
        theirs = content_words(other.claim.text)
        if other.report == candidate.report and len(mine & theirs) > MAX_SHARED_SHARE * min(
            len(mine), len(theirs)
        ):
            return True
    return False


def choose(pool: dict[str, list[Candidate]], target: int = TARGET_CASES) -> list[Candidate]:
    """Every distinct candidate of the small reports, then Siemens's up to the target, a report's
    pages first one claim each (claims on one page share a topic); then in page order."""
    chosen: list[Candidate] = []
    for report in REPORTS:
        for one_per_page in (True, False):
            for candidate in pool.get(report, []):
                pages = {item.claim.page for item in chosen if item.report == report}
                if one_per_page and candidate.claim.page in pages or candidate in chosen:
                    continue
                if len(chosen) < target and not _too_close(candidate, chosen):
                    chosen.append(candidate)
    chosen = chosen[: len(chosen) - len(chosen) % len(KINDS)]
    return sorted(chosen, key=lambda item: (REPORTS.index(item.report), item.claim.page))


def assign_kinds(chosen: Sequence[Candidate]) -> list[str]:
    """Kinds in rotation, blocks of eight; `other_year` goes to a claim that states a year."""
    kinds: list[str] = []
    names = list(KINDS)
    for start in range(0, len(chosen), len(names)):
        block = list(chosen[start : start + len(names)])
        rotated = names[start // len(names) % len(names) :] + names[: start // len(names) % len(names)]
        slot = rotated.index("other_year")
        if block[slot].year is None:
            dated = next((i for i, item in enumerate(block) if item.year is not None), slot)
            rotated[slot], rotated[dated] = rotated[dated], rotated[slot]
        kinds += rotated[: len(block)]
    return kinds


# --- the planted figures -------------------------------------------------------------------------


def rewritten(figure: Figure, factor: float) -> str:
    """The figure as written with its number times `factor`, at the same precision."""
    number = _NUMBER.search(figure.text)
    assert number is not None
    written = number.group(0)
    decimals = len(written.split(".", 1)[1]) if "." in written else 0
    value = figure.value * factor
    if round(value, decimals) == round(figure.value, decimals):
        value = figure.value + 3 * 10.0**-decimals
    new = f"{value:,.{decimals}f}" if "," in written else f"{value:.{decimals}f}"
    return figure.text[: number.start()] + new + figure.text[number.end() :]


def different_figure(claim: str, figure: Figure, factor: float) -> str:
    """A figure of the same kind as `figure` that matches none of the claim's figures."""
    percent_cap = figure.dimension == "percent" and figure.value * factor > 100
    for candidate in (factor if not percent_cap else 1 / factor, 2.0, 0.5):
        text = rewritten(figure, candidate)
        if not any(_agrees(mine, parse_figures(text)[0]) for mine in parse_figures(claim)):
            return text
    raise ValueError(f"no different figure for {figure.text!r}")


def _agrees(mine: Figure, theirs: Figure) -> bool:
    tolerance = max(mine.base_half_unit, theirs.base_half_unit, abs(mine.base) * 0.01)
    return mine.dimension == theirs.dimension and abs(abs(mine.base) - abs(theirs.base)) <= tolerance


def _plain(value: float) -> str:
    return f"{value:,.4f}".rstrip("0").rstrip(".")


def _paraphrase_options(figure: Figure) -> list[str]:
    number = _NUMBER.search(figure.text).group(0)  # type: ignore[union-attr]
    base, co2 = figure.base, " of CO2e" if figure.co2e else ""
    options: dict[str, list[str]] = {
        "percent": [f"{number} per cent", f"{number} percent"],
        "pp": [f"{number} percentage points"],
        "mass": [
            f"{_plain(base / 1e6)} million tonnes{co2}",
            f"{_plain(base / 1e3)} thousand tonnes{co2}",
            f"{_plain(base)} tonnes{co2}",
        ],
        "energy": [f"{_plain(base / 1e3)} GWh", f"{_plain(base)} MWh", f"{_plain(base / 1e6)} TWh"],
        "volume": [f"{_plain(base / 1e3)} megalitres", f"{_plain(base)} m3"],
        "area": [f"{_plain(base)} hectares", f"{_plain(base / 100)} km2"],
    }
    if figure.dimension == "currency":
        symbol = figure.text[: _NUMBER.search(figure.text).start()]  # type: ignore[union-attr]
        return [
            f"{symbol}{_plain(base / 1e9)} billion",
            f"{symbol}{_plain(base / 1e6)} million",
            f"{symbol}{_plain(base)}.00",
        ]
    return options[figure.dimension]


def paraphrased(figure: Figure) -> str:
    """The same quantity written another way ("16.2 Mt" -> "16.2 million tonnes")."""
    for option in _paraphrase_options(figure):
        parsed = parse_figures(option)
        if _compact(option) != _compact(figure.text) and len(parsed) == 1 and _agrees(figure, parsed[0]):
            return option
    raise ValueError(f"no paraphrase for {figure.text!r}")


def other_year(claim: str, year: int | None) -> int:
    """A year the claim does not state, a few years before the figure's."""
    stated = {found for found, _ in parse_years(claim)}
    return next(y for y in range((year or 2022) - 3, 1990, -1) if y not in stated)


# --- the cases -----------------------------------------------------------------------------------


SLUG_OUTLETS: dict[str, Sequence[str]] = {
    "contradicting": ["https://www.reuters.com/investigates/special-report/{slug}"],
    "supporting": [
        "https://www.reuters.com/business/environment/{slug}",
        "https://www.ft.com/content/{slug}",
        "https://www.bloomberg.com/news/articles/{slug}",
    ],
    "other_company": ["https://apnews.com/article/{slug}", "https://www.theguardian.com/business/{slug}"],
    "other_year": ["https://www.afr.com/companies/{slug}", "https://www.bbc.com/news/{slug}"],
    "unrelated": ["https://www.theglobeandmail.com/business/{slug}", "https://www.cbc.ca/news/{slug}"],
    "paraphrase": [
        "https://www.carbonbrief.org/{slug}",
        "https://www.esgtoday.com/{slug}",
        "https://www.edie.net/{slug}",
    ],
    "press_release": [
        "https://www.{site}.com/news/releases/{slug}",
        "https://www.businesswire.com/news/home/{slug}/en",
    ],
    "tier4_blog": ["https://medium.com/@ledger-notes/{slug}", "https://ledgernotes.substack.com/p/{slug}"],
}


def company_site(company: str) -> str:
    """The company's own domain label ("riotinto" for "Rio Tinto plc"), as `is_company_site` reads it."""
    words = re.findall(r"[a-z0-9]+", search_name(company).lower())
    return "".join(words[1:] if words[:1] == ["the"] else words)


def source_url(kind: str, index: int, company: str) -> str:
    """The planted document's address: the kind's outlets in turn (the address decides the tier)."""
    outlets = SLUG_OUTLETS[kind]
    slug = f"{company_site(company)}-{kind.replace('_', '-')}-{index:03d}"
    return outlets[index // len(KINDS) % len(outlets)].format(slug=slug, site=company_site(company))


def make_case(candidate: Candidate, kind: str, index: int, company: str) -> Case:
    claim, figure, year = candidate.claim.text, candidate.figure, candidate.year
    planted: dict[str, tuple[str | None, int | None]] = {
        "contradicting": (different_figure(claim, figure, 1.3), year),
        "supporting": (figure.text, year),
        "other_company": (different_figure(claim, figure, 0.8), year),
        "other_year": (different_figure(claim, figure, 0.85), other_year(claim, year)),
        "unrelated": (None, None),
        "paraphrase": (paraphrased(figure), year),
        "press_release": (figure.text, year),
        "tier4_blog": (figure.text, year),
    }
    planted_figure, planted_year = planted[kind]
    published = f"{min((planted_year or year or 2022) + 1, 2024)}-{index % 12 + 1:02d}-{index % 27 + 1:02d}"
    return Case(
        report=candidate.report,
        page=candidate.claim.page,
        figure=figure.text,
        year=year,
        kind=kind,
        expected=KINDS[kind],
        planted_figure=planted_figure,
        planted_year=planted_year,
        url=source_url(kind, index, company),
        published=published,
    )


def build_cases(claims: dict[str, list[ReportClaim]], companies: dict[str, str]) -> list[Case]:
    """The labelled set, deterministically, from every report's claims."""
    pool = {report: candidates(report, found) for report, found in claims.items()}
    chosen = choose(pool)
    return [
        make_case(candidate, kind, index, companies[candidate.report])
        for index, (candidate, kind) in enumerate(zip(chosen, assign_kinds(chosen), strict=True))
    ]


def write_cases(cases: Sequence[Case], companies: dict[str, str], path: Path = CASES_FILE) -> None:
    data = {
        "about": "Locators of labelled claims in ../shared/data/sustainability-reports (no report text); "
        "regenerate with python -m bench.verdict_quality --build",
        "reports": {
            report: {"company": companies[report], "other_company": OTHER_COMPANIES[report]}
            for report in dict.fromkeys(case.report for case in cases)
        },
        "cases": [asdict(case) for case in cases],
    }
    path.write_text(json.dumps(data, indent=1) + "\n")


def read_cases(path: Path = CASES_FILE) -> tuple[dict[str, dict[str, str]], list[Case]]:
    data = json.loads(path.read_text())
    return data["reports"], [Case(**item) for item in data["cases"]]


# --- the planted documents -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlantedDocument:
    title: str
    text: str
    url: str
    published: str


def _usable(word: str, surface: str, avoid: set[str]) -> bool:
    """A word that may stand for the claim's topic: no number, none of the reader's signal words."""
    return (
        word not in avoid
        and not any(ch.isdigit() for ch in word)
        and not any(pattern.search(form) for pattern in _SIGNAL_WORDS for form in (word, surface))
    )


def topic_words(
    claim: str, report_claims: Sequence[ReportClaim], avoid: set[str], company: str = ""
) -> list[str]:
    """Three of the words a search for the claim uses (`key_terms`), the rarest among the report's
    claims first, in claim order (generic words only when the claim has too few others), plus the
    kind of site the claim's figure is for ("plant", "mine"), if it names one."""
    frequency = Counter(word for other in report_claims for word in content_words(other.text))
    surfaces: dict[str, str] = {}
    for term in key_terms(claim, known=company):
        for token in tokens(term):
            word = next(iter(content_words(token)), None)
            if word and word not in surfaces and _usable(word, token, avoid):
                surfaces[word] = token
    ranked = sorted(surfaces, key=lambda word: (word in GENERIC_WORDS, frequency[word]))[:TOPIC_WORDS]
    sites = [word for word in map(str.lower, re.findall(r"[A-Za-z]+", claim)) if word in SITE_WORDS]
    return [surfaces[word] for word in surfaces if word in ranked] + sorted(set(sites) - set(ranked))


UNRELATED_SENTENCES = (
    "The group sponsored a weekend chess league for school pupils, with matches held in a converted cinema.",
    "Staff volunteers repainted a village hall and planted an orchard beside the railway museum.",
    "Its choir sang at a charity concert, and the proceeds went to a local animal shelter.",
    "A new cafeteria menu at headquarters introduced soups, salads and a monthly baking contest.",
)
TITLES: dict[str, str] = {
    "contradicting": "{company}: the figures behind the headline",
    "supporting": "{company}: annual disclosures examined",
    "other_company": "{other}: annual disclosures examined",
    "other_year": "{company}: annual disclosures examined",
    "unrelated": "{company} off the clock",
    "paraphrase": "What {company} disclosed this season",
    "press_release": "{company} announces its annual disclosures",
    "tier4_blog": "Notes on the {company} report",
}
SENTENCES: dict[str, str] = {
    "contradicting": "Records seen by this newsroom put the {topic} figure {when} at {figure}, a different "
    "number from the one the group published.",
    "supporting": "According to filings examined by our reporters, the {topic} figure {when} "
    "came to {figure}.",
    "other_company": "According to filings examined by our reporters, the {topic} figure of {other} {when} "
    "came to {figure}.",
    "other_year": "According to filings examined by our reporters, the {topic} figure {when} "
    "came to {figure}.",
    # The outlet's (or the blogger's) own finding: a sentence that only passes on the group's filing
    # or report ("its filing shows", "the group gives its …") is the company's word, not a second voice.
    "paraphrase": "Data compiled by this newsroom show that {when}, the group's {topic} amounted to "
    "{figure}.",
    "press_release": "{company} today confirmed that its {topic} {when} reached {figure}.",
    "tier4_blog": "By my own count from the site's meter readings, the group's {topic} {when} stood at "
    "{figure}.",
}


def _when(year: int | None) -> str:
    return f"for {year}" if year else "for the latest period"


def _unrelated_sentence(report_claims: Sequence[ReportClaim]) -> str:
    words = set().union(*(content_words(claim.text) for claim in report_claims))
    return min(UNRELATED_SENTENCES, key=lambda sentence: len(content_words(sentence) & words))


def planted_document(
    case: Case, claim: str, report_claims: Sequence[ReportClaim], company: str, other: str, seed: int
) -> PlantedDocument:
    """The document planted for a case: our own wording around the claim's topic words and a figure."""
    name = search_name(company)
    avoid = content_words(f"{name} {other} {' '.join(SENTENCES.values())} {' '.join(TITLES.values())}")
    topic = " ".join(topic_words(claim, report_claims, avoid, name))
    if case.kind == "unrelated":
        sentence = _unrelated_sentence(report_claims)
    else:
        sentence = SENTENCES[case.kind].format(
            topic=topic, when=_when(case.planted_year), figure=case.planted_figure, company=name, other=other
        )
    title = TITLES[case.kind].format(company=name, other=other)
    return PlantedDocument(title, article([sentence], before=8, after=8, seed=seed), case.url, case.published)


def main(argv: list[str] | None = None) -> None:
    """`python -m bench.verdict_cases [--write]`: rebuild the labelled set from today's claims agent
    and say whether it is the committed one (`--write` replaces it). The build needs the pipeline
    stack of `bench.verdict_quality`, which imports this module, hence the import here."""
    from bench import verdict_quality

    write = "--write" in (sys.argv[1:] if argv is None else argv)
    verdict_quality.main(["--build" if write else "--check"])


if __name__ == "__main__":
    main()
