"""The `worker` fixture: an ARQ worker in the test process, for one test package.

Import it into a package's conftest.py; pytest then scopes it to that package, so the worker is
closed when the package's last test ends. (Defined in the root conftest, "package" would mean the
whole `tests` package, i.e. the session.) It must not outlive its package: it takes jobs from the
queue it shares with the workers of `sibyl run` in tests/web, and a test that kills one of those
to stop a run would find the run going on here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from arq import Worker

from app.config import Settings
from tests.conftest import run_worker


@pytest.fixture(scope="package")
async def worker(settings: Settings) -> AsyncIterator[Worker]:
    async with run_worker(settings) as running:
        yield running
