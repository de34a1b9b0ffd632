"""Hostile servers on 127.0.0.1: each fetch ends within its deadline with a one-line FetchError (issue 15, cases 6, 9, 13, 14)."""

from __future__ import annotations

import socket
import threading
import time
import tracemalloc
from dataclasses import replace

import pytest
from hostile import gzip_bomb, ok, send, serve, trickle

import forest.errors
import forest.netpolicy
from forest.config import FetchSettings, Settings
from forest.errors import FetchError, PageTooLargeError
from forest.net.fetch import Fetcher
from forest.service.feeds import learn_feed

PAGE = b"<html><head><title>t</title></head><body><p>" + b"word " * 200 + b"</p></body></html>"
SLACK = 1.5  # seconds past a deadline for a loaded 2-core machine


@pytest.fixture
def settings() -> Settings:
    return Settings(max_page_bytes=200_000, fetch=FetchSettings(
        connect_timeout=1.0, read_timeout=1.0, total_timeout=2.0, retries=0,
        backoff=0.01, max_retry_after=1.0, per_host_delay=0.0, respect_robots=False, allow_private=True,
    ))


def fetch_error(settings: Settings, url: str) -> tuple[FetchError, float]:
    started = time.monotonic()
    with Fetcher(settings) as fetcher, pytest.raises(FetchError) as caught:
        fetcher.fetch(url)
    return caught.value, time.monotonic() - started


def one_line(error: Exception) -> bool:
    return "\n" not in str(error) and str(error).strip() != ""


def test_headers_trickled_one_byte_at_a_time_end_at_the_total_deadline(settings: Settings) -> None:
    def headers(sock: socket.socket, stop: threading.Event) -> None:
        trickle(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + b"X-Slow: " + b"a" * 1000, stop, sock)

    with serve({"/a": headers}) as server:
        error, seconds = fetch_error(settings, server.url("/a"))
    assert seconds < settings.fetch.total_timeout + SLACK
    assert "deadline" in str(error) and one_line(error)


