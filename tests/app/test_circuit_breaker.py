"""The per-process circuit breaker: a provider that keeps failing is not called for a cool-down,
callers fall back at once, and one probe after the cool-down closes it again."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from app.config import Settings
from app.llm import LLMClient, LLMRole, LLMUnavailable, breaker
from app.llm.breaker import CircuitBreaker, reset_breakers
from app.llm.errors import AttemptFailed
from app.search.results import SearchAPIError
from app.search.tavily import TavilySearch
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.fake_tavily import Failure, FakeTavily, fake_tavily_server

MODEL = "test/judge"
COOLDOWN = 0.4


class Answer(BaseModel):
    label: str


class ManualClock:
    """The breakers' clock, moved by the test: a cool-down ends when the test says so, not after a
    real wait that a slow machine may overrun while the test still expects the breaker open."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[ManualClock]:
    """Fresh breakers, each made by `breaker_for` on the test's clock."""
    manual = ManualClock()
    monkeypatch.setattr(breaker, "CircuitBreaker", functools.partial(CircuitBreaker, clock=manual))
    reset_breakers()
    yield manual
    reset_breakers()


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as server:
        yield server


@pytest.fixture
async def tavily() -> AsyncIterator[FakeTavily]:
    async with fake_tavily_server() as server:
        yield server


def _llm_settings(fake: FakeLLM, **overrides: Any) -> Settings:
    values = settings_for(
        fake,
        llm_model_judgment=MODEL,
        llm_max_retries=2,
        llm_backoff_seconds=0.0,
        circuit_breaker_failures=5,
        circuit_breaker_cooldown_seconds=COOLDOWN,
    )
    values.update(overrides)
    return Settings(_env_file=None, **values)


async def _ask(client: LLMClient) -> Answer:
    return await client.complete_json(LLMRole.JUDGMENT, system="Judge.", user="Claim.", schema=Answer)


async def _failures(client: LLMClient, calls: int) -> int:
    failed = 0
    for _ in range(calls):
        try:
            await _ask(client)
        except LLMUnavailable:
            failed += 1
    return failed


async def test_llm_calls_stop_reaching_a_failing_model_then_resume_after_the_cool_down(
    fake_llm: FakeLLM, clock: ManualClock
) -> None:
    fake_llm.handler = lambda payload: FakeReply(status=500, body='{"error": "down"}')
    client = LLMClient(_llm_settings(fake_llm))
    try:
        # 20 requests, each with 2 retries: 60 calls without a breaker.
        assert await _failures(client, 20) == 20
        assert len(fake_llm.requests) == 5

        fake_llm.handler = lambda payload: FakeReply(content={"label": "ok"})
        with pytest.raises(LLMUnavailable, match="circuit open"):
            await _ask(client)  # still cooling down: refused without a call
        assert len(fake_llm.requests) == 5

        clock.advance(COOLDOWN - 0.01)
        with pytest.raises(LLMUnavailable, match="circuit open"):
            await _ask(client)  # not quite cooled down
        clock.advance(0.01)
        assert (await _ask(client)).label == "ok"  # the probe
        assert (await _ask(client)).label == "ok"
        assert len(fake_llm.requests) == 7
    finally:
        await client.aclose()


async def test_the_refusal_keeps_the_provider_cause(fake_llm: FakeLLM) -> None:
    fake_llm.handler = lambda payload: FakeReply(status=503, body='{"error": "down"}')
    client = LLMClient(_llm_settings(fake_llm, circuit_breaker_failures=2, llm_max_retries=1))
    try:
        await _failures(client, 1)
        with pytest.raises(LLMUnavailable) as refused:
            await _ask(client)
    finally:
        await client.aclose()
    assert refused.value.failures[MODEL].startswith("503:")  # "provider returned HTTP 503" in warnings


async def test_a_failed_probe_opens_the_breaker_again(fake_llm: FakeLLM, clock: ManualClock) -> None:
    fake_llm.handler = lambda payload: FakeReply(status=500, body='{"error": "down"}')
    client = LLMClient(_llm_settings(fake_llm, circuit_breaker_failures=3, llm_max_retries=0))
    try:
        await _failures(client, 6)
        assert len(fake_llm.requests) == 3
        clock.advance(COOLDOWN)
        await _failures(client, 6)
        assert len(fake_llm.requests) == 4  # one probe, then refused again
    finally:
        await client.aclose()


async def test_rate_limits_and_invalid_answers_do_not_open_the_breaker(fake_llm: FakeLLM) -> None:
    fake_llm.handler = lambda payload: FakeReply(status=429, body='{"error": "slow down"}')
    client = LLMClient(_llm_settings(fake_llm, circuit_breaker_failures=2, llm_max_retries=0))
    try:
        await _failures(client, 4)
        assert len(fake_llm.requests) == 4
        fake_llm.handler = lambda payload: FakeReply(content="not json")
        await _failures(client, 2)
        assert len(fake_llm.requests) == 8  # each with its repair round
    finally:
        await client.aclose()


async def test_zero_turns_the_breaker_off(fake_llm: FakeLLM) -> None:
    fake_llm.handler = lambda payload: FakeReply(status=500, body='{"error": "down"}')
    client = LLMClient(_llm_settings(fake_llm, circuit_breaker_failures=0, llm_max_retries=0))
    try:
        await _failures(client, 8)
    finally:
        await client.aclose()
    assert len(fake_llm.requests) == 8


async def test_tavily_calls_stop_reaching_a_failing_api_then_resume(
    tavily: FakeTavily, clock: ManualClock
) -> None:
    tavily.always_fail = Failure(status=500)
    settings = Settings(
        _env_file=None,
        tavily_api_key="tvly-test",
        tavily_api_base_url=tavily.url,
        search_max_retries=1,
        search_backoff_seconds=0.0,
        circuit_breaker_failures=4,
        circuit_breaker_cooldown_seconds=COOLDOWN,
    )
    errors = []
    for index in range(30):  # a report's worth of queries, each a new provider as in a run
        with pytest.raises(SearchAPIError) as failed:
            await TavilySearch(settings).search(f"query {index}", max_results=3)
        errors.append(failed.value.message)
    assert len(tavily.requests) == 4  # 60 without the breaker
    assert all("500" in error for error in errors)

    tavily.always_fail = None
    clock.advance(COOLDOWN)
    assert await TavilySearch(settings).search("again", max_results=3) == []
    assert await TavilySearch(settings).search("and again", max_results=3) == []
    assert len(tavily.requests) == 6


def test_one_probe_per_cool_down() -> None:
    now = [0.0]
    breaker = CircuitBreaker("test", threshold=2, cooldown_seconds=10, clock=lambda: now[0])
    for _ in range(2):
        breaker.record_failure(AttemptFailed("timeout", "slow", retryable=True))
    assert breaker.refusal() is not None
    now[0] = 10.0
    assert breaker.refusal() is None  # the probe
    assert breaker.refusal() is not None  # others wait for its outcome
    breaker.record_success()
    assert breaker.refusal() is None
    assert not breaker.is_open
