"""API keys: `sibyl_<prefix>_<secret>`, stored as a SHA-256 digest, looked up by prefix.

Keys are 256-bit random secrets, so a fast hash is enough (there is nothing to brute-force, unlike
a password); the digest is compared in constant time. The prefix is stored in clear to find the
row and to name the key in lists without revealing it.

Every key has the same shape and length (`KEY_LENGTH`, 58 characters), so anything else presented
as a key is refused by `is_well_formed` before it is hashed, cached or looked up.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ApiKey, Organisation

#: The organisation unauthenticated local development acts for (created by migration 0005).
LOCAL_ORGANISATION_ID = uuid.UUID("00000000-0000-4000-8000-000000000001")
LOCAL_ORGANISATION_NAME = "local"

#: Random bytes in a key's secret; `secrets.token_urlsafe` writes them as unpadded base64url.
SECRET_BYTES = 32
SECRET_CHARS = math.ceil(SECRET_BYTES * 4 / 3)
PREFIX_BYTES = 4
#: The length of every key `generate_key` makes: `sibyl_`, 8 hex digits, `_`, 43 characters.
KEY_LENGTH = len("sibyl_") + 2 * PREFIX_BYTES + 1 + SECRET_CHARS
KEY_PATTERN = re.compile(rf"^sibyl_([0-9a-f]{{{2 * PREFIX_BYTES}}})_([A-Za-z0-9_-]{{{SECRET_CHARS}}})$")
#: `last_used_at` is written at most this often per key, so busy keys do not write on every request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class Principal:
    """Who a request acts for: an organisation, through an API key (None when unauthenticated)."""

    organisation_id: uuid.UUID
    api_key_id: uuid.UUID | None = None

    @property
    def rate_limit_key(self) -> str:
        return str(self.api_key_id or f"org:{self.organisation_id}")


def hash_key(plaintext: str) -> str:
    return hashlib.sha256(plaintext.encode()).hexdigest()


def generate_key() -> tuple[str, str]:
    """A new key and its prefix."""
    prefix = secrets.token_hex(PREFIX_BYTES)
    return f"sibyl_{prefix}_{secrets.token_urlsafe(SECRET_BYTES)}", prefix


def is_well_formed(plaintext: str) -> bool:
    """Whether `plaintext` has the shape of a key `generate_key` makes (length checked first, so a
    huge string costs nothing)."""
    return len(plaintext) == KEY_LENGTH and KEY_PATTERN.match(plaintext) is not None


async def ensure_organisation(session: AsyncSession, name: str) -> Organisation:
    """The organisation called `name`, created if it does not exist yet (safe under races)."""
    await session.execute(insert(Organisation).values(id=uuid.uuid4(), name=name).on_conflict_do_nothing())
    organisation = await session.scalar(select(Organisation).where(Organisation.name == name))
    assert organisation is not None
    return organisation


async def create_api_key(session: AsyncSession, organisation: Organisation, name: str) -> tuple[ApiKey, str]:
    """A new key for `organisation`; the plaintext is returned once and never stored."""
    plaintext, prefix = generate_key()
    key = ApiKey(organisation_id=organisation.id, name=name, prefix=prefix, key_hash=hash_key(plaintext))
    session.add(key)
    await session.flush()
    return key, plaintext


async def authenticate(session: AsyncSession, plaintext: str) -> Principal | None:
    """The principal a key acts for, or None for a malformed, unknown or revoked key."""
    plaintext = plaintext.strip()
    match = KEY_PATTERN.match(plaintext) if is_well_formed(plaintext) else None
    if match is None:
        return None
    key = await session.scalar(select(ApiKey).where(ApiKey.prefix == match.group(1)))
    if key is None or key.revoked_at is not None:
        return None
    if not hmac.compare_digest(key.key_hash, hash_key(plaintext)):
        return None
    await _touch(session, key)
    return Principal(organisation_id=key.organisation_id, api_key_id=key.id)


async def _touch(session: AsyncSession, key: ApiKey) -> None:
    now = datetime.now(UTC)
    if key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION:
        await session.execute(update(ApiKey).where(ApiKey.id == key.id).values(last_used_at=now))
        await session.commit()


async def revoke_api_key(session: AsyncSession, prefix: str) -> bool:
    """Revoke the key with `prefix`; False when there is no such active key."""
    result = await session.execute(
        update(ApiKey)
        .where(ApiKey.prefix == prefix, ApiKey.revoked_at.is_(None))
        .values(revoked_at=datetime.now(UTC))
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def find_organisation(session: AsyncSession, name: str) -> Organisation | None:
    return await session.scalar(select(Organisation).where(Organisation.name == name))


async def list_api_keys(session: AsyncSession) -> list[tuple[ApiKey, str]]:
    """Every key with its organisation's name, newest first."""
    rows = await session.execute(
        select(ApiKey, Organisation.name)
        .join(Organisation, Organisation.id == ApiKey.organisation_id)
        .order_by(ApiKey.created_at.desc())
    )
    return [(key, name) for key, name in rows]
