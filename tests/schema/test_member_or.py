"""`schema.types.orm_rows.member_or` reads a stored enum value exactly as the lenient reading
it stands for."""

from __future__ import annotations

from typing import Any

import pytest

from schema.types.claim_enums import EvidenceKind, evidence_kind
from schema.types.orm_rows import member_or


@pytest.mark.parametrize("stored", ["independent", "internal", "context", "none", "error", "weird", "", None])
def test_stored_evidence_kinds_read_as_evidence_kind_reads_them(stored: Any) -> None:
    assert member_or(EvidenceKind, stored, evidence_kind) is evidence_kind(stored)


def test_an_unhashable_value_is_left_to_the_lenient_reading() -> None:
    asked: list[Any] = []

    def lenient(value: Any) -> EvidenceKind:
        asked.append(value)
        return EvidenceKind.NONE

    assert member_or(EvidenceKind, ["independent"], lenient) is EvidenceKind.NONE
    assert member_or(EvidenceKind, "internal", lenient) is EvidenceKind.INTERNAL
    assert asked == [["independent"]]
