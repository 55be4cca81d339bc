"""API memory under invalid keys: RSS of an API process before and after 50 requests with 2 MB keys.

One uvicorn process (as deployed) serves the API against embedded Postgres and Redis. After a
warm-up (a few requests with a valid and with a wrong key), its resident memory is read from
`/proc`; then 50 requests each send a different 2 MB `Authorization: Bearer …` key, and the memory
is read again at once and after the key cache's lifetime has passed (API_KEY_CACHE_SECONDS plus 5
s; the default 30 s). Reported: the three figures, the growth, and the statuses the requests got.

`--app-dir` runs the server from another checkout of the code (e.g. an older commit unpacked with
`git archive <commit> | tar -x -C /tmp/old`), to compare before and after a change.

Run: `cd /work/main && .venv/bin/python -m bench.auth_abuse [--requests 50] [--key-mb 2] [--app-dir DIR]`
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from pathlib import Path

import httpx

from app.db.session import create_engine, create_session_factory
from bench.common import print_summary, print_table, process_memory_mb, start_uvicorn
from tests.conftest import new_api_key
from tests.support.services import RunningServices, running_services

QUERY = {"query": "{ __typename }"}
WRONG_KEY = "sibyl_00000000_" + "x" * 43
#: The key cache's lifetime (API_KEY_CACHE_SECONDS' default), and a margin past it.
CACHE_SECONDS = 30.0
MARGIN_SECONDS = 5.0


async def send(http: httpx.AsyncClient, key: str) -> int:
    response = await http.post("/graphql", json=QUERY, headers={"Authorization": f"Bearer {key}"})
    return response.status_code


async def measure(
    services: RunningServices, requests: int, key_mb: float, app_dir: Path
) -> dict[str, object]:
    engine = create_engine(services.database_url)
    key = await new_api_key(create_session_factory(engine))
    await engine.dispose()
    env = {"DATABASE_URL": services.database_url, "REDIS_URL": services.redis_url}
    process, url = start_uvicorn("schema.asgi:app", env, app_dir=app_dir)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            warm = [await send(http, key) for _ in range(5)] + [await send(http, WRONG_KEY)]
            assert warm == [200] * 5 + [401], warm
            await asyncio.sleep(1)
            before = process_memory_mb(process.pid)
            filler = "x" * int(key_mb * 1024 * 1024)
            statuses = Counter([await send(http, f"sibyl_{n:08x}_{filler}") for n in range(requests)])
            after = process_memory_mb(process.pid)
            await asyncio.sleep(CACHE_SECONDS + MARGIN_SECONDS)
            later = process_memory_mb(process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
    return {
        "app_dir": str(app_dir),
        "requests": requests,
        "key_mb": key_mb,
        "rss_before_mb": round(before, 1),
        "rss_after_mb": round(after, 1),
        "rss_after_cache_expiry_mb": round(later, 1),
        "growth_mb": round(after - before, 1),
        "growth_after_expiry_mb": round(later - before, 1),
        "statuses": {str(status): count for status, count in sorted(statuses.items())},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--key-mb", type=float, default=2.0)
    parser.add_argument("--app-dir", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    with running_services(prefix="sibyl-bench-auth-") as services:
        summary = asyncio.run(measure(services, args.requests, args.key_mb, args.app_dir.resolve()))
    print_table(
        f"API RSS, {args.requests} requests with {args.key_mb:g} MB keys ({summary['app_dir']})",
        ["before MB", "after MB", f"after {CACHE_SECONDS + MARGIN_SECONDS:g} s MB", "statuses"],
        [
            [
                summary["rss_before_mb"],
                summary["rss_after_mb"],
                summary["rss_after_cache_expiry_mb"],
                summary["statuses"],
            ]
        ],
    )
    print_summary({"bench": "auth_abuse", **summary})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
