"""Where forest may connect and for how long: public addresses only, one deadline per fetch, bounded inflation.

The checks sit in the network backend httpx's connection pool calls to open a socket:
the host is resolved once, every address is checked, and the socket is opened to a
checked address, so neither a redirect hop nor a DNS answer that changes between a
check and the connection (DNS rebinding) reaches a private address.
"""

from __future__ import annotations

import ipaddress
import math
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpcore
import httpx

from forest.errors import FetchError

ALLOW_HINT = "--allow-private or Settings(fetch=FetchSettings(allow_private=True)) to allow it"
# What forest asks servers for, so that it only receives encodings it can inflate
# within a bound (br and zstd would need their own bounded decoders).
ACCEPT_ENCODING = "gzip, deflate"
# Output of one inflate step: small enough that one step of a bomb stays small.
_INFLATE_STEP = 65_536


class PolicyError(FetchError):
    """A fetch refused or cut short by forest's own policy; the Fetcher adds the URL to the message."""

    def __init__(self, message: str) -> None:
        super().__init__(message, url="")


class RefusedAddress(PolicyError):
    """The host is, or resolves to, an address forest does not connect to."""


class DNSFailure(PolicyError):
    """The host name could not be resolved."""


class DeadlineExceeded(PolicyError):
    """The fetch ran past its total deadline (headers included)."""


