"""`sibyl run`'s banner: its example client command works as printed (trial s22: with API_PORT=8765
it sent the client to port 8000, and named a `sibyl` that was not on PATH)."""

from __future__ import annotations

import sys
from pathlib import Path

from app.config import Settings
from app.supervision.banner import client_example

KEY = "sibyl_0123abcd_" + "k" * 43


def _settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def _on_path(name: str) -> str | None:
    return f"/usr/local/bin/{name}"


def _nowhere(name: str) -> None:
    return None


def test_the_default_port_needs_no_server_url() -> None:
    assert (
        client_example(_settings(), KEY, _on_path) == f"SIBYL_API_KEY={KEY} sibyl analyze report.pdf --follow"
    )


def test_another_port_or_a_wildcard_address_is_named_for_the_client() -> None:
    other_port = client_example(_settings(api_port=8765), KEY, _on_path)
    everywhere = client_example(_settings(api_host="0.0.0.0", api_port=9000), KEY, _on_path)

    assert other_port.startswith(f"SIBYL_API_URL=http://127.0.0.1:8765 SIBYL_API_KEY={KEY} sibyl analyze ")
    assert everywhere.startswith("SIBYL_API_URL=http://127.0.0.1:9000 ")


def test_without_sibyl_on_path_the_script_beside_this_python_is_named() -> None:
    command = client_example(_settings(), KEY, _nowhere)

    program = command.split()[1]
    beside = Path(sys.executable).with_name("sibyl")
    assert program != "sibyl"
    if beside.is_file():  # the project's venv installs the `sibyl` script next to its python
        assert (Path.cwd() / program).resolve() == beside.resolve()
    else:
        assert command.split()[1:4] == [sys.executable, "-m", "app.cli"]
