"""Fixtures for `forest serve`: the app on a fresh database, the bundled example site served on 127.0.0.1."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="forest serve needs the web extra: pip install -e '.[web]'")
pytest.importorskip("jinja2", reason="forest serve needs the web extra: pip install -e '.[web]'")
pytest.importorskip("multipart", reason="forest serve needs the web extra: pip install -e '.[web]'")

with warnings.catch_warnings():
    # Starlette 1.x would rather its test client ran on the httpx2 package and warns,
    # once, on import when it finds httpx; that says nothing about forest.
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from starlette.testclient import TestClient

from forest import FetchSettings, Settings
from forest.demo import DemoServer, ExampleSite, example_site, serve_example
from forest.webapp import create_app

# The app serves loopback names only (not the test client's default "testserver").
BASE_URL = "http://127.0.0.1"
# The example site is on our own loopback server: no politeness delay, short timeouts.
# The example site is served on 127.0.0.1: private addresses are allowed, as `forest demo` allows them.
FAST = Settings(fetch=FetchSettings(per_host_delay=0.0, connect_timeout=2.0, read_timeout=5.0, total_timeout=10.0, retries=0, allow_private=True))


@pytest.fixture(scope="session")
def example() -> ExampleSite:
    return example_site()


@pytest.fixture(scope="module")
def site(example: ExampleSite) -> Iterator[DemoServer]:
    """The bundled example site and its feed (without the held-out page) on 127.0.0.1."""
    with serve_example(example) as server:
        yield server


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Open a test client on a fresh app over ``tmp_path/forest.db`` (keyword arguments go to create_app)."""
    opened: list[TestClient] = []

    def make(**options: Any) -> TestClient:
        options.setdefault("settings", FAST)
        client = TestClient(create_app(options.pop("db_path", tmp_path / "forest.db"), **options), base_url=BASE_URL)
        client.__enter__()  # runs the lifespan: the worker starts
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def job_id(response: Any) -> int:
    """The job an API answer is about, from its Location header: a job queued with ``"wait": 0`` may
    be done by the first look already, and its answer is then its result, with no "job" field."""
    location: str = response.headers["location"]
    return int(location.rsplit("/", 1)[1])


def wait_for_job(client: TestClient, job_id: int, timeout: float = 30.0) -> dict[str, Any]:
    """Poll the API until job ``job_id`` is done; return it."""
    deadline = time.monotonic() + timeout
    while True:
        job: dict[str, Any] = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] in ("finished", "failed") or time.monotonic() > deadline:
            return job
        time.sleep(0.05)
