"""What the geography agent concludes from located places and NDVI comparisons, as findings.

Locating a place is not evidence that the claim is true, so a finding built from the gazetteer
alone never supports or contradicts its claim (`location_resolved`, `supports_claim` None). Only
a vegetation claim compared by imagery takes a side, and only indirectly (`IMAGERY_CONFIDENCE`):
a restoration claim is supported when NDVI rose by at least `NDVI_CHANGE` around a named town and
contradicted when it fell as much; a no-deforestation claim can only be contradicted (steady
vegetation around one point does not show that no forest was cleared anywhere).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.geo.gazetteer import Place
from app.geo.imagery import SITE_HALF_SIDE_METRES, NdviSample, SiteNdvi
from app.geo.period import ClaimedPeriod
from app.verification.contract import PlaceFinding
from app.verification.records import ClaimState, FindingDraft

VegetationClaim = Literal["restoration", "no_loss"]

NDVI_CHANGE = 0.05
IMAGERY_CONFIDENCE = 0.6
RESTORATION = re.compile(
    r"\b(restor\w*|re-?forest\w*|afforest\w*|re-?veget\w*|rehabilitat\w*|re-?plant\w*|planted|"
    r"tree[- ]planting|rewild\w*)",
    re.IGNORECASE,
)
NO_LOSS = re.compile(
    r"\b((no|zero|without|halt\w*|end\w*)\s+(net\s+)?deforestation|deforestation[- ]free|no[- ]net[- ]loss|"
    r"no\s+conversion)",
    re.IGNORECASE,
)
#: A restoration word counts only beside a word about land or vegetation ("restored 340 hectares",
#: not "restored power supply").
LAND = re.compile(
    r"\b(hectares?|ha|acres?|km2|km²|forests?|vegetation|land|habitats?|mangroves?|wetlands?|trees?|"
    r"peat\w*|grasslands?|ecosystems?|rainforests?|woodlands?|mine sites?|biodiversity|native)\b",
    re.IGNORECASE,
)


def vegetation_claim(text: str) -> VegetationClaim | None:
    """Which kind of vegetation change the claim asserts, if any."""
    if NO_LOSS.search(text):
        return "no_loss"
    if RESTORATION.search(text) and LAND.search(text):
        return "restoration"
    return None


@dataclass(frozen=True)
class ImageryState:
    """Whether imagery was compared for a claim, and if not, why."""

    available: bool
    reason: str | None
    provider: str
    sites: Sequence[SiteNdvi] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "available": self.available,
            "provider": self.provider,
            "reason": self.reason,
            "sites": [site.to_dict() for site in self.sites],
            "ndvi_change_threshold": NDVI_CHANGE,
            "area": f"{2 * SITE_HALF_SIDE_METRES / 1000:g} km square around each town's gazetteer point",
        }


def nothing_located(claim: ClaimState, searched: Sequence[str]) -> FindingDraft:
    """The honest finding for a claim that names no place the gazetteer knows."""
    return FindingDraft(
        claim_id=claim["claim_id"],
        evidence_type="none",
        summary=f"No place the offline gazetteer knows is named in {' or '.join(searched)}; "
        "nothing was located and no imagery was checked.",
        supports_claim=None,
        confidence=None,
        method="gazetteer",
        details=PlaceFinding(places=[], searched=list(searched)).to_details(),
    )


def claim_finding(
    claim: ClaimState,
    places: Sequence[Place],
    searched: Sequence[str],
    imagery: ImageryState,
    *,
    kind: VegetationClaim | None,
    period: ClaimedPeriod | None,
) -> FindingDraft:
    """One finding for a claim with located places: location only, or an NDVI comparison."""
    compared = [site for site in imagery.sites if site.change is not None]
    details = PlaceFinding(
        places=[place.to_dict() for place in places],
        searched=list(searched),
        vegetation_claim=kind,
        period=period.to_dict() if period else None,
        imagery=imagery.to_dict(),
        sources=[_page_source(claim)] + [source for site in compared for source in _scene_sources(site)],
    ).to_details()
    located = "Located " + "; ".join(place.label() for place in places) + "."
    if not compared:
        why = imagery.reason or "no imagery comparison was made"
        return FindingDraft(
            claim_id=claim["claim_id"],
            evidence_type="location_resolved",
            summary=f"{located} Imagery unavailable: {why}. Locating a place does not verify the claim.",
            supports_claim=None,
            confidence=None,
            method="gazetteer",
            details=details,
        )
    stance = _stance([site.change for site in compared if site.change is not None], kind)
    described = " ".join(_describe(site) for site in compared)
    return FindingDraft(
        claim_id=claim["claim_id"],
        evidence_type="satellite_ndvi",
        summary=f"{located} {described} {_conclusion(stance, kind)}",
        supports_claim=stance,
        confidence=IMAGERY_CONFIDENCE if stance is not None else None,
        method="gazetteer+stac_ndvi",
        details=details,
    )


def _stance(changes: Sequence[float], kind: VegetationClaim | None) -> bool | None:
    """True/False only when every compared site moved the same clear way."""
    if not changes:
        return None
    rose = [change >= NDVI_CHANGE for change in changes]
    fell = [change <= -NDVI_CHANGE for change in changes]
    if all(fell):
        return False
    if kind == "restoration" and all(rose):
        return True
    return None


def _conclusion(stance: bool | None, kind: VegetationClaim | None) -> str:
    subject = "the claimed restoration" if kind == "restoration" else "the claim of no deforestation"
    caveat = "(indirect: the area is around the town the claim names, not a surveyed site boundary)"
    if stance is True:
        return f"Vegetation increased, consistent with {subject} {caveat}."
    if stance is False:
        return f"Vegetation decreased, at odds with {subject} {caveat}."
    return f"No clear change in vegetation either way: inconclusive for {subject}."


def _describe(site: SiteNdvi) -> str:
    assert site.start is not None and site.end is not None and site.change is not None
    return (
        f"Mean NDVI in a {2 * SITE_HALF_SIDE_METRES / 1000:g} km square around {site.place.name} went from "
        f"{_reading(site.start)} to {_reading(site.end)}, {site.change:+.2f}."
    )


def _reading(sample: NdviSample) -> str:
    """ "0.41 (2020-01-14, 3% cloud)"."""
    return f"{sample.mean:.2f} ({sample.scene.datetime[:10]}, {sample.scene.cloud_cover:g}% cloud)"


def _page_source(claim: ClaimState) -> dict[str, Any]:
    """The report page that names the places."""
    return {
        "url": None,
        "title": f"The report, page {claim['source_page']}",
        "domain": None,
        "tier": None,
        "published_date": None,
        "page": claim["source_page"],
        "snippet": claim["text"][:300],
    }


def _scene_sources(site: SiteNdvi) -> list[dict[str, Any]]:
    return [sample.scene.source() for sample in (site.start, site.end) if sample is not None]
