"""The rule extractor knows English only: a report in another language gets a warning instead of
an empty result that reads as "nothing verifiable in the report"."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.claims.agent import degradation_warnings
from app.claims.language import check_language, page_is_english
from app.config import Settings
from app.db.session import SessionFactory
from tests.app.claims.test_claims_agent_real_reports import REPORTS, extract
from tests.support.reports import report_pages

ENGLISH = (
    "In 2023 we reduced our Scope 1 emissions by 6 percent to 2.3 million tonnes of CO2e, and the board "
    "committee that oversees our climate strategy met four times during the year. We are on track to reach "
    "net zero by 2050, and our targets have been validated by an independent body. The share of renewable "
    "electricity in our operations rose to 64 percent, from 55 percent in the year before."
)
GERMAN = (
    "Im Jahr 2023 haben wir unsere direkten Emissionen um sechs Prozent auf 2,3 Millionen Tonnen CO2e "
    "gesenkt, und der Ausschuss des Aufsichtsrats, der unsere Klimastrategie überwacht, tagte viermal. Wir "
    "wollen bis 2050 klimaneutral sein, und unsere Ziele wurden von einer unabhängigen Stelle bestätigt. Der "
    "Anteil des Ökostroms in unseren Werken stieg auf 64 Prozent, nach 55 Prozent im Vorjahr."
)
FRENCH = (
    "En 2023, nous avons réduit nos émissions directes de six pour cent pour atteindre 2,3 millions de "
    "tonnes de CO2e, et le comité du conseil qui supervise notre stratégie climatique s'est réuni quatre "
    "fois. Nous visons la neutralité carbone d'ici 2050, et nos objectifs ont été validés par un organisme "
    "indépendant. La part de l'électricité renouvelable dans nos sites a atteint 64 pour cent."
)
JAPANESE = (
    "2023年、当社は直接排出量を6パーセント削減し、230万トンのCO2eとしました。気候戦略を監督する取締役会の"
    "委員会は年に4回開催されました。当社は2050年までにネットゼロを目指しており、目標は独立機関により検証され"
    "ています。事業所における再生可能電力の割合は64パーセントに上昇しました。" * 3
)


def test_pages_are_judged_by_script_and_function_words() -> None:
    assert page_is_english(ENGLISH) is True
    assert page_is_english(GERMAN) is False
    assert page_is_english(FRENCH) is False
    assert page_is_english(JAPANESE) is False
    assert page_is_english("Scope 1 emissions 2.3 Mt") is None  # too few words to judge


def test_a_report_mostly_in_english_is_not_flagged() -> None:
    check = check_language([(1, ENGLISH), (2, GERMAN), (3, ENGLISH), (4, "12 34")])
    assert (check.judged_pages, check.english_pages) == (3, 2)
    assert not check.mostly_other_language


async def test_an_offline_run_on_a_non_english_report_warns_that_the_rules_read_english_only(
    settings: Settings, session_factory: SessionFactory
) -> None:
    pages = [(1, GERMAN), (2, FRENCH), (3, JAPANESE)]
    _, stats = await extract(settings, session_factory, pages)

    warnings = [w for w in degradation_warnings(stats) if w["code"] == "EXTRACTION_LANGUAGE_UNSUPPORTED"]
    assert len(warnings) == 1
    warning = warnings[0]
    assert (warning["stage"], warning["count"], warning["total"]) == ("extracting_claims", 3, 3)
    assert warning["message"].startswith("3 of 3 pages with text do not read as English")
    assert warning["message"].endswith("The LLM extractor (LLM_API_KEY) reads other languages.")
    assert stats.to_dict()["english_pages"] == 0


async def test_an_offline_run_on_an_english_report_has_no_language_warning(
    settings: Settings, session_factory: SessionFactory
) -> None:
    _, stats = await extract(settings, session_factory, [(1, ENGLISH), (2, ENGLISH)])
    assert not [w for w in degradation_warnings(stats) if w["code"] == "EXTRACTION_LANGUAGE_UNSUPPORTED"]


@pytest.mark.skipif(not REPORTS, reason="../shared/data/sustainability-reports is not present")
@pytest.mark.parametrize("path", REPORTS, ids=[path.stem for path in REPORTS])
def test_the_shared_english_reports_read_as_english(path: Path) -> None:
    check = check_language(report_pages(path))
    assert check.judged_pages > 0
    assert check.english_pages >= 0.9 * check.judged_pages
