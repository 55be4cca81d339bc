"""The dashboard's GraphQL documents (`clients/web/operations/*.graphql`) fit the schema, each holds
one operation named after its file, and the app uses every one of them and no other. No browser
or server needed: this catches a renamed field before any view hits it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from graphql import OperationDefinitionNode, parse, validate

from schema import schema

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
OPERATIONS = sorted((WEB / "operations").glob("*.graphql"))
USED = re.compile(r"""(?:request|operation|act)\(\s*'(\w+)'""")


@pytest.mark.parametrize("path", OPERATIONS, ids=lambda path: path.stem)
def test_operation_is_valid_and_named_after_its_file(path: Path) -> None:
    document = parse(path.read_text())

    assert validate(schema._schema, document) == []
    operations = [node for node in document.definitions if isinstance(node, OperationDefinitionNode)]
    assert len(operations) == 1 and operations[0].name is not None
    assert operations[0].name.value == path.stem


def test_the_app_uses_every_operation_and_only_those() -> None:
    sources = "\n".join(path.read_text() for path in WEB.glob("js/**/*.js"))

    used = set(USED.findall(sources))

    assert used == {path.stem for path in OPERATIONS}
