"""The one outbound HTTP fetcher: every URL Sibyl retrieves goes through `fetch`.

URLs come from users and from documents, so a naive GET is a server-side request forgery hole.
`fetch` only speaks http(s), resolves each host itself and refuses non-public addresses (see
`app.net.addresses`), connects to the address it checked (so a second DNS answer cannot rebind
the host to an internal one), re-checks every redirect hop, and caps size and time.

Most fetches are GETs; API clients (a STAC search, a raster statistics request) POST a JSON body
through the same checks. Redirects treat the body as browsers and httpx do: 307/308 repeat the
method and body, 303 (and 301/302 after a POST) turn the request into a body-less GET.

The size cap counts decoded bytes as they are inflated: the body is read raw and decoded here
(`app.net.codings`), so a small compressed body cannot grow past the cap in memory, and a coding
Sibyl did not ask for is refused rather than decoded.
"""

from __future__ import annotations

import asyncio
import codecs
import json as jsonlib
import socket
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from app.net.addresses import IPAddress, parse_host_ip, refusal_reason
from app.net.codings import ACCEPT_ENCODING, CorruptCoding, UnsupportedCoding, decoder_for

Resolver = Callable[[str, int], Awaitable[list[str]]]

REFUSAL_CODES = frozenset(
    {"scheme", "private_address", "dns", "too_large", "too_many_redirects", "bad_url", "encoding"}
)
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Caller headers that must not follow a redirect to another origin.
_CREDENTIAL_HEADERS = frozenset({"authorization", "cookie", "proxy-authorization"})
# Headers that describe a body; dropped with the body when a redirect turns the request into a GET.
_BODY_HEADERS = frozenset({"content-type", "content-length", "content-encoding"})


class FetchRefused(Exception):
    """The fetch broke policy (bad scheme, internal address, too big...); nothing more was sent.

    Attributes:
        code: One of `REFUSAL_CODES`, for callers that branch on the reason.
        message: Human-readable detail.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class FetchFailed(Exception):
    """The fetch was allowed but did not succeed (timeout, connection error, HTTP status >= 400).

    Attributes:
        reason: "timeout", "connection" or "status".
        status: The HTTP status for reason "status", else None.
        url: The URL being fetched when it failed.
    """

    def __init__(self, reason: str, message: str, *, url: str, status: int | None = None) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.status = status
        self.url = url


@dataclass(frozen=True)
class FetchPolicy:
    """Limits for one fetch; build it from settings with `from_settings` so the mapping lives here."""

    allow_private: bool = False
    max_bytes: int = 10 * 1024 * 1024
    timeout_seconds: float = 20.0
    max_redirects: int = 5
    user_agent: str = "Sibyl/0.1 (+sustainability report checker)"

    @classmethod
    def from_settings(cls, settings: Any) -> FetchPolicy:
        """Read the fetch_* settings, falling back to these defaults where a setting is absent."""
        return cls(
            allow_private=bool(getattr(settings, "fetch_allow_private_addresses", cls.allow_private)),
            max_bytes=int(getattr(settings, "fetch_max_bytes", cls.max_bytes)),
            timeout_seconds=float(getattr(settings, "fetch_timeout_seconds", cls.timeout_seconds)),
        )


@dataclass(frozen=True)
class Fetched:
    """A successful response: the final URL (after redirects, without credentials) and its body."""

    url: str
    status: int
    content_type: str | None
    body: bytes
    redirects: list[str] = field(default_factory=list)

    def text(self) -> str:
        """Decode the body with the Content-Type charset, else UTF-8; bad bytes become U+FFFD."""
        return self.body.decode(_charset(self.content_type) or "utf-8", errors="replace")


def _charset(content_type: str | None) -> str | None:
    """The charset parameter of a Content-Type, if Python knows the codec."""
    for param in (content_type or "").split(";")[1:]:
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "charset":
            try:
                return codecs.lookup(value.strip().strip("\"'")).name
            except LookupError:
                return None
    return None


@dataclass(frozen=True)
class _Outgoing:
    """What one hop sends besides its URL: method, headers and body."""

    method: str
    headers: dict[str, str]
    content: bytes | None = None

    def redirected(self, status: int, same_origin: bool) -> _Outgoing:
        """The request to send to a redirect's Location.

        303, and 301/302 after anything but GET/HEAD, become a body-less GET (what browsers and
        httpx do); 307/308 repeat method and body. Credentials never leave their origin.
        """
        headers = self.headers
        if not same_origin:
            headers = {k: v for k, v in headers.items() if k.lower() not in _CREDENTIAL_HEADERS}
        to_get = (status == 303 and self.method != "HEAD") or (
            status in (301, 302) and self.method not in ("GET", "HEAD")
        )
        if not to_get:
            return _Outgoing(self.method, headers, self.content)
        return _Outgoing("GET", {k: v for k, v in headers.items() if k.lower() not in _BODY_HEADERS})


def _outgoing(method: str, headers: Mapping[str, str] | None, json: Any, content: bytes | None) -> _Outgoing:
    """The first hop's request: `json` serialised (with its Content-Type unless the caller set one)."""
    if json is not None and content is not None:
        raise ValueError("fetch takes json or content, not both")
    merged = dict(headers or {})
    if json is not None:
        content = jsonlib.dumps(json).encode("utf-8")
        if not any(key.lower() == "content-type" for key in merged):
            merged["Content-Type"] = "application/json"
    return _Outgoing(method.upper(), merged, content)


