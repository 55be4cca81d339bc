"""NDVI around a site at the start and end of a period, from a STAC API and a TiTiler data API.

What this relies on (the Planetary Computer's public APIs, which follow these specs):

- STAC API Item Search (api.stacspec.org, item-search): ``POST {stac_url}/search`` with a JSON body
  ``{"collections", "bbox": [west, south, east, north], "datetime": "start/end" (RFC 3339),
  "limit"}``, plus the Query extension (``"query": {"eo:cloud_cover": {"lt": 20}}``) and the Sort
  extension (``"sortby": [{"field": "eo:cloud_cover", "direction": "asc"}]``). The answer is a
  GeoJSON FeatureCollection of Items: ``id``, ``properties.datetime``,
  ``properties["eo:cloud_cover"]``, ``properties["s2:processing_baseline"]`` (Sentinel-2) and
  ``links`` with a ``rel: self`` URL. Scenes are sorted again here, so a server that ignores
  ``sortby`` still gives the clearest scene first.
- TiTiler-PgSTAC's single-item statistics (the Planetary Computer mounts it at ``/item``):
  ``POST {data_api_url}/item/statistics?collection=…&item=…&expression=…&asset_as_band=true``
  with a GeoJSON Feature (the area) as body. ``asset_as_band`` lets the expression name assets
  (``B04`` red, ``B08`` near infrared). The answer is that Feature with
  ``properties.statistics`` mapping a band name to ``{min, max, mean, count, valid_percent, …}``;
  the band is named after the expression in current TiTiler (older ones say ``b1``), so the
  expression's entry is used, else the only one.

NDVI is (NIR − red) / (NIR + red). From processing baseline 04.00 (25 January 2022) Sentinel-2
L2A digital numbers carry an offset of +1000 (BOA_ADD_OFFSET = −1000), which would pull every
later NDVI towards zero and fake a decline; such scenes use (B08 − B04) / (B08 + B04 − 2000), the
same index on offset-corrected values.

Only the scene-level cloud cover is filtered; a cloud over the site itself lowers its NDVI. A
scene with less than `MIN_VALID_PERCENT` valid pixels over the site is skipped for the next one.
Every request goes through `app.net.fetch`; every failure becomes `SiteNdvi.unavailable`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from app.geo.gazetteer import Place
from app.geo.period import ClaimedPeriod, Window, season_windows
from app.net.fetch import Fetched, FetchFailed, FetchPolicy, FetchRefused, fetch

COLLECTION = "sentinel-2-l2a"
#: Sentinel-2 L2A coverage before this is too sparse to compare against.
IMAGERY_START = date(2016, 1, 1)
NDVI_EXPRESSION = "(B08-B04)/(B08+B04)"
NDVI_EXPRESSION_OFFSET = "(B08-B04)/(B08+B04-2000)"  # processing baseline 04.00 and later
OFFSET_BASELINE = 4.0
SITE_HALF_SIDE_METRES = 1000.0  # the area is a 2 km square around the site
SCENES_PER_SEARCH = 10
SCENES_TRIED = 3
MIN_VALID_PERCENT = 50.0
_METRES_PER_DEGREE = 111_320.0


class ImageryError(Exception):
    """The provider could not be reached or answered something unusable; `reason` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Scene:
    """One Sentinel-2 item found by the STAC search."""

    item_id: str
    collection: str
    datetime: str
    cloud_cover: float
    processing_baseline: str | None
    url: str

    @property
    def expression(self) -> str:
        """The NDVI expression for this scene's digital numbers (see the module docstring)."""
        try:
            shifted = float(self.processing_baseline or 0) >= OFFSET_BASELINE
        except ValueError:
            shifted = False
        return NDVI_EXPRESSION_OFFSET if shifted else NDVI_EXPRESSION

    def source(self) -> dict[str, Any]:
        """The scene as a finding's source entry."""
        return {
            "url": self.url,
            "title": f"Sentinel-2 L2A scene {self.item_id}",
            "domain": _domain(self.url),
            "tier": None,
            "published_date": self.datetime,
            "snippet": f"{self.collection} item {self.item_id}, {self.datetime}, "
            f"{self.cloud_cover:g}% cloud cover",
            "item_id": self.item_id,
            "cloud_cover": self.cloud_cover,
        }


