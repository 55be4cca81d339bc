"""Fixtures of the specialist tests: a fake Tavily server (real HTTP)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.fake_tavily import FakeTavily, fake_tavily_server


@pytest.fixture
async def tavily() -> AsyncIterator[FakeTavily]:
    async with fake_tavily_server() as fake:
        yield fake
