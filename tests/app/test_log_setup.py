"""Log set-up: run context on every line (tasks included), the JSON format, quiet HTTP client loggers,
URL settings checked at startup, and `sibyl ids`."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from app.cli import decode_id
from app.config import Settings
from app.log_setup import add_log_context, configure_logging, log_context, make_handler
from app.supervision.preflight import settings_problems

RUN = "da4df339-0000-4000-8000-000000000001"
REPORT = "1ca24f00-0000-4000-8000-000000000002"


@pytest.fixture
def restored_root() -> Iterator[None]:
    """Put the root logger and the HTTP loggers back as they were (configure_logging replaces them)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    http = {name: logging.getLogger(name).level for name in ("httpx", "httpcore")}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in http.items():
        logging.getLogger(name).setLevel(old)


def _log_in_a_task(log_format: str) -> str:
    stream = io.StringIO()
    handler = make_handler(log_format, stream=stream)
    logger = logging.getLogger("tests.log_setup")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)

    async def agent() -> None:
        logger.warning("analysis %s: legal agent stopped", RUN)

    async def job() -> None:
        with log_context(run_id=RUN):
            task = asyncio.create_task(agent())  # started before the report is known
            add_log_context(report_id=REPORT, filename="annual report.pdf")
            await task
        logger.info("after the run")

    try:
        asyncio.run(job())
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_text_lines_inside_a_run_name_its_report_and_file() -> None:
    first, after = _log_in_a_task("text").splitlines()
    assert first.endswith(f"analysis {RUN}: legal agent stopped (report {REPORT}, annual report.pdf)")
    assert after.endswith("tests.log_setup: after the run")


def test_json_lines_carry_the_run_and_report_ids() -> None:
    first, after = (json.loads(line) for line in _log_in_a_task("json").splitlines())
    assert first["level"] == "WARNING"
    assert first["logger"] == "tests.log_setup"
    assert first["message"] == f"analysis {RUN}: legal agent stopped"
    assert (first["run_id"], first["report_id"], first["filename"]) == (RUN, REPORT, "annual report.pdf")
    assert first["time"].endswith("+00:00")
    assert "run_id" not in after and "report_id" not in after


def test_json_line_keeps_the_traceback_in_one_object() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("tests.log_setup.exc")
    handler = make_handler("json", stream=stream)
    logger.addHandler(handler)
    try:
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    [line] = stream.getvalue().splitlines()
    assert "RuntimeError: boom" in json.loads(line)["exception"]


def test_http_client_request_lines_are_below_the_default_level(restored_root: None) -> None:
    stream = io.StringIO()
    configure_logging(stream=stream)
    logging.getLogger("httpx").info('HTTP Request: POST http://llm/chat/completions "HTTP/1.1 200 OK"')
    logging.getLogger("app.something").info("kept")
    assert "HTTP Request" not in stream.getvalue()
    assert "kept" in stream.getvalue()

    configure_logging(stream=stream, http_level="INFO")
    logging.getLogger("httpx").info("HTTP Request: POST shown")
    assert "HTTP Request: POST shown" in stream.getvalue()


@pytest.mark.parametrize("variable", ["LLM_BASE_URL", "TAVILY_API_BASE_URL", "EMBEDDING_BASE_URL"])
@pytest.mark.parametrize("value", ["not a url", "ftp://host/v1", "https://", "localhost:11434/v1"])
def test_url_settings_must_be_http_urls_with_a_host(variable: str, value: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(_env_file=None, **{variable.lower(): value})  # type: ignore[arg-type]
    [line, _] = settings_problems(caught.value)
    assert line.startswith(f"{variable}={value}: must be an http(s) URL with a host")


def test_good_urls_pass() -> None:
    settings = Settings(_env_file=None, llm_base_url="http://localhost:11434/v1")  # type: ignore[call-arg]
    assert settings.llm_base_url == "http://localhost:11434/v1"


def test_sibyl_names_the_bad_url_variable_in_one_line() -> None:
    env = {**os.environ, "LLM_BASE_URL": "not a url"}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "sibyl: LLM_BASE_URL=not a url: must be an http(s) URL with a host" in done.stderr
    assert "Traceback" not in done.stderr


def test_ids_decode_graphql_ids_to_uuids() -> None:
    assert decode_id("UmVwb3J0OjFjYTI0ZjAwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMg==") == f"Report {REPORT}"
    assert decode_id("UmVwb3J0OjFjYTI0ZjAwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMg") == f"Report {REPORT}"
    assert decode_id(REPORT) == REPORT