def test_a_body_trickled_one_byte_at_a_time_ends_at_the_total_deadline(settings: Settings) -> None:
    def body(sock: socket.socket, stop: threading.Event) -> None:
        send(sock, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n")
        trickle(PAGE, stop, sock)

    with serve({"/a": body}) as server:
        error, seconds = fetch_error(settings, server.url("/a"))
    assert seconds < settings.fetch.total_timeout + SLACK
    assert ("deadline" in str(error) or "longer than" in str(error)) and one_line(error)


@pytest.mark.parametrize("layers", [1, 2, 3], ids=["gzip", "gzip, gzip", "gzip, gzip, gzip"])
def test_a_stacked_gzip_bomb_is_cut_at_the_size_cap(settings: Settings, layers: int) -> None:
    bomb = gzip_bomb(200_000_000, layers)
    encoding = b", ".join([b"gzip"] * layers)

    def route(sock: socket.socket, stop: threading.Event) -> None:
        send(sock, ok(bomb, extra=b"Content-Encoding: " + encoding + b"\r\n"))

    with serve({"/a": route}) as server:
        tracemalloc.start()
        try:
            with Fetcher(settings) as fetcher, pytest.raises(PageTooLargeError) as caught:
                fetcher.fetch(server.url("/a"))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert "limit" in str(caught.value) and one_line(caught.value)
    # 200 MB inflated would show here; the cap is 200 KB, and one inflate step 64 KB.
    assert peak < 20_000_000


def test_an_encoding_forest_did_not_ask_for_is_refused(settings: Settings) -> None:
    def route(sock: socket.socket, stop: threading.Event) -> None:
        send(sock, ok(b"\x00\x01", extra=b"Content-Encoding: br\r\n"))

    with serve({"/a": route}) as server:
        error, _ = fetch_error(settings, server.url("/a"))
    assert "did not ask for" in str(error)


def test_a_huge_crawl_delay_is_capped(settings: Settings) -> None:
    robots = ok(b"User-agent: *\nCrawl-delay: 1000000000\n", b"text/plain")
    routes = {"/robots.txt": lambda sock, stop: send(sock, robots)}
    routes.update({f"/{i}": (lambda sock, stop: send(sock, ok(PAGE))) for i in range(3)})
    polite = replace(settings, fetch=replace(settings.fetch, respect_robots=True, max_crawl_delay=0.3))
    with serve(routes) as server:
        started = time.monotonic()
        with Fetcher(polite) as fetcher:
            results = fetcher.fetch_many([server.url(f"/{i}") for i in range(3)])
        seconds = time.monotonic() - started
    assert all(not isinstance(r, FetchError) for r in results)
    assert seconds < 3 * 0.3 + SLACK


def test_a_crawl_delay_past_the_deadline_fails_at_once(settings: Settings) -> None:
    robots = ok(b"User-agent: *\nCrawl-delay: 1000000000\n", b"text/plain")
    routes = {"/robots.txt": lambda sock, stop: send(sock, robots), "/a": lambda sock, stop: send(sock, ok(PAGE))}
    polite = replace(settings, fetch=replace(settings.fetch, respect_robots=True, max_crawl_delay=60.0, total_timeout=1.0))
    with serve(routes) as server, Fetcher(polite) as fetcher:
        fetcher.fetch(server.url("/a"))
        started = time.monotonic()
        with pytest.raises(FetchError, match="past the fetch's deadline") as caught:
            fetcher.fetch(server.url("/a"))
    assert time.monotonic() - started < 0.5 and one_line(caught.value)


def test_a_whole_learn_ends_at_its_deadline(settings: Settings) -> None:
    items = "".join(f"<item><title>t{i}</title><link>/p{i}</link></item>" for i in range(10))
    feed = ok(f'<rss version="2.0"><channel><title>f</title>{items}</channel></rss>'.encode(), b"application/rss+xml")

    def slow_page(sock: socket.socket, stop: threading.Event) -> None:
        send(sock, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n")
        trickle(PAGE, stop, sock, every=0.1)

    routes = {"/feed": lambda sock, stop: send(sock, feed)}
    routes.update({f"/p{i}": slow_page for i in range(10)})
    quick = replace(settings, fetch=replace(settings.fetch, learn_timeout=2.0, total_timeout=30.0, read_timeout=5.0, concurrency=2))
    with serve(routes) as server:
        started = time.monotonic()
        with pytest.raises(Exception) as caught:
            learn_feed(server.url("/feed"), settings=quick)
        seconds = time.monotonic() - started
    assert seconds < quick.fetch.learn_timeout + SLACK
    assert isinstance(caught.value, forest.errors.ForestError) and one_line(caught.value)


def test_a_trickling_robots_txt_is_a_timeout_not_a_disallow(settings: Settings) -> None:
    def robots(sock: socket.socket, stop: threading.Event) -> None:
        send(sock, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n")
        trickle(b"User-agent: *\nAllow: /\n" * 100, stop, sock)

    with serve({"/robots.txt": robots, "/a": lambda sock, stop: send(sock, ok(PAGE))}) as server:
        error, seconds = fetch_error(replace(settings, fetch=replace(settings.fetch, respect_robots=True)), server.url("/a"))
    assert seconds < settings.fetch.total_timeout + SLACK
    assert "robots.txt" in str(error) and "disallowed" not in str(error) and one_line(error)


def test_a_refused_connection_says_refused_not_disallowed(settings: Settings) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error, _ = fetch_error(replace(settings, fetch=replace(settings.fetch, respect_robots=True)), f"http://127.0.0.1:{port}/a")
    assert "connection refused" in str(error) and "disallowed" not in str(error) and one_line(error)


def test_a_dns_failure_says_dns(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_such_host(*args: object, **kwargs: object) -> list[object]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    error, _ = fetch_error(replace(settings, fetch=replace(settings.fetch, respect_robots=True)), "http://no-such-host.example/a")
    assert "DNS lookup" in str(error) and "disallowed" not in str(error) and one_line(error)


def test_tls_to_a_plain_http_server_says_tls(settings: Settings) -> None:
    listener = socket.create_server(("127.0.0.1", 0))

    def answer_in_plain_http() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(4096)  # the TLS ClientHello
            send(conn, ok(PAGE))

    thread = threading.Thread(target=answer_in_plain_http, daemon=True)
    thread.start()
    with listener:
        error, _ = fetch_error(settings, f"https://127.0.0.1:{listener.getsockname()[1]}/a")
    thread.join(5)
    assert "TLS" in str(error) and one_line(error)


# --- the address policy -------------------------------------------------------------------


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every address a socket is opened to (httpcore opens them with socket.create_connection)."""
    opened: list[tuple[str, int]] = []
    real = socket.create_connection

    def record(address: tuple[str, int], *args: object, **kwargs: object) -> socket.socket:
        opened.append(address)
        return real(address, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "create_connection", record)
    return opened


@pytest.fixture
def loopback_is_public(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat 127.0.0.1 as a public host, so a test server can stand in for one while 10/8 and 169.254/16 stay refused."""
    real = forest.netpolicy.refusal

    def refusal(address: object) -> str | None:
        return None if str(address) == "127.0.0.1" else real(address)  # type: ignore[arg-type]

    monkeypatch.setattr(forest.netpolicy, "refusal", refusal)


@pytest.mark.parametrize("url", [
    "http://10.1.2.3/a", "http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:9/a", "http://[::1]:9/a",
    "http://localhost:9/a", "http://[::ffff:10.0.0.1]/a", "http://192.168.0.1/", "http://0.0.0.0/",
    "http://2130706433:9/a", "http://0x7f.1:9/a", "http://127.1:9/a", "http://[fe80::1%25eth0]/a",
], ids=str)
def test_a_url_to_a_private_address_is_refused_without_a_connection(
    settings: Settings, connections: list[tuple[str, int]], url: str
) -> None:
    error, _ = fetch_error(replace(settings, fetch=replace(settings.fetch, allow_private=False, respect_robots=True)), url)
    assert "refused to connect" in str(error) and "--allow-private" in str(error) and one_line(error)
    assert connections == []


def test_a_name_resolving_to_a_private_address_is_refused_without_a_connection(
    settings: Settings, connections: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def intranet(host: str, port: int, *args: object, **kwargs: object) -> list[tuple[object, ...]]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", port))]

    monkeypatch.setattr(socket, "getaddrinfo", intranet)
    error, _ = fetch_error(replace(settings, fetch=replace(settings.fetch, allow_private=False)), "http://intranet.example/a")
    assert "10.0.0.5" in str(error) and "private" in str(error) and one_line(error)
    assert connections == []


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/"], ids=str)
def test_a_redirect_to_a_private_address_is_refused_without_a_connection(
    settings: Settings, connections: list[tuple[str, int]], loopback_is_public: None, target: str
) -> None:
    redirect = b"HTTP/1.1 302 Found\r\nLocation: " + target.encode() + b"\r\nContent-Length: 0\r\n\r\n"
    with serve({"/a": lambda sock, stop: send(sock, redirect)}) as server:
        error, _ = fetch_error(replace(settings, fetch=replace(settings.fetch, allow_private=False)), server.url("/a"))
        assert server.hits == ["/a"]
    assert "refused to connect" in str(error) and one_line(error)
    assert {host for host, _ in connections} == {"127.0.0.1"}


def test_allow_private_lets_a_private_address_through(settings: Settings) -> None:
    with serve({"/a": lambda sock, stop: send(sock, ok(PAGE))}) as server, Fetcher(settings) as fetcher:
        assert fetcher.fetch(server.url("/a")).body == PAGE


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/a", "gopher://example.com/", "data:,x"], ids=str)
def test_only_http_and_https_are_fetched(settings: Settings, connections: list[tuple[str, int]], url: str) -> None:
    error, _ = fetch_error(settings, url)
    assert "not an http(s) URL" in str(error) and connections == []


def test_a_stuck_dns_resolver_ends_at_the_connect_timeout(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def stuck(*args: object, **kwargs: object) -> list[object]:
        release.wait(10)
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    monkeypatch.setattr(socket, "getaddrinfo", stuck)
    try:
        error, seconds = fetch_error(settings, "http://slow-dns.example/a")
    finally:
        release.set()
    assert seconds < settings.fetch.connect_timeout + SLACK
    assert "DNS lookup" in str(error) and one_line(error)


@pytest.mark.parametrize("location", ["http://[zz::1]/a", "http://[::1", "http://" + "a" * 70 + ".example/", "ftp://x/"], ids=str)
def test_a_redirect_to_a_broken_url_is_a_fetch_error(settings: Settings, location: str) -> None:
    redirect = b"HTTP/1.1 302 Found\r\nLocation: " + location.encode() + b"\r\nContent-Length: 0\r\n\r\n"
    with serve({"/a": lambda sock, stop: send(sock, redirect)}) as server, Fetcher(settings) as fetcher:
        results = fetcher.fetch_many([server.url("/a")])
    assert isinstance(results[0], FetchError) and one_line(results[0])
