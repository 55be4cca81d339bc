"""Where the copies of a vocabulary disagreed, the sentences and the one answer now given.

Claims, source reading, checks and questions each kept their own intention words, legal forms and
year pattern, and the copies drifted apart. Each row of `ROWS` is a sentence (or a name, a title, a
domain) on which two copies answered differently, the caller whose answer that changed, its old
answer and the answer `app.language` gives now. The two copies are kept here as evidence (`OLD`),
so each row also shows that they really did read the text differently.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from app.claims.classify import build_reasoning, classify_claim_type
from app.claims.risk_flags import future_flag
from app.claims.worthiness import check_worthiness
from app.knowledge.ifrs_evidence import reports_target_progress
from app.language.company_names import search_name
from app.verification.checks.targets import check_target
from app.verification.reading.change_mood import mood, reported_direction
from app.verification.sources.credibility import is_company_site
from app.verification.sources.own_documents import is_own_report_title

_I = re.IGNORECASE
#: The copies that disagreed, as they read before `app.language`, by the module each lived in.
OLD: dict[str, re.Pattern[str] | frozenset[str]] = {
    "claims.ranking.INTENTION": re.compile(
        r"\b(?:will|aims? to|wants? to|plans? to|intends? to|seeks? to|strives? to|hopes? to)\b", _I
    ),
    "knowledge.ifrs_evidence._FUTURE_ONLY": re.compile(
        r"\b(?:will|aims? to|plans? to|intends? to|seeks? to|strives? to)\b", _I
    ),
    "claims.classify._FUTURE": re.compile(
        r"\b(?:will|plans? to|aims? to|intends? to|wants? to|expects? to|(?:is|are) to be|on track to|"
        r"going to|seeks? to|strives? to|committed to|commits? to|pledged? to)\b",
        _I,
    ),
    "claims.risk_flags.FUTURE_COMMITMENT": re.compile(
        r"\b(?:will|aims? to|aim is|commit(?:s|ted)? to|pledged? to|targets?|intends? to|plans? to|"
        r"ambition|goal|strives? to|by)\b",
        _I,
    ),
    "reading.change_mood.INTENTION": re.compile(
        r"\b(?:commit\w*|pledg\w*|aim(?:s|ed|ing)?|plan(?:s|ned|ning)? to|intend\w*|intention\w*|target\w*|"
        r"goals?|ambitio\w*|aspir\w*|seek(?:s|ing)? to|striv\w*|will|shall|would|going to|expect\w* to|"
        r"wants? to|promis\w*|vow\w*|work(?:s|ing)? (?:to|toward\w*)|hop(?:e|es|ing) to|on track to|"
        r"set to|in order to)\b",
        _I,
    ),
    "checks.targets._FORWARD": re.compile(
        r"\b(?:target\w*|aim\w*|goal|commit\w*|plan\w*|will|shall|ambition\w*|pledge\w*|intend\w*|seek\w*|"
        r"strive\w*|expect\w*|forecast\w*|on track|pathway|trajectory)\b",
        _I,
    ),
    "checks.metric_index._FORWARD": re.compile(
        r"\b(?:target\w*|aims?|goal|commit\w*|plans?|will|ambition|forecast|expected)\b", _I
    ),
    # Legal forms: the trailing form of a search name, and the forms blanked from a title.
    "sources.company_names.LEGAL_FORMS": re.compile(
        r"[\s,]+(?:plc|ltd\.?|limited|inc\.?|corp\.?|corporation|company|ag|se|s\.a\.|sa|n\.v\.|nv|co\.?|"
        r"group|llc)$",
        _I,
    ),
    "sources.own_documents._LEGAL_FORM": re.compile(
        r"\b(?:plc|ltd|limited|inc|corp|corporation|ag|se|sa|nv|group|llc|co)\b\.?", _I
    ),
    # Word lists: the words of a name, or the end of a domain label, that each copy knew.
    "registries.names.LEGAL_FORMS": frozenset(
        """ab ag as asa bhd bv cia co company corp corporation cv gmbh inc incorporated jsc kg kgaa kk
        limited llc llp lp ltd ltda nv oy oyj pjsc plc pte pty pvt sa saa sab sas se spa srl tbk
        ulc""".split()
    ),
    "sources.credibility._NAME_SUFFIXES": frozenset(
        "group corp plc inc global ag se sa nv co ltd llc holdings company".split()
    ),
    "registries.matching.GROUP_WORDS": frozenset({"group", "holdings", "holding"}),
    # Years: the span each copy read as the year.
    "claims.signals.YEAR": re.compile(
        r"\b(?:FY\s?|fiscal (?:year )?)?(?:19[89]\d|20[0-6]\d)\b|\bFY\s?\d{2}\b", _I
    ),
    "reading.figures.YEAR": re.compile(
        r"\b(?:FY\s?(?P<fy>\d{2})\b|(?:FY\s?)?(?P<year>(?:19[89]|20[0-6])\d))\b", _I
    ),
}


def progress(text: str) -> bool:
    return reports_target_progress(text)


def classified(text: str) -> str:
    return classify_claim_type(text)


def flagged(text: str) -> bool:
    return future_flag(text, []) is not None


def figure_mood(text: str) -> str:
    start = text.index("20%")
    return mood(text, start, start + 3)


def target_check(text: str) -> str | None:
    result = check_target(text, 1)
    return None if result is None else str(result.details["check"])


def own_title(text: str) -> bool:
    title, company = text.split(" | ")
    return is_own_report_title(title, company)


def own_site(text: str) -> bool:
    domain, company = text.split(" | ")
    return is_company_site(domain, company)


def year_in_reasoning(text: str) -> str:
    _, signals = check_worthiness(text)
    reasoning = build_reasoning(text, classify_claim_type(text), signals)
    return reasoning.split("a year (", 1)[1].split(")", 1)[0]


@dataclass(frozen=True)
class Row:
    """A text two old copies read differently (`seen_in`: the part of it they differ on, when not
    all of it), and what the caller `ask` answered then (`old`) and answers now."""

    text: str
    copies: tuple[str, str]
    ask: Callable[[str], object]
    old: object
    now: object
    seen_in: str = ""


_INTEND = ("claims.ranking.INTENTION", "knowledge.ifrs_evidence._FUTURE_ONLY")
_WISH = ("claims.ranking.INTENTION", "claims.classify._FUTURE")
_COMMIT = ("claims.classify._FUTURE", "claims.risk_flags.FUTURE_COMMITMENT")
_SCHEDULED = ("claims.classify._FUTURE", "reading.change_mood.INTENTION")
_FORWARD = ("checks.targets._FORWARD", "checks.metric_index._FORWARD")
_SEARCH = ("sources.company_names.LEGAL_FORMS", "registries.names.LEGAL_FORMS")
_TITLE = ("sources.own_documents._LEGAL_FORM", "registries.names.LEGAL_FORMS")
_TITLE_FORMS = ("sources.company_names.LEGAL_FORMS", "sources.own_documents._LEGAL_FORM")
_DOMAIN = ("registries.names.LEGAL_FORMS", "sources.credibility._NAME_SUFFIXES")
_DOMAIN_GROUP = ("registries.matching.GROUP_WORDS", "sources.credibility._NAME_SUFFIXES")
_YEAR = ("claims.signals.YEAR", "reading.figures.YEAR")
_TO_BE_REDUCED = "Water withdrawals at our sites are to be reduced by 20%."

ROWS = (
    # One intention vocabulary: the verbs of intending are one list ("wants to", "hopes to" in it),
    # "is to be" schedules an action, and "plants" is no plan.
    Row("We want to stay on track for our 2030 target.", _INTEND, progress, True, False),
    Row("We hope to stay on track for our recycling target.", _INTEND, progress, True, False),
    Row("We hope to meet our recycling target.", _WISH, classified, "environmental", "strategic"),
    Row("We seek to halve water use across our sites in 2040.", _COMMIT, flagged, False, True),
    Row("We are going to halve water use across our sites in 2040.", _COMMIT, flagged, False, True),
    Row(_TO_BE_REDUCED, _SCHEDULED, figure_mood, "reported", "intended"),
    Row(_TO_BE_REDUCED, _SCHEDULED, reported_direction, "decrease", None),
    Row(
        "By 2023 we achieved a 37% reduction in emissions at our plants compared with 2008.",
        _FORWARD, target_check, "target_arithmetic", "achieved_reduction",
    ),
    # One list of legal forms: a name is searched for without any of them, a title is read without
    # them, and a domain runs on from the name with any common form or group word.
    Row("Nordavia Metals GmbH", _SEARCH, search_name, "Nordavia Metals GmbH", "Nordavia Metals"),
    Row("Acme Pty Ltd", _SEARCH, search_name, "Acme Pty", "Acme"),
    Row("BP p.l.c.", _SEARCH, search_name, "BP p.l.c.", "BP"),
    Row(
        "Nordavia Metals AB Sustainability Report 2023 | Nordavia Metals", _TITLE, own_title, False, True,
        seen_in="Nordavia Metals AB",
    ),
    Row(
        "Acme Company Sustainability Report 2023 | Acme", _TITLE_FORMS, own_title, False, True,
        seen_in="Acme Company",
    ),
    Row(
        "Acme S.A. Annual Report 2023 | Acme S.A.", _TITLE_FORMS, own_title, False, True,
        seen_in="Acme S.A.",
    ),
    Row(
        "costcocorporation.com | Costco Wholesale Corporation", _DOMAIN, own_site, False, True,
        seen_in="costcocorporation.com",
    ),
    Row("riotintolimited.com | Rio Tinto plc", _DOMAIN, own_site, False, True, seen_in="riotintolimited.com"),
    Row(
        "acmeholding.com | Acme Metals", _DOMAIN_GROUP, own_site, False, True, seen_in="acmeholding.com"
    ),
    # One year pattern: "fiscal year" is not part of the year.
    Row(
        "In fiscal year 2023 we planted 1,200 trees at our quarries.", _YEAR, year_in_reasoning,
        "fiscal year 2023", "2023",
    ),
)  # fmt: skip


def _plain(text: str) -> str:
    return re.sub(r"[.,]", "", text).strip().lower()


def _as_read(copy: str, text: str) -> list[str]:
    """What the old copy finds in `text`: a pattern's matches, a list's words of a name, or the
    list's words a domain label ends with."""
    old = OLD[copy]
    if isinstance(old, re.Pattern):
        return sorted(_plain(match.group()) for match in old.finditer(text))
    if text.endswith(".com"):
        return sorted(word for word in old if text.removesuffix(".com").endswith(word))
    return sorted(word for word in _plain(text).split() if word in old)


def _row_id(row: Row) -> str:
    return f"{getattr(row.ask, '__name__', 'ask')}: {row.text}"


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_the_old_copies_read_the_text_differently(row: Row) -> None:
    first, second = row.copies
    seen_in = row.seen_in or row.text
    assert _as_read(first, seen_in) != _as_read(second, seen_in)


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_the_one_answer_now_given(row: Row) -> None:
    assert row.old != row.now
    assert row.ask(row.text) == row.now
