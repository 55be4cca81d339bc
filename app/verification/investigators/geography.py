"""The geography specialist: where a claim is, and — when imagery is configured — whether the
vegetation there changed as the claim says.

Per claim it finds the places named (offline gazetteer, `app.geo.extract`); a claim with none gets
an honest "none". For a restoration or no-deforestation claim that names a town, and when
`IMAGERY_PROVIDER` is set, it compares Sentinel-2 NDVI around the town in the same season at the
start and end of the claimed period (`app.geo.imagery`). Offline, or when imagery fails, it
reports the located places and why imagery is unavailable; it never raises for a provider's
failure. What a finding may conclude is decided in `geo_findings`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, date, datetime

from app.config import Settings
from app.geo.extract import extract_places
from app.geo.gazetteer import Gazetteer, Place, load_gazetteer
from app.geo.imagery import SiteNdvi, StacImagery, site_bbox
from app.geo.period import ClaimedPeriod, claimed_period
from app.net.fetch import FetchPolicy
from app.verification.contract.investigator import InvestigationTools
from app.verification.investigators.geo_findings import (
    ImageryState,
    VegetationClaim,
    claim_finding,
    nothing_located,
    vegetation_claim,
)
from app.verification.records import ClaimState, FindingDraft, InvestigationOutcome, SpecialistTask

#: Towns compared per claim (the most confidently located first).
MAX_SITES = 2
#: Share of the agent's time limit imagery may use, so slow providers never cost the located places.
IMAGERY_TIME_SHARE = 0.6


async def investigate_geography(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Locate each claim's places and, for vegetation claims with imagery on, compare NDVI."""
    claims = task["claims"]
    imagery = imagery_client(tools.settings)
    await tools.think(
        f"Geography agent: locating the places named in {len(claims)} claim(s) with the offline gazetteer"
        + ("; satellite imagery is on." if imagery else "; no imagery provider is configured.")
    )
    gazetteer = await asyncio.to_thread(load_gazetteer)  # the first call indexes ~70k names
    investigation = _Investigation(task, tools, gazetteer, imagery, today=datetime.now(UTC).date())
    return InvestigationOutcome(findings=[await investigation.claim(claim) for claim in claims])


def imagery_client(settings: Settings) -> StacImagery | None:
    """The configured imagery provider, or None when `IMAGERY_PROVIDER` is `none`."""
    if settings.imagery_provider == "none":
        return None
    return StacImagery(
        settings.imagery_stac_url,
        settings.imagery_data_api_url,
        settings.imagery_max_cloud_cover,
        FetchPolicy.from_settings(settings),
    )


def company_names(company: str | None) -> list[str]:
    """The company's name and, without a trailing legal form, its short name: "Rio Tinto plc" is
    written "Rio Tinto" throughout its report, and neither is the Portuguese town.

    A legal form is taken to be a trailing word in lower case or short capitals ("plc", "AG",
    "N.V.", "Ltd."), which no company's own name ends with.
    """
    if not company or not company.split():
        return []
    words = company.split()
    while len(words) > 1 and (
        words[-1].islower() or (words[-1].isupper() and len(words[-1]) <= 4) or "." in words[-1]
    ):
        words.pop()
    short = " ".join(words)
    return [company] if short == company.strip() else [company, short]


