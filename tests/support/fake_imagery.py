"""A fake STAC API and TiTiler data API on one loopback server, speaking the Planetary Computer's
protocol (see app/geo/imagery.py), scripted per test.

async with fake_imagery_server() as fake:
    fake.ndvi = lambda year: 0.30 + 0.04 * (year - 2020)   # mean NDVI of a scene from `year`
    settings = Settings(imagery_provider="planetary_computer", imagery_stac_url=fake.stac_url, ...)

Each search answers scenes dated inside the requested window (their ids carry the window's year);
each statistics request answers the scripted mean for that year under the expression's name.
Scenes from 2022 on carry processing baseline 05.10 (with the +1000 offset), earlier ones 02.14.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.support.http_server import RecordingFake, serve_asgi

Failure = Literal["stac_500", "stac_garbage", "no_scenes", "data_500", "data_garbage", "low_valid", "no_mean"]


@dataclass
class StatisticsRequest:
    query: dict[str, str]
    feature: dict[str, Any]


class FakeImagery(RecordingFake):
    """Scripted answers and every request received (`requests`: the STAC search bodies)."""

    def __init__(self) -> None:
        super().__init__()
        self.ndvi: Callable[[int], float] = lambda year: 0.5
        self.failure: Failure | None = None
        self.delay = 0.0  # seconds before each search answers
        self.statistics: list[StatisticsRequest] = []

    @property
    def stac_url(self) -> str:
        return f"{self.url}/stac"

    @property
    def data_url(self) -> str:
        return f"{self.url}/data"

    async def search(self, request: Request) -> Response:
        body = await self.record(request)
        if isinstance(body, Response):
            return body
        await asyncio.sleep(self.delay)
        if self.failure == "stac_500":
            return JSONResponse({"code": "InternalServerError"}, status_code=500)
        if self.failure == "stac_garbage":
            return Response("<html>maintenance</html>", media_type="text/html")
        first_day = str(body["datetime"]).split("/")[0][:10]
        year = int(first_day[:4])
        features = (
            []
            if self.failure == "no_scenes"
            else [_item(self.url, year, first_day, 12.5), _item(self.url, year, first_day, 3.0)]
        )
        return JSONResponse(
            {"type": "FeatureCollection", "features": features, "links": []},
            media_type="application/geo+json",
        )

    async def item_statistics(self, request: Request) -> Response:
        feature = json.loads(await request.body())
        query = dict(request.query_params)
        self.statistics.append(StatisticsRequest(query, feature))
        if self.failure == "data_500":
            return JSONResponse({"detail": "rasterio error"}, status_code=500)
        if self.failure == "data_garbage":
            return Response("not json", media_type="application/json")
        year = int(query["item"].split("_")[2][:4])
        entry: dict[str, Any] = {
            "min": -0.1,
            "max": 0.9,
            "mean": self.ndvi(year),
            "count": 40000.0,
            "valid_percent": 20.0 if self.failure == "low_valid" else 99.5,
        }
        if self.failure == "no_mean":
            del entry["mean"]
        answer = {**feature, "properties": {"statistics": {query["expression"]: entry}}}
        return JSONResponse(answer, media_type="application/geo+json")


def _item(base: str, year: int, day: str, cloud: float) -> dict[str, Any]:
    item_id = f"S2B_MSIL2A_{day.replace('-', '')}T074619_R135_T37MER_{int(cloud * 10)}"
    return {
        "type": "Feature",
        "stac_version": "1.0.0",
        "id": item_id,
        "collection": "sentinel-2-l2a",
        "bbox": [39.0, -4.5, 40.0, -3.5],
        "geometry": {
            "type": "Polygon",
            "coordinates": [[[39, -4.5], [40, -4.5], [40, -3.5], [39, -3.5], [39, -4.5]]],
        },
        "properties": {
            "datetime": f"{day}T07:46:19.024000Z",
            "eo:cloud_cover": cloud,
            "s2:processing_baseline": "05.10" if year >= 2022 else "02.14",
            "platform": "Sentinel-2B",
        },
        "links": [{"rel": "self", "href": f"{base}/stac/collections/sentinel-2-l2a/items/{item_id}"}],
        "assets": {},
    }


@asynccontextmanager
async def fake_imagery_server() -> AsyncIterator[FakeImagery]:
    fake = FakeImagery()
    app = Starlette(
        routes=[
            Route("/stac/search", fake.search, methods=["POST"]),
            Route("/data/item/statistics", fake.item_statistics, methods=["POST"]),
        ]
    )
    async with serve_asgi(app) as url:
        fake.url = url
        yield fake
