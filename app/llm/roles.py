"""The jobs Sibyl asks an LLM to do, and which configured model does each."""

from __future__ import annotations

from enum import StrEnum

from app.config import Settings


class LLMRole(StrEnum):
    """A pipeline step that calls an LLM; each has its own model and fallback model in `Settings`."""

    ROUTING = "routing"
    EXTRACTION = "extraction"
    DEDUP = "dedup"
    ANALYSIS = "analysis"
    JUDGMENT = "judgment"


def primary_model(settings: Settings, role: LLMRole) -> str:
    """The model configured for `role` (`llm_model_<role>`)."""
    return str(getattr(settings, f"llm_model_{role.value}"))


def fallback_model(settings: Settings, role: LLMRole) -> str | None:
    """The fallback model for `role` (`llm_fallback_model_<role>`), or None when unset or blank."""
    value = getattr(settings, f"llm_fallback_model_{role.value}")
    return str(value) if value else None


def models_for(settings: Settings, role: LLMRole) -> list[str]:
    """The models to try for `role`, in order: the primary, then a fallback that differs from it."""
    models = [primary_model(settings, role)]
    fallback = fallback_model(settings, role)
    if fallback is not None and fallback not in models:
        models.append(fallback)
    return models