@dataclass(frozen=True)
class NdviSample:
    """NDVI statistics of one scene over the site's area."""

    scene: Scene
    mean: float
    minimum: float | None
    maximum: float | None
    valid_percent: float | None
    statistics_url: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "item_id": self.scene.item_id,
            "datetime": self.scene.datetime,
            "cloud_cover": self.scene.cloud_cover,
            "expression": self.scene.expression,
            "mean": round(self.mean, 4),
            "min": self.minimum,
            "max": self.maximum,
            "valid_percent": self.valid_percent,
            "statistics_url": self.statistics_url,
        }


@dataclass(frozen=True)
class SiteNdvi:
    """The comparison at one site: both samples, or why there are not."""

    place: Place
    bbox: list[float]
    windows: tuple[Window, Window] | None
    start: NdviSample | None = None
    end: NdviSample | None = None
    unavailable: str | None = None

    @property
    def change(self) -> float | None:
        if self.start is None or self.end is None:
            return None
        return round(self.end.mean - self.start.mean, 4)

    def to_dict(self) -> dict[str, Any]:
        return {
            "place": self.place.name,
            "country_code": self.place.country_code,
            "bbox": self.bbox,
            "windows": [window.to_dict() for window in self.windows or ()],
            "start": self.start.to_dict() if self.start else None,
            "end": self.end.to_dict() if self.end else None,
            "ndvi_change": self.change,
            "unavailable": self.unavailable,
        }


class StacImagery:
    """A STAC search plus a TiTiler statistics API, reached only through the guarded fetcher."""

    def __init__(self, stac_url: str, data_api_url: str, max_cloud_cover: float, policy: FetchPolicy) -> None:
        self.stac_url = stac_url.rstrip("/")
        self.data_api_url = data_api_url.rstrip("/")
        self.max_cloud_cover = max_cloud_cover
        self.policy = policy

    async def compare(self, place: Place, period: ClaimedPeriod) -> SiteNdvi:
        """NDVI over a square around `place` in the same season at both ends of `period`."""
        if place.latitude is None or place.longitude is None:
            raise ValueError(f"{place.name} has no coordinates")
        bbox = site_bbox(place.latitude, place.longitude)
        windows = season_windows(period, earliest=IMAGERY_START)
        if windows is None:
            reason = (
                f"the claimed period ({period.start} to {period.end}) is too short to compare two seasons"
            )
            return SiteNdvi(place, bbox, None, unavailable=reason)
        try:
            start = await self._sample(bbox, windows[0])
            end = await self._sample(bbox, windows[1])
        except ImageryError as exc:
            return SiteNdvi(place, bbox, windows, unavailable=exc.reason)
        return SiteNdvi(place, bbox, windows, start, end)

    async def _sample(self, bbox: list[float], window: Window) -> NdviSample:
        """The clearest scene of the window that covers enough of the site."""
        scenes = await self.search(bbox, window)
        if not scenes:
            raise ImageryError(
                f"no {COLLECTION} scene under {self.max_cloud_cover:g}% cloud cover over the site "
                f"between {window.start} and {window.end}"
            )
        for scene in scenes[:SCENES_TRIED]:
            sample = await self.ndvi(scene, bbox)
            if sample.valid_percent is None or sample.valid_percent >= MIN_VALID_PERCENT:
                return sample
        raise ImageryError(
            f"none of the {min(len(scenes), SCENES_TRIED)} clearest scenes between {window.start} and "
            f"{window.end} had {MIN_VALID_PERCENT:g}% valid pixels over the site"
        )

    async def search(self, bbox: list[float], window: Window) -> list[Scene]:
        """Scenes over `bbox` in `window` under the cloud limit, clearest first."""
        body = {
            "collections": [COLLECTION],
            "bbox": bbox,
            "datetime": window.interval(),
            "query": {"eo:cloud_cover": {"lt": self.max_cloud_cover}},
            "sortby": [{"field": "eo:cloud_cover", "direction": "asc"}],
            "limit": SCENES_PER_SEARCH,
        }
        answer = _json_object(await self._post(f"{self.stac_url}/search", body), "STAC search")
        features = answer.get("features")
        if not isinstance(features, list):
            raise ImageryError("the STAC search answered without a list of features")
        scenes = [scene for feature in features if (scene := self._scene(feature)) is not None]
        return sorted(scenes, key=lambda scene: scene.cloud_cover)

    async def ndvi(self, scene: Scene, bbox: list[float]) -> NdviSample:
        """NDVI statistics of `scene` over the square `bbox`."""
        query = urlencode(
            {
                "collection": scene.collection,
                "item": scene.item_id,
                "expression": scene.expression,
                "asset_as_band": "true",
            },
            quote_via=quote,
            safe="()/",
        )
        url = f"{self.data_api_url}/item/statistics?{query}"
        answer = _json_object(await self._post(url, square_feature(bbox)), "statistics request")
        return _sample(scene, answer, url)

    async def _post(self, url: str, body: dict[str, Any]) -> Fetched:
        try:
            return await fetch(
                url, self.policy, method="POST", json=body, headers={"Accept": "application/json"}
            )
        except FetchRefused as exc:
            raise ImageryError(f"the request to {url} was refused: {exc.message}") from exc
        except FetchFailed as exc:
            raise ImageryError(f"the request to {url} failed: {exc}") from exc

    def _scene(self, feature: Any) -> Scene | None:
        """A STAC item as a `Scene`, or None when it lacks an id, a date or a cloud cover."""
        if not isinstance(feature, dict) or not isinstance(feature.get("properties"), dict):
            return None
        properties = feature["properties"]
        item_id, when, cloud = feature.get("id"), properties.get("datetime"), properties.get("eo:cloud_cover")
        if not isinstance(item_id, str) or not isinstance(when, str) or not _is_number(cloud):
            return None
        collection = feature.get("collection")
        collection = collection if isinstance(collection, str) else COLLECTION
        baseline = properties.get("s2:processing_baseline")
        url = _self_link(feature) or f"{self.stac_url}/collections/{collection}/items/{item_id}"
        return Scene(item_id, collection, when, float(cloud), str(baseline) if baseline else None, url)