class _Investigation:
    """One pass over a task's claims; NDVI comparisons are shared between claims naming one town."""

    def __init__(
        self,
        task: SpecialistTask,
        tools: InvestigationTools,
        gazetteer: Gazetteer,
        imagery: StacImagery | None,
        *,
        today: date,
    ) -> None:
        self.task = task
        self.tools = tools
        self.gazetteer = gazetteer
        self.imagery = imagery
        self.today = today
        self.provider = tools.settings.imagery_provider
        self.budget = IMAGERY_TIME_SHARE * tools.settings.agent_timeout_seconds
        self.deadline = asyncio.get_running_loop().time() + self.budget
        self._compared: dict[tuple[str, str, date, date], SiteNdvi] = {}

    async def claim(self, claim: ClaimState) -> FindingDraft:
        places, searched = self.locate(claim)
        claim_id = claim["claim_id"]
        if not places:
            await self.tools.think("Geography agent: no known place named in the claim.", claim_id=claim_id)
            return nothing_located(claim, searched)
        await self.tools.think(
            f"Geography agent: located {'; '.join(place.label() for place in places)}.",
            claim_id=claim_id,
            places=[place.name for place in places],
        )
        kind = vegetation_claim(claim["text"])
        period = claimed_period(claim["text"], today=self.today) if kind else None
        imagery = await self.compare(places, kind, period, claim_id)
        return claim_finding(claim, places, searched, imagery, kind=kind, period=period)

    def locate(self, claim: ClaimState) -> tuple[list[Place], list[str]]:
        """Places in the claim; else in its context and the judge's refined queries (in that order)."""
        exclude = company_names(self.task["company_name"])
        searched: list[str] = []
        for label, text in self._texts(claim):
            searched.append(label)
            places = extract_places(text, exclude=exclude, gazetteer=self.gazetteer)
            if places:
                return places, searched
        return [], searched

    def _texts(self, claim: ClaimState) -> list[tuple[str, str]]:
        texts = [("the claim", claim["text"])]
        context = claim.get("source_context") or ""
        if context.strip() and context.strip() != claim["text"].strip():
            texts.append(("its source context", context))
        for entry in self.task["routing"]:
            request = entry.get("context")
            if entry["claim_id"] == claim["claim_id"] and request and request["refined_queries"]:
                texts.append(("the judge's refined queries", " ".join(request["refined_queries"])))
        return texts

    async def compare(
        self,
        places: Sequence[Place],
        kind: VegetationClaim | None,
        period: ClaimedPeriod | None,
        claim_id: str,
    ) -> ImageryState:
        """NDVI at up to `MAX_SITES` towns, or why none was compared."""
        imagery = self.imagery
        if imagery is None:
            return ImageryState(
                False, "no imagery provider configured (IMAGERY_PROVIDER=none)", self.provider
            )
        if kind is None or period is None:
            return ImageryState(
                False, "the claim asserts no change in vegetation, so no imagery was compared", self.provider
            )
        towns = sorted(
            (p for p in places if p.kind == "city" and p.latitude is not None), key=lambda p: -p.confidence
        )[:MAX_SITES]
        if not towns:
            return ImageryState(
                False,
                "the claim names no town, only larger areas; a sample around an area's centre would say "
                "nothing about the claimed site",
                self.provider,
            )
        sites = [await self._site(imagery, town, period, claim_id) for town in towns]
        failed = [site.unavailable for site in sites if site.unavailable]
        available = len(failed) < len(sites)
        return ImageryState(available, None if available else "; ".join(failed), self.provider, sites)

    async def _site(
        self, imagery: StacImagery, town: Place, period: ClaimedPeriod, claim_id: str
    ) -> SiteNdvi:
        """One town's comparison, made once per investigation and narrated for each claim."""
        key = (town.name, town.country_code, period.start, period.end)
        if key not in self._compared:
            self._compared[key] = await self._within_budget(imagery, town, period)
        site = self._compared[key]
        if site.change is not None:
            message = (
                f"Geography agent: NDVI around {town.name} changed by {site.change:+.2f} ({period.basis})."
            )
        else:
            message = f"Geography agent: imagery unavailable for {town.name}: {site.unavailable}."
        await self.tools.think(message, claim_id=claim_id)
        return site

    async def _within_budget(self, imagery: StacImagery, town: Place, period: ClaimedPeriod) -> SiteNdvi:
        """The comparison, cut off honestly once imagery has used its share of the agent's time."""
        remaining = self.deadline - asyncio.get_running_loop().time()
        try:
            async with asyncio.timeout(max(remaining, 0)):
                return await imagery.compare(town, period)
        except TimeoutError:
            reason = f"the imagery time budget ({self.budget:g} s of the agent's time limit) ran out"
            return SiteNdvi(
                town, site_bbox(town.latitude or 0.0, town.longitude or 0.0), None, unavailable=reason
            )
