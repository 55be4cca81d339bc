"""The outcome of one data/metrics check, shared by every check module so none imports another's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check on one claim, ready to become a finding."""

    check: str
    evidence_type: str
    supports_claim: bool | None
    confidence: float | None
    summary: str
    details: dict[str, Any] = field(default_factory=dict)
