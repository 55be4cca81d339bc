"""The API's memory and a tenant's latency under HTTP abuse by a hostile client.

The API runs as a separate uvicorn process (one worker, as deployed: `--http
schema.uvicorn_http:SibylHttpProtocol` when that module exists) against embedded Postgres and
Redis. Measured, each on a fresh server process:

(a) a 150 MB chunked multipart upload (a valid key and the preflight header): the server's RSS
    before and after, its peak (VmHWM), and when and how it answered;
(b) a 60 MB JSON body (chunked): the same;
(c) a tenant's query (`reports(first: 20)` with a valid key), 200 times in a row alone, then 200
    times while 150 callers (another process, kept-alive connections) call `/readyz` all at once
    on every tick of a second: p50 and p90 latency. `--closed-loop` has each caller call again as
    soon as answered instead (a CPU flood: then the cheaper the endpoint, the more calls), and
    `--flood-path /healthz` floods another endpoint for comparison.

`--source DIR` runs the server from another checkout (e.g. `git archive <commit> | tar -x -C DIR`)
with this venv, to compare before and after a change.

Run: `cd /work/main && .venv/bin/python -m bench.http_abuse [--source DIR] [--closed-loop]
[--flood-path PATH]`
"""

from __future__ import annotations

import argparse
import asyncio
import math
import subprocess
import sys
import time
from asyncio.subprocess import PIPE
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from app.db.session import create_engine, create_session_factory
from bench.common import percentile, print_summary, print_table, process_memory_mb, start_uvicorn
from tests.conftest import new_api_key
from tests.support.analysed import seed_analysed_report
from tests.support.services import RunningServices, running_services

MB = 1024 * 1024
CHUNK = 256 * 1024
UPLOAD_BYTES = 150 * MB
JSON_BYTES = 60 * MB
READYZ_CALLERS = 150
TENANT_QUERIES = 200
TENANT_QUERY = "query { reports(first: 20) { totalCount edges { node { id status filename } } } }"
ANSWER_SECONDS = 300


