"""Fetch pages and feeds over HTTP(S) with httpx: timeouts, size cap, redirects, retries, robots.txt, politeness."""

from __future__ import annotations

import email.utils
import logging
import math
import threading
import time
import urllib.robotparser
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from types import TracebackType
from urllib.parse import urljoin, urlsplit

import httpx

from forest.config import Settings
from forest.errors import FetchError, PageTooLargeError
from forest.netpolicy import ACCEPT_ENCODING, ALLOW_HINT, GuardedClient, PolicyError, inflate, literal_refusal
from forest.urls import host_problem

LOGGER = logging.getLogger(__name__)

PROJECT_URL = "https://github.com/forest-extract/forest"
# The robots.txt product token: the first word of our User-Agent.
ROBOTS_AGENT = "forest"
# RFC 9309 asks crawlers to read at least 500 KiB of robots.txt; anything longer is cut there.
ROBOTS_MAX_BYTES = 512_000
# Seconds for robots.txt, a file of a few KB: a server trickling it once held a learn for 65 s.
ROBOTS_TIMEOUT = 10.0
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})

# Content types accepted per kind of document.  Feeds are often served as text/html
# or text/plain by misconfigured servers, and a page URL given instead of a feed is
# HTML too: the feed layer sniffs and discovers, so "feed" accepts those as well.
PAGE_TYPES = frozenset({"text/html", "application/xhtml+xml"})
FEED_TYPES = PAGE_TYPES | frozenset({
    "application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/xml",
    "text/xml", "application/feed+json", "application/json", "text/plain",
})
KINDS: Mapping[str, frozenset[str] | None] = {"page": PAGE_TYPES, "feed": FEED_TYPES, "any": None}


def user_agent(settings: Settings) -> str:
    """``FetchSettings.user_agent``, or ``forest/<version> (+project URL)``."""
    if settings.fetch.user_agent:
        return settings.fetch.user_agent
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("forest-extract")
    except PackageNotFoundError:  # running from a source tree that was never installed
        number = "0"
    return f"{ROBOTS_AGENT}/{number} (+{PROJECT_URL})"


@dataclass(frozen=True, slots=True)
class Response:
    """A fetched document.

    :param url: the URL asked for.
    :param final_url: where it was found, after redirects.
    :param content_type: the media type, lower-cased, without parameters ('' if none).
    :param charset: the charset the ``Content-Type`` header declares, if any.
    """

    url: str
    final_url: str
    status: int
    content_type: str
    charset: str | None
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)


