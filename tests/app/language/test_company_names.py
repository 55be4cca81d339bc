"""Legal forms and company names: the name as searched for, blanked from a text, and as matched."""

from __future__ import annotations

import re

import pytest

from app.language.company_names import (
    COMMON_LEGAL_FORMS,
    GROUP_WORDS,
    LEGAL_FORMS,
    PROSE_LEGAL_FORM,
    normalise_name,
    search_name,
    without_legal_forms,
)


@pytest.mark.parametrize(
    ("name", "searched"),
    [
        ("Rio Tinto plc", "Rio Tinto"),
        ("Costco Wholesale Corporation", "Costco Wholesale"),
        ("Acme, Inc.", "Acme"),
        ("Vale S.A.", "Vale"),
        ("Enel S.p.A.", "Enel"),
        ("BHP Group Ltd", "BHP"),
        ("Acme Pty. Ltd.", "Acme"),
        ("Shell Chemical LP", "Shell Chemical"),
        ("CT REIT", "CT REIT"),
        ("BHP Holdings", "BHP Holdings"),
        ("  ", ""),
        (None, ""),
    ],
)
def test_the_search_name_drops_every_trailing_legal_form_and_group(name: str | None, searched: str) -> None:
    assert search_name(name) == searched


def test_a_legal_form_is_only_a_whole_trailing_word() -> None:
    assert search_name("Texas") == "Texas"
    assert search_name("Gas Natural") == "Gas Natural"
    assert search_name("AG") == "AG"  # a name is never emptied


def test_legal_forms_are_blanked_anywhere_in_a_text_as_whole_words() -> None:
    text = without_legal_forms("S.A. Annual Report as filed by the Group GmbH, Sagas Cohort")
    assert text.split() == ["Annual", "Report", "filed", "by", "the", ",", "Sagas", "Cohort"]


@pytest.mark.parametrize(
    ("name", "normal"),
    [
        ("RIO TINTO LIMITED", "rio tinto"),
        ("Rio Tinto Ltd.", "rio tinto"),
        ("Siemens AG", "siemens"),
        ("Fater S.p.A.", "fater"),
        ("Nestlé S.A.", "nestle"),
        ("L'Oréal", "loreal"),
        ("THE SOUTHERN CO", "southern"),
        ("Taipei Chips Co., Ltd.", "taipei chips"),
        ("CHEVRON AUSTRALIA HOLDINGS PTY LTD", "chevron australia holdings"),
        ("Marks & Spencer Group plc", "marks and spencer group"),
        ("AB InBev UK Limited", "ab inbev uk"),
        ("The Home Depot, Inc.", "home depot"),
        ("Limited", "limited"),
        ("...", ""),
    ],
)
def test_names_meet_in_one_normal_form(name: str, normal: str) -> None:
    assert normalise_name(name) == normal


def test_the_common_forms_and_group_words_are_one_vocabulary_with_the_rest() -> None:
    assert COMMON_LEGAL_FORMS < LEGAL_FORMS
    assert set(GROUP_WORDS).isdisjoint(LEGAL_FORMS)


def test_a_name_in_running_text_is_found_by_its_capitalised_form_only() -> None:
    form = re.compile(rf"\b(?:{PROSE_LEGAL_FORM})\b")
    assert form.search("Northwind Minerals plc reported")
    assert form.search("a subsidiary of Siemens AG")
    assert not form.search("the Company reported, as agreed")
