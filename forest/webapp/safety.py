"""Input checks and protective HTTP layers of `forest serve`: URL schemes, body size, headers, origins."""

from __future__ import annotations

import ipaddress
import json
import socket
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from forest import ForestError, strip_credentials
from forest.webapp.render import FRAME_CSS_HASH

# Longest URL accepted: browsers and servers commonly stop near 8 KB; article URLs are far shorter.
MAX_URL_CHARS = 8192
# Every page of the app: no script at all (lists refresh with <meta http-equiv=refresh>),
# styles from our own stylesheet plus the shown page's frame style (by hash), nothing
# framing us.  The shown page's sandboxed srcdoc frame inherits this policy.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    f"style-src 'self' '{FRAME_CSS_HASH}'; "
    "img-src 'self' data:; "
    "form-action 'self'; "
    "frame-ancestors 'none'; "
    "base-uri 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class InputError(ForestError):
    """A request the app refuses: not a URL, a page too large, a malformed body.

    :param status: the HTTP status to answer with (4xx).
    """

    def __init__(self, message: str, *, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def check_url(value: object, what: str = "url") -> str:
    """``value`` as an absolute http(s) URL with a host, as forest's fetcher accepts them.

    :raises InputError: otherwise.
    """
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{what}: give an http:// or https:// URL")
    url = value.strip()
    shown = strip_credentials(url)[:80]  # an error message quotes the URL, never its password
    if len(url) > MAX_URL_CHARS:
        raise InputError(f"{what}: a URL of {len(url)} characters is longer than {MAX_URL_CHARS}")
    if any(c.isspace() or ord(c) < 32 for c in url):
        raise InputError(f"{what}: {shown!r} contains spaces or control characters; is it a URL?")
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as exc:
        raise InputError(f"{what}: {shown!r} is not a URL ({exc})") from exc
    if parts.scheme.lower() not in ("http", "https"):
        raise InputError(f"{what}: {shown!r} is not an http:// or https:// URL")
    if not host:
        raise InputError(f"{what}: {shown!r} has no host")
    return url


def check_html(value: object, max_bytes: int) -> str:
    """Pasted page HTML, at most ``max_bytes`` bytes as UTF-8.

    :raises InputError: when it is missing, not text or too large (413).
    """
    if not isinstance(value, str) or not value.strip():
        raise InputError("html: paste the page's HTML")
    size = len(value.encode("utf-8", errors="replace"))
    if size > max_bytes:
        raise InputError(
            f"html: the page is {size_text(size)}, over the {size_text(max_bytes)} limit (Settings.max_page_bytes)",
            status=413,
        )
    return value


def size_text(size: int) -> str:
    """``size`` bytes for a message: ``"40.0 MB"``, ``"2.5 kB"``, ``"300 bytes"``."""
    if size >= 1_000_000:
        return f"{size / 1e6:.1f} MB"
    return f"{size / 1e3:.1f} kB" if size >= 1000 else f"{size} bytes"


def error_body(message: str, status: int, **extra: Any) -> bytes:
    # "replace": a message quoting a lone surrogate from somewhere still goes out as UTF-8.
    body = {"error": " ".join(message.split()), "status": status, **extra}
    return json.dumps(body, ensure_ascii=False).encode("utf-8", errors="replace")


class _TooLarge(Exception):
    pass


# Host names a local server answers to.  Any other Host header is a page of another
# site whose name was pointed at 127.0.0.1 (DNS rebinding) to read the app as its own.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def bind_name(host: str) -> str:
    """``host`` as a Host header's name reads: lower case, no brackets, no trailing dot (``[::1]`` is ``::1``)."""
    name = host.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    return name.rstrip(".")


def is_loopback(host: str) -> bool:
    """Whether a server bound to ``host`` listens on loopback only.

    Every spelling counts: any 127.0.0.0/8 address, short and numeric IPv4 forms as
    the resolver reads them (``127.1``, the address as one decimal number), ``::1`` with or without
    brackets, ``::ffff:127.0.0.1``, ``localhost`` with a trailing dot, and a name
    whose every address is loopback.  A name that does not resolve counts too: the
    server cannot bind it, and the check staying on costs nothing.
    """
    name = bind_name(host)
    if not name:
        return False  # an empty address binds every interface
    if name == "localhost" or name.endswith(".localhost"):
        return True  # RFC 6761: localhost and its subdomains are loopback, whatever DNS says
    try:
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)}
    except (OSError, UnicodeError, ValueError):
        return True
    return bool(addresses) and all(_loopback_address(address) for address in addresses)


def _loopback_address(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])  # an IPv6 scope ("fe80::1%eth0") is not part of it
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def served_hosts(bind_host: str) -> frozenset[str] | None:
    """The Host names a server bound to ``bind_host`` answers: loopback names and the bind
    name itself for a loopback address, None (any) for an address bound on purpose to a network."""
    if not is_loopback(bind_host):
        return None
    return LOOPBACK_HOSTS | {bind_name(bind_host)}


class LimitAndProtect:
    """ASGI middleware: security headers on every response, only ``allowed_hosts`` served
    (400 JSON; None serves any), request bodies capped at ``max_body_bytes`` (413 JSON),
    and cross-site POSTs refused (403 JSON).

    The cap holds whether or not the client sends a Content-Length: a chunked body is
    counted as it arrives.  A cross-site POST would let any web page queue downloads
    from the user's machine; browsers send Origin on every POST.
    """

    def __init__(self, app: ASGIApp, *, max_body_bytes: int, allowed_hosts: frozenset[str] | None) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if self.allowed_hosts is not None and _host_name(headers) not in self.allowed_hosts:
            await _send_error(send_with_headers, 400, "unknown Host header: open the app at http://127.0.0.1:PORT/")
            return
        if scope["method"] == "POST" and not _same_origin(headers):
            await _send_error(send_with_headers, 403, "cross-site request refused: post from this app's own pages")
            return
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            await _send_error(send_with_headers, 413, self._too_large(int(declared)))
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counting_receive, send_with_headers)
        except _TooLarge:
            if started:
                raise
            await _send_error(send_with_headers, 413, self._too_large(received))

    def _too_large(self, size: int) -> str:
        return f"the request body ({size_text(size)} or more) is over the {size_text(self.max_body_bytes)} limit"


def _host_name(headers: dict[bytes, bytes]) -> str:
    try:
        return (urlsplit("//" + headers.get(b"host", b"").decode("latin-1")).hostname or "").rstrip(".")
    except ValueError:
        return ""


def _same_origin(headers: dict[bytes, bytes]) -> bool:
    # Browsers say where a request comes from in Sec-Fetch-Site (all current ones) and
    # Origin; a client sending neither is not a browser (curl, a pipeline) and no page
    # can make it post.
    site = headers.get(b"sec-fetch-site")
    if site is not None:
        return site in (b"same-origin", b"none")
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"")
    return urlsplit(origin.decode("latin-1")).netloc.encode("latin-1") == host


async def _send_error(send: Send, status: int, message: str) -> None:
    body = error_body(message, status)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