class Fetcher:
    """Fetches documents politely and within limits; every failure is a FetchError.

    :param settings: timeouts, size cap, retries, robots and politeness settings.
    :param client: the client to fetch through (the web app passes one that records its
        downloads).  Only a :class:`~forest.netpolicy.GuardedClient` is taken: every other
        client would connect wherever a name resolves, unchecked and without the fetch's
        deadline.  When omitted the fetcher opens one and :meth:`close` closes it.  httpx
        clients are thread-safe, so one is shared by :meth:`fetch_many`'s threads.
    :raises TypeError: when ``client`` is not a GuardedClient.
    :raises ValueError: when ``client`` allows private addresses and ``settings`` does not.
    """

    def __init__(self, settings: Settings | None = None, client: GuardedClient | None = None) -> None:
        self.settings = settings or Settings()
        if client is not None and not isinstance(client, GuardedClient):
            raise TypeError(f"forest fetches only through a forest.GuardedClient, which checks every address it "
                            f"connects to; got {type(client).__name__}")
        if client is not None and client.allow_private and not self.settings.fetch.allow_private:
            raise ValueError("the client allows private addresses but the settings do not (FetchSettings.allow_private)")
        self._owns_client = client is None
        self._client = client or GuardedClient(allow_private=self.settings.fetch.allow_private)
        self._deadlines = self._client.deadlines
        #: monotonic time after which no request starts (a whole learn's deadline), or None.
        self.deadline: float | None = None
        self._timeout = httpx.Timeout(
            connect=self.settings.fetch.connect_timeout,
            read=self.settings.fetch.read_timeout,
            write=self.settings.fetch.read_timeout,
            pool=self.settings.fetch.connect_timeout,
        )
        self._headers = {"User-Agent": user_agent(self.settings), "Accept-Encoding": ACCEPT_ENCODING}
        self._lock = threading.Lock()
        self._next_slot: dict[str, float] = {}  # host -> earliest time of its next request
        self._robots: dict[str, urllib.robotparser.RobotFileParser | FetchError | None] = {}
        self._robots_lock = threading.Lock()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the client if this fetcher opened it."""
        if self._owns_client:
            self._client.close()

    # --- public ------------------------------------------------------------------

    def fetch(self, url: str, *, kind: str = "page") -> Response:
        """Fetch ``url``, following redirects, retrying transient failures.

        :param kind: ``"page"`` (HTML only), ``"feed"`` (feeds and HTML, for discovery) or ``"any"``.
        :raises FetchError: on a bad URL, a network failure or timeout, a non-2xx status,
            robots.txt disallowing it, or a refused content type.
        :raises PageTooLargeError: when the body is over ``Settings.max_page_bytes``.
        """
        accepted = KINDS[kind]
        current = url
        # One deadline for the whole fetch: redirects, retries and a slow server's headers included.
        deadline = self._fetch_deadline(url)
        for _ in range(self.settings.fetch.max_redirects + 1):
            _check_url(current, url)
            if not self.settings.fetch.allow_private:
                _check_address(current, url)
            if self.settings.fetch.respect_robots and not self._allowed(current):
                raise FetchError(
                    f"{current}: disallowed by the site's robots.txt "
                    "(--ignore-robots or Settings(respect_robots=False) to fetch it anyway)",
                    url=current,
                )
            response = self._get(current, deadline)
            if response.status in REDIRECT_STATUSES:
                location = response.headers.get("location")
                if not location:
                    raise FetchError(f"{current}: HTTP {response.status} redirect without a Location", url=current,
                                     status=response.status)
                current = _join(current, location.strip())
                continue
            response = _replace_url(response, url)
            if not 200 <= response.status < 300:
                raise FetchError(f"{current}: HTTP {response.status} {_reason(response.status)}", url=current,
                                 status=response.status)
            if accepted is not None and response.content_type and response.content_type not in accepted:
                what = "an HTML page" if kind == "page" else "a feed or an HTML page"
                raise FetchError(f"{current}: content type {response.content_type} is not {what}", url=current,
                                 status=response.status)
            return response
        raise FetchError(f"{url}: more than {self.settings.fetch.max_redirects} redirects (FetchSettings.max_redirects)", url=url)

    def fetch_many(
        self,
        urls: Sequence[str],
        *,
        kind: str = "page",
        progress: Callable[[str, Response | FetchError], None] | None = None,
    ) -> list[Response | FetchError]:
        """Fetch ``urls`` with at most ``FetchSettings.concurrency`` at once; one result per URL, in order.

        A URL that fails gives its FetchError in its slot instead of raising.
        :param progress: called in the calling thread as each URL finishes.
        """
        results: list[Response | FetchError | None] = [None] * len(urls)
        if not urls:
            return []
        with ThreadPoolExecutor(max_workers=max(1, self.settings.fetch.concurrency), thread_name_prefix="forest-fetch") as pool:
            futures = {pool.submit(self._fetch_or_error, u, kind): i for i, u in enumerate(urls)}
            for future in as_completed(futures):
                i = futures[future]
                result = results[i] = future.result()
                if progress is not None:
                    progress(urls[i], result)
        return [r for r in results if r is not None]

    # --- one request -------------------------------------------------------------

    def _fetch_or_error(self, url: str, kind: str) -> Response | FetchError:
        try:
            return self.fetch(url, kind=kind)
        except FetchError as exc:
            return exc

    def _fetch_deadline(self, url: str) -> float:
        """The deadline of one fetch starting now, within the whole run's; past the latter, FetchError."""
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            raise FetchError(f"{url}: not fetched, the whole learn's deadline has passed (FetchSettings.learn_timeout)",
                             url=url)
        deadline = now + self.settings.fetch.total_timeout
        return deadline if self.deadline is None else min(deadline, self.deadline)

    def _get(self, url: str, deadline: float | None = None) -> Response:
        """One GET without following redirects, retried on 429, 5xx and connection failures."""
        try:
            return self._get_once(url, self._fetch_deadline(url) if deadline is None else deadline)
        except PolicyError as exc:
            raise FetchError(f"{url}: {exc}", url=url) from exc

    def _sleep(self, seconds: float, deadline: float, url: str) -> None:
        if time.monotonic() + seconds > deadline:
            raise FetchError(f"{url}: waiting {seconds:.1f} s more would pass the fetch's deadline "
                             f"(FetchSettings.total_timeout = {self.settings.fetch.total_timeout:g} s)", url=url)
        time.sleep(seconds)

    def _get_once(self, url: str, deadline: float) -> Response:
        attempts = self.settings.fetch.retries + 1
        for attempt in range(attempts):
            last = attempt == attempts - 1
            self._wait_for_host(url, deadline)
            try:
                response = self._stream(url, deadline)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError, httpx.ReadError) as exc:
                # A refused or reset connection is often a restarting server; a read
                # *timeout* is a slow one, and asking again would only double the wait.
                if last:
                    raise FetchError(f"{url}: {_describe(exc, self.settings)}", url=url) from exc
                self._sleep(self._backoff(attempt), deadline, url)
                continue
            except httpx.TimeoutException as exc:
                raise FetchError(f"{url}: {_describe(exc, self.settings)}", url=url) from exc
            except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as exc:
                raise FetchError(f"{url}: {_describe(exc, self.settings)}", url=url) from exc
            if response.status not in RETRY_STATUSES or last:
                return response
            delay = self._backoff(attempt)
            retry_after = _retry_after(response.headers.get("retry-after"))
            if retry_after is not None:
                if retry_after > self.settings.fetch.max_retry_after:
                    raise FetchError(
                        f"{url}: HTTP {response.status}, server asks to retry after {retry_after:.0f} s "
                        f"(over FetchSettings.max_retry_after = {self.settings.fetch.max_retry_after:.0f} s)",
                        url=url, status=response.status,
                    )
                delay = max(delay, retry_after)
            LOGGER.info("%s: HTTP %s, retrying in %.1f s", url, response.status, delay)
            self._sleep(delay, deadline, url)
        raise AssertionError("unreachable")  # the loop returns or raises on its last attempt

    def _backoff(self, attempt: int) -> float:
        return float(self.settings.fetch.backoff * 2**attempt)

    def _stream(self, url: str, deadline: float) -> Response:
        """GET ``url`` and read its body, refusing it as soon as it passes the size cap."""
        cap = self.settings.max_page_bytes
        # Read by forest's own client on every socket read, headers included.
        self._deadlines.set(deadline)
        with self._client.stream(
            "GET", url, headers=self._headers, timeout=self._timeout, follow_redirects=False
        ) as response:
            content_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
            length = response.headers.get("content-length", "")
            if response.status_code in REDIRECT_STATUSES:
                return Response(url, url, response.status_code, content_type, None, b"", dict(response.headers))
            if length.isdigit() and int(length) > cap:
                raise PageTooLargeError(_too_large(url, int(length), cap), url=url, status=response.status_code)
            chunks: list[bytes] = []
            size = 0
            # Inflated in bounded steps (httpx would inflate a whole chunk at once), so a
            # gzip-in-gzip bomb is caught at the cap too.
            encoding = response.headers.get("content-encoding", "")
            try:
                body = inflate(_raw(response), encoding, cap) if encoding and not _preloaded(response) else _raw(response)
                for chunk in body:
                    size += len(chunk)
                    if size > cap:
                        raise PageTooLargeError(_too_large(url, size, cap, partial=True), url=url,
                                                status=response.status_code)
                    if time.monotonic() > deadline:
                        raise FetchError(
                            f"{url}: response took longer than {self.settings.fetch.total_timeout:g} s "
                            "(FetchSettings.total_timeout)", url=url, status=response.status_code,
                        )
                    chunks.append(chunk)
            except PolicyError as exc:
                if "limit" in str(exc):
                    raise PageTooLargeError(f"{url}: {exc}", url=url, status=response.status_code) from exc
                raise
            finally:
                self._deadlines.set(None)
            return Response(
                url, str(response.url), response.status_code, content_type, response.charset_encoding,
                b"".join(chunks), dict(response.headers),
            )

    # --- politeness --------------------------------------------------------------

    def _wait_for_host(self, url: str, deadline: float | None = None) -> None:
        """Sleep until ``url``'s host may be asked again; slots are reserved under a lock so
        that concurrent threads queue up instead of all firing at once."""
        host = urlsplit(url).netloc.lower()
        delay = max(self.settings.fetch.per_host_delay, self._crawl_delay(url))
        if delay <= 0:
            return
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next_slot.get(host, now))
            if deadline is not None and slot > deadline:
                raise FetchError(
                    f"{url}: the host's turn comes {slot - now:.0f} s from now (politeness delay {delay:g} s a "
                    f"request), past the fetch's deadline (FetchSettings.total_timeout, FetchSettings.learn_timeout)", url=url,
                )
            self._next_slot[host] = slot + delay
        if slot > now:
            time.sleep(slot - now)

    def _crawl_delay(self, url: str) -> float:
        robots = self._robots.get(_origin(url)) if self.settings.fetch.respect_robots else None
        if not isinstance(robots, urllib.robotparser.RobotFileParser):
            return 0.0
        value = robots.crawl_delay(ROBOTS_AGENT)
        try:
            seconds = float(value) if value else 0.0
        except (TypeError, ValueError, OverflowError):
            return 0.0
        # A Crawl-delay of 10^9 s once made one learn take 216 s (issue 15, case 9).
        return min(max(seconds, 0.0), self.settings.fetch.max_crawl_delay) if math.isfinite(seconds) else 0.0

    def _allowed(self, url: str) -> bool:
        origin = _origin(url)
        with self._robots_lock:
            if origin not in self._robots:
                self._robots[origin] = self._read_robots(origin)
            robots = self._robots[origin]
        if isinstance(robots, FetchError):
            # Unreachable is not "disallowed": say what failed (refused, DNS, TLS, timeout).
            reason = str(robots).removeprefix(f"{robots.url}: ")
            raise FetchError(f"{url}: {reason} (reading {origin}/robots.txt)", url=url, status=robots.status)
        return robots is None or robots.can_fetch(ROBOTS_AGENT, url)

    def _read_robots(self, origin: str) -> urllib.robotparser.RobotFileParser | FetchError | None:
        """The origin's robots rules; None (everything allowed) when it has none.

        RFC 9309: a 4xx means no rules; a 5xx or an unreachable server means
        "disallow everything" until it can be read.
        """
        url = f"{origin}/robots.txt"
        parser = urllib.robotparser.RobotFileParser(url)
        deadline = time.monotonic() + min(ROBOTS_TIMEOUT, self.settings.fetch.total_timeout)
        if self.deadline is not None:
            deadline = min(deadline, self.deadline)
        try:
            response = self._get(url, deadline)
            if response.status in REDIRECT_STATUSES:  # robots.txt moved: one hop is enough for it
                location = response.headers.get("location", "")
                target = _join(url, location)
                _check_url(target, url)
                if not self.settings.fetch.allow_private:
                    _check_address(target, url)
                response = self._get(target, deadline) if location else response
        except PageTooLargeError:
            return None
        except FetchError as exc:
            # RFC 9309 says not to crawl a site whose robots.txt cannot be reached; the
            # error says why it could not be, instead of "disallowed".
            return exc
        if 400 <= response.status < 500:
            return None
        if response.status >= 500:
            # RFC 9309: a server error on robots.txt means "crawl nothing"; say that, not "disallowed".
            return FetchError(f"{url}: HTTP {response.status}, and RFC 9309 says not to crawl a site whose "
                              "robots.txt fails (--ignore-robots to fetch anyway)", url=url, status=response.status)
        text = response.body[:ROBOTS_MAX_BYTES].decode("utf-8", errors="replace")
        parser.parse(text.splitlines())
        return parser


