"""forest.net.fetch against a real server on 127.0.0.1 (and httpx.MockTransport where a server cannot be made to misbehave)."""

from __future__ import annotations

import gzip
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import replace

import httpx
import pytest
from synthetic_site import Handler, Server, endless, flaky, redirect, serve, slow, static

from forest.config import Settings
from forest.errors import FetchError, PageTooLargeError
from forest.net.fetch import Fetcher, Response
from forest.netpolicy import GuardedClient

HTML = b"<html><head><title>t</title></head><body><p>Hello</p></body></html>"


def fetch(settings: Settings, url: str, **kwargs: str) -> Response:
    with Fetcher(settings) as fetcher:
        return fetcher.fetch(url, **kwargs)


def test_fetch_gives_body_final_url_and_charset(fast: Settings) -> None:
    for server in serve({"/a": static(HTML, "text/html; charset=ISO-8859-1")}):
        response = fetch(fast, server.url("/a"))
    assert (response.body, response.status, response.content_type, response.charset) == (
        HTML, 200, "text/html", "iso-8859-1")
    assert response.final_url == response.url == server.url("/a")


def test_redirects_are_followed_to_the_final_url(fast: Settings) -> None:
    for server in serve({"/old": redirect("/mid", 302), "/mid": redirect("/new"), "/new": static(HTML)}):
        response = fetch(fast, server.url("/old"))
    assert (response.url, response.final_url) == (server.url("/old"), server.url("/new"))


def test_a_redirect_loop_stops_at_the_limit(fast: Settings) -> None:
    for server in serve({"/a": redirect("/b"), "/b": redirect("/a")}):
        with pytest.raises(FetchError, match="more than 5 redirects"):
            fetch(fast, server.url("/a"))


def test_404_is_a_fetch_error_with_its_status_and_not_retried(fast: Settings) -> None:
    for server in serve({"/robots.txt": static(b"", "text/plain")}):
        with pytest.raises(FetchError, match="HTTP 404") as caught:
            fetch(fast, server.url("/gone"))
    assert caught.value.status == 404 and caught.value.url == server.url("/gone")


def test_503_is_retried_until_it_succeeds(fast: Settings) -> None:
    for server in serve({"/busy": flaky(2, HTML)}):
        assert fetch(fast, server.url("/busy")).body == HTML
    assert server.hits["/busy"] == 3


def test_retries_are_bounded(fast: Settings) -> None:
    for server in serve({"/down": flaky(100, HTML)}):
        with pytest.raises(FetchError, match="HTTP 503") as caught:
            fetch(fast, server.url("/down"))
    assert caught.value.status == 503 and server.hits["/down"] == fast.fetch.retries + 1