async def fetch(
    url: str,
    policy: FetchPolicy,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    resolver: Resolver | None = None,
    headers: Mapping[str, str] | None = None,
    method: str = "GET",
    json: Any = None,
    content: bytes | None = None,
) -> Fetched:
    """Request `url` under `policy`, following redirects, each hop checked and pinned to its address.

    Args:
        url: An absolute http(s) URL. Userinfo is accepted but never sent.
        policy: Address, size, time and redirect limits.
        transport: httpx transport (tests); defaults to a fresh one that ignores proxy env vars.
        resolver: `(host, port) -> addresses` (tests); defaults to the event loop's getaddrinfo.
        headers: Extra request headers; credential headers are dropped on cross-origin redirects.
        method: The HTTP method (GET unless an API needs another, e.g. POST for a search).
        json: A body to send as JSON (sets Content-Type: application/json unless `headers` does).
        content: A raw body instead of `json`.

    Raises:
        FetchRefused: The policy forbids the request, a redirect, or the response size.
        FetchFailed: Timeout, connection error, or HTTP status >= 400.
        ValueError: Both `json` and `content` were given.
    """
    outgoing = _outgoing(method, headers, json, content)
    current = _checked_url(_parse_url(url))
    try:
        async with asyncio.timeout(policy.timeout_seconds):
            # trust_env=False: a proxy would resolve the name itself and undo the address check.
            client = httpx.AsyncClient(
                transport=transport or httpx.AsyncHTTPTransport(),
                follow_redirects=False,
                trust_env=False,
                timeout=policy.timeout_seconds,
            )
            try:
                return await _follow(client, current, policy, resolver or _getaddrinfo, outgoing)
            finally:
                if transport is None:  # a caller's transport is the caller's to close
                    await client.aclose()
    except TimeoutError as exc:
        raise FetchFailed("timeout", f"no complete response in {policy.timeout_seconds}s", url=url) from exc


async def _follow(
    client: httpx.AsyncClient,
    current: httpx.URL,
    policy: FetchPolicy,
    resolver: Resolver,
    outgoing: _Outgoing,
) -> Fetched:
    """Fetch hop by hop until a non-redirect response, re-checking every Location."""
    redirects: list[str] = []
    origin = _origin(current)
    while True:
        address = await _pinned_address(current, policy, resolver)
        request = build_pinned_request(
            current,
            address,
            outgoing.headers,
            user_agent=policy.user_agent,
            method=outgoing.method,
            content=outgoing.content,
        )
        response = await _send(client, request, current)
        try:
            location = _redirect_target(response, current)
            if location is None:
                body = await _read_body(response, policy, current)
                content_type = response.headers.get("content-type")
                return Fetched(str(current), response.status_code, content_type, body, redirects)
        finally:
            await response.aclose()
        if len(redirects) >= policy.max_redirects:
            raise FetchRefused(
                "too_many_redirects", f"more than {policy.max_redirects} redirects from {current}"
            )
        current = _checked_url(location)
        redirects.append(str(current))
        outgoing = outgoing.redirected(response.status_code, same_origin=_origin(current) == origin)


