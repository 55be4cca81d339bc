"""The geography investigator's record: where a claim is, and what imagery there shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.verification.contract.values import as_details


@dataclass(frozen=True)
class PlaceFinding:
    """The places a claim names and, when imagery was compared, what it shows around them.

    Filled by `investigators.geo_findings` from the gazetteer and the imagery search; read by the
    verdict's citations (its `sources`: the claim's page and the scenes compared). The judge counts
    imagery as indirect evidence only (`judge.grounding`).
    """

    #: The places located (`Place.to_dict`), and what was searched for them (claim, page).
    places: list[dict[str, Any]]
    searched: list[str]
    #: The claim's kind of vegetation claim and the period it speaks of, when imagery applies.
    vegetation_claim: str | None = None
    period: dict[str, Any] | None = None
    #: What imagery was looked for and found (`ImageryState.to_dict`); absent when nothing was located.
    imagery: dict[str, Any] | None = None
    source_available: bool = True
    sources: list[dict[str, Any]] = field(default_factory=list)

    def to_details(self) -> dict[str, Any]:
        """The stored `details`: with nothing located only places, searched, source and sources."""
        details = as_details(self)
        if self.imagery is None:
            for key in ("vegetation_claim", "period", "imagery"):
                del details[key]
        return details
