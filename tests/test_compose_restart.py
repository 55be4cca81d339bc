"""docker-compose.yml restarts every long-running service that dies, and only those."""

from __future__ import annotations

from pathlib import Path

import yaml

COMPOSE = Path(__file__).resolve().parents[1] / "docker-compose.yml"


def test_long_running_services_restart_and_the_migrations_run_once() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]

    for name in ("postgres", "redis", "api", "worker"):
        assert services[name]["restart"] == "unless-stopped", name
    assert "restart" not in services["migrations"]
    assert "--appendonly" in services["redis"]["command"], "queued jobs must survive a Redis restart"
