"""The OpenAI-compatible LLM client Sibyl's pipeline steps call, with usage tracing.

No API key, no LLM: `create_llm_client` then returns None and callers take their rule-based path,
as they do when a call raises `LLMUnavailable`.
"""

from __future__ import annotations

from app.llm.client import LLMClient, create_llm_client
from app.llm.errors import LLMUnavailable
from app.llm.roles import LLMRole
from app.llm.usage import UsageTrace

__all__ = ["LLMClient", "LLMRole", "LLMUnavailable", "UsageTrace", "create_llm_client"]
