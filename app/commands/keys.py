"""`sibyl keys create|list|revoke`: API keys for organisations (keys are shown once, stored hashed)."""

from __future__ import annotations

import argparse

from app.commands.database import run_with_database
from app.config import Settings, get_settings
from app.db.session import SessionFactory
from app.organisations.keys import (
    create_api_key,
    ensure_organisation,
    list_api_keys,
    revoke_api_key,
)

ORGANISATION_HELP = "the organisation (created if it does not exist yet)"


def add_key_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `sibyl keys create|list|revoke`."""
    keys = commands.add_parser("keys", help="API keys: each acts for one organisation and sees only its data")
    actions = keys.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a key and print it (once: only its hash is stored)")
    create.add_argument("--organisation", "--org", required=True, help=ORGANISATION_HELP)
    create.add_argument("--name", default="default", help="a label for the key, e.g. who uses it")
    create.set_defaults(handler=_create)
    listing = actions.add_parser("list", help="every key: prefix, organisation, label, last use")
    listing.set_defaults(handler=_list)
    revoke = actions.add_parser(
        "revoke",
        help="revoke a key by its prefix (the 8 characters after sibyl_); its open WebSockets are "
        "closed within API_KEY_CACHE_SECONDS",
    )
    revoke.add_argument("prefix")
    revoke.set_defaults(handler=_revoke)


def _create(args: argparse.Namespace) -> int:
    organisation_name: str = args.organisation.strip()
    if not organisation_name:
        print("--organisation must not be empty")
        return 2

    async def run(factory: SessionFactory, settings: Settings) -> int:
        async with factory() as session, session.begin():
            organisation = await ensure_organisation(session, organisation_name)
            key, plaintext = await create_api_key(session, organisation, args.name)
        print(f"organisation: {organisation.name} ({organisation.id})")
        print(f"key {key.prefix} ({key.name}); keep it secret, it is not shown again:")
        print(plaintext)
        return 0

    return run_with_database(get_settings(), run)


def _list(args: argparse.Namespace) -> int:
    async def run(factory: SessionFactory, settings: Settings) -> int:
        async with factory() as session:
            keys = await list_api_keys(session)
        for key, organisation in keys:
            used = key.last_used_at.isoformat(timespec="seconds") if key.last_used_at else "never used"
            state = "revoked" if key.revoked_at else "active"
            print(f"{key.prefix}  {state:7}  {organisation}  {key.name}  {used}")
        print(f"{len(keys)} key(s)")
        return 0

    return run_with_database(get_settings(), run)


def _revoke(args: argparse.Namespace) -> int:
    async def run(factory: SessionFactory, settings: Settings) -> int:
        async with factory() as session, session.begin():
            revoked = await revoke_api_key(session, args.prefix)
        if not revoked:
            print(f"no active key with prefix {args.prefix}")
            return 1
        print(
            f"revoked {args.prefix}: the API refuses it, and closes its open WebSockets (code 4403), "
            f"within {settings.api_key_cache_seconds:g} s (API_KEY_CACHE_SECONDS)"
        )
        return 0

    return run_with_database(get_settings(), run)