def _parse_url(raw: str) -> httpx.URL:
    """Parse with httpx, turning its parse errors into a "bad_url" refusal."""
    try:
        return httpx.URL(raw)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise FetchRefused("bad_url", f"unparsable URL {raw!r}: {exc}") from exc


def _checked_url(url: httpx.URL) -> httpx.URL:
    """Refuse non-http(s), host-less and bad-port URLs; return the URL minus userinfo and fragment."""
    if not url.scheme:
        raise FetchRefused("bad_url", f"not an absolute URL: {url}")
    if url.scheme not in _DEFAULT_PORTS:
        raise FetchRefused("scheme", f"scheme {url.scheme!r} is not http or https")
    if not url.raw_host:
        raise FetchRefused("bad_url", f"no host in {url}")
    if url.port is not None and not 0 < url.port < 65536:
        raise FetchRefused("bad_url", f"port {url.port} out of range in {url}")
    return url.copy_with(userinfo=b"", fragment=None)


def _origin(url: httpx.URL) -> tuple[str, bytes, int]:
    """(scheme, host, effective port): where credentials may be sent."""
    return url.scheme, url.raw_host, url.port or _DEFAULT_PORTS[url.scheme]


async def _pinned_address(url: httpx.URL, policy: FetchPolicy, resolver: Resolver) -> str:
    """Resolve the host once, refuse if any address is forbidden, and return the one to connect to.

    A refusal names the kind of address, never the address: users must not learn from it how a
    name resolves inside Sibyl's network.
    """
    host = url.raw_host.decode("ascii")
    try:
        literal = parse_host_ip(host)
    except ValueError as exc:
        raise FetchRefused("bad_url", f"malformed numeric host {host!r}") from exc
    if literal is not None:
        addresses = [literal]
    else:
        addresses = await _resolve(resolver, host, url.port or _DEFAULT_PORTS[url.scheme])
    for address in addresses:
        reason = refusal_reason(address, allow_private=policy.allow_private)
        if reason is not None:
            raise FetchRefused("private_address", f"{host!r} points to {reason}")
    return str(addresses[0])


async def _resolve(resolver: Resolver, host: str, port: int) -> list[IPAddress]:
    """Run the resolver and parse its answers; any failure or empty answer is a "dns" refusal.

    The refusal does not quote the answers, for the reason `_pinned_address` gives.
    """
    try:
        answers = await resolver(host, port)
    except OSError as exc:
        raise FetchRefused("dns", f"cannot resolve {host!r}: {exc}") from exc
    try:
        addresses = [parse_host_ip(answer) for answer in answers]
    except ValueError as exc:
        raise FetchRefused("dns", f"no usable address for {host!r}") from exc
    usable = [address for address in addresses if address is not None]
    if not usable or len(usable) != len(addresses):
        raise FetchRefused("dns", f"no usable address for {host!r}")
    return usable


