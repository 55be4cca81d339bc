"""`python -m workers`: run one ARQ worker with the app settings."""

from __future__ import annotations

from app.config import get_settings
from app.log_setup import configure_from_settings
from app.tracing import configure_tracing
from workers.resilience import SibylWorker
from workers.settings import worker_settings


def main() -> None:
    configure_from_settings(tag="[worker] ")
    configure_tracing("sibyl-worker")  # when OTEL_EXPORTER_OTLP_ENDPOINT is set
    SibylWorker(**worker_settings(get_settings())).run()


if __name__ == "__main__":
    main()