def _check_url(url: str, asked: str) -> None:
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise FetchError(f"{url}: not a valid URL ({exc})", url=asked) from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(f"{url}: not an http(s) URL", url=asked)
    problem = host_problem(parts.hostname)
    if problem:
        raise FetchError(f"{url}: {problem}", url=asked)


def _join(base: str, location: str) -> str:
    """``location`` resolved against ``base``; a Location urljoin cannot read ("http://[zz::1]/") is a FetchError."""
    try:
        return urljoin(base, location)
    except ValueError as exc:
        raise FetchError(f"{base}: redirect to an invalid URL {location[:100]!r} ({exc})", url=base) from exc


def _preloaded(response: httpx.Response) -> bool:
    """Whether httpx already read (and decoded) the body: a response a MockTransport built from bytes."""
    return response.is_stream_consumed


def _raw(response: httpx.Response) -> Iterator[bytes]:
    if _preloaded(response):
        yield response.content
        return
    yield from response.iter_raw()


def _check_address(url: str, asked: str) -> None:
    """Refuse a URL whose host is literally a private address or localhost, before robots.txt is asked for.

    Names are resolved and checked by the client's backend when it connects.
    """
    host = urlsplit(url).hostname or ""
    reason = literal_refusal(host)
    if reason:
        raise FetchError(f"{url}: refused to connect to {reason}; {ALLOW_HINT}", url=asked)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _replace_url(response: Response, asked: str) -> Response:
    return Response(asked, response.final_url, response.status, response.content_type, response.charset,
                    response.body, response.headers)


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _too_large(url: str, size: int, cap: int, *, partial: bool = False) -> str:
    if partial:
        return f"{url}: body passed the {cap:,}-byte limit while downloading (Settings.max_page_bytes)"
    return f"{url}: body is {size:,} bytes, over the {cap:,}-byte limit (Settings.max_page_bytes)"


