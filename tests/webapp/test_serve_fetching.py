"""`forest serve` fetches as the CLI does: no private address in any form, on any hop, and no job stuck past its deadline."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from conftest import FAST, job_id, wait_for_job
from robustness.hostile import HostileServer, ok, send, serve, trickle
from starlette.testclient import TestClient

import forest.netpolicy
from forest import FetchError, FetchSettings, Settings
from forest.net.fetch import Fetcher

PAGE = b"<html><head><title>Secret</title></head><body><p>" + b"intranet words " * 50 + b"</p></body></html>"
# What the app runs with when started without --allow-private.
GUARDED = Settings(fetch=FetchSettings(per_host_delay=0.0, connect_timeout=2.0, read_timeout=5.0, total_timeout=10.0,
                                       retries=0, allow_private=False))
# A name that the test's resolver answers with a loopback address, as /etc/hosts or an intranet DNS would.
INTRANET = "intranet.test"


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Names the resolver answers with the given address; every other name resolves as usual."""
    answers: dict[str, str] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in answers:
            return real(answers[host], port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


@pytest.fixture
def secret() -> Iterator[HostileServer]:
    """A private page on loopback that no job may read."""
    with serve({"/secret.html": lambda sock, stop: send(sock, ok(PAGE))}) as server:
        yield server


def _host_forms(port: int) -> list[str]:
    return [f"http://{host}:{port}/secret.html" for host in
            ("127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "[::ffff:127.0.0.1]", "localhost", INTRANET)]


def test_the_app_refuses_every_loopback_form_the_cli_refuses(make_client: Callable[..., TestClient],
                                                             secret: HostileServer, resolver: dict[str, str]) -> None:
    resolver[INTRANET] = "127.0.0.1"
    client = make_client(settings=GUARDED)
    for url in _host_forms(secret.server_address[1]):
        with Fetcher(GUARDED) as fetcher, pytest.raises(FetchError, match="refused to connect"):
            fetcher.fetch(url)  # the CLI's fetch path
        response = client.post("/api/extract", json={"url": url})
        assert response.status_code == 422, (url, response.text)
        assert "refused to connect" in response.json()["error"], url
        assert "intranet words" not in response.text
    assert secret.hits == []


@contextmanager
def _public_stand_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let 127.0.0.1 count as a public address: the only server a test may run is on loopback."""
    real = forest.netpolicy.refusal

    def refusal(address: Any) -> str | None:
        return None if str(address) == "127.0.0.1" else real(address)

    monkeypatch.setattr(forest.netpolicy, "refusal", refusal)
    yield


@pytest.mark.parametrize("target", ["http://127.0.0.2:{port}/secret.html", "http://2130706434:{port}/secret.html",
                                    "http://intranet.test:{port}/secret.html"])
def test_every_redirect_hop_is_checked(make_client: Callable[..., TestClient], resolver: dict[str, str],
                                       monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    resolver[INTRANET] = "127.0.0.2"
    hits: list[bytes] = []
    private = _LoopbackServer("127.0.0.2", hits)
    location = target.format(port=private.port).encode()
    redirect = b"HTTP/1.1 302 Found\r\nLocation: " + location + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    with _public_stand_in(monkeypatch), private, serve({"/a.html": lambda sock, stop: send(sock, redirect)}) as public:
        client = make_client(settings=GUARDED)
        response = client.post("/api/extract", json={"url": public.url("/a.html")})
    assert response.status_code == 422, response.text
    assert "refused to connect" in response.json()["error"]
    assert "/a.html" in public.hits and hits == []


def test_a_trickling_server_holds_one_job_to_its_deadline_and_no_other(make_client: Callable[..., TestClient],
                                                                       example_page: bytes) -> None:
    settings = replace(FAST, fetch=replace(FAST.fetch, total_timeout=3.0, read_timeout=1.0))

    def headers(sock: socket.socket, stop: threading.Event) -> None:
        trickle(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: " + b"a" * 10_000, stop, sock, every=0.5)

    with serve({"/slow.html": headers}) as server:
        url = server.url("/slow.html")
        with Fetcher(settings) as fetcher, pytest.raises(FetchError) as cli:
            fetcher.fetch(url)
        client = make_client(settings=settings)
        started = time.monotonic()
        stuck = job_id(client.post("/api/extract", json={"url": url, "wait": 0}))
        others = [job_id(client.post("/api/extract", json={"html": example_page.decode(), "wait": 0})) for _ in range(3)]
        done = [wait_for_job(client, job, timeout=30) for job in others]
        others_done = time.monotonic() - started
        assert all(job["state"] == "finished" for job in done), done
        assert client.get(f"/api/jobs/{stuck}").json()["state"] == "running"  # still held by the server meanwhile
        failed = wait_for_job(client, stuck, timeout=30)
        took = time.monotonic() - started
    assert others_done < settings.fetch.total_timeout
    assert failed["state"] == "failed" and took < settings.fetch.total_timeout + 3.0
    assert failed["error"] == str(cli.value)  # the CLI's deadline message, word for word
    assert "deadline" in failed["error"]


@pytest.fixture
def example_page(example: Any) -> bytes:
    return bytes(example.held_out.read_bytes())


class _LoopbackServer:
    """A server on another loopback address (Linux answers all of 127.0.0.0/8) that records any request."""

    def __init__(self, host: str, hits: list[bytes]) -> None:
        self._sock = socket.create_server((host, 0))
        self.port = self._sock.getsockname()[1]
        self._hits = hits
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            with conn:
                self._hits.append(conn.recv(4096))
                send(conn, ok(PAGE))

    def __enter__(self) -> _LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sock.close()
        self._thread.join(5)


def test_a_failed_jobs_error_names_no_credentials(make_client: Callable[..., TestClient]) -> None:
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: the redirect's target refuses the connection
    location = f"http://reader:s3cret@127.0.0.1:{port}/a.html".encode()
    redirect = b"HTTP/1.1 302 Found\r\nLocation: " + location + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    client = make_client()
    with serve({"/a.html": lambda sock, stop: send(sock, redirect)}) as server:
        response = client.post("/api/extract", json={"url": server.url("/a.html")})
    assert response.status_code == 422 and f"127.0.0.1:{port}" in response.json()["error"]
    job = client.get(f"/api/jobs/{response.json()['job']}").json()
    assert "s3cret" not in response.text and "s3cret" not in json.dumps(job)
