"""The README's configuration table, generated from `Settings` so the two never disagree."""

from __future__ import annotations

from app.config import Settings

START, END = "<!-- settings:start -->", "<!-- settings:end -->"


def _default(name: str) -> str:
    field = Settings.model_fields[name]
    value = field.get_default(call_default_factory=True)
    return "unset" if value is None or value == {} else str(value)


def settings_table() -> str:
    """A markdown table: environment variable, default, meaning."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for name, field in Settings.model_fields.items():
        meaning = (field.description or "").replace("|", "\\|")
        rows.append(f"| `{name.upper()}` | `{_default(name)}` | {meaning} |")
    return "\n".join(rows)


def with_settings_table(readme: str) -> str:
    """`readme` with the text between the settings markers replaced by a fresh table."""
    head, _, rest = readme.partition(START)
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{settings_table()}\n{END}{tail}"


if __name__ == "__main__":
    from pathlib import Path

    path = Path("README.md")
    path.write_text(with_settings_table(path.read_text()))
