"""What a decompression bomb costs the outbound fetcher: peak memory while it refuses one.

Each case runs in a fresh process (so the RSS high-water mark is its own): a loopback server sends
a small compressed body that inflates far past the fetch cap (the production default, 10 MiB), and
the fetcher fetches it. Reported: the body's size on the wire, the refusal, the peak of Python's
traced memory (tracemalloc) and the growth of the process's peak RSS during the fetch.

    python -m bench.fetch_bombs
    python -m bench.fetch_bombs --fetch-module some_copy_of_fetch   # compare another version
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import resource
import subprocess
import sys
import tracemalloc
import zlib
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bench.common import print_summary, print_table
from tests.support.http_server import serve_asgi

MB = 1024 * 1024
#: Each case: (Content-Encoding, decoded size). The zstd frame of 512 MiB of zeros is ~16 KB.
CASES = {"zstd-16KB": ("zstd", 512 * MB), "gzip-1MB": ("gzip", 1024 * MB)}


def _zero_block_stream(size: int) -> Any:
    return (bytes(MB) for _ in range(size // MB))


def _bomb(encoding: str, size: int) -> bytes:
    """`size` zero bytes compressed a megabyte at a time, so building it costs no memory to speak of."""
    if encoding == "zstd":
        import zstandard

        zstd = zstandard.ZstdCompressor(level=19).compressobj()
        return b"".join([*(zstd.compress(block) for block in _zero_block_stream(size)), zstd.flush()])
    gz = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return b"".join([*(gz.compress(block) for block in _zero_block_stream(size)), gz.flush()])


def _max_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


async def _measure(case: str, fetch_module: str) -> dict[str, Any]:
    """Serve the case's bomb on loopback and fetch it once, measuring memory around the fetch."""
    fetching = importlib.import_module(fetch_module)
    encoding, size = CASES[case]
    body = _bomb(encoding, size)

    async def bomb(request: Request) -> Response:
        return Response(body, media_type="text/plain", headers={"Content-Encoding": encoding})

    policy = fetching.FetchPolicy(allow_private=True, timeout_seconds=120.0)
    async with serve_asgi(Starlette(routes=[Route("/bomb", bomb)])) as base:
        rss_before = _max_rss_bytes()
        tracemalloc.start()
        traced_before = tracemalloc.get_traced_memory()[0]
        try:
            await fetching.fetch(f"{base}/bomb", policy)
            outcome = "fetched"
        except fetching.FetchRefused as exc:
            outcome = f"refused: {exc.code}"
        traced_peak = tracemalloc.get_traced_memory()[1] - traced_before
        tracemalloc.stop()
        rss_growth = _max_rss_bytes() - rss_before
    return {
        "case": case,
        "wire_bytes": len(body),
        "decoded_bytes": size,
        "cap_bytes": policy.max_bytes,
        "outcome": outcome,
        "traced_peak_mb": round(traced_peak / MB, 1),
        "rss_growth_mb": round(rss_growth / MB, 1),
    }


def _run_case(case: str, fetch_module: str) -> dict[str, Any]:
    """One case in a child process; its last output line is the JSON result."""
    command = [sys.executable, "-m", "bench.fetch_bombs", "--one", case, "--fetch-module", fetch_module]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--fetch-module", default="app.net.fetch", help="module providing fetch")
    parser.add_argument("--one", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asyncio.run(_measure(args.one, args.fetch_module))))
        return
    results = [_run_case(case, args.fetch_module) for case in CASES]
    columns = ["case", "wire_bytes", "decoded_bytes", "outcome", "traced_peak_mb", "rss_growth_mb"]
    print_table(
        f"Decompression bombs ({args.fetch_module})", columns, [[r[c] for c in columns] for r in results]
    )
    print_summary({"fetch_module": args.fetch_module, "cases": results})


if __name__ == "__main__":
    main()
