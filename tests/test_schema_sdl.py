"""The committed SDL (schema.graphql) must match the code; regenerate with `make schema`."""

from __future__ import annotations

from pathlib import Path

from schema import schema

SDL_PATH = Path(__file__).resolve().parents[1] / "schema.graphql"


def test_committed_sdl_matches_the_code() -> None:
    committed = SDL_PATH.read_text()

    assert committed == schema.as_str() + "\n", "schema.graphql is stale: run `make schema`"


def test_every_field_and_argument_is_documented() -> None:
    missing = []
    for type_name, graphql_type in schema._schema.type_map.items():
        if type_name.startswith("__") or not hasattr(graphql_type, "fields"):
            continue
        for field_name, field in graphql_type.fields.items():
            if not field.description:
                missing.append(f"{type_name}.{field_name}")
            for argument_name, argument in getattr(field, "args", {}).items():
                if not argument.description:
                    missing.append(f"{type_name}.{field_name}({argument_name})")

    assert missing == []
