"""Organisations (tenants) and their API keys: creating, hashing and checking keys."""

from app.organisations.keys import (
    LOCAL_ORGANISATION_ID,
    LOCAL_ORGANISATION_NAME,
    Principal,
    authenticate,
    create_api_key,
    ensure_organisation,
)

__all__ = [
    "LOCAL_ORGANISATION_ID",
    "LOCAL_ORGANISATION_NAME",
    "Principal",
    "authenticate",
    "create_api_key",
    "ensure_organisation",
]
