"""Issue 42, item 11: `forest serve` keeps its Host-header check (DNS rebinding) on every loopback bind address."""

from __future__ import annotations

import warnings
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from forest.cli import cli
from forest.webapp.live import serve_in_thread

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from starlette.testclient import TestClient

# Every spelling of a loopback bind address: the check was on only for the first, fourth and seventh.
LOOPBACK = ["127.0.0.1", "127.0.0.2", "127.255.255.254", "localhost", "localhost.", "LocalHost", "::1", "[::1]",
            "::ffff:127.0.0.1", "127.1", "2130706433", "0x7f000001", "app.localhost"]
# A page of another site whose name its owner pointed at 127.0.0.1.
REBOUND = "rebinding.example:8123"


def _served_app(monkeypatch: pytest.MonkeyPatch, runner: CliRunner, host: str) -> tuple[Any, dict[str, Any]]:
    """The app `forest serve --host HOST` would run, and how it would run it (uvicorn is not started)."""
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append({"app": app, **kwargs}))
    result = runner.invoke(cli, ["serve", "--host", host, "--port", "8123"])
    assert result.exit_code == 0, result.output
    (call,) = calls
    return call.pop("app"), call


@pytest.mark.parametrize("host", LOOPBACK)
def test_every_loopback_bind_address_keeps_the_host_check(monkeypatch: pytest.MonkeyPatch, runner: CliRunner,
                                                          host: str) -> None:
    app, _ = _served_app(monkeypatch, runner, host)
    client = TestClient(app, base_url="http://127.0.0.1")  # no lifespan: the worker does not start
    refused = client.get("/api/sites", headers={"host": REBOUND})
    assert refused.status_code == 400 and "Host" in refused.json()["error"]
    for name in ("127.0.0.1:8123", "localhost:8123", "[::1]:8123"):
        assert client.get("/api/sites", headers={"host": name}).status_code == 200, name


@pytest.mark.parametrize("host", ["127.0.0.2", "localhost.", "[::1]", "127.1"])
def test_the_bind_address_itself_is_served(monkeypatch: pytest.MonkeyPatch, runner: CliRunner, host: str) -> None:
    app, call = _served_app(monkeypatch, runner, host)
    client = TestClient(app, base_url="http://127.0.0.1")
    shown = host if host.startswith("[") else f"[{host}]" if ":" in host else host
    assert client.get("/api/sites", headers={"host": f"{shown}:8123"}).status_code == 200
    assert ":" not in host or call["host"] == host.strip("[]")  # uvicorn binds ::1, not "[::1]"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10", ""])
def test_a_network_bind_address_serves_any_host_name(host: str) -> None:
    # Bound to a network on purpose: the network's names for this machine are not known.
    from forest.webapp.safety import is_loopback, served_hosts

    assert not is_loopback(host) and served_hosts(host) is None


def test_a_real_server_refuses_a_rebound_name(monkeypatch: pytest.MonkeyPatch, runner: CliRunner) -> None:
    app, _ = _served_app(monkeypatch, runner, "localhost.")
    with serve_in_thread(app) as base_url, httpx.Client(base_url=base_url) as http:
        refused = http.get("/api/sites", headers={"host": REBOUND})
        assert refused.status_code == 400 and "Host" in refused.json()["error"]
        assert http.get("/api/sites").status_code == 200  # Host: 127.0.0.1:PORT