@contextmanager
def api_server(services: RunningServices, source: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The API under uvicorn in its own process, from the checkout at `source`."""
    options = ["--ws-per-message-deflate", "false"]
    if (source / "schema" / "uvicorn_http.py").exists():
        options += ["--http", "schema.uvicorn_http:SibylHttpProtocol"]
    env = {
        "DATABASE_URL": services.database_url,
        "REDIS_URL": services.redis_url,
        "RATE_LIMIT_PER_MINUTE": "0",
        "PYTHONPATH": str(source),
    }
    process, url = start_uvicorn("schema.asgi:app", env, app_dir=source, options=options)
    try:
        yield process, url
    finally:
        process.terminate()
        process.wait(30)


async def send_body(url: str, head: str, parts: list[bytes], total: int) -> dict[str, object]:
    """Send `head`, then chunks of `parts[1]` (after `parts[0]`, before `parts[2]`) up to `total`
    bytes, then the end; stop early if the server hangs up. Returns what the server answered."""
    address = urlsplit(url)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    started = time.monotonic()
    sent = 0
    try:
        writer.write(head.encode())
        sent = await _chunks(writer, parts, total)
        async with asyncio.timeout(ANSWER_SECONDS):
            status_line = await reader.readline()
    except (ConnectionError, OSError, asyncio.IncompleteReadError) as exc:
        status_line = f"connection closed ({type(exc).__name__})".encode()
    finally:
        writer.close()
    return {
        "answer": status_line.decode("latin-1").strip(),
        "sent_mb": round(sent / MB, 1),
        "seconds": round(time.monotonic() - started, 2),
    }


async def _chunks(writer: asyncio.StreamWriter, parts: list[bytes], total: int) -> int:
    prefix, filler, suffix = parts
    sent = 0
    try:
        for piece in _pieces(prefix, filler, suffix, total):
            writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            await writer.drain()
            sent += len(piece)
        writer.write(b"0\r\n\r\n")
        await writer.drain()
    except (ConnectionError, OSError):
        pass
    return sent


def _pieces(prefix: bytes, filler: bytes, suffix: bytes, total: int) -> Iterator[bytes]:
    yield prefix
    remaining = total - len(prefix) - len(suffix)
    while remaining > 0:
        piece = filler[:remaining]
        remaining -= len(piece)
        yield piece
    yield suffix


def request_head(key: str, content_type: str) -> str:
    return (
        f"POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
        f"Content-Type: {content_type}\r\nApollo-Require-Preflight: true\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )


def upload_parts() -> list[bytes]:
    operations = (
        b'{"query": "mutation($f: Upload!) { uploadReport(file: $f) { __typename } }", '
        b'"variables": {"f": null}}'
    )
    prefix = (
        b'--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n' + operations + b"\r\n"
        b'--x\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0": ["variables.f"]}\r\n'
        b'--x\r\nContent-Disposition: form-data; name="0"; filename="big.pdf"\r\n'
        b"Content-Type: application/pdf\r\n\r\n%PDF-1.7\n"
    )
    return [prefix, b"%" * CHUNK, b"\r\n--x--\r\n"]


def json_parts() -> list[bytes]:
    return [b'{"query": "{ __typename }", "variables": {"pad": "', b"x" * CHUNK, b'"}}']


async def memory_under(services: RunningServices, source: Path, key: str, name: str) -> dict[str, object]:
    """One abusive body against a fresh server: its RSS before, after and at peak."""
    with api_server(services, source) as (process, url):
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            await tenant_query(http, key)  # warm: schema, connections, key cache
        before = process_memory_mb(process.pid)
        if name == "upload":
            answer = await send_body(
                url, request_head(key, "multipart/form-data; boundary=x"), upload_parts(), UPLOAD_BYTES
            )
        else:
            answer = await send_body(url, request_head(key, "application/json"), json_parts(), JSON_BYTES)
        await asyncio.sleep(1)
        return {
            "body": name,
            "rss_before_mb": round(before, 1),
            "rss_after_mb": round(process_memory_mb(process.pid), 1),
            "peak_mb": round(process_memory_mb(process.pid, "VmHWM"), 1),
            **answer,
        }


async def tenant_query(http: httpx.AsyncClient, key: str) -> float:
    """The tenant's query once; its latency in ms (NaN when it failed)."""
    started = time.perf_counter()
    headers = {"Authorization": f"Bearer {key}"}
    try:
        response = await http.post("/graphql", json={"query": TENANT_QUERY}, headers=headers)
    except httpx.TransportError as exc:
        print(f"tenant query failed: {exc!r}", flush=True)
        return math.nan
    if response.status_code != 200 or "errors" in response.json():
        print(f"tenant query failed: {response.status_code} {response.text[:200]}", flush=True)
        return math.nan
    return (time.perf_counter() - started) * 1000


async def latencies(http: httpx.AsyncClient, key: str) -> list[float]:
    return [await tenant_query(http, key) for _ in range(TENANT_QUERIES)]


async def latency_under_flood(
    services: RunningServices, source: Path, key: str, path: str, closed_loop: bool
) -> dict[str, object]:
    """The tenant's latencies alone, then during a `/readyz` flood from another process (so that the
    flood's 150 clients do not delay the tenant's client in this event loop)."""
    with api_server(services, source) as (_, url):
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            await tenant_query(http, key)
            alone = await latencies(http, key)
            flood = await asyncio.create_subprocess_exec(
                *[sys.executable, "-m", "bench.http_abuse", "--flood", url, "--flood-path", path],
                *(["--closed-loop"] if closed_loop else []),
                stdin=PIPE,
                stdout=PIPE,
            )
            assert flood.stdout is not None
            await flood.stdout.readline()  # the flood runs
            flooded = await latencies(http, key)
            output, _ = await flood.communicate(b"")  # end of input: the flood stops and reports
    calls, failures = (int(n) for n in output.split())
    return {
        "alone_p50_ms": round(percentile(_ok(alone), 50), 1),
        "alone_p90_ms": round(percentile(_ok(alone), 90), 1),
        "flood_p50_ms": round(percentile(_ok(flooded), 50), 1),
        "flood_p90_ms": round(percentile(_ok(flooded), 90), 1),
        "failed": len(alone) + len(flooded) - len(_ok(alone)) - len(_ok(flooded)),
        "readyz_calls": calls,
        "readyz_failures": failures,
    }


async def flood(url: str, path: str, closed_loop: bool) -> None:
    """READYZ_CALLERS kept-alive connections calling `path` until this process's input ends: all at
    once on every tick of a second (or, `closed_loop`, each again as soon as answered); prints the
    number of calls and of failed ones. Raw sockets, not an HTTP client library: the flood must
    cost its own process little CPU, or on a small machine it would slow the server by taking its
    cores rather than by what the server does per call."""
    stop = asyncio.Event()
    calls = [0, 0]
    address = urlsplit(url)
    start = asyncio.get_running_loop().time()
    callers = [
        asyncio.create_task(
            _caller(
                address.hostname or "", address.port or 80, path, None if closed_loop else start, stop, calls
            )
        )
        for _ in range(READYZ_CALLERS)
    ]
    await asyncio.sleep(2)  # every caller connected and calling
    print("flooding", flush=True)
    await asyncio.to_thread(sys.stdin.read)
    stop.set()
    await asyncio.gather(*callers)
    print(calls[0], calls[1])


def _ok(values: list[float]) -> list[float]:
    return [value for value in values if not math.isnan(value)]


async def _caller(
    host: str, port: int, path: str, ticks_from: float | None, stop: asyncio.Event, calls: list[int]
) -> None:
    """`path` in a loop on one connection until `stop`, on each whole second after `ticks_from`
    (None: back to back); counts calls (`calls[0]`) and failed ones (`calls[1]`)."""
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while not stop.is_set():
                if ticks_from is not None:
                    await asyncio.sleep(1 - (loop.time() - ticks_from) % 1)
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                calls[0] += 1
                calls[1] += not head.startswith(b"HTTP/1.1 200")
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            calls[1] += 1
        finally:
            writer.close()


async def measure(services: RunningServices, source: Path, path: str, closed_loop: bool) -> dict[str, object]:
    engine = create_engine(services.database_url)
    factory = create_session_factory(engine)
    await seed_analysed_report(factory, 20)
    key = await new_api_key(factory)
    await engine.dispose()
    memory = []
    for name in ("upload", "json"):
        memory.append(await memory_under(services, source, key, name))
        print(memory[-1], flush=True)
    latency = await latency_under_flood(services, source, key, path, closed_loop)
    return {"memory": memory, "latency": latency}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--flood-path", default="/readyz", help="what the flood calls (default /readyz)")
    parser.add_argument("--closed-loop", action="store_true", help="each flood caller calls back to back")
    parser.add_argument("--flood", metavar="URL", help=argparse.SUPPRESS)  # the flood's own process
    args = parser.parse_args()
    if args.flood:
        asyncio.run(flood(args.flood, args.flood_path, args.closed_loop))
        return 0
    source = args.source.resolve()
    with running_services(prefix="sibyl-bench-abuse-") as services:
        summary = asyncio.run(measure(services, source, args.flood_path, args.closed_loop))
    memory = summary["memory"]
    assert isinstance(memory, list)
    print_table(
        f"API memory under abusive bodies (server from {source})",
        ["body", "RSS before MB", "RSS after MB", "peak MB", "answer", "sent MB", "s"],
        [
            [
                m["body"],
                m["rss_before_mb"],
                m["rss_after_mb"],
                m["peak_mb"],
                m["answer"],
                m["sent_mb"],
                m["seconds"],
            ]
            for m in memory
        ],
    )
    latency = summary["latency"]
    assert isinstance(latency, dict)
    print_table(
        f"Tenant query latency (ms), alone and while {READYZ_CALLERS} callers call {args.flood_path} "
        + ("back to back" if args.closed_loop else "all at once every second"),
        ["alone p50", "alone p90", "flood p50", "flood p90", "failed", "/readyz calls", "/readyz failed"],
        [
            [
                latency["alone_p50_ms"],
                latency["alone_p90_ms"],
                latency["flood_p50_ms"],
                latency["flood_p90_ms"],
                latency["failed"],
                latency["readyz_calls"],
                latency["readyz_failures"],
            ]
        ],
    )
    print_summary({"bench": "http_abuse", "source": str(source), **summary})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
