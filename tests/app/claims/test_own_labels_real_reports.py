"""Our own labelled sentences in the shared reports (tests/fixtures/claim_locators.py: locators only,
the text is read from the PDFs at run time), skipped when ../shared is absent.

The check-worthiness scorer must accept our claims of every FRD-03 type and type them as we did,
and reject the sentences we labelled as not claims. (Whether a claim survives the density budget of
a long report is measured by `python -m bench.claim_detection`, not asserted here.)
"""

from __future__ import annotations

import pytest

from app.claims.rules import classify_claim_type, is_check_worthy
from tests.fixtures.claim_locators import LOCATORS, located_sentences

FOUND = located_sentences()
MIN_RECALL = 0.75
MIN_TYPE_ACCURACY = 0.9

pytestmark = [
    pytest.mark.shared_data,
    pytest.mark.skipif(not FOUND, reason="../shared/data/sustainability-reports is not present"),
]


def test_every_locator_finds_its_sentence() -> None:
    assert len(FOUND) == len(LOCATORS)


def test_our_claims_are_check_worthy_and_typed_as_we_labelled_them() -> None:
    claims = [(locator, text) for locator, text in FOUND if locator.claim_type is not None]
    assert {locator.claim_type for locator, _ in claims} == {
        "geographic",
        "quantitative",
        "legal_governance",
        "strategic",
        "environmental",
    }
    accepted = [(locator, text) for locator, text in claims if is_check_worthy(text)]
    assert len(accepted) >= MIN_RECALL * len(claims), [
        (locator.report, locator.page, locator.claim_type)
        for locator, text in claims
        if (locator, text) not in accepted
    ]
    typed = [locator for locator, text in claims if classify_claim_type(text) == locator.claim_type]
    assert len(typed) >= MIN_TYPE_ACCURACY * len(claims)


def test_sentences_we_labelled_as_not_claims_are_rejected() -> None:
    kept = [
        (locator.report, locator.page)
        for locator, text in FOUND
        if locator.claim_type is None and is_check_worthy(text)
    ]
    assert len(kept) <= 1, kept
