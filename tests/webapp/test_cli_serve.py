"""`forest serve`: the command starts uvicorn on the app, on loopback by default, and says what is missing without the extra."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from forest.cli import cli


def test_serve_runs_the_app_on_loopback(monkeypatch: pytest.MonkeyPatch, runner: CliRunner, db: Path) -> None:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append({"app": app, **kwargs}))
    result = runner.invoke(cli, ["serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    (call,) = calls
    assert call["host"] == "127.0.0.1" and call["port"] == 8123
    assert call["app"].state.forest.db_path == db and db.exists()
    assert f"serving http://127.0.0.1:8123/ (wrappers and jobs in {db})" in result.stderr


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, runner: CliRunner) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now raises ImportError
    result = runner.invoke(cli, ["serve"])
    assert result.exit_code == 1
    assert "forest serve needs the web extra" in result.stderr and "pip install 'forest-extract[web]'" in result.stderr