def site_bbox(latitude: float, longitude: float, half_side: float = SITE_HALF_SIDE_METRES) -> list[float]:
    """[west, south, east, north] of a square `2 * half_side` metres wide centred on the point."""
    dlat = half_side / _METRES_PER_DEGREE
    dlon = half_side / (_METRES_PER_DEGREE * max(math.cos(math.radians(latitude)), 0.01))
    return [
        round(longitude - dlon, 6),
        round(latitude - dlat, 6),
        round(longitude + dlon, 6),
        round(latitude + dlat, 6),
    ]


def square_feature(bbox: list[float]) -> dict[str, Any]:
    """The bbox as a GeoJSON Feature (the body of a statistics request)."""
    west, south, east, north = bbox
    ring = [[west, south], [east, south], [east, north], [west, north], [west, south]]
    return {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [ring]}}


def _sample(scene: Scene, answer: dict[str, Any], url: str) -> NdviSample:
    """The NDVI entry of a statistics answer (a Feature, or a FeatureCollection of one)."""
    if (
        answer.get("type") == "FeatureCollection"
        and isinstance(answer.get("features"), list)
        and answer["features"]
    ):
        answer = answer["features"][0] if isinstance(answer["features"][0], dict) else {}
    properties = answer.get("properties")
    statistics = properties.get("statistics") if isinstance(properties, dict) else None
    if not isinstance(statistics, dict) or not statistics:
        raise ImageryError(f"the statistics answer for {scene.item_id} holds no statistics")
    entry = statistics.get(scene.expression)
    if entry is None and len(statistics) == 1:
        entry = next(iter(statistics.values()))
    if not isinstance(entry, dict) or not _is_number(entry.get("mean")):
        raise ImageryError(f"the statistics answer for {scene.item_id} holds no NDVI mean")
    return NdviSample(
        scene,
        float(entry["mean"]),
        _number(entry.get("min")),
        _number(entry.get("max")),
        _number(entry.get("valid_percent")),
        url,
    )


def _json_object(fetched: Fetched, what: str) -> dict[str, Any]:
    try:
        answer = json.loads(fetched.body)
    except ValueError as exc:
        raise ImageryError(f"the {what} answered with invalid JSON ({fetched.url})") from exc
    if not isinstance(answer, dict):
        raise ImageryError(f"the {what} answered with JSON that is not an object ({fetched.url})")
    return answer


def _self_link(feature: dict[str, Any]) -> str | None:
    for link in feature.get("links") or []:
        if isinstance(link, dict) and link.get("rel") == "self" and isinstance(link.get("href"), str):
            return str(link["href"])
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _number(value: Any) -> float | None:
    return float(value) if _is_number(value) else None


def _domain(url: str) -> str:
    return urlsplit(url).hostname or ""
