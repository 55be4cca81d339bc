"""The STAC + TiTiler imagery client against a fake Planetary Computer on loopback: the requests it
sends, the NDVI it reads back, and every failure turned into an honest "unavailable"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date

import pytest

from app.geo.extract import extract_places
from app.geo.gazetteer import Place
from app.geo.imagery import StacImagery, site_bbox, square_feature
from app.geo.period import ClaimedPeriod
from app.net.fetch import FetchPolicy
from tests.support.fake_imagery import Failure, FakeImagery, fake_imagery_server

LOCAL = FetchPolicy(allow_private=True, timeout_seconds=5.0)
PERIOD = ClaimedPeriod(date(2020, 1, 1), date(2023, 12, 31), "'between 2020 and 2023' in the claim")


@pytest.fixture
async def fake() -> AsyncIterator[FakeImagery]:
    async with fake_imagery_server() as server:
        yield server


@pytest.fixture(scope="module")
def mombasa() -> Place:
    (place, _) = extract_places("Mangroves near Mombasa, Kenya.")
    assert place.name == "Mombasa" and place.latitude is not None
    return place


def client(fake: FakeImagery, policy: FetchPolicy = LOCAL) -> StacImagery:
    return StacImagery(fake.stac_url, fake.data_url, 20.0, policy)


async def test_compare_searches_both_seasons_and_reads_ndvi_of_the_clearest_scene(
    fake: FakeImagery, mombasa: Place
) -> None:
    fake.ndvi = lambda year: 0.30 + 0.05 * (year - 2020)
    site = await client(fake).compare(mombasa, PERIOD)

    assert site.unavailable is None and site.change == pytest.approx(0.15)
    assert site.start is not None and site.end is not None
    assert (site.start.mean, site.end.mean) == (pytest.approx(0.30), pytest.approx(0.45))
    bbox = site_bbox(mombasa.latitude or 0, mombasa.longitude or 0)
    assert bbox[0] < (mombasa.longitude or 0) < bbox[2] and bbox[1] < (mombasa.latitude or 0) < bbox[3]
    assert bbox[3] - bbox[1] == pytest.approx(2000 / 111_320, rel=1e-3)  # a 2 km square
    first, last = fake.requests
    assert first == {
        "collections": ["sentinel-2-l2a"],
        "bbox": bbox,
        "datetime": "2020-01-01T00:00:00Z/2020-04-01T23:59:59Z",
        "query": {"eo:cloud_cover": {"lt": 20.0}},
        "sortby": [{"field": "eo:cloud_cover", "direction": "asc"}],
        "limit": 10,
    }
    assert last["datetime"] == "2023-01-01T00:00:00Z/2023-04-02T23:59:59Z"  # the same season
    old, new = fake.statistics
    assert old.query == {
        "collection": "sentinel-2-l2a",
        "item": "S2B_MSIL2A_20200101T074619_R135_T37MER_30",  # 3% cloud beats 12.5%
        "expression": "(B08-B04)/(B08+B04)",
        "asset_as_band": "true",
    }
    assert new.query["expression"] == "(B08-B04)/(B08+B04-2000)"  # baseline 05.10 adds 1000 to each band
    assert old.feature == square_feature(bbox) and old.feature["geometry"]["coordinates"][0][0] == bbox[:2]
    assert "expression=(B08-B04)/(B08%2BB04)&asset_as_band=true" in site.start.statistics_url
    source = site.start.scene.source()
    assert source["url"] == f"{fake.url}/stac/collections/sentinel-2-l2a/items/{site.start.scene.item_id}"
    assert (source["cloud_cover"], source["published_date"][:10], source["tier"]) == (3.0, "2020-01-01", None)


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        ("stac_500", "HTTP 500"),
        ("stac_garbage", "invalid JSON"),
        ("no_scenes", "no sentinel-2-l2a scene under 20% cloud cover over the site between 2020-01-01"),
        ("data_500", "HTTP 500"),
        ("data_garbage", "invalid JSON"),
        ("no_mean", "no NDVI mean"),
        ("low_valid", "none of the 2 clearest scenes between 2020-01-01 and 2020-04-01 had 50% valid pixels"),
    ],
)
async def test_every_imagery_failure_is_an_honest_unavailable(
    fake: FakeImagery, mombasa: Place, failure: Failure, reason: str
) -> None:
    fake.failure = failure
    site = await client(fake).compare(mombasa, PERIOD)
    assert site.change is None and site.start is None
    assert site.unavailable is not None and reason in site.unavailable
    assert site.to_dict()["unavailable"] == site.unavailable


async def test_a_provider_on_a_private_address_is_refused_without_a_request(
    fake: FakeImagery, mombasa: Place
) -> None:
    site = await client(fake, FetchPolicy()).compare(mombasa, PERIOD)
    assert site.unavailable is not None and "refused" in site.unavailable and "loopback" in site.unavailable
    assert fake.requests == [] and fake.statistics == []


async def test_a_period_too_short_for_two_seasons_asks_nothing(fake: FakeImagery, mombasa: Place) -> None:
    short = ClaimedPeriod(date(2024, 1, 1), date(2024, 3, 1), "test")
    site = await client(fake).compare(mombasa, short)
    assert site.unavailable is not None and "too short" in site.unavailable
    assert fake.requests == []