def test_a_retry_after_over_the_cap_is_not_waited_for(fast: Settings) -> None:
    calls = []

    def answer(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(429, headers={"Retry-After": "3600"})

    started = time.monotonic()
    with Fetcher(replace(fast, fetch=replace(fast.fetch, respect_robots=False)), mock_client(answer)) as fetcher:
        with pytest.raises(FetchError, match="retry after 3600 s"):
            fetcher.fetch("http://example.test/a")
    assert len(calls) == 1 and time.monotonic() - started < 1


def test_a_short_retry_after_is_honoured(fast: Settings) -> None:
    calls: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        calls.append(time.monotonic())
        if len(calls) == 1:
            return httpx.Response(429, headers={"Retry-After": "1"})
        return httpx.Response(200, headers={"Content-Type": "text/html"}, content=HTML)

    with Fetcher(replace(fast, fetch=replace(fast.fetch, respect_robots=False)), mock_client(answer)) as fetcher:
        assert fetcher.fetch("http://example.test/a").body == HTML
    assert calls[1] - calls[0] >= 0.9


def test_requests_carry_forests_user_agent(fast: Settings) -> None:
    agents = []

    def answer(request: httpx.Request) -> httpx.Response:
        agents.append(request.headers["user-agent"])
        return httpx.Response(200, headers={"Content-Type": "text/html"}, content=HTML)

    with Fetcher(replace(fast, fetch=replace(fast.fetch, respect_robots=False)), mock_client(answer)) as fetcher:
        fetcher.fetch("http://example.test/a")
    assert agents[0].startswith("forest/") and "+https://" in agents[0]


def test_a_slow_server_times_out(fast: Settings) -> None:
    for server in serve({"/slow": slow(2.0, HTML)}):
        started = time.monotonic()
        with pytest.raises(FetchError, match="timed out after 0.5 s"):
            fetch(fast, server.url("/slow"))
        assert time.monotonic() - started < 1.5


def test_a_streamed_body_over_the_cap_is_cut_off(fast: Settings) -> None:
    for server in serve({"/huge": endless()}):
        started = time.monotonic()
        with pytest.raises(PageTooLargeError, match="200,000-byte limit"):
            fetch(fast, server.url("/huge"))
        assert time.monotonic() - started < 2


def test_a_declared_length_over_the_cap_is_refused_before_reading(fast: Settings) -> None:
    for server in serve({"/big": static(b"x" * 300_000)}):
        with pytest.raises(PageTooLargeError, match="300,000 bytes"):
            fetch(fast, server.url("/big"))


def test_a_gzip_bomb_is_cut_off_at_the_cap(fast: Settings) -> None:
    bomb = gzip.compress(b"<p>" + b" " * 5_000_000)
    route = static(bomb, headers={"Content-Encoding": "gzip"})
    for server in serve({"/bomb": route}):
        with pytest.raises(PageTooLargeError):
            fetch(fast, server.url("/bomb"))


def test_gzip_bodies_are_decoded(fast: Settings) -> None:
    for server in serve({"/z": static(gzip.compress(HTML), headers={"Content-Encoding": "gzip"})}):
        assert fetch(fast, server.url("/z")).body == HTML


@pytest.mark.parametrize(
    ("content_type", "kind", "ok"),
    [
        ("image/png", "page", False),
        ("application/pdf", "page", False),
        ("application/rss+xml", "page", False),
        ("application/rss+xml", "feed", True),
        ("text/html", "feed", True),
        ("image/png", "feed", False),
        ("image/png", "any", True),
    ],
    ids=["png", "pdf", "feed-as-page", "feed", "html-as-feed", "png-as-feed", "any"],
)
def test_content_types_are_checked(fast: Settings, content_type: str, kind: str, ok: bool) -> None:
    for server in serve({"/x": static(b"data", content_type)}):
        if ok:
            assert fetch(fast, server.url("/x"), kind=kind).content_type == content_type
        else:
            with pytest.raises(FetchError, match=re.escape(f"content type {content_type} is not")):
                fetch(fast, server.url("/x"), kind=kind)


def test_robots_txt_is_respected_unless_switched_off(fast: Settings) -> None:
    routes = {"/robots.txt": static(b"User-agent: *\nDisallow: /private/\n", "text/plain"), "/private/a": static(HTML)}
    for server in serve(routes):
        with pytest.raises(FetchError, match="robots.txt"):
            fetch(fast, server.url("/private/a"))
        assert fetch(replace(fast, fetch=replace(fast.fetch, respect_robots=False)), server.url("/private/a")).body == HTML
    assert server.hits["/robots.txt"] == 1


def test_robots_txt_that_errors_disallows_the_site(fast: Settings) -> None:
    for server in serve({"/robots.txt": static(b"oops", "text/plain", status=500), "/a": static(HTML)}):
        with pytest.raises(FetchError, match="robots.txt"):
            fetch(fast, server.url("/a"))


def test_a_refused_connection_is_a_fetch_error(fast: Settings) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(FetchError, match="connection refused"):
        fetch(replace(fast, fetch=replace(fast.fetch, respect_robots=False)), f"http://127.0.0.1:{port}/a")


@pytest.mark.parametrize("url", ["ftp://example.test/a", "not a url", "http:///nohost", "http://[::1"], ids=str)
def test_bad_urls_are_fetch_errors(fast: Settings, url: str) -> None:
    with pytest.raises(FetchError):
        fetch(fast, url)


def test_fetch_many_keeps_order_and_returns_errors_in_place(fast: Settings) -> None:
    for server in serve({"/a": static(HTML), "/c": static(HTML)}):
        with Fetcher(fast) as fetcher:
            results = fetcher.fetch_many([server.url("/a"), server.url("/b"), server.url("/c")])
    assert isinstance(results[0], Response) and isinstance(results[2], Response)
    assert isinstance(results[1], FetchError) and results[1].status == 404


def test_fetch_many_limits_concurrency(fast: Settings) -> None:
    lock = threading.Lock()
    state = {"now": 0, "most": 0}

    def busy(handler: Handler) -> tuple[int, dict[str, str], bytes]:
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return 200, {"Content-Type": "text/html"}, HTML

    settings = replace(fast, fetch=replace(fast.fetch, concurrency=2, respect_robots=False))
    for server in serve({f"/{i}": busy for i in range(8)}):
        with Fetcher(settings) as fetcher:
            results = fetcher.fetch_many([server.url(f"/{i}") for i in range(8)])
    assert all(isinstance(r, Response) for r in results) and state["most"] == 2


def test_requests_to_one_host_are_spaced_out(fast: Settings) -> None:
    settings = replace(fast, fetch=replace(fast.fetch, per_host_delay=0.15, respect_robots=False))
    for server in serve({"/a": static(HTML)}):
        started = time.monotonic()
        with Fetcher(settings) as fetcher:
            fetcher.fetch_many([server.url("/a")] * 4)
        assert time.monotonic() - started >= 0.45


def test_the_server_fixture_is_itself_bounded(gazette: Server) -> None:
    # The bad routes of the synthetic site answer (or fail) within seconds, never hang a test.
    assert httpx.get(gazette.url("/news/missing.html"), timeout=1).status_code == 404


def mock_client(answer: Callable[[httpx.Request], httpx.Response]) -> GuardedClient:
    """A client forest built, whose guarded transport this test deliberately replaces with ``answer``."""
    return GuardedClient(allow_private=False, wrap=lambda guarded: httpx.MockTransport(answer))
