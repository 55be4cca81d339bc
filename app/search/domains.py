"""Domains of URLs, and whether a domain falls under a list of domain patterns."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit


def domain_of(url: str) -> str:
    """The host of `url`, lower case, without a leading "www." ("" when there is none)."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host.removeprefix("www.")


def matches(url_or_domain: str, patterns: Iterable[str]) -> bool:
    """Whether the URL (or bare domain) falls under any pattern.

    A pattern is a domain ("reuters.com" also covers "uk.reuters.com") optionally followed by a path
    prefix ("reuters.com/investigates", "sec.gov/litigation").
    """
    if "://" in url_or_domain:
        parts = urlsplit(url_or_domain)
        domain, path = domain_of(url_or_domain), parts.path or "/"
    else:
        domain, _, rest = url_or_domain.lower().partition("/")
        domain, path = domain.removeprefix("www."), "/" + rest
    for pattern in patterns:
        pattern_domain, _, pattern_path = pattern.lower().partition("/")
        if domain != pattern_domain and not domain.endswith("." + pattern_domain):
            continue
        if not pattern_path or path.lower().startswith("/" + pattern_path):
            return True
    return False
