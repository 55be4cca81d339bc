"""`python -m workers`: run one ARQ worker with the app settings."""

from __future__ import annotations

import logging

from app.config import get_settings
from workers.resilience import SibylWorker
from workers.settings import worker_settings


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [worker] %(name)s: %(message)s")
    SibylWorker(**worker_settings(get_settings())).run()


if __name__ == "__main__":
    main()
