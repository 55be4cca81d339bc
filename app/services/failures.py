"""What a failed job tells its user: a short sentence, never SQL, parameters or a traceback.

A database error's text holds the whole statement and its parameters (568 KB for one bulk
insert of a 495-page report), which is no use in `errorMessage`; the full exception goes to the
log (`logger.exception`), and the run and the report keep only its cause, bounded.
"""

from __future__ import annotations

from sqlalchemy.exc import StatementError

#: The longest cause a run's or report's `errorMessage` quotes.
MAX_CAUSE_CHARS = 300


def failure_summary(exc: BaseException) -> str:
    """`"ExceptionType: first line of its message"`, at most `MAX_CAUSE_CHARS` long.

    For a database error, the driver's own error (e.g. asyncpg's "the number of query arguments
    cannot exceed 32767") without the statement and parameters SQLAlchemy appends.
    """
    cause: BaseException = exc
    if isinstance(exc, StatementError) and exc.orig is not None:
        cause = exc.orig
    text = str(cause).strip()
    first_line = text.splitlines()[0].strip() if text else ""
    summary = f"{type(cause).__name__}: {first_line}" if first_line else type(cause).__name__
    if isinstance(exc, StatementError):
        summary = f"database error ({summary})"
    return summary if len(summary) <= MAX_CAUSE_CHARS else summary[: MAX_CAUSE_CHARS - 1].rstrip() + "…"
