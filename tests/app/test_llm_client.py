"""The LLM client against a real local HTTP server speaking the chat-completions protocol."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import BaseModel

from app.config import Settings
from app.llm import LLMClient, LLMRole, LLMUnavailable, UsageTrace, create_llm_client
from app.llm.answers import extract_json
from app.llm.backoff import backoff_delay
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server

PRIMARY = "test/primary"
FALLBACK = "test/fallback"
API_KEY = "sk-test-secret-key"


class Verdict(BaseModel):
    label: str
    score: float


GOOD = {"label": "supported", "score": 0.9}


def llm_settings(fake: FakeLLM, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "llm_api_key": API_KEY,
        "llm_base_url": fake.url,
        "llm_model_analysis": PRIMARY,
        "llm_fallback_model_analysis": FALLBACK,
        "llm_backoff_seconds": 0.01,
        "llm_backoff_max_seconds": 0.05,
        "llm_timeout_seconds": 5.0,
        "llm_max_retries": 2,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
async def fake() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as server:
        yield server


async def ask(fake: FakeLLM, trace: UsageTrace | None = None, **overrides: Any) -> Verdict:
    client = LLMClient(llm_settings(fake, **overrides))
    try:
        return await client.complete_json(
            LLMRole.ANALYSIS,
            system="You judge claims.",
            user="Claim: we are green.",
            schema=Verdict,
            trace=trace,
        )
    finally:
        await client.aclose()


async def test_valid_answer_is_parsed_and_usage_recorded(fake: FakeLLM) -> None:
    fake.script(FakeReply(content=GOOD, prompt_tokens=120, completion_tokens=30, cost=0.0042))
    trace = UsageTrace()

    verdict = await ask(fake, trace, llm_prices={PRIMARY: (100.0, 100.0)})

    assert verdict == Verdict(label="supported", score=0.9)
    [request] = fake.requests
    assert request["model"] == PRIMARY
    assert request["messages"] == [
        {"role": "system", "content": "You judge claims."},
        {"role": "user", "content": "Claim: we are green."},
    ]
    assert request["response_format"] == {"type": "json_object"}
    assert request["temperature"] == 0.1
    assert request["max_tokens"] == 4096
    assert fake.authorizations == [f"Bearer {API_KEY}"]
    usage = trace.to_dict()
    assert (usage["calls"], usage["failed_calls"], usage["retries"]) == (1, 0, 0)
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (120, 30)
    assert usage["cost_usd"] == pytest.approx(0.0042)  # the endpoint's own figure wins over llm_prices
    assert usage["latency_ms"] > 0
    assert usage["by_model"][PRIMARY]["calls"] == 1
    assert usage["by_role"]["analysis"]["prompt_tokens"] == 120


async def test_cost_from_configured_prices(fake: FakeLLM) -> None:
    fake.script(FakeReply(content=GOOD, prompt_tokens=1_000_000, completion_tokens=500_000))
    trace = UsageTrace()

    await ask(fake, trace, llm_prices={PRIMARY: (3.0, 15.0)})

    assert trace.to_dict()["cost_usd"] == pytest.approx(3.0 + 7.5)


async def test_cost_unknown_without_price(fake: FakeLLM) -> None:
    fake.script(FakeReply(content=GOOD))
    trace = UsageTrace()

    await ask(fake, trace)

    assert trace.to_dict()["cost_usd"] is None
    assert trace


async def test_fenced_answer_with_prose_is_accepted(fake: FakeLLM) -> None:
    fake.script(FakeReply(content=f"Sure! Here it is:\n```json\n{json.dumps(GOOD)}\n```\nHope that helps."))

    assert await ask(fake) == Verdict(**GOOD)
    assert len(fake.requests) == 1


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (FakeReply(status=429, headers={"Retry-After": "0"}), "429"),
        (FakeReply(status=500), "500"),
        (FakeReply(status=503, body="upstream down"), "503"),
        (FakeReply(body="not json at all"), "bad_response"),
        (FakeReply(body='{"error": {"message": "overloaded"}}'), "bad_response"),
    ],
)
async def test_transient_failure_is_retried(
    fake: FakeLLM, caplog: pytest.LogCaptureFixture, failure: FakeReply, reason: str
) -> None:
    fake.script(failure, FakeReply(content=GOOD))
    trace = UsageTrace()

    with caplog.at_level(logging.WARNING, logger="app.llm"):
        assert await ask(fake, trace) == Verdict(**GOOD)

    assert [request["model"] for request in fake.requests] == [PRIMARY, PRIMARY]
    usage = trace.to_dict()
    assert (usage["calls"], usage["failed_calls"], usage["retries"]) == (2, 1, 1)
    assert usage["by_model"][PRIMARY]["retries"] == 1
    assert usage["by_role"]["analysis"]["retries"] == 1
    [warning] = [record.getMessage() for record in caplog.records if record.name == "app.llm.client"]
    assert f"model {PRIMARY} failed ({reason}" in warning
    assert "retry 1/2" in warning


async def test_retry_after_header_is_honoured(fake: FakeLLM) -> None:
    fake.script(FakeReply(status=429, headers={"Retry-After": "0.4"}), FakeReply(content=GOOD))
    loop = asyncio.get_running_loop()

    started = loop.time()
    await ask(fake, llm_backoff_seconds=0.0, llm_backoff_max_seconds=5.0)

    assert loop.time() - started >= 0.4


async def test_timeout_is_retried(fake: FakeLLM) -> None:
    # The retry must answer within the timeout too: 2 s leaves a slow machine room for that, and
    # the first reply comes 2 s after the timeout.
    fake.script(FakeReply(content=GOOD, delay=4.0), FakeReply(content=GOOD))
    trace = UsageTrace()

    assert await ask(fake, trace, llm_timeout_seconds=2.0) == Verdict(**GOOD)

    usage = trace.to_dict()
    assert (usage["calls"], usage["failed_calls"], usage["retries"]) == (2, 1, 1)
    assert usage["prompt_tokens"] == 10  # the timed-out attempt used no tokens we know of


async def test_invalid_answer_gets_one_repair_round(fake: FakeLLM) -> None:
    fake.script(FakeReply(content={"label": "supported"}), FakeReply(content=GOOD))
    trace = UsageTrace()

    assert await ask(fake, trace) == Verdict(**GOOD)

    first, repair = fake.requests
    assert repair["model"] == PRIMARY
    assert repair["messages"][:2] == first["messages"]
    assert repair["messages"][2] == {"role": "assistant", "content": '{"label": "supported"}'}
    assert repair["messages"][3]["role"] == "user"
    assert "score: Field required" in repair["messages"][3]["content"]
    usage = trace.to_dict()
    assert (usage["calls"], usage["failed_calls"], usage["retries"]) == (2, 1, 1)
    assert usage["prompt_tokens"] == 20  # the invalid answer still cost tokens


async def test_failed_repair_moves_to_fallback(fake: FakeLLM) -> None:
    fake.handler = lambda request: (
        FakeReply(content=GOOD) if request["model"] == FALLBACK else FakeReply(content="I cannot comply.")
    )

    assert await ask(fake) == Verdict(**GOOD)

    assert len(fake.requests_for(PRIMARY)) == 2  # the answer and one repair, no more
    assert "not valid JSON" in fake.requests_for(PRIMARY)[1]["messages"][-1]["content"]
    assert len(fake.requests_for(FALLBACK)) == 1


async def test_primary_exhausting_retries_falls_back(fake: FakeLLM, caplog: pytest.LogCaptureFixture) -> None:
    fake.handler = lambda request: (
        FakeReply(content=GOOD) if request["model"] == FALLBACK else FakeReply(status=502)
    )
    trace = UsageTrace()

    with caplog.at_level(logging.WARNING, logger="app.llm"):
        assert await ask(fake, trace, llm_max_retries=2) == Verdict(**GOOD)

    assert [request["model"] for request in fake.requests] == [PRIMARY] * 3 + [FALLBACK]
    usage = trace.to_dict()
    assert usage["by_model"][PRIMARY] | {"latency_ms": 0} == {
        "calls": 3,
        "failed_calls": 3,
        "retries": 2,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "latency_ms": 0,
        "cost_usd": None,
    }
    assert usage["by_model"][FALLBACK]["calls"] == 1
    assert usage["by_model"][FALLBACK]["failed_calls"] == 0
    assert any("falling back to test/fallback" in record.getMessage() for record in caplog.records)
    assert sum("retry" in record.getMessage() for record in caplog.records) == 2
    assert API_KEY not in caplog.text


async def test_everything_failing_raises_llm_unavailable(fake: FakeLLM) -> None:
    fake.handler = lambda request: FakeReply(status=500, body="boom")
    trace = UsageTrace()

    with pytest.raises(LLMUnavailable) as raised:
        await ask(fake, trace, llm_max_retries=1)

    assert [request["model"] for request in fake.requests] == [PRIMARY, PRIMARY, FALLBACK, FALLBACK]
    assert raised.value.role == "analysis"
    assert set(raised.value.failures) == {PRIMARY, FALLBACK}
    message = str(raised.value)
    assert PRIMARY in message and FALLBACK in message and "500" in message and "boom" in message
    assert trace.to_dict()["failed_calls"] == 4


async def test_unauthorised_is_not_retried(fake: FakeLLM) -> None:
    fake.handler = lambda request: FakeReply(status=401, body='{"error": {"message": "bad key"}}')

    with pytest.raises(LLMUnavailable, match="401"):
        await ask(fake, llm_max_retries=3)

    assert [request["model"] for request in fake.requests] == [PRIMARY, FALLBACK]


async def test_no_fallback_when_unset_or_same(fake: FakeLLM) -> None:
    fake.handler = lambda request: FakeReply(status=400)

    with pytest.raises(LLMUnavailable):
        await ask(fake, llm_fallback_model_analysis=None)
    with pytest.raises(LLMUnavailable):
        await ask(fake, llm_fallback_model_analysis=PRIMARY)

    assert [request["model"] for request in fake.requests] == [PRIMARY, PRIMARY]


async def test_connection_error_is_retried_then_unavailable() -> None:
    async with fake_llm_server() as gone:
        url = gone.url
    trace = UsageTrace()
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, llm_api_key="k", llm_base_url=url, llm_max_retries=1, llm_backoff_seconds=0.01
    )
    client = LLMClient(settings)
    try:
        with pytest.raises(LLMUnavailable, match="connection"):
            await client.complete_json(LLMRole.DEDUP, system="s", user="u", schema=Verdict, trace=trace)
    finally:
        await client.aclose()
    usage = trace.to_dict()
    assert (usage["calls"], usage["failed_calls"], usage["retries"]) == (4, 4, 2)  # 2 models x 2 tries


async def test_concurrency_limit_is_respected(fake: FakeLLM) -> None:
    fake.gather = 2  # the first requests wait for each other: the overlap needs no fast machine
    fake.handler = lambda request: FakeReply(content=GOOD, delay=0.1)
    client = LLMClient(llm_settings(fake, llm_max_concurrency=2))
    try:
        calls = [
            client.complete_json(LLMRole.ANALYSIS, system="s", user=f"claim {n}", schema=Verdict)
            for n in range(6)
        ]
        results = await asyncio.gather(*calls)
    finally:
        await client.aclose()

    assert results == [Verdict(**GOOD)] * 6
    assert len(fake.requests) == 6
    assert fake.max_in_flight == 2  # one at a time would leave the first alone for GATHER_SECONDS


async def test_model_for_role() -> None:
    settings = Settings(_env_file=None, llm_api_key="k", llm_model_judgment="x/judge")  # type: ignore[call-arg]
    client = LLMClient(settings)
    try:
        assert client.model_for(LLMRole.JUDGMENT) == "x/judge"
        assert client.model_for(LLMRole.ROUTING) == settings.llm_model_routing
    finally:
        await client.aclose()


async def test_create_llm_client_needs_a_key() -> None:
    assert create_llm_client(Settings(_env_file=None, llm_api_key=None)) is None  # type: ignore[call-arg]
    assert create_llm_client(Settings(_env_file=None, llm_api_key="")) is None  # type: ignore[call-arg]
    client = create_llm_client(Settings(_env_file=None, llm_api_key="k"))  # type: ignore[call-arg]
    assert isinstance(client, LLMClient)
    await client.aclose()


def record(
    trace: UsageTrace,
    model: str,
    role: str,
    *,
    tokens: tuple[int, int],
    latency_ms: float,
    cost_usd: float | None,
    ok: bool = True,
) -> None:
    trace.record(
        model=model,
        role=role,
        prompt_tokens=tokens[0],
        completion_tokens=tokens[1],
        latency_ms=latency_ms,
        cost_usd=cost_usd,
        ok=ok,
    )


def test_usage_trace_round_trip_and_merge() -> None:
    first = UsageTrace()
    assert not first
    assert first.to_dict()["calls"] == 0
    record(first, "a", "routing", tokens=(10, 2), latency_ms=5.0, cost_usd=0.5)
    first.record_retry(model="a", reason="429")
    second = UsageTrace()
    record(second, "b", "routing", tokens=(7, 1), latency_ms=3.0, cost_usd=None, ok=False)
    record(second, "a", "judgment", tokens=(1, 1), latency_ms=1.0, cost_usd=0.25)

    restored = UsageTrace.from_dict(json.loads(json.dumps(first.to_dict())))
    assert restored.to_dict() == first.to_dict()
    restored.merge(second)

    merged = restored.to_dict()
    assert (merged["calls"], merged["failed_calls"], merged["retries"]) == (3, 1, 1)
    assert (merged["prompt_tokens"], merged["completion_tokens"]) == (18, 4)
    assert merged["latency_ms"] == pytest.approx(9.0)
    assert merged["cost_usd"] == pytest.approx(0.75)
    assert merged["by_model"]["a"]["calls"] == 2
    assert merged["by_model"]["a"]["retries"] == 1
    assert merged["by_model"]["b"]["cost_usd"] is None
    assert merged["by_role"]["routing"]["calls"] == 2
    assert merged["by_role"]["judgment"]["prompt_tokens"] == 1
    assert UsageTrace.from_dict(None).to_dict() == UsageTrace().to_dict()
    assert first.to_dict()["calls"] == 1  # merging into a copy left the original alone


def test_extract_json_tolerates_fences_and_prose() -> None:
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('```json\n{"a": {"b": [1, 2]}}\n```') == {"a": {"b": [1, 2]}}
    assert extract_json('Answer: {"a": "x}"} -- {"ignored": true}') == {"a": "x}"}
    with pytest.raises(ValueError):
        extract_json("no json {here")


def test_backoff_doubles_and_is_capped() -> None:
    assert [backoff_delay(n, base=1.0, cap=5.0) for n in range(4)] == [1.0, 2.0, 4.0, 5.0]
    assert backoff_delay(0, base=1.0, cap=5.0, retry_after=3.0) == 3.0
    assert backoff_delay(0, base=1.0, cap=5.0, retry_after=120.0) == 5.0
