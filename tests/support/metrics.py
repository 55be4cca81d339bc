"""Reading Prometheus metrics in tests: from this process's registry, or scraped from a server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping

import httpx
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from app.metrics.exposition import MAX_AGE_SECONDS


def value(name: str, **labels: str) -> float:
    """A sample of this process's registry (0 when it has none yet)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


def total(name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include `labels` (0 when none)."""
    return sum(
        sample.value
        for family in REGISTRY.collect()
        for sample in family.samples
        if sample.name == name and labels.items() <= sample.labels.items()
    )


async def scrape(url: str) -> str:
    """The exposition text at `url` (a server's `/metrics`)."""
    async with httpx.AsyncClient(timeout=10) as http:
        response = await http.get(url)
    response.raise_for_status()
    return response.text


async def fresh_scrape(url: str) -> str:
    """The exposition text at `url` rendered after this call (the API renders once a second)."""
    await asyncio.sleep(MAX_AGE_SECONDS + 0.05)
    return await scrape(url)


def sample(text: str, name: str, **labels: str) -> float:
    """A sample of an exposition text (0 when it has none)."""
    return samples(text, name).get(tuple(sorted(labels.items())), 0.0)


def summed(text: str, name: str) -> float:
    """The sum of every sample of `name` in an exposition text."""
    return sum(samples(text, name).values())


def samples(text: str, name: str) -> Mapping[tuple[tuple[str, str], ...], float]:
    """Every sample of `name` in an exposition text, by its sorted labels."""
    return {
        tuple(sorted(found.labels.items())): found.value
        for family in text_string_to_metric_families(text)
        for found in family.samples
        if found.name == name
    }


async def until_sample(
    url: str, name: str, done: Callable[[float], bool], timeout: float = 30.0, **labels: str
) -> str:
    """Scrape `url` until `name{labels}` satisfies `done` (the API renders once a second, and work in
    the worker lands when it lands); the last exposition text."""
    deadline = time.monotonic() + timeout
    while True:
        text = await scrape(url)
        found = sample(text, name, **labels)
        if done(found):
            return text
        assert time.monotonic() < deadline, f"{name}{labels} stayed at {found}"
        await asyncio.sleep(0.2)
