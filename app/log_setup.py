"""Logging for the `sibyl` command and the worker: one place sets the format and levels.

- Log lines written while an analysis runs carry its report (`report <uuid>`, and the file name once
  known), so an operator can go from a user's report id to the log without a database query. The
  ids live in a context variable (`log_context`), which asyncio tasks inherit, so the specialists'
  lines carry them too without each call passing them.
- Lines written while the API serves a request carry its request id (`request <id>`, the
  `X-Request-ID` the client sent or one made for it), and so do the lines of the jobs it queues,
  so a client's error leads to every line of its request, API and worker alike.
- `LOG_FORMAT=json` writes one JSON object per line for log shippers; `text` (the default) is
  human-readable.
- httpx/httpcore request lines ("HTTP Request: POST …") stay below `LOG_LEVEL_HTTP` (default
  WARNING): at INFO they make up half of a worker's log.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO, Any

#: Loggers whose INFO lines are one per HTTP request.
HTTP_LOGGERS = ("httpx", "httpcore")
#: uvicorn's loggers, which it gives handlers (and a format) of its own before it loads the API.
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")
#: Context fields, in the order the text format shows them.
CONTEXT_FIELDS = ("request_id", "run_id", "report_id", "filename")

_context: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "sibyl_log_context", default=None
)


@contextlib.contextmanager
def log_context(**fields: object) -> Iterator[None]:
    """Tag every log line written inside the block (and in tasks it starts) with `fields`, besides
    those of an enclosing block (a request's id stays on the lines of the work it starts).

    The dict is shared with the tasks started inside, so `add_log_context` later in the block (e.g.
    once the run's report is read) reaches their lines as well.
    """
    given = {name: str(value) for name, value in fields.items() if value is not None}
    token = _context.set({**(_context.get() or {}), **given})
    try:
        yield
    finally:
        _context.reset(token)


@contextlib.contextmanager
def ensure_log_context(**fields: object) -> Iterator[None]:
    """Like `log_context`, but inside an open block adds `fields` to it instead (so a caller's block,
    e.g. the worker job's, also sees what the callee learns, such as the report)."""
    if _context.get() is None:
        with log_context(**fields):
            yield
    else:
        add_log_context(**fields)
        yield


def add_log_context(**fields: object) -> None:
    """Add fields to the current `log_context` block (nothing outside one)."""
    current = _context.get()
    if current is not None:
        current.update({name: str(value) for name, value in fields.items() if value is not None})


def current_log_context() -> dict[str, str]:
    """A copy of the fields the current log lines carry."""
    return dict(_context.get() or {})


def current_request_id() -> str | None:
    """The id of the API request being served, or of the one that queued the job being run."""
    return current_log_context().get("request_id")


class ContextFilter(logging.Filter):
    """Copies the context fields onto each record (`record.run_id`, …) and builds `record.context`,
    the text suffix ` (report <uuid>, <file>)`; the run id is left out there, as the lines that
    concern a run already name it."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = current_log_context()
        for name in CONTEXT_FIELDS:
            setattr(record, name, fields.get(name))
        parts = []
        if "request_id" in fields:
            parts.append(f"request {fields['request_id']}")
        if "report_id" in fields:
            parts.append(f"report {fields['report_id']}")
        if "filename" in fields:
            parts.append(fields["filename"])
        record.context = f" ({', '.join(parts)})" if parts else ""
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the context fields
    that are known, and the traceback as `exception` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value:
                entry[name] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def make_handler(
    log_format: str = "text", *, tag: str = "", stream: IO[str] | None = None
) -> logging.Handler:
    """A handler writing `log_format` lines (with the run context) to `stream`, stderr by default;
    `tag` (e.g. `[worker] `) prefixes the text format's logger name."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(ContextFilter())
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(
            logging.Formatter(f"%(asctime)s %(levelname)s {tag}%(name)s: %(message)s%(context)s")
        )
    return handler


def configure_logging(
    *, log_format: str = "text", http_level: str = "WARNING", tag: str = "", stream: IO[str] | None = None
) -> logging.Handler:
    """Make the root logger write INFO and above through one `make_handler` handler, and the HTTP
    client loggers only from `http_level` up."""
    handler = make_handler(log_format, tag=tag, stream=stream)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    for name in HTTP_LOGGERS:
        logging.getLogger(name).setLevel(http_level.upper())
    return handler


def route_uvicorn_logs() -> None:
    """uvicorn's lines (start-up, errors, access) through the root handler, so they follow
    LOG_FORMAT and carry the request id like the API's own."""
    for name in UVICORN_LOGGERS:
        uvicorn_logger = logging.getLogger(name)
        if not uvicorn_logger.handlers and not uvicorn_logger.propagate:
            continue  # uvicorn turned it off (`--no-access-log`, as `sibyl run` starts the API)
        for old in list(uvicorn_logger.handlers):
            uvicorn_logger.removeHandler(old)
        uvicorn_logger.propagate = True


def configure_from_settings(tag: str = "") -> None:
    """`configure_logging` with LOG_FORMAT and LOG_LEVEL_HTTP; the defaults when the settings do not
    validate (the command then reports the bad settings itself)."""
    from pydantic import ValidationError

    from app.config import get_settings

    try:
        settings = get_settings()
    except ValidationError:
        configure_logging(tag=tag)
        return
    configure_logging(log_format=settings.log_format, http_level=settings.log_level_http, tag=tag)
