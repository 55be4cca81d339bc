"""The metrics move as the work they measure happens, in this process: LLM calls (answered and
failing, with the breaker's state), an analysis's stages, verdicts and findings, the job queue read
from Redis, database pools and the restarts `sibyl run` made."""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from arq.constants import default_queue_name, in_progress_key_prefix
from pydantic import BaseModel
from redis.asyncio import Redis
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.models import Finding
from app.db.session import SessionFactory
from app.events import EventLog
from app.llm import LLMClient, LLMRole, LLMUnavailable
from app.metrics.db_pools import DbPools
from app.metrics.labels import OTHER, FirstCome
from app.metrics.queue_depth import QueueDepth, QueueSource
from app.metrics.scrape import Sources
from app.services.analysis import open_analysis_run
from app.supervision.restart_metrics import SupervisorRestarts
from app.supervision.run_lock import acquire, read_record
from app.supervision.supervisor import Supervisor
from tests.support.fake_llm import FakeReply, fake_llm_server
from tests.support.metrics import total, value
from tests.support.pipeline import KNOWN_CLAIMS, pipeline_runner, seed_report


class Answer(BaseModel):
    ok: bool


def llm_settings(url: str, model: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "llm_api_key": "sk-test",
        "llm_base_url": url,
        "llm_model_extraction": model,
        "llm_fallback_model_extraction": "",  # only `model` answers (or fails)
        "llm_backoff_seconds": 0.01,
        "llm_backoff_max_seconds": 0.02,
        "llm_max_retries": 1,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


async def ask(settings: Settings) -> Answer:
    client = LLMClient(settings)
    try:
        return await client.complete_json(LLMRole.EXTRACTION, system="s", user="u", schema=Answer)
    finally:
        await client.aclose()


async def test_an_llm_call_counts_its_tokens_and_cost_by_role_and_model() -> None:
    model = f"test/metrics-{uuid.uuid4().hex[:8]}"
    async with fake_llm_server() as fake:
        fake.script(FakeReply(content={"ok": True}, prompt_tokens=11, completion_tokens=7, cost=0.25))

        await ask(llm_settings(fake.url, model))

    labels = {"role": "extraction", "model": model}
    assert value("sibyl_llm_calls_total", outcome="ok", **labels) == 1
    assert value("sibyl_llm_tokens_total", direction="prompt", **labels) == 11
    assert value("sibyl_llm_tokens_total", direction="completion", **labels) == 7
    assert value("sibyl_llm_cost_usd_total", **labels) == 0.25
    assert value("sibyl_llm_call_duration_seconds_count", **labels) == 1
    assert value("sibyl_circuit_breaker_state", provider="llm", model=model) == 0


async def test_a_failing_llm_counts_its_errors_and_its_breaker_opens() -> None:
    model = f"test/metrics-{uuid.uuid4().hex[:8]}"
    async with fake_llm_server() as fake:
        fake.handler = lambda payload: FakeReply(status=500, body='{"error": {"message": "down"}}')
        settings = llm_settings(fake.url, model, circuit_breaker_failures=2)

        for _ in range(2):
            try:
                await ask(settings)
            except LLMUnavailable:
                pass

    labels = {"role": "extraction", "model": model}
    assert value("sibyl_llm_calls_total", outcome="http_5xx", **labels) == 2  # then the breaker refused
    assert value("sibyl_llm_calls_total", outcome="ok", **labels) == 0
    assert value("sibyl_circuit_breaker_state", provider="llm", model=model) == 2
    assert len(fake.requests) == 2


async def test_an_analysis_counts_its_stages_verdicts_and_findings(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    verdicts_before = value("sibyl_verdicts_total", verdict="unverified")
    findings_before = total("sibyl_findings_total")
    stages_before = {
        stage: value("sibyl_analysis_stage_seconds_count", stage=stage, outcome="ok")
        for stage in ("extract_claims", "orchestrate", "judge_evidence", "compile_report")
    }

    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcome = await runner.run(started.run.id)

    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        findings = await session.scalar(select(func.count()).select_from(Finding))
    assert value("sibyl_verdicts_total", verdict="unverified") - verdicts_before == len(KNOWN_CLAIMS)
    assert total("sibyl_findings_total") - findings_before == findings
    assert total("sibyl_findings_total", kind="none", stance="inconclusive") >= findings  # offline: none
    for stage, before in stages_before.items():
        assert value("sibyl_analysis_stage_seconds_count", stage=stage, outcome="ok") - before >= 1, stage


async def test_the_queue_is_read_by_kind_and_state_off_the_event_loop(
    private_redis: tuple[Path, int],
) -> None:
    _, port = private_redis
    redis = Redis(port=port)
    now = time.time() * 1000
    await redis.zadd(
        default_queue_name,
        {
            "parse_report:due": now - 1000,
            "parse_report:waiting-its-turn": now + 3_600_000,
            "run_pipeline:run:started:1": now - 500,
            "cron:sweep_abandoned_analyses:1": now + 1000,
            "something:else": now - 1,
        },
    )
    await redis.set(in_progress_key_prefix + "run_pipeline:run:started:1", b"1")
    sources: Sources[QueueSource] = Sources()
    collector = QueueDepth(sources)

    with sources.attached(QueueSource(redis, asyncio.get_running_loop())):
        [on_loop] = list(collector.collect())  # the loop's own thread would wait for itself
        [family] = await asyncio.to_thread(lambda: list(collector.collect()))
    await redis.aclose()

    assert on_loop.samples == []
    counts = {(s.labels["kind"], s.labels["state"]): s.value for s in family.samples if s.value}
    assert counts == {
        ("parse_report", "queued"): 1,
        ("parse_report", "deferred"): 1,
        ("run_pipeline", "running"): 1,
        ("cron", "deferred"): 1,
        (OTHER, "queued"): 1,
    }


async def test_database_pools_show_connections_in_use(engine: AsyncEngine) -> None:
    sources: Sources[tuple[str, AsyncEngine]] = Sources()
    collector = DbPools(sources)

    def figures() -> dict[str, float]:
        return {family.name: family.samples[0].value for family in collector.collect()}

    with sources.attached(("api", engine)):
        idle = figures()
        async with engine.connect():
            busy = figures()

    assert idle["sibyl_db_pool_size"] == busy["sibyl_db_pool_size"] == 10
    assert busy["sibyl_db_pool_checked_out"] == idle["sibyl_db_pool_checked_out"] + 1
    assert [family.samples for family in collector.collect()] == [[], [], []]  # detached: nothing


@dataclass
class DiesOnce:
    """A supervised process that dies right after its first start and stays up once restarted."""

    name: str
    starts: int = 0

    def start(self) -> None:
        self.starts += 1

    def is_running(self) -> bool:
        return self.starts > 1

    def pid(self) -> int | None:
        return 4242

    def exit_detail(self) -> str:
        return "exit code 1"

    def stop(self) -> None:
        pass


def test_restarts_of_sibyl_run_are_read_from_its_run_record(tmp_path: Path) -> None:
    lock = acquire(tmp_path, "http://127.0.0.1:1")
    settings = Settings(_env_file=None, data_dir=tmp_path, restart_backoff_seconds=0.001)  # type: ignore[call-arg]
    supervisor = Supervisor(settings, lock)
    worker = DiesOnce("worker")
    supervisor.start(worker)
    deadline = time.monotonic() + 10
    while worker.starts < 2:
        assert supervisor.check() and time.monotonic() < deadline
        time.sleep(0.002)
    sources: Sources[Path] = Sources()

    with sources.attached(tmp_path):
        restarts, gave_up = SupervisorRestarts(sources).collect()
    lock.release()

    assert read_record(tmp_path / "sibyl.pid") == {}  # released
    by_process = {sample.labels["process"]: sample.value for sample in restarts.samples}
    assert by_process == {"api": 0, "worker": 1, "redis": 0, "postgres": 0}
    assert {sample.value for sample in gave_up.samples} == {0}
    with sources.attached(tmp_path):
        assert [family.samples for family in SupervisorRestarts(sources).collect()] == [[], []]  # no run


def test_client_chosen_label_values_are_bounded_in_number_and_length() -> None:
    names = FirstCome()

    assert [names.label(name, limit=2) for name in ("First", "Second", "Third", "First")] == [
        "First",
        "Second",
        OTHER,
        "First",
    ]
    assert FirstCome().label("x" * 65, limit=10) == OTHER
