"""What a GraphQL request over HTTP may carry, checked before it runs; each refusal is an
`HTTPException(400)` that `SibylGraphQL` answers as BAD_REQUEST.

* Its JSON (body, `?variables=`, `?extensions=`, multipart `operations` and `map`, WebSocket
  messages) must be UTF-8 and nest no deeper than the parser goes (beyond that `json` raises
  `RecursionError`): either failure becomes the `JSONDecodeError` Strawberry answers for malformed
  JSON (400 over HTTP, close code 4400 over WebSocket).
* No string in it (the document, the operation name, variables and extensions, keys included) may
  hold a NUL character or a lone UTF-16 surrogate: Postgres cannot store the one and UTF-8 cannot
  encode the other, so either would fail deep inside a resolver as an unexpected error. The
  message names where it was found (`variables.input.title`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from cross_web import HTTPException
from strawberry.http import GraphQLRequestData

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
#: Longest path of a refused string quoted back (a key may be as long as the body).
MAX_PATH_CHARS = 120


def decode_json(data: str | bytes) -> object:
    """`json.loads`, raising `JSONDecodeError` for JSON too deeply nested or not UTF-8 as for any
    other malformed JSON, so that every transport refuses it as the client's mistake."""
    try:
        return json.loads(data)
    except RecursionError as exc:
        raise json.JSONDecodeError("JSON nested too deeply", "", 0) from exc
    except UnicodeDecodeError as exc:
        raise json.JSONDecodeError("JSON text is not UTF-8", "", exc.start) from exc


def refuse_unstorable_text(request: GraphQLRequestData) -> None:
    """Raises HTTPException(400) naming the first string of `request` with a NUL or lone surrogate."""
    roots = {
        "query": request.query,
        "operationName": request.operation_name,
        "variables": request.variables,
        "extensions": request.extensions,
    }
    for where, text in _strings(roots):
        found = _UNSTORABLE.search(text)
        if found is not None:
            what = "a NUL character" if found.group() == "\x00" else "a lone UTF-16 surrogate"
            shown = _UNSTORABLE.sub("\ufffd", where)[:MAX_PATH_CHARS]
            raise HTTPException(400, f"`{shown}` holds {what}, which no field accepts.")


def _strings(value: object) -> Iterator[tuple[str, str]]:
    """Every string in a decoded JSON value (keys too), with its path; iterative, so a value nested
    as deep as the JSON parser allows does not exhaust the stack here."""
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path, item
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{path}.{key}" if path else str(key)
                yield child_path, str(key)
                stack.append((child_path, child))
        elif isinstance(item, list):
            stack.extend((f"{path}.{index}", child) for index, child in enumerate(item))
