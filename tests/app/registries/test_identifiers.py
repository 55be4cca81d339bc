"""ISINs and LEIs as users type them: cleaned, and refused when their check digits fail."""

from __future__ import annotations

import pytest

from app.registries.identifiers import InvalidIdentifier, clean_isin, clean_lei
from app.services.uploads import InvalidUpload, clean_identifiers


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("DE0007236101", "DE0007236101"), (" us0378331005 ", "US0378331005"), ("", None), (None, None)],
)
def test_isins_are_cleaned(typed: str | None, stored: str | None) -> None:
    assert clean_isin(typed) == stored


@pytest.mark.parametrize("typed", ["DE0007236102", "DE000723610", "1E0007236101", "DE00072361O1"])
def test_a_mistyped_isin_is_refused(typed: str) -> None:
    with pytest.raises(InvalidIdentifier, match="is not an ISIN"):
        clean_isin(typed)


def test_leis_are_checked_by_their_mod_97_digits() -> None:
    assert clean_lei("w38rgi023j3wt1hwrp32") == "W38RGI023J3WT1HWRP32"
    with pytest.raises(InvalidIdentifier, match="is not an LEI"):
        clean_lei("W38RGI023J3WT1HWRP33")


def test_an_upload_names_the_identifier_at_fault() -> None:
    assert clean_identifiers("DE0007236101", None) == {"isin": "DE0007236101", "lei": None}
    with pytest.raises(InvalidUpload) as refused:
        clean_identifiers("DE0007236101", "not-an-lei")
    assert refused.value.field == "lei" and "is not an LEI" in refused.value.message