def refusal(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why forest does not connect to ``address`` unless allowed, or None if it is a public address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address (cloud metadata services live there)"
    if address.is_private:
        return "a private address"
    if address.is_multicast or address.is_unspecified or address.is_reserved or not address.is_global:
        return "not a public address"
    return None


def literal_refusal(host: str) -> str | None:
    """Why a URL's host is refused before any lookup: an IP literal that is not public, or localhost."""
    bare = host.strip("[]").lower().rstrip(".")
    if bare == "localhost" or bare.endswith(".localhost"):
        return "localhost"
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None
    try:
        address = ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        address = _inet_aton(bare)
    if address is None:
        return None
    reason = refusal(address)
    return f"{address}, {reason}" if reason else None


def _inet_aton(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address of the short and numeric forms resolvers accept (``127.1``, ``0x7f000001``, the whole address as one decimal number)."""
    if not host or not all(c in "0123456789abcdefx." for c in host):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


class Deadlines:
    """The deadline of the fetch each thread is running (threads of one Fetcher share a backend)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def set(self, deadline: float | None) -> None:
        self._local.deadline = deadline

    def remaining(self) -> float:
        deadline = getattr(self._local, "deadline", None)
        return math.inf if deadline is None else deadline - time.monotonic()

    def limit(self, timeout: float | None) -> float | None:
        """``timeout`` cut to what is left of the deadline.

        :raises DeadlineExceeded: when nothing is left.
        """
        left = self.remaining()
        if left <= 0:
            raise DeadlineExceeded("passed its deadline (FetchSettings.total_timeout a fetch, FetchSettings.learn_timeout a learn)")
        if math.isinf(left):
            return timeout
        return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read and write ends by the fetch's deadline.

    A server trickling one byte a second never trips a per-read timeout; cutting each
    read's wait to what is left of the deadline ends it on time, headers included.
    """

    def __init__(self, stream: httpcore.NetworkStream, deadlines: Deadlines) -> None:
        self._stream = stream
        self._deadlines = deadlines

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        try:
            return self._stream.read(max_bytes, self._deadlines.limit(timeout))
        except httpcore.ReadTimeout:
            self._deadlines.limit(0.0)  # raises DeadlineExceeded when that is why it timed out
            raise

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, self._deadlines.limit(timeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        inner = self._stream.start_tls(ssl_context, server_hostname, self._deadlines.limit(timeout))
        return _DeadlineStream(inner, self._deadlines)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class GuardedBackend(httpcore.SyncBackend):
    """httpcore's socket backend, resolving and checking each host before it connects.

    :param allow_private: connect to loopback, private and link-local addresses too.
    :param deadlines: the running fetch's deadline, per thread.
    """

    def __init__(self, *, allow_private: bool, deadlines: Deadlines) -> None:
        self.allow_private = allow_private
        self.deadlines = deadlines

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = self.resolve(host, port, self.deadlines.limit(timeout))
        last: Exception | None = None
        for address in addresses:
            try:
                stream = super().connect_tcp(
                    str(address), port, self.deadlines.limit(timeout), local_address, socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
                continue
            return _DeadlineStream(stream, self.deadlines)
        assert last is not None  # resolve returns at least one address
        raise last

    def resolve(
        self, host: str, port: int, timeout: float | None = None
    ) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        """The addresses of ``host`` forest may connect to, in the resolver's order.

        :param timeout: seconds to wait for the resolver (getaddrinfo has no timeout of its own).
        :raises DNSFailure: when the name does not resolve in time.
        :raises RefusedAddress: when every address is refused.
        """
        bare = host.strip("[]")
        if not self.allow_private and (reason := literal_refusal(bare)):
            raise RefusedAddress(f"refused to connect to {reason}; {ALLOW_HINT}")
        infos = _getaddrinfo(bare, port, timeout)
        found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
        for info in infos:
            address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
            if address not in found:
                found.append(address)
        if self.allow_private:
            return found
        allowed = [a for a in found if refusal(a) is None]
        if not allowed:
            first = found[0] if found else host
            reason = refusal(found[0]) if found else "no address"
            raise RefusedAddress(f"refused to connect to {host} ({first}, {reason}); {ALLOW_HINT}")
        return allowed


def _getaddrinfo(host: str, port: int, timeout: float | None) -> list[Any]:
    """socket.getaddrinfo, given up on after ``timeout`` seconds (a stuck resolver keeps its thread, not the fetch)."""
    outcome: list[Any] = []

    def lookup() -> None:
        try:
            outcome.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:  # socket.gaierror is an OSError
            outcome.append(exc)

    if timeout is None:
        lookup()
    else:
        thread = threading.Thread(target=lookup, name="forest-dns", daemon=True)
        thread.start()
        thread.join(timeout)
    if not outcome:
        raise DNSFailure(f"DNS lookup of {host} took over {timeout:g} s")
    if isinstance(outcome[0], BaseException):
        exc = outcome[0]
        detail = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise DNSFailure(f"DNS lookup of {host} failed ({detail})") from exc
    return list(outcome[0])


class GuardedClient(httpx.Client):
    """The one kind of httpx client forest fetches with: every connection goes through :class:`GuardedBackend`.

    Environment proxies are not used: behind a proxy the proxy resolves the host, and
    forest could no longer tell where a request really goes.

    :param allow_private: connect to loopback, private and link-local addresses too.
    :param wrap: given the guarded transport, returns the transport the client sends
        through.  The web app wraps it to record downloads; a wrapper passes requests on
        to the guarded transport, so the checks and the deadline still apply.  (Tests
        deliberately replace it with an ``httpx.MockTransport`` this way.)
    """

    def __init__(
        self,
        *,
        allow_private: bool,
        wrap: Callable[[httpx.BaseTransport], httpx.BaseTransport] | None = None,
    ) -> None:
        #: the deadline of the fetch each thread is running, read by the backend on every socket operation.
        self.deadlines = Deadlines()
        self.allow_private = allow_private
        transport = httpx.HTTPTransport()
        pool = getattr(transport, "_pool", None)
        if not hasattr(pool, "_network_backend"):  # pragma: no cover - an httpcore that moved it
            raise RuntimeError("this httpx/httpcore does not let forest check addresses; pin httpcore 1.x")
        pool._network_backend = GuardedBackend(allow_private=allow_private, deadlines=self.deadlines)  # type: ignore[union-attr]
        super().__init__(transport=wrap(transport) if wrap is not None else transport, trust_env=False)


def inflate(chunks: Iterable[bytes], encodings: str, cap: int) -> Iterator[bytes]:
    """Undo a ``Content-Encoding`` (stacked ones too, ``gzip, gzip``) in bounded steps.

    Each step yields at most 64 KB, so the caller's size cap stops a bomb after at
    most one step past it: a 16 KB gzip-in-gzip body that inflates to 1 GB is cut at
    ``cap``.  httpx's own decoder inflates a whole network chunk at once.

    :raises PolicyError: an encoding forest did not ask for, corrupt data, or over ``cap``.
    """
    names = [name.strip().lower() for name in encodings.split(",") if name.strip()]
    names = [name for name in names if name != "identity"]
    stream: Iterable[bytes] = chunks
    # The sender applied them in order, so they come off in reverse.
    for name in reversed(names):
        if name in ("gzip", "x-gzip"):
            stream = _inflate(stream, 16 + zlib.MAX_WBITS)
        elif name == "deflate":
            stream = _inflate(stream, zlib.MAX_WBITS, raw_fallback=True)
        else:
            raise PolicyError(f"the server sent Content-Encoding {name!r}, which forest did not ask for")
    size = 0
    for piece in stream:
        size += len(piece)
        if size > cap:
            raise PolicyError(f"body inflates past the {cap:,}-byte limit (Settings.max_page_bytes)")
        yield piece


def _inflate(chunks: Iterable[bytes], wbits: int, *, raw_fallback: bool = False) -> Iterator[bytes]:
    decoder = zlib.decompressobj(wbits)
    started = False
    try:
        for chunk in chunks:
            if not started and chunk:
                started = True
                if raw_fallback and (chunk[0] & 0x0F) != 8:
                    decoder = zlib.decompressobj(-zlib.MAX_WBITS)  # "deflate" sent without its zlib header
            data = chunk
            while data:
                if decoder.eof:
                    if wbits <= zlib.MAX_WBITS or not data.startswith(b"\x1f\x8b"):
                        return  # padding after the end of the stream: ignored, as browsers do
                    decoder = zlib.decompressobj(wbits)  # concatenated gzip members form one body (RFC 1952)
                piece = decoder.decompress(data, _INFLATE_STEP)
                if piece:
                    yield piece
                data = decoder.unconsumed_tail or (decoder.unused_data if decoder.eof else b"")
        tail = decoder.flush()
    except zlib.error as exc:
        raise PolicyError(f"corrupt compressed body ({exc})") from exc
    if tail:
        yield tail
