"""Which IP addresses an outbound fetch may connect to (the SSRF address policy).

Kept apart from the HTTP code so the policy can be read, tested and audited on its own.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Instance-metadata endpoints (AWS/GCP/Azure/OpenStack, AWS IPv6, Alibaba). Refused even when
# private addresses are allowed: a fetch that reaches them can leak cloud credentials.
METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200")
)

_SHARED_V4 = ipaddress.IPv4Network("100.64.0.0/10")  # carrier-grade NAT (RFC 6598)
_NAT64_V6 = ipaddress.IPv6Network("64:ff9b::/96")  # well-known NAT64 prefix (RFC 6052)
_NUMERIC_LABEL = re.compile(r"^(0[xX][0-9a-fA-F]*|[0-9]+)$")

# Checked in order when private addresses are not allowed; the first match names the refusal.
_NON_PUBLIC_CHECKS: tuple[tuple[str, Callable[[IPAddress], bool]], ...] = (
    ("a loopback address", lambda ip: ip.is_loopback),
    ("a link-local address", lambda ip: ip.is_link_local),
    ("a shared (carrier-grade NAT) address", lambda ip: ip.version == 4 and ip in _SHARED_V4),
    ("a site-local address", lambda ip: isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local),
    ("a private address", lambda ip: ip.is_private),
    ("a reserved address", lambda ip: ip.is_reserved),
    ("a non-global address", lambda ip: not ip.is_global),
)


def parse_host_ip(host: str) -> IPAddress | None:
    """Return the address a literal IP host names, or None for a DNS name.

    Besides dotted-quad and IPv6, accepts the legacy inet_aton spellings (``2130706433``,
    ``0x7f.1``, ``0177.0.0.1``) because resolvers and browsers treat them as addresses too, so
    letting them through to DNS would bypass the policy.

    Raises:
        ValueError: the host looks numeric (its last label is a number) but is no valid address;
            such hosts are neither a safe DNS name nor a checkable address.
    """
    candidate = host.strip("[]").split("%", 1)[0] if ":" in host else host.removesuffix(".")
    try:
        return ipaddress.ip_address(candidate)
    except ValueError:
        pass
    labels = candidate.split(".")
    if not _NUMERIC_LABEL.match(labels[-1]):
        return None
    return _parse_inet_aton(labels)


def _parse_inet_aton(labels: list[str]) -> ipaddress.IPv4Address:
    """Parse 1-4 numeric labels the way inet_aton does (last label fills the remaining bytes)."""
    if not 1 <= len(labels) <= 4 or not all(_NUMERIC_LABEL.match(label) for label in labels):
        raise ValueError(f"malformed numeric host {'.'.join(labels)!r}")
    values = [_parse_number(label) for label in labels]
    *head, last = values
    if any(v > 0xFF for v in head) or last >= 1 << (8 * (5 - len(values))):
        raise ValueError(f"numeric host {'.'.join(labels)!r} out of range")
    number = last
    for index, value in enumerate(head):
        number |= value << (8 * (3 - index))
    return ipaddress.IPv4Address(number)


def _parse_number(label: str) -> int:
    """One inet_aton component: 0x-prefixed hex, 0-prefixed octal, else decimal."""
    if label[:2].lower() == "0x":
        return int(label[2:] or "0", 16)
    if len(label) > 1 and label.startswith("0"):
        return int(label, 8)  # ValueError for digits 8/9, as inet_aton rejects them
    return int(label)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, bool] | None:
    """The IPv4 address an IPv6 address carries, and whether it is only a spelling of it.

    Mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) and NAT64 (64:ff9b::/96) addresses reach the
    IPv4 host itself, so that address alone decides; a 6to4 (2002::/16) address is a real IPv6
    address whose relay leads to the IPv4 host, so both must pass.
    """
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped, True
    if ip in _NAT64_V6 or (int(ip) >> 32 == 0 and int(ip) > 1):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF), True
    if ip.sixtofour is not None:
        return ip.sixtofour, False
    return None


def refusal_reason(ip: IPAddress, *, allow_private: bool) -> str | None:
    """What kind of address `ip` is ("a loopback address"), when it must not be connected to; else None.

    The reason names the kind, never the address: it reaches users, and the address a name
    resolves to tells them how internal names resolve. Metadata, unspecified and multicast
    addresses are refused always (0.0.0.0 reaches the local host; neither is a real web server).
    Everything else non-public is refused unless `allow_private`. IPv6 forms that carry an IPv4
    address are judged by that address as well.
    """
    if ip in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if ip.is_unspecified or ip.is_multicast:
        return "an unspecified address" if ip.is_unspecified else "a multicast address"
    embedded = embedded_ipv4(ip) if isinstance(ip, ipaddress.IPv6Address) else None
    if embedded is not None:
        inner, decides = embedded
        reason = refusal_reason(inner, allow_private=allow_private)
        if reason is not None:
            return f"{reason} (carried in an IPv6 address)"
        if decides:
            return None
    if allow_private:
        return None
    for kind, check in _NON_PUBLIC_CHECKS:
        if check(ip):
            return kind
    return None