async def _getaddrinfo(host: str, port: int) -> list[str]:
    """Every A/AAAA address of `host`, via the event loop's non-blocking getaddrinfo."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def build_pinned_request(
    url: httpx.URL,
    address: str,
    headers: Mapping[str, str],
    *,
    user_agent: str,
    method: str = "GET",
    content: bytes | None = None,
) -> httpx.Request:
    """A request to `address` that still names `url`'s host in the Host header and TLS SNI.

    Connecting to the checked IP (not the name) stops DNS rebinding between check and connect;
    the SNI extension makes httpcore send and verify the certificate against the real host name.
    """
    default_port = url.port is None or url.port == _DEFAULT_PORTS[url.scheme]
    host = url.raw_host.decode("ascii")
    host_header = (f"[{host}]" if ":" in host else host) + ("" if default_port else f":{url.port}")
    merged = {"User-Agent": user_agent, "Accept": "*/*"}
    merged.update({k: v for k, v in headers.items() if k.lower() not in ("host", "accept-encoding")})
    merged["Host"] = host_header
    # Only the codings `_read_body` decodes within the size cap; a caller cannot widen them.
    merged["Accept-Encoding"] = ACCEPT_ENCODING
    # No keep-alive: a pooled TLS connection is keyed by IP, and reusing one opened (and verified)
    # for another host name would skip the certificate check for this one.
    merged["Connection"] = "close"
    pinned = httpx.URL(scheme=url.scheme, host=address.split("%", 1)[0], port=url.port, raw_path=url.raw_path)
    extensions = {"sni_hostname": host} if url.scheme == "https" else {}
    return httpx.Request(method, pinned, headers=merged, content=content, extensions=extensions)


async def _send(client: httpx.AsyncClient, request: httpx.Request, url: httpx.URL) -> httpx.Response:
    """Send without reading the body; map httpx errors to FetchFailed and statuses >= 400 too."""
    try:
        response = await client.send(request, stream=True)
    except httpx.TimeoutException as exc:
        raise FetchFailed("timeout", f"{type(exc).__name__} for {url}", url=str(url)) from exc
    except httpx.HTTPError as exc:
        raise FetchFailed("connection", f"{type(exc).__name__}: {exc}", url=str(url)) from exc
    if response.status_code >= 400:
        await response.aclose()
        raise FetchFailed(
            "status", f"HTTP {response.status_code} from {url}", url=str(url), status=response.status_code
        )
    return response


def _redirect_target(response: httpx.Response, current: httpx.URL) -> httpx.URL | None:
    """The absolute URL a redirect points to (relative Locations resolved), else None."""
    location = response.headers.get("location")
    if response.status_code not in _REDIRECT_STATUSES or not location:
        return None
    try:
        return current.join(location)
    except (httpx.InvalidURL, ValueError) as exc:
        raise FetchRefused("bad_url", f"unparsable redirect Location {location!r}") from exc


async def _read_body(response: httpx.Response, policy: FetchPolicy, url: httpx.URL) -> bytes:
    """The decoded body, refused once its decoded size exceeds max_bytes; Content-Length refuses early.

    Raw bytes are inflated piece by piece and every piece counts before the next is made, so memory
    stays near max_bytes however far the body would inflate.
    """
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > policy.max_bytes:
        raise FetchRefused("too_large", f"{url} declares {declared} bytes (limit {policy.max_bytes})")
    try:
        decoder = decoder_for(response.headers.get("content-encoding"))
    except UnsupportedCoding as exc:
        raise FetchRefused("encoding", f"{url} sent a body Sibyl cannot accept: {exc}") from exc
    body = _CappedBody(policy.max_bytes, url)
    if response.is_stream_consumed:
        # A transport that hands over a response it has read already (httpx.MockTransport) has had
        # httpx decode it; network transports always stream, so this is only size-checked.
        body.add(response.content)
        return body.value()
    try:
        async for raw in response.aiter_raw():
            for piece in decoder.feed(raw):
                body.add(piece)
        for piece in decoder.finish():
            body.add(piece)
    except CorruptCoding as exc:
        raise FetchFailed("connection", f"undecodable body from {url}: {exc}", url=str(url)) from exc
    except httpx.TimeoutException as exc:
        raise FetchFailed("timeout", f"{type(exc).__name__} reading {url}", url=str(url)) from exc
    except httpx.HTTPError as exc:
        raise FetchFailed("connection", f"{type(exc).__name__} reading {url}: {exc}", url=str(url)) from exc
    return body.value()


class _CappedBody:
    """Decoded pieces collected while their total stays within the cap; past it, a too_large refusal."""

    def __init__(self, limit: int, url: httpx.URL) -> None:
        self._limit = limit
        self._url = url
        self._pieces: list[bytes] = []
        self._size = 0

    def add(self, piece: bytes) -> None:
        self._size += len(piece)
        if self._size > self._limit:
            raise FetchRefused("too_large", f"{self._url} sent more than {self._limit} bytes")
        self._pieces.append(piece)

    def value(self) -> bytes:
        return b"".join(self._pieces)
