"""The guarded fetcher against a real loopback server, and against recording transports for the
cases a loopback server cannot show (public addresses, pinning, TLS request building)."""

from __future__ import annotations

import asyncio
import gzip
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from app.net.addresses import parse_host_ip, refusal_reason
from app.net.fetch import (
    FetchFailed,
    FetchPolicy,
    FetchRefused,
    Resolver,
    build_pinned_request,
    fetch,
)
from tests.support.http_server import serve_asgi

LOCAL = FetchPolicy(allow_private=True, timeout_seconds=5.0, max_bytes=10_000)
PUBLIC_IP = "93.184.216.34"


# --- the loopback server -------------------------------------------------------------------------


async def _ok(request: Request) -> Response:
    return Response("héllo wörld".encode("latin-1"), media_type="text/plain; charset=iso-8859-1")


async def _echo_host(request: Request) -> Response:
    return PlainTextResponse(request.headers["host"])


async def _big(request: Request) -> Response:
    return Response(b"x" * 50_000, media_type="application/octet-stream")


async def _stream_big(request: Request) -> Response:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(50):
            yield b"y" * 1000

    return StreamingResponse(chunks(), media_type="application/octet-stream")


async def _gzip_bomb(request: Request) -> Response:
    body = gzip.compress(b"0" * 200_000)
    return Response(body, media_type="text/plain", headers={"Content-Encoding": "gzip"})


async def _slow(request: Request) -> Response:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(20):
            yield b"."
            await asyncio.sleep(0.1)

    return StreamingResponse(chunks(), media_type="text/plain")


async def _chain(request: Request) -> Response:
    hops = int(request.path_params["hops"])
    if hops == 0:
        return PlainTextResponse("end of chain")
    return RedirectResponse(f"/chain/{hops - 1}", status_code=302)


ROUTES = [
    Route("/ok", _ok),
    Route("/echo-host", _echo_host),
    Route("/big", _big),
    Route("/stream-big", _stream_big),
    Route("/gzip-bomb", _gzip_bomb),
    Route("/slow", _slow),
    Route("/redirect", lambda r: RedirectResponse("ok?from=redirect", status_code=301)),
    Route("/to-metadata", lambda r: RedirectResponse("http://169.254.169.254/latest/meta-data", 302)),
    Route("/chain/{hops:int}", _chain),
    Route("/missing", lambda r: PlainTextResponse("nope", status_code=404)),
]


@dataclass
class Recorded:
    """Paths the server was asked for, so tests can prove a refusal sent nothing."""

    paths: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[tuple[str, Recorded]]:
    recorded = Recorded()
    app = Starlette(routes=ROUTES)

    async def recording(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            recorded.paths.append(scope["path"])
        await app(scope, receive, send)

    async with serve_asgi(recording) as base:
        yield base, recorded


@pytest.fixture
def base(server: tuple[str, Recorded]) -> str:
    server[1].paths.clear()
    return server[0]


@pytest.fixture
def seen(server: tuple[str, Recorded]) -> list[str]:
    return server[1].paths


async def _no_dns(host: str, port: int) -> list[str]:
    raise AssertionError(f"resolver must not be called for {host}")


# --- scheme and address policy -------------------------------------------------------------------


async def test_loopback_refused_by_default_before_connecting(base: str, seen: list[str]) -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch(f"{base}/ok", FetchPolicy())
    assert refused.value.code == "private_address"
    port = httpx.URL(base).port
    with pytest.raises(FetchRefused) as by_name:
        await fetch(f"http://localhost:{port}/ok", FetchPolicy())  # real getaddrinfo
    assert by_name.value.code == "private_address"
    assert seen == []


async def test_loopback_allowed_with_allow_private_and_decoded_by_charset(base: str) -> None:
    fetched = await fetch(f"{base}/ok", LOCAL)
    assert fetched.status == 200
    assert fetched.url == f"{base}/ok"
    assert fetched.content_type == "text/plain; charset=iso-8859-1"
    assert fetched.body == "héllo wörld".encode("latin-1")
    assert fetched.text() == "héllo wörld"
    assert fetched.redirects == []


@pytest.mark.parametrize(
    "url",
    [
        "http://2130706433/",
        "http://0x7f.1/",
        "http://0x7f000001/",
        "http://0177.1/",
        "http://0x7F.0.0.01/",
        "http://127.1/",
        "http://127.0.0.1./",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://[2002:7f00:1::]/",
        "http://[fd12:3456::1]/",
        "http://[fe80::1]/",
        "http://[fec0::1]/",
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://192.168.1.1/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://240.0.0.1/",
    ],
)
async def test_internal_literal_addresses_refused(url: str) -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch(url, FetchPolicy(), resolver=_no_dns)
    assert refused.value.code == "private_address"


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data",
        "http://[fd00:ec2::254]/latest/meta-data",
        "http://100.100.100.200/latest/meta-data",
        "http://2852039166/latest/meta-data",  # 169.254.169.254 as one number
        "http://[::ffff:169.254.169.254]/",
    ],
)
@pytest.mark.parametrize("allow_private", [False, True])
async def test_metadata_refused_even_when_private_allowed(url: str, allow_private: bool) -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch(url, FetchPolicy(allow_private=allow_private), resolver=_no_dns)
    assert refused.value.code == "private_address"
    assert "metadata" in refused.value.message


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("file:///etc/passwd", "scheme"),
        ("ftp://example.com/x", "scheme"),
        ("gopher://example.com:70/_x", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("/relative/path", "bad_url"),
        ("http:///no-host", "bad_url"),
        ("http://[::1/", "bad_url"),
        ("http://1.2.3.999/", "bad_url"),
        ("http://0177.0.0.1/", "bad_url"),  # httpx itself rejects zero-padded dotted quads
        ("http://08.1/", "bad_url"),
        ("http://example.com:99999/", "bad_url"),
    ],
)
async def test_bad_schemes_and_urls_refused(url: str, code: str) -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch(url, LOCAL, resolver=_no_dns)
    assert refused.value.code == code