def _reason(status: int) -> str:
    try:
        return httpx.codes(status).name.replace("_", " ").title()
    except ValueError:
        return ""


def _describe(exc: Exception, settings: Settings) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return f"no connection within {settings.fetch.connect_timeout:g} s (FetchSettings.connect_timeout)"
    if isinstance(exc, httpx.TimeoutException):
        return f"timed out after {settings.fetch.read_timeout:g} s waiting for the server (FetchSettings.read_timeout)"
    if isinstance(exc, httpx.ConnectError):
        return _connect_failure(str(exc))
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"the server broke the HTTP exchange ({exc})"
    if isinstance(exc, httpx.DecodingError):
        return f"cannot decode the response body ({exc})"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


# Fragments of the OS's and ssl's messages -> what a ConnectError was, in words a user acts on.
_CONNECT_FAILURES = (
    ("refused", "connection refused: nothing listens on that port"),
    ("name or service not known", "DNS lookup failed: no such host"),
    ("nodename nor servname", "DNS lookup failed: no such host"),
    ("name resolution", "DNS lookup failed (no DNS server answered)"),
    ("getaddrinfo", "DNS lookup failed"),
    ("certificate", "TLS failed: the server's certificate is not trusted"),
    ("ssl", "TLS handshake failed"),
    ("tls", "TLS handshake failed"),
    ("network is unreachable", "network unreachable"),
    ("no route to host", "host unreachable (no route)"),
    ("reset", "connection reset by the server"),
)


def _connect_failure(detail: str) -> str:
    lowered = detail.lower()
    for fragment, what in _CONNECT_FAILURES:
        if fragment in lowered:
            return f"{what} ({detail})" if detail else what
    return f"cannot connect ({detail or 'connection failed'})"
