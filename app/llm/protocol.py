"""The OpenAI chat-completions wire format: the request body, and the completion read from a response."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from app.llm.errors import AttemptFailed

Message = dict[str, str]


@dataclass(frozen=True)
class Completion:
    """What one successful HTTP call returned: the message text and the usage the endpoint reported."""

    content: str
    prompt_tokens: int
    completion_tokens: int
    reported_cost_usd: float | None


def chat_request(
    model: str, messages: list[Message], *, temperature: float, max_tokens: int
) -> dict[str, Any]:
    """The body of a chat-completions request asking for a JSON object."""
    return {
        "model": model,
        "messages": messages,
        "temperature": temperature,
        "max_tokens": max_tokens,
        "response_format": {"type": "json_object"},
    }


def read_completion(response: httpx.Response) -> Completion:
    """The completion in `response`, or `AttemptFailed` saying whether asking again may help.

    429 and 5xx are retryable (with the `Retry-After` hint, if any); other 4xx are not; a 2xx whose
    body is not a chat completion is retryable ("bad_response").
    """
    status = response.status_code
    if status == 429 or status >= 500:
        raise AttemptFailed(
            str(status), snippet(response.text), retryable=True, retry_after=retry_after_seconds(response)
        )
    if status >= 400:
        raise AttemptFailed(str(status), snippet(response.text), retryable=False)
    try:
        body = response.json()
        content = body["choices"][0]["message"].get("content")
        usage = body.get("usage") or {}
        return Completion(
            content=content if isinstance(content, str) else "",
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            reported_cost_usd=_optional_float(usage.get("cost")),
        )
    except (ValueError, LookupError, TypeError, AttributeError) as exc:
        detail = f"not a chat completion ({type(exc).__name__}): {snippet(response.text)}"
        raise AttemptFailed("bad_response", detail, retryable=True) from exc


def retry_after_seconds(response: httpx.Response) -> float | None:
    """The `Retry-After` header in seconds (never negative), or None when absent or not a number."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _optional_float(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def snippet(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"
