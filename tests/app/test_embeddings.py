"""Embedders: the hashing embedder's stability and quality, the API embedder against a real local
HTTP server speaking the OpenAI embeddings protocol, the local embedder's missing-package path,
and the factory's choices."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.embeddings import (
    ApiEmbedder,
    EmbeddingUnavailable,
    HashingEmbedder,
    LocalEmbedder,
    cosine,
    create_embedder,
)
from app.embeddings.tokens import tokenize
from app.supervision.embedded.redis import free_port
from tests.support.fake_embeddings import FakeEmbeddingReply, FakeEmbeddings, fake_embeddings_server

REPO = Path(__file__).resolve().parents[2]
API_KEY = "sk-embed-test"
SCOPE1 = "Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023"
SCOPE1_PARAPHRASE = "In 2023 our Scope 1 emissions decreased 6.1% to 2.3 Mt CO2e"
BOARD = "The Board Sustainability Committee met four times in 2023"
SCOPE3 = "Scope 3 emissions from purchased goods and services were 41 Mt CO2e"


def settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {"llm_backoff_seconds": 0, "llm_backoff_max_seconds": 0, "llm_max_retries": 2}
    values.update(overrides)
    return Settings(_env_file=None, **values)


def api_settings(fake: FakeEmbeddings, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "embedding_provider": "api",
        "embedding_api_key": API_KEY,
        "embedding_base_url": fake.url,
        "embedding_model": "test-embed",
        "embedding_dimensions": 64,
        "embedding_timeout_seconds": 5.0,
    }
    values.update(overrides)
    return settings(**values)


@pytest.fixture
async def fake() -> AsyncIterator[FakeEmbeddings]:
    async with fake_embeddings_server() as server:
        yield server


# --- hashing -------------------------------------------------------------------------------------


async def test_hashing_vectors_are_unit_length_in_order_and_sized() -> None:
    embedder = HashingEmbedder(dimensions=128)
    texts = [SCOPE1, BOARD, "", "   ", SCOPE1]

    vectors = await embedder.embed(texts)

    assert embedder.name == "hashing-v1:128" and embedder.dimensions == 128
    assert [len(v) for v in vectors] == [128] * 5
    assert sum(x * x for x in vectors[0]) == pytest.approx(1.0)
    assert vectors[0] == vectors[4] and vectors[0] != vectors[1]
    assert vectors[2] == [0.0] * 128 and cosine(vectors[2], vectors[0]) == 0.0  # no words, no direction
    assert await embedder.embed([]) == []
    assert HashingEmbedder().dimensions == 384


async def test_hashing_large_batches_match_single_texts() -> None:
    embedder = HashingEmbedder(dimensions=64)
    texts = [f"Scope {i % 3 + 1} emissions in {2000 + i}" for i in range(200)]  # runs in a worker thread

    vectors = await embedder.embed(texts)

    assert vectors == [embedder.embed_one(text) for text in texts]


def test_hashing_is_the_same_in_another_process() -> None:
    script = (
        "import json, sys; from app.embeddings import HashingEmbedder; "
        "print(json.dumps(HashingEmbedder(96).embed_sync(sys.argv[1:])))"
    )
    texts = [SCOPE1, BOARD, "Émissions de CO₂e — 1,250 t"]
    env = {**os.environ, "PYTHONHASHSEED": "12345"}

    output = subprocess.run(
        [sys.executable, "-c", script, *texts], capture_output=True, text=True, check=True, env=env, cwd=REPO
    ).stdout

    assert json.loads(output) == HashingEmbedder(96).embed_sync(texts)


def test_tokens_are_normalised() -> None:
    assert tokenize("The company's Scope 1 emissions targets") == [
        "company",
        "scop",
        "1",
        "emission",
        "target",
    ]
    assert tokenize("Emissions fell 6.1% to 1,250 tCO₂e") == ["emission", "decreas", "6.1", "1250", "tco2e"]
    assert tokenize("GHG emissions") == tokenize("greenhouse gas emission")


def test_hashing_paraphrase_scores_high_and_unrelated_low() -> None:
    embedder = HashingEmbedder()
    scope1, paraphrase, board = embedder.embed_sync([SCOPE1, SCOPE1_PARAPHRASE, BOARD])

    assert cosine(scope1, paraphrase) >= 0.85
    assert cosine(scope1, board) <= 0.4
    assert cosine(paraphrase, board) <= 0.4


def test_hashing_ranks_scope1_above_scope3_above_board() -> None:
    embedder = HashingEmbedder()
    query = embedder.embed_one("absolute gross Scope 1 greenhouse gas emissions")
    passages = {
        "scope1": "Our gross Scope 1 greenhouse gas emissions were 2.3 Mt CO2e in 2023",
        "scope3": SCOPE3,
        "board": BOARD,
    }

    scores = {key: cosine(query, embedder.embed_one(text)) for key, text in passages.items()}

    assert sorted(scores, key=scores.__getitem__, reverse=True) == ["scope1", "scope3", "board"]


def test_cosine() -> None:
    assert cosine([3.0, 4.0], [6.0, 8.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 2.0]) == 0.0
    assert cosine([1.0, 0.0], [-1.0, 0.0]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="2 and 3"):
        cosine([1.0, 0.0], [1.0, 0.0, 0.0])


# --- API -----------------------------------------------------------------------------------------


async def test_api_batches_reorders_by_index_and_authenticates(fake: FakeEmbeddings) -> None:
    embedder = ApiEmbedder(api_settings(fake, embedding_batch_size=64))
    texts = [f"passage {i} about Scope {i % 3 + 1} emissions" for i in range(150)]

    vectors = await embedder.embed(texts)

    assert embedder.name == "api:test-embed:64" and embedder.dimensions == 64
    assert [len(request["input"]) for request in fake.requests] == [64, 64, 22]
    assert fake.requests[0]["model"] == "test-embed" and fake.requests[0]["dimensions"] == 64
    assert fake.authorizations == [f"Bearer {API_KEY}"] * 3
    # The fake answers in reverse order with each text's hashing vector: same order means same vectors.
    assert vectors == [pytest.approx(v) for v in HashingEmbedder(64).embed_sync(texts)]
    assert await embedder.embed([]) == [] and len(fake.requests) == 3


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(FakeEmbeddingReply(status=429, headers={"Retry-After": "0"}), id="429"),
        pytest.param(FakeEmbeddingReply(status=500), id="500"),
        pytest.param(FakeEmbeddingReply(delay=4.0), id="timeout"),
        pytest.param(FakeEmbeddingReply(body="<html>bad gateway</html>"), id="garbage"),
        pytest.param(FakeEmbeddingReply(body='{"data": [{"index": 0}]}'), id="malformed"),
    ],
)
async def test_api_retries_then_succeeds(fake: FakeEmbeddings, failure: FakeEmbeddingReply) -> None:
    fake.script(failure)
    # Each answer must come within the timeout: 2 s leaves a slow machine room (the "timeout" reply
    # comes 2 s after it).
    embedder = ApiEmbedder(api_settings(fake, embedding_timeout_seconds=2.0))

    [vector] = await embedder.embed([SCOPE1])

    assert vector == pytest.approx(HashingEmbedder(64).embed_one(SCOPE1))
    assert len(fake.requests) == 2


async def test_api_retry_after_wins_over_backoff(fake: FakeEmbeddings) -> None:
    fake.script(FakeEmbeddingReply(status=429, headers={"Retry-After": "0"}))
    embedder = ApiEmbedder(api_settings(fake, llm_backoff_seconds=30, llm_backoff_max_seconds=30))

    async with asyncio.timeout(5):  # a 30 s backoff would blow this
        assert len(await embedder.embed([SCOPE1])) == 1

    assert len(fake.requests) == 2


async def test_api_400_is_not_retried(fake: FakeEmbeddings) -> None:
    fake.script(FakeEmbeddingReply(status=400, body='{"error": {"message": "input too long"}}'))

    with pytest.raises(EmbeddingUnavailable, match="400.*input too long"):
        await ApiEmbedder(api_settings(fake)).embed([SCOPE1])

    assert len(fake.requests) == 1


async def test_api_gives_up_after_retries(fake: FakeEmbeddings) -> None:
    fake.script(*[FakeEmbeddingReply(status=503)] * 3)

    with pytest.raises(EmbeddingUnavailable, match=r"503.*after 2 retries"):
        await ApiEmbedder(api_settings(fake, llm_max_retries=2)).embed([SCOPE1])

    assert len(fake.requests) == 3


async def test_api_connection_refused_is_unavailable() -> None:
    fake = FakeEmbeddings()
    fake.url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there

    with pytest.raises(EmbeddingUnavailable, match="connection"):
        await ApiEmbedder(api_settings(fake, llm_max_retries=1)).embed([SCOPE1])


async def test_api_vectors_of_another_size_are_a_clear_error(fake: FakeEmbeddings) -> None:
    fake.script(FakeEmbeddingReply(dimensions=1536))

    with pytest.raises(EmbeddingUnavailable, match="1536-dimensional.*EMBEDDING_DIMENSIONS=1536"):
        await ApiEmbedder(api_settings(fake)).embed([SCOPE1])

    assert len(fake.requests) == 1


async def test_api_uses_an_injected_transport() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        data = [{"index": 0, "embedding": [3.0, 4.0]}]
        return httpx.Response(200, json={"data": data})

    embedder = create_embedder(
        settings(embedding_api_key=API_KEY, embedding_dimensions=2, embedding_base_url="https://x.test/v1/"),
        transport=httpx.MockTransport(answer),
    )

    assert await embedder.embed(["hello"]) == [pytest.approx([0.6, 0.8])]
    assert str(seen[0].url) == "https://x.test/v1/embeddings"


# --- local ---------------------------------------------------------------------------------------


async def test_local_without_sentence_transformers_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails, installed or not
    embedder = LocalEmbedder(tmp_path)

    with pytest.raises(EmbeddingUnavailable, match="pip install sentence-transformers"):
        await embedder.embed(["text"])
    assert await embedder.embed([]) == []


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None or not os.environ.get("SIBYL_TEST_LOCAL_MODEL"),
    reason="needs sentence-transformers and SIBYL_TEST_LOCAL_MODEL (a model folder)",
)
async def test_local_model_embeds() -> None:
    embedder = LocalEmbedder(Path(os.environ["SIBYL_TEST_LOCAL_MODEL"]))

    scope1, paraphrase, board = await embedder.embed([SCOPE1, SCOPE1_PARAPHRASE, BOARD])

    assert len(scope1) == embedder.dimensions and embedder.name.startswith("local:")
    assert sum(x * x for x in scope1) == pytest.approx(1.0)
    assert cosine(scope1, paraphrase) > cosine(scope1, board)


# --- factory -------------------------------------------------------------------------------------


def test_factory_auto_prefers_api_then_local_then_hashing(tmp_path: Path) -> None:
    assert isinstance(create_embedder(settings(embedding_api_key=API_KEY)), ApiEmbedder)
    assert isinstance(create_embedder(settings(embedding_local_path=tmp_path)), LocalEmbedder)
    assert isinstance(
        create_embedder(settings(embedding_api_key=API_KEY, embedding_local_path=tmp_path)), ApiEmbedder
    )
    hashing = create_embedder(settings(embedding_dimensions=256))
    assert isinstance(hashing, HashingEmbedder) and hashing.name == "hashing-v1:256"
    assert isinstance(create_embedder(settings(embedding_api_key="  ")), HashingEmbedder)


def test_factory_honours_explicit_choices(tmp_path: Path) -> None:
    both = {"embedding_api_key": API_KEY, "embedding_local_path": tmp_path}
    assert isinstance(create_embedder(settings(embedding_provider="hashing", **both)), HashingEmbedder)
    assert isinstance(create_embedder(settings(embedding_provider="local", **both)), LocalEmbedder)
    assert isinstance(create_embedder(settings(embedding_provider="api", **both)), ApiEmbedder)


def test_factory_rejects_explicit_choices_it_cannot_honour() -> None:
    with pytest.raises(ValueError, match="EMBEDDING_API_KEY"):
        create_embedder(settings(embedding_provider="api"))
    with pytest.raises(ValueError, match="EMBEDDING_LOCAL_PATH"):
        create_embedder(settings(embedding_provider="local"))
