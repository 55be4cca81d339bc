"""The LLM client: JSON answers from an OpenAI-compatible chat-completions API, with retries,
backoff, one repair round, a fallback model, a process-wide concurrency limit and usage tracing.

One `LLMClient` per process is the intended use: its semaphore is the concurrency limit.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Generic

import httpx

from app.config import Settings
from app.llm.answers import M, parse_answer, repair_prompt
from app.llm.backoff import RetriesExhausted, RetryPolicy, with_retries
from app.llm.breaker import breaker_for
from app.llm.errors import AttemptFailed, InvalidAnswer, LLMUnavailable, ModelFailed
from app.llm.metrics import record_call
from app.llm.protocol import Completion, Message, chat_request, read_completion
from app.llm.roles import LLMRole, models_for, primary_model
from app.llm.usage import UsageTrace, estimate_cost
from app.tracing import span

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Call(Generic[M]):
    """One model asked for one answer: what every attempt of it needs."""

    model: str
    role: LLMRole
    schema: type[M]
    trace: UsageTrace
    temperature: float
    max_tokens: int


class LLMClient:
    """Asks the model configured for a role for a JSON answer and validates it with a pydantic model.

    Per model: retries with exponential backoff on 429, 5xx, timeouts, connection errors and
    malformed response bodies (other 4xx are final; a model whose circuit breaker is open is not
    called, see `app.llm.breaker`), then one repair round when the answer is not
    valid JSON for the schema. When the model fails, the role's fallback model gets the same
    treatment; when that fails too, `LLMUnavailable` is raised.
    """

    def __init__(self, settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        if settings.llm_api_key is None:
            raise ValueError("LLMClient needs llm_api_key; use create_llm_client to get None without one")
        self._settings = settings
        self._semaphore = asyncio.Semaphore(settings.llm_max_concurrency)
        self._http = httpx.AsyncClient(
            base_url=settings.llm_base_url.rstrip("/") + "/",
            headers={"Authorization": f"Bearer {settings.llm_api_key.get_secret_value()}"},
            timeout=settings.llm_timeout_seconds,
            transport=transport,
        )

    def model_for(self, role: LLMRole) -> str:
        """The primary model configured for `role`."""
        return primary_model(self._settings, role)

    async def complete_json(
        self,
        role: LLMRole,
        *,
        system: str,
        user: str,
        schema: type[M],
        trace: UsageTrace | None = None,
        max_tokens: int = 4096,
        temperature: float = 0.1,
    ) -> M:
        """The answer of the role's model (or its fallback) to `system` + `user`, validated as `schema`.

        Every attempt and retry is recorded in `trace`. Raises `LLMUnavailable` when no model gave
        a valid answer.
        """
        messages: list[Message] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        failures: dict[str, str] = {}
        trace = trace if trace is not None else UsageTrace()
        models = models_for(self._settings, role)
        for index, model in enumerate(models):
            call = _Call(model, role, schema, trace, temperature, max_tokens)
            try:
                return await self._ask_model(call, messages)
            except ModelFailed as exc:
                failures[model] = str(exc)
                if index + 1 < len(models):
                    logger.warning(
                        "LLM %s model %s failed (%s); falling back to %s", role, model, exc, models[index + 1]
                    )
        raise LLMUnavailable(role.value, failures)

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._http.aclose()

    async def _ask_model(self, call: _Call[M], messages: list[Message]) -> M:
        """One model's answer, with one repair round after an invalid answer; else `ModelFailed`."""
        try:
            return await self._with_retries(call, messages)
        except InvalidAnswer as invalid:
            call.trace.record_retry(model=call.model, reason="invalid_json", role=call.role.value)
            logger.warning(
                "LLM %s model %s gave an invalid answer (%s); asking it to repair",
                call.role,
                call.model,
                invalid.error,
            )
            repair: list[Message] = [
                *messages,
                {"role": "assistant", "content": invalid.content},
                {"role": "user", "content": repair_prompt(invalid.error)},
            ]
            try:
                return await self._with_retries(call, repair)
            except InvalidAnswer as again:
                raise ModelFailed(f"invalid answer after repair: {again.error}") from again

    async def _with_retries(self, call: _Call[M], messages: list[Message]) -> M:
        """One answer, retrying transport failures with backoff; `ModelFailed` when they persist.

        An `InvalidAnswer` passes through: repairing it is the caller's business.
        """
        settings = self._settings

        def on_retry(failure: AttemptFailed, retry: int, delay: float) -> None:
            call.trace.record_retry(model=call.model, reason=failure.reason, role=call.role.value)
            logger.warning(
                "LLM %s model %s failed (%s); retry %d/%d in %.2fs",
                call.role,
                call.model,
                failure,
                retry,
                settings.llm_max_retries,
                delay,
            )

        breaker = breaker_for(settings, "llm", settings.llm_base_url, call.model)
        try:
            return await with_retries(
                lambda: self._attempt(call, messages), RetryPolicy.for_models(settings), on_retry, breaker
            )
        except RetriesExhausted as exc:
            raise ModelFailed(str(exc)) from exc
        except InvalidAnswer:
            breaker.record_success()  # the model answered, however badly: the provider is up
            raise

    async def _attempt(self, call: _Call[M], messages: list[Message]) -> M:
        """One HTTP call, recorded in the trace whatever its outcome.

        Raises `AttemptFailed` when no completion came back and `InvalidAnswer` when it is unusable.
        """
        completion: Completion | None = None
        latency_ms = 0.0
        sent = False
        failure: BaseException | None = None
        with span("llm.call", **{"gen_ai.request.model": call.model, "sibyl.llm.role": call.role.value}):
            try:
                async with self._semaphore:
                    sent = True
                    started = time.perf_counter()
                    try:
                        response = await self._post(call, messages)
                    finally:
                        latency_ms = (time.perf_counter() - started) * 1000
                completion = read_completion(response)
                return parse_answer(completion.content, call.schema)
            except BaseException as exc:
                failure = exc
                raise
            finally:
                if sent:  # a call cancelled while waiting for the semaphore cost nothing
                    self._record(call, completion, latency_ms, failure)

    async def _post(self, call: _Call[M], messages: list[Message]) -> httpx.Response:
        """POST the request, with `llm_timeout_seconds` as the limit of the whole call."""
        body = chat_request(call.model, messages, temperature=call.temperature, max_tokens=call.max_tokens)
        timeout = self._settings.llm_timeout_seconds
        try:
            async with asyncio.timeout(timeout):
                return await self._http.post("chat/completions", json=body)
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise AttemptFailed("timeout", f"no answer within {timeout:g}s", retryable=True) from exc
        except httpx.RequestError as exc:
            raise AttemptFailed("connection", f"{type(exc).__name__}: {exc}", retryable=True) from exc

    def _record(
        self, call: _Call[M], completion: Completion | None, latency_ms: float, failure: BaseException | None
    ) -> None:
        """The call in the run's usage trace and, the same figures, in the process's metrics."""
        prompt_tokens = completion.prompt_tokens if completion else 0
        completion_tokens = completion.completion_tokens if completion else 0
        cost = completion.reported_cost_usd if completion else None
        if completion and cost is None:
            cost = estimate_cost(self._settings.llm_prices, call.model, prompt_tokens, completion_tokens)
        call.trace.record(
            model=call.model,
            role=call.role.value,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_ms=latency_ms,
            cost_usd=cost,
            ok=failure is None,
        )
        record_call(
            role=call.role.value,
            model=call.model,
            failure=failure,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cost_usd=cost,
            seconds=latency_ms / 1000,
        )


def create_llm_client(settings: Settings) -> LLMClient | None:
    """An `LLMClient`, or None when no `llm_api_key` is set: no key, no LLM."""
    key = settings.llm_api_key
    if key is None or not key.get_secret_value().strip():
        return None
    return LLMClient(settings)
