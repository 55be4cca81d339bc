"""The reader-pairs bench reads with the analysis model when asked (`bench.reader_pairs --llm`):
through the real client against a fake chat-completions server, its answers quote-checked and held
to the same fact as in the searching agents, and a reading the model cannot give counted as fallen
back to the rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.config import Settings
from app.llm import LLMClient
from bench.reader_pairs import Pair, main, read_all, read_all_by_model
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for

COMPANY = "Tollgate Mining"
CLAIM = "Tollgate Mining shipped 3.1 million tonnes of ore from its northern mines in 2023."
# The same shipments in other words ("cargo" for ore, "left by sea" for shipped), which the rules do
# not meet with the claim's: a model can.
SOURCE = "Port records show 3.1 Mt of Tollgate Mining cargo left the northern terminal by sea in 2023."
PAIR = Pair(CLAIM, COMPANY, SOURCE, "supports", "model_reading", 2023)


def _supports(payload: dict[str, Any]) -> FakeReply:
    """The model's answer: support, quoting the source sentence it was shown."""
    assert SOURCE in payload["messages"][-1]["content"]
    return FakeReply(
        content={"stance": "supports", "confidence": 0.8, "explanation": "Same shipments.", "quote": SOURCE},
        cost=0.001,
    )


async def test_the_model_reads_what_the_rules_cannot() -> None:
    assert await read_all([PAIR]) == ["neither"]
    async with fake_llm_server() as fake:
        fake.handler = _supports
        llm = LLMClient(Settings(**settings_for(fake)))
        try:
            reading = await read_all_by_model([PAIR], llm)
        finally:
            await llm.aclose()
    assert reading.labels == ["supports"]
    assert reading.fell_back == 0
    assert reading.usage.total.calls == 1


async def test_a_reading_the_model_cannot_give_falls_back_to_the_rules_and_is_counted() -> None:
    async with fake_llm_server() as fake:
        fake.handler = lambda payload: FakeReply(status=500, body=json.dumps({"error": {"message": "down"}}))
        llm = LLMClient(Settings(**settings_for(fake)))
        try:
            reading = await read_all_by_model([PAIR], llm)
        finally:
            await llm.aclose()
    assert reading.labels == ["neither"]  # the rules' reading
    assert reading.fell_back == 1


def test_asking_for_the_model_without_a_key_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLM_API_KEY", raising=False)
    monkeypatch.chdir("/")  # no .env file to read a key from
    with pytest.raises(SystemExit, match="LLM_API_KEY"):
        main(["--llm"])
