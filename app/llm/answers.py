"""Turning a model's message text into a validated pydantic model, tolerating fences and prose."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.llm.errors import InvalidAnswer

M = TypeVar("M", bound=BaseModel)

_decoder = json.JSONDecoder()


def extract_json(text: str) -> Any:
    """The JSON in `text`: all of it if it parses, else the first JSON object embedded in it.

    Handles a ```json fenced block and prose before or after the object. Raises `ValueError` when
    there is no JSON object at all.
    """
    try:
        return json.loads(text)
    except ValueError:
        pass
    start = text.find("{")
    while start != -1:
        try:
            value, _ = _decoder.raw_decode(text, start)
            return value
        except ValueError:
            start = text.find("{", start + 1)
    raise ValueError("no JSON object found in the answer")


def parse_answer(content: str, schema: type[M]) -> M:
    """`content` validated as `schema`, or `InvalidAnswer` with an error message fit for a repair prompt."""
    try:
        data = extract_json(content)
    except ValueError as exc:
        raise InvalidAnswer(content, f"the answer is not valid JSON ({exc})") from exc
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise InvalidAnswer(content, f"the JSON does not match the schema: {describe_errors(exc)}") from exc


def describe_errors(error: ValidationError) -> str:
    """A compact one-line summary of pydantic validation errors: `field.path: message; ...`."""
    parts = []
    for item in error.errors(include_url=False):
        location = ".".join(str(part) for part in item["loc"]) or "(root)"
        parts.append(f"{location}: {item['msg']}")
    return "; ".join(parts)


def repair_prompt(error: str) -> str:
    """The user message asking the model to correct an unusable answer."""
    return (
        f"Your previous answer could not be used: {error}. "
        "Reply with the corrected JSON object only: no prose, no code fences."
    )
