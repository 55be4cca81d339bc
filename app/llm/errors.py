"""Exceptions of the LLM client: one public (`LLMUnavailable`), the rest internal control flow."""

from __future__ import annotations

from collections.abc import Mapping


class LLMUnavailable(Exception):
    """Every model for a role failed (after retries, fallback and repair).

    Callers catch this and take their rule-based path. `failures` maps each model tried to the last
    error it gave.
    """

    def __init__(self, role: str, failures: Mapping[str, str]) -> None:
        self.role = role
        self.failures = dict(failures)
        tried = "; ".join(f"{model}: {error}" for model, error in self.failures.items()) or "no model"
        super().__init__(f"no LLM answered for role {role!r} ({tried})")


class AttemptFailed(Exception):
    """One HTTP call gave no usable completion.

    `reason` is short and stable ("429", "500", "timeout", "connection", "bad_response"); `retryable`
    says whether the same model may be asked again; `retry_after` is the server's hint in seconds.
    """

    def __init__(
        self, reason: str, detail: str, *, retryable: bool, retry_after: float | None = None
    ) -> None:
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        super().__init__(f"{reason}: {detail}" if detail else reason)


class InvalidAnswer(Exception):
    """The model answered, but not with JSON matching the schema; `content` is kept for the repair."""

    def __init__(self, content: str, error: str) -> None:
        self.content = content
        self.error = error
        super().__init__(error)


class ModelFailed(Exception):
    """One model is given up on for this request; the client moves on to the fallback."""
