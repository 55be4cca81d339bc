"""docker-compose.yml must stay consistent with the settings it feeds (docker cannot run here)."""

from __future__ import annotations

from pathlib import Path

import yaml

from app.config import Settings

COMPOSE = Path(__file__).resolve().parents[1] / "docker-compose.yml"


def test_compose_services_use_only_known_settings_and_reach_each_other() -> None:
    compose = yaml.safe_load(COMPOSE.read_text())
    services = compose["services"]
    known = {name.upper() for name in Settings.model_fields}

    for name in ("api", "worker", "migrations"):
        env = services[name]["environment"]
        assert set(env) <= known, (name, set(env) - known)
        settings = Settings(_env_file=None, **{key.lower(): value for key, value in env.items()})  # type: ignore[arg-type]
        assert settings.database_url is not None and "@postgres:5432/" in settings.database_url
        assert settings.redis_url == "redis://redis:6379/0"

    assert services["postgres"]["image"].startswith("pgvector/")
    assert services["migrations"]["command"] == ["sibyl", "migrate"]
    assert services["worker"]["command"] == ["python", "-m", "workers"]
    assert "schema.asgi:app" in services["api"]["command"]
