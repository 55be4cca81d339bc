"""The partner query under load: 200 claims with verdicts and findings, 16 concurrent clients.

Both servers run as separate uvicorn processes (one worker each) against the same embedded
Postgres, so the load generator (this process) does not share their CPU:

(a) GraphQL: `report(id) { claims(first: 200) { … verdict { … } findings { … } } }` with an API
    key (authenticated once, then cached), depth and cost limits on, rate limit off (the load is
    far above a partner's 600 per minute), the full document in every request;
(b) GraphQL with an automatic persisted query: the same, sent by its SHA-256 hash (registered once
    before the warm-up), as the Python client sends it;
(c) plain: `bench.plain_claims_app`, a Starlette JSON endpoint running the same SQL.

Documents are parsed and validated once per process either way (`schema.limits.document_cache`).

Each is warmed up, then driven by 16 clients, each sending its next request as soon as the last
answered, for a fixed time, in alternating rounds (three by default; other load on the machine then affects
all three alike). Reported: requests/s, p50/p99 latency, SQL queries per GraphQL request
(counted in a separate in-process request), the ratios of throughputs to plain (target ≥ 0.75),
and each server process's CPU time per request (steadier than throughput on a shared machine).

Run: `cd /work/main && .venv/bin/python -m bench.partner_api [--seconds 15] [--clients 16] [--rounds 3]`
(more, shorter rounds interleave the endpoints more finely when other load on the machine varies).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Awaitable, Callable

import httpx
from strawberry.relay import GlobalID

from app.db.session import create_engine, create_session_factory
from bench.common import percentile, print_summary, print_table, start_uvicorn
from clients.sibyl.persisted import persisted_extension
from tests.conftest import make_settings, new_api_key, serve_api
from tests.schema.test_partner_graph import counted_queries
from tests.support.analysed import seed_analysed_report
from tests.support.services import RunningServices, running_services

CLAIMS = 200
ROUNDS = 3
QUERY = """
query Claims($id: ID!) {
  report(id: $id) {
    claims(first: 200) {
      totalCount
      edges { node {
        id text claimType priority sourcePage
        verdict { verdict confidence reasoning }
        findings { agent summary supportsClaim confidence }
      } }
    }
  }
}
"""


async def drive(
    send: Callable[[httpx.AsyncClient], Awaitable[None]], url: str, clients: int, seconds: float
) -> tuple[list[float], float]:
    """Latencies (ms) of every request `clients` loops sent in `seconds`, and the elapsed time."""
    latencies: list[float] = []

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                started = time.perf_counter()
                await send(http)
                latencies.append((time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return latencies, time.perf_counter() - started


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used so far (Linux `/proc`)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


Endpoint = tuple[Callable[[httpx.AsyncClient], Awaitable[None]], str, int]


async def interleaved(
    endpoints: dict[str, Endpoint], clients: int, seconds: float, rounds: int = ROUNDS
) -> dict[str, dict[str, float]]:
    """Each endpoint driven for `seconds` in all, in alternating rounds, so that a change in the
    machine's load during the run affects them alike.

    Besides throughput, the server process's CPU time per request is reported: other load on the
    (shared) machine changes how many requests a server answers in a second far more than what
    each one costs it.
    """
    samples: dict[str, tuple[list[float], float, float]] = {name: ([], 0.0, 0.0) for name in endpoints}
    for _ in range(rounds):
        for name, (send, url, pid) in endpoints.items():
            cpu = cpu_seconds(pid)
            latencies, elapsed = await drive(send, url, clients, seconds / rounds)
            used = cpu_seconds(pid) - cpu
            before = samples[name]
            samples[name] = (before[0] + latencies, before[1] + elapsed, before[2] + used)
    return {
        name: {
            "requests": len(latencies),
            "rps": round(len(latencies) / elapsed, 1),
            "p50_ms": round(percentile(latencies, 50), 1),
            "p99_ms": round(percentile(latencies, 99), 1),
            "server_cpu_ms": round(used / len(latencies) * 1000, 1),
        }
        for name, (latencies, elapsed, used) in samples.items()
    }


async def measure(
    services: RunningServices, seconds: float, clients: int, rounds: int = ROUNDS
) -> dict[str, object]:
    settings = make_settings(services, rate_limit_per_minute=0)
    engine = create_engine(services.database_url)
    factory = create_session_factory(engine)
    seeded = await seed_analysed_report(factory, CLAIMS)
    key = await new_api_key(factory)
    variables = {"id": str(GlobalID("Report", str(seeded.report_id)))}
    headers = {"Authorization": f"Bearer {key}"}

    async with serve_api(settings) as in_process, httpx.AsyncClient(base_url=in_process) as http:
        await http.post("/graphql", json={"query": QUERY, "variables": variables}, headers=headers)
        with counted_queries() as statements:
            body = (
                await http.post("/graphql", json={"query": QUERY, "variables": variables}, headers=headers)
            ).json()
    assert len(body["data"]["report"]["claims"]["edges"]) == CLAIMS, body

    env = {
        "DATABASE_URL": services.database_url,
        "REDIS_URL": services.redis_url,
        "RATE_LIMIT_PER_MINUTE": "0",
    }
    graphql, graphql_url = start_uvicorn("schema.asgi:app", env, probe="/")
    plain, plain_url = start_uvicorn("bench.plain_claims_app:app", env, probe="/")
    try:

        async def ask_graphql(http: httpx.AsyncClient) -> None:
            response = await http.post(
                "/graphql", json={"query": QUERY, "variables": variables}, headers=headers
            )
            response.raise_for_status()

        persisted = persisted_extension(QUERY)  # as the Python client sends it

        async def ask_persisted(http: httpx.AsyncClient) -> None:
            response = await http.post(
                "/graphql", json={"variables": variables, "extensions": persisted}, headers=headers
            )
            response.raise_for_status()
            assert "errors" not in response.json()

        async def ask_plain(http: httpx.AsyncClient) -> None:
            (await http.get(f"/claims/{seeded.report_id}")).raise_for_status()

        async with httpx.AsyncClient(base_url=graphql_url, timeout=60) as http:
            register = {"query": QUERY, "variables": variables, "extensions": persisted}
            (await http.post("/graphql", json=register, headers=headers)).raise_for_status()
        await drive(ask_graphql, graphql_url, clients, 2)
        await drive(ask_plain, plain_url, clients, 2)
        endpoints: dict[str, Endpoint] = {
            "graphql": (ask_graphql, graphql_url, graphql.pid),
            "graphql_persisted": (ask_persisted, graphql_url, graphql.pid),
            "plain": (ask_plain, plain_url, plain.pid),
        }
        results = await interleaved(endpoints, clients, seconds, rounds)
    finally:
        for process in (graphql, plain):
            process.terminate()
            process.wait(15)
    await engine.dispose()
    ratio = results["graphql"]["rps"] / results["plain"]["rps"]
    persisted_ratio = results["graphql_persisted"]["rps"] / results["plain"]["rps"]
    cpu_ratio = results["plain"]["server_cpu_ms"] / results["graphql"]["server_cpu_ms"]
    return {
        "results": results,
        "ratio": round(ratio, 2),
        "persisted_ratio": round(persisted_ratio, 2),
        "cpu_ratio": round(cpu_ratio, 2),
        "sql_per_request": len(statements),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    with running_services(prefix="sibyl-bench-api-") as services:
        summary = asyncio.run(measure(services, args.seconds, args.clients, args.rounds))
    results = summary["results"]
    assert isinstance(results, dict)
    print_table(
        f"{CLAIMS} claims with verdicts and findings, {args.clients} concurrent clients, "
        f"{args.seconds:g} s each",
        ["endpoint", "requests", "req/s", "p50 ms", "p99 ms", "server CPU ms/req"],
        [
            [name, r["requests"], r["rps"], r["p50_ms"], r["p99_ms"], r["server_cpu_ms"]]
            for name, r in results.items()
        ],
    )
    print(
        f"GraphQL/plain throughput: {summary['ratio']}, with a persisted query "
        f"{summary['persisted_ratio']} (target >= 0.75); server CPU per request, plain/GraphQL: "
        f"{summary['cpu_ratio']}; SQL per GraphQL request: {summary['sql_per_request']}"
    )
    print_summary({"bench": "partner_api", **summary})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
