"""Answers cached in Redis, keyed by report, index version, organisation and question.

The index version is part of the key, so a changed report never serves an old answer even before
`forget_answers` runs. Each report's answer keys are also tracked in a Redis set so that starting an
analysis can drop them all at once, with no SCAN of the whole keyspace. Redis being down, or up
but not answering (the API's client gives up after REDIS_COMMAND_TIMEOUT_SECONDS), costs the cache,
never the answer.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import uuid
from datetime import datetime
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.questions.types import Answer, Citation, Confidence, QueryType

logger = logging.getLogger(__name__)

KEY_PREFIX = "sibyl:ask"
_TRAILING = re.compile(r"[\s?!.]+$")


def normalise_question(question: str) -> str:
    """The question as the cache sees it: case, spacing and trailing punctuation do not matter."""
    return _TRAILING.sub("", " ".join(question.split()).casefold())


def answer_key(
    report_id: uuid.UUID, index_version: str, organisation_id: uuid.UUID | None, question: str
) -> str:
    """The Redis key of one cached answer (the report id stays readable, for operators)."""
    material = "\n".join([str(organisation_id), index_version, normalise_question(question)])
    return f"{KEY_PREFIX}:{report_id}:{hashlib.sha256(material.encode()).hexdigest()}"


def tracking_key(report_id: uuid.UUID) -> str:
    """The set of every cached answer key of a report."""
    return f"{KEY_PREFIX}-keys:{report_id}"


async def cached_answer(redis: Redis, key: str) -> Answer | None:
    """The answer cached under `key`, marked `cached`; None on a miss or when Redis fails."""
    try:
        raw = await redis.get(key)
    except (RedisError, OSError) as exc:
        logger.warning("answer cache unavailable, answering afresh: %s", exc)
        return None
    if raw is None:
        return None
    try:
        answer = answer_from_json(raw)
    except (ValueError, KeyError, TypeError) as exc:
        logger.warning("unreadable cached answer %s ignored: %s", key, exc)
        return None
    answer.cached = True
    return answer


async def store_answer(
    redis: Redis, report_id: uuid.UUID, key: str, answer: Answer, ttl_seconds: int
) -> None:
    """Cache `answer` for `ttl_seconds` and track its key under the report.

    The tracking set lives at least as long as its longest-lived member (NX then GT expiry).
    """
    tracked = tracking_key(report_id)
    try:
        async with redis.pipeline(transaction=True) as pipe:
            pipe.set(key, answer_to_json(answer), ex=ttl_seconds)
            pipe.sadd(tracked, key)
            pipe.expire(tracked, ttl_seconds, nx=True)
            pipe.expire(tracked, ttl_seconds, gt=True)
            await pipe.execute()
    except (RedisError, OSError) as exc:
        logger.warning("answer not cached: %s", exc)


async def forget_answers(redis: Redis, report_id: uuid.UUID) -> int:
    """Drop every cached answer of a report (call when a new analysis starts); returns how many.

    Forgetting frees memory sooner; it is not what keeps answers right: a new run changes the index
    version in every key. So a Redis failure here is logged, not raised.
    """
    tracked = tracking_key(report_id)
    try:
        members: set[Any] = await redis.smembers(tracked)  # type: ignore[misc]
        keys = [member.decode() if isinstance(member, bytes) else str(member) for member in members]
        deleted = int(await redis.delete(*keys)) if keys else 0
        await redis.delete(tracked)
    except (RedisError, OSError) as exc:
        logger.warning("cached answers of report %s not dropped: %s", report_id, exc)
        return 0
    return deleted


def answer_to_json(answer: Answer) -> str:
    """The answer as stored: plain JSON (ids and times as strings)."""
    data = dataclasses.asdict(answer)
    data["query_type"] = answer.query_type.value
    data["generated_at"] = answer.generated_at.isoformat()
    data["citations"] = [
        {**dataclasses.asdict(c), "claim_id": str(c.claim_id) if c.claim_id else None}
        for c in answer.citations
    ]
    data.pop("cached", None)
    return json.dumps(data, ensure_ascii=False)


def answer_from_json(raw: bytes | str) -> Answer:
    """An answer read back from its stored JSON."""
    data: dict[str, Any] = json.loads(raw)
    citations = [
        Citation(**{**item, "claim_id": uuid.UUID(item["claim_id"]) if item.get("claim_id") else None})
        for item in data.pop("citations")
    ]
    return Answer(
        **{
            **data,
            "query_type": QueryType(data["query_type"]),
            "confidence": Confidence(data["confidence"]) if data.get("confidence") else None,
            "generated_at": datetime.fromisoformat(data["generated_at"]),
            "citations": citations,
        }
    )