async def test_any_private_answer_refuses_and_dns_failure_is_refused() -> None:
    async def mixed(host: str, port: int) -> list[str]:
        return [PUBLIC_IP, "10.0.0.7"]

    async def failing(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(FetchRefused) as private:
        await fetch("http://example.test/", FetchPolicy(), resolver=mixed)
    assert private.value.code == "private_address"
    with pytest.raises(FetchRefused) as dns:
        await fetch("http://example.test/", FetchPolicy(), resolver=failing)
    assert dns.value.code == "dns"


def test_address_policy_allows_public_and_lifts_private_only_when_asked() -> None:
    for public in ("8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"):
        assert refusal_reason(parse_host_ip(public) or pytest.fail(public), allow_private=False) is None
    loopback = parse_host_ip("127.0.0.1")
    assert loopback is not None and refusal_reason(loopback, allow_private=True) is None
    assert parse_host_ip("example.com") is None


# --- pinning -------------------------------------------------------------------------------------


class RecordingTransport(httpx.AsyncBaseTransport):
    """Answers every request with `respond` and keeps what it was asked, as a connection would see it."""

    def __init__(self, respond: Callable[[httpx.Request], httpx.Response] | None = None) -> None:
        self.requests: list[httpx.Request] = []
        self.respond = respond or (lambda request: httpx.Response(200, text="fine"))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.respond(request)


def rebinding_resolver() -> tuple[list[str], Resolver]:
    """A DNS that answers a public address first and loopback afterwards (a rebinding attack)."""
    calls: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return [PUBLIC_IP] if len(calls) == 1 else ["127.0.0.1"]

    return calls, resolve


async def test_connection_pinned_to_the_checked_address() -> None:
    calls, resolve = rebinding_resolver()
    transport = RecordingTransport()
    fetched = await fetch(
        "http://example.test/page?q=1", FetchPolicy(), transport=transport, resolver=resolve
    )
    assert calls == ["example.test"]  # resolved once; the transport never resolves again
    (sent,) = transport.requests
    assert sent.url.host == PUBLIC_IP
    assert sent.url.raw_path == b"/page?q=1"
    assert sent.headers["host"] == "example.test"
    assert sent.headers["connection"] == "close"  # no pooled connection outlives its checked host
    assert fetched.url == "http://example.test/page?q=1"
    assert fetched.text() == "fine"


async def test_rebinding_on_a_redirect_hop_is_refused() -> None:
    calls, resolve = rebinding_resolver()
    transport = RecordingTransport(lambda r: httpx.Response(302, headers={"Location": "/next"}))
    with pytest.raises(FetchRefused) as refused:
        await fetch("http://example.test/start", FetchPolicy(), transport=transport, resolver=resolve)
    assert refused.value.code == "private_address"
    assert calls == ["example.test", "example.test"]
    assert len(transport.requests) == 1


async def test_pinned_http_reaches_a_real_server_with_the_original_host(base: str, seen: list[str]) -> None:
    port = httpx.URL(base).port

    async def to_loopback(host: str, port: int) -> list[str]:
        assert host == "sibyl.test"
        return ["127.0.0.1"]

    fetched = await fetch(f"http://sibyl.test:{port}/echo-host", LOCAL, resolver=to_loopback)
    assert fetched.text() == f"sibyl.test:{port}"
    assert fetched.url == f"http://sibyl.test:{port}/echo-host"
    assert seen == ["/echo-host"]


async def test_https_request_connects_to_ip_with_sni_and_host_of_the_name() -> None:
    async def public(host: str, port: int) -> list[str]:
        assert port == 8443
        return [PUBLIC_IP]

    transport = RecordingTransport()
    await fetch("https://Example.test:8443/x?y=1#frag", FetchPolicy(), transport=transport, resolver=public)
    (sent,) = transport.requests
    assert str(sent.url) == f"https://{PUBLIC_IP}:8443/x?y=1"
    assert sent.headers["host"] == "example.test:8443"
    assert sent.extensions["sni_hostname"] == "example.test"


def test_pinned_request_building_for_ipv6_and_caller_headers() -> None:
    url = httpx.URL("https://example.test/a")
    request = build_pinned_request(url, "2606:4700::1111", {"Host": "evil", "X-Trace": "1"}, user_agent="ua")
    assert str(request.url) == "https://[2606:4700::1111]/a"
    assert request.headers["host"] == "example.test"
    assert request.headers["x-trace"] == "1"
    assert request.headers["user-agent"] == "ua"
    assert request.extensions["sni_hostname"] == "example.test"
    plain = build_pinned_request(httpx.URL("http://example.test/a"), PUBLIC_IP, {}, user_agent="ua")
    assert "sni_hostname" not in plain.extensions


async def test_credentials_never_sent_and_dropped_across_origins() -> None:
    async def public(host: str, port: int) -> list[str]:
        return [PUBLIC_IP]

    def respond(request: httpx.Request) -> httpx.Response:
        if request.headers["host"] == "example.test":
            return httpx.Response(302, headers={"Location": "http://other.test/landing"})
        return httpx.Response(200, text="landed")

    transport = RecordingTransport(respond)
    fetched = await fetch(
        "http://user:secret@example.test/",
        FetchPolicy(),
        transport=transport,
        resolver=public,
        headers={"Authorization": "Bearer t", "X-Keep": "k"},
    )
    first, second = transport.requests
    assert first.headers["authorization"] == "Bearer t"  # caller's own header, same origin
    assert "user" not in str(first.url) and "secret" not in str(first.headers)
    assert "authorization" not in second.headers and second.headers["x-keep"] == "k"
    assert fetched.url == "http://other.test/landing"
    assert fetched.redirects == ["http://other.test/landing"]


# --- redirects -----------------------------------------------------------------------------------


async def test_relative_redirect_followed(base: str, seen: list[str]) -> None:
    fetched = await fetch(f"{base}/redirect", LOCAL)
    assert fetched.url == f"{base}/ok?from=redirect"
    assert fetched.redirects == [f"{base}/ok?from=redirect"]
    assert fetched.text() == "héllo wörld"
    assert seen == ["/redirect", "/ok"]


async def test_redirect_to_metadata_refused_on_the_hop(base: str, seen: list[str]) -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch(f"{base}/to-metadata", LOCAL)
    assert refused.value.code == "private_address"
    assert seen == ["/to-metadata"]


async def test_redirect_chain_limit(base: str, seen: list[str]) -> None:
    policy = FetchPolicy(allow_private=True, max_redirects=3)
    fetched = await fetch(f"{base}/chain/3", policy)
    assert fetched.text() == "end of chain" and len(fetched.redirects) == 3
    seen.clear()
    with pytest.raises(FetchRefused) as refused:
        await fetch(f"{base}/chain/4", policy)
    assert refused.value.code == "too_many_redirects"
    assert seen == ["/chain/4", "/chain/3", "/chain/2", "/chain/1"]


# --- size, time, status --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/big", "/stream-big", "/gzip-bomb"])
async def test_too_large_refused(base: str, path: str) -> None:
    with pytest.raises(FetchRefused) as refused:
        await fetch(f"{base}{path}", LOCAL)
    assert refused.value.code == "too_large"


async def test_whole_fetch_deadline(base: str) -> None:
    policy = FetchPolicy(allow_private=True, timeout_seconds=0.3)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(FetchFailed) as failed:
        await fetch(f"{base}/slow", policy)
    assert failed.value.reason == "timeout"
    assert loop.time() - started < 1.5


async def test_http_error_status_fails_with_status(base: str) -> None:
    with pytest.raises(FetchFailed) as failed:
        await fetch(f"{base}/missing", LOCAL)
    assert failed.value.status == 404
    assert failed.value.reason == "status"


async def test_connection_refused_is_a_failure() -> None:
    with pytest.raises(FetchFailed) as failed:
        await fetch("http://127.0.0.1:1/", LOCAL)
    assert failed.value.reason == "connection"


def test_policy_from_settings_reads_fetch_settings_with_defaults() -> None:
    class Settings:
        fetch_allow_private_addresses = True
        fetch_max_bytes = 123
        fetch_timeout_seconds = 4

    assert FetchPolicy.from_settings(Settings()) == FetchPolicy(
        allow_private=True, max_bytes=123, timeout_seconds=4.0
    )
    assert FetchPolicy.from_settings(object()) == FetchPolicy()


def test_text_falls_back_to_utf8_with_replacement() -> None:
    from app.net.fetch import Fetched

    assert Fetched("u", 200, "text/plain", "é".encode() + b"\xff", []).text() == "é\ufffd"
    assert Fetched("u", 200, 'text/plain; charset="bogus"', b"ok", []).text() == "ok"
    assert Fetched("u", 200, "text/html; Charset=UTF-16", "hi".encode("utf-16"), []).text() == "hi"


# --- methods and bodies --------------------------------------------------------------------------


async def _echo_request(request: Request) -> Response:
    body = await request.body()
    return PlainTextResponse(f"{request.method} {request.headers.get('content-type')} {body.decode()}")


async def test_post_json_reaches_a_real_server() -> None:
    app = Starlette(routes=[Route("/search", _echo_request, methods=["POST"])])
    async with serve_asgi(app) as echo:
        fetched = await fetch(f"{echo}/search", LOCAL, method="post", json={"limit": 2, "ids": ["a"]})
    assert fetched.text() == 'POST application/json {"limit": 2, "ids": ["a"]}'


def _redirecting(status: int) -> Callable[[httpx.Request], httpx.Response]:
    """First hop answers `status` to /next; the second records what arrived."""

    def respond(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/start":
            return httpx.Response(status, headers={"Location": "/next"})
        return httpx.Response(200, text="landed")

    return respond


async def _public(host: str, port: int) -> list[str]:
    return [PUBLIC_IP]


@pytest.mark.parametrize(
    ("status", "method", "body"),
    [
        (303, "GET", b""),
        (302, "GET", b""),
        (301, "GET", b""),
        (307, "POST", b'{"q": 1}'),
        (308, "POST", b'{"q": 1}'),
    ],
)
async def test_redirect_after_post_keeps_or_drops_the_body(status: int, method: str, body: bytes) -> None:
    transport = RecordingTransport(_redirecting(status))
    fetched = await fetch(
        "http://example.test/start",
        FetchPolicy(),
        transport=transport,
        resolver=_public,
        method="POST",
        json={"q": 1},
    )
    first, second = transport.requests
    assert (first.method, first.content) == ("POST", b'{"q": 1}')
    assert first.headers["content-type"] == "application/json"
    assert (second.method, second.content) == (method, body)
    assert ("content-type" in second.headers) == bool(body)
    assert fetched.text() == "landed"


async def test_a_307_to_another_origin_keeps_the_body_but_not_the_credentials() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        if request.headers["host"] == "example.test":
            return httpx.Response(307, headers={"Location": "http://other.test/search"})
        return httpx.Response(200, text="ok")

    transport = RecordingTransport(respond)
    await fetch(
        "http://example.test/search",
        FetchPolicy(),
        transport=transport,
        resolver=_public,
        method="POST",
        content=b"raw",
        headers={"Authorization": "Bearer t", "Content-Type": "text/plain"},
    )
    first, second = transport.requests
    assert first.headers["authorization"] == "Bearer t"
    assert (second.method, second.content, second.headers["content-type"]) == ("POST", b"raw", "text/plain")
    assert "authorization" not in second.headers


async def test_post_redirect_to_an_internal_address_is_refused_before_sending() -> None:
    hop = RecordingTransport(lambda r: httpx.Response(307, headers={"Location": "http://10.0.0.1/"}))
    with pytest.raises(FetchRefused) as refused:
        await fetch(
            "http://example.test/",
            FetchPolicy(),
            transport=hop,
            resolver=_public,
            method="POST",
            json={"q": 1},
        )
    assert refused.value.code == "private_address"
    assert len(hop.requests) == 1


async def test_caller_content_type_wins_and_json_with_content_is_an_error() -> None:
    transport = RecordingTransport()
    await fetch(
        "http://example.test/",
        FetchPolicy(),
        transport=transport,
        resolver=_public,
        method="POST",
        json={"type": "Feature"},
        headers={"content-type": "application/geo+json"},
    )
    assert transport.requests[0].headers["content-type"] == "application/geo+json"
    with pytest.raises(ValueError):
        await fetch("http://example.test/", FetchPolicy(), resolver=_no_dns, json={}, content=b"x")


def test_pinned_request_carries_method_and_body() -> None:
    request = build_pinned_request(
        httpx.URL("https://example.test/search"), PUBLIC_IP, {}, user_agent="ua", method="POST", content=b"{}"
    )
    assert (request.method, request.content, request.headers["content-length"]) == ("POST", b"{}", "2")
    assert request.extensions["sni_hostname"] == "example.test"
