"""A fake LLM and a real `LLMClient` pointed at it, for askReport's LLM paths."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.llm import LLMClient
from tests.conftest import make_settings
from tests.support.fake_llm import FakeLLM, fake_llm_server, settings_for
from tests.support.services import RunningServices

ROUTE_MODEL, ANSWER_MODEL = "test/route-model", "test/answer-model"


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as fake:
        yield fake


@pytest.fixture
async def llm(services: RunningServices, fake_llm: FakeLLM) -> AsyncIterator[LLMClient]:
    """Routes questions with ROUTE_MODEL and writes answers with ANSWER_MODEL."""
    settings = make_settings(
        services, **settings_for(fake_llm, llm_model_routing=ROUTE_MODEL, llm_model_analysis=ANSWER_MODEL)
    )
    client = LLMClient(settings)
    yield client
    await client.aclose()
