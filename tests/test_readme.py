"""The README keeps its two fresh-machine commands, and its configuration table matches the settings
(`make docs` regenerates it)."""

from __future__ import annotations

from pathlib import Path

from app.config_docs import END, START, settings_table

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_settings_table_is_current() -> None:
    text = README.read_text()
    assert START in text and END in text
    assert f"{START}\n{settings_table()}\n{END}" in text, "README settings table is stale: run `make docs`"


def test_readme_gives_the_two_fresh_machine_commands() -> None:
    text = README.read_text()
    assert "## Two commands" in text
    assert "\nmake run " in text and "\nmake test " in text
