"""The live server against graphql-http's audit of the GraphQL-over-HTTP spec: every audit, the
MUSTs, the SHOULDs and the MAYs, must pass. The audit runs in `node` from the pinned package
`make install` puts in the venv (`tests.support.http_audit`); without either, the test skips."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.http_audit import RUNNER, audits_script

NODE = shutil.which("node")
AUDITS = audits_script()
AUDIT_SECONDS = 60

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not on PATH"),
    pytest.mark.skipif(AUDITS is None, reason="graphql-http's audit is not installed (make install)"),
]


async def audit(node: str, audits: Path, url: str, api_key: str) -> list[dict[str, Any]]:
    """Every audit's result (`id`, `name`, `status`, and for those not ok `reason` and `response`)."""
    process = await asyncio.create_subprocess_exec(
        node,
        str(RUNNER),
        str(audits),
        url,
        env={**os.environ, "AUDIT_HEADERS": json.dumps({"authorization": f"Bearer {api_key}"})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(AUDIT_SECONDS):
        out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return list(json.loads(out))


def described(result: dict[str, Any]) -> str:
    response = result.get("response") or {}
    return (
        f"{result['id']} [{result['status']}] {result['name']}: {result.get('reason')}"
        f" (HTTP {response.get('status')} {response.get('contentType')}: {response.get('body')})"
    )


async def test_every_graphql_over_http_audit_passes(api_url: str, api_key: str) -> None:
    assert NODE is not None and AUDITS is not None

    results = await audit(NODE, AUDITS, f"{api_url}/graphql", api_key)

    not_ok = [described(result) for result in results if result["status"] != "ok"]
    assert results and not not_ok, "\n".join(not_ok)
