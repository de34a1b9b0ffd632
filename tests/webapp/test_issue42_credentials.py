"""Issue 42, item 9: a user name and password in a URL are used to fetch, never stored or shown."""

from __future__ import annotations

import base64
import json
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import job_id, wait_for_job
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

import forest
from forest.cli import cli
from patterns.model import Pattern
from forest.demo import DemoServer
from forest.wrapper import Wrapper
from forest.urls import CREDENTIALS_NOTE, strip_credentials, without_credentials

SECRET = "s3cret-Pa55"
USER = "reader"


@pytest.fixture(scope="module")
def gated(site: DemoServer) -> Iterator[str]:
    """The example site behind HTTP basic authentication on 127.0.0.1, its feed listing its
    pages with the user name and password in their URLs; yields the feed's URL with them."""
    expected = "Basic " + base64.b64encode(f"{USER}:{SECRET}".encode()).decode()

    class Gate(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.headers.get("Authorization") != expected:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="feed"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            try:
                with urllib.request.urlopen(site.base_url + self.path, timeout=10) as upstream:  # our own loopback server
                    status, body, content_type = 200, upstream.read(), upstream.headers["Content-Type"]
            except urllib.error.HTTPError as exc:
                status, body, content_type = exc.code, b"", "text/plain"
            body = body.replace(site.base_url.encode(), credentialed.encode())
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Gate)
    server.daemon_threads = True
    credentialed = f"http://{USER}:{SECRET}@127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"{credentialed}/rss.xml"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def _database_text(db: Path) -> str:
    """Every text and blob of every table of ``db`` (sample pages decompressed aside: they are page HTML)."""
    with sqlite3.connect(db) as connection:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        cells = [str(cell) for table in tables for row in connection.execute(f'SELECT * FROM "{table}"') for cell in row]
    return "\n".join(cells)


@pytest.mark.parametrize(("url", "stripped"), [
    ("https://user:pass@host/feed", "https://host/feed"),
    ("http://user@host:8080/a?b=c@d#e@f", "http://host:8080/a?b=c@d#e@f"),
    ("https://u:p@[::1]:80/x", "https://[::1]:80/x"),
    ("https://a@b:c@host/", "https://host/"),
    ("HTTPS://u:p@Host", "HTTPS://Host"),
    ("https://host/p@x", "https://host/p@x"),
    ("not a url @ all", "not a url @ all"),
    ("", ""),
])
def test_strip_credentials(url: str, stripped: str) -> None:
    assert strip_credentials(url) == stripped


@given(st.text(max_size=60), st.text(alphabet=st.characters(blacklist_characters="/?#@"), max_size=20))
def test_strip_credentials_leaves_no_password(rest: str, password: str) -> None:
    url = f"https://user:{password}@example.com/{rest}"
    stripped = strip_credentials(url)
    assert stripped == f"https://example.com/{rest}" and strip_credentials(stripped) == stripped


def test_without_credentials_cleans_every_url_of_a_message() -> None:
    message = f"http://{USER}:{SECRET}@127.0.0.1:5/rss.xml: HTTP 401; tried 'https://{USER}:{SECRET}@h/feed'"
    assert without_credentials(message) == "http://127.0.0.1:5/rss.xml: HTTP 401; tried 'https://h/feed'"


def test_the_cli_fetches_with_them_and_keeps_and_prints_none(gated: str, site: DemoServer, runner: CliRunner,
                                                              db: Path) -> None:
    learned = runner.invoke(cli, ["learn", "--allow-private", "--site", "example.test", gated])
    assert learned.exit_code == 0, learned.output  # the gate let the feed and its pages through: they were used
    assert f"note: {CREDENTIALS_NOTE}" in learned.output and learned.output.count(CREDENTIALS_NOTE) == 1
    assert "learned example.test" in learned.output and "found the feed" not in learned.output
    page = gated.replace("/rss.xml", site.held_out_url.removeprefix(site.base_url))
    extracted = runner.invoke(cli, ["extract", "--allow-private", "--format", "json", page])
    assert extracted.exit_code == 0, extracted.output
    assert json.loads(extracted.stdout)["source"] == strip_credentials(page)
    failed = runner.invoke(cli, ["learn", "--allow-private", gated.replace("/rss.xml", "/nothing.xml")])
    assert failed.exit_code == 1 and "error:" in failed.stderr
    shown = [runner.invoke(cli, command) for command in (["sites"], ["show", "example.test"])]
    for result in [learned, extracted, failed, *shown]:
        assert SECRET not in result.output and SECRET not in result.stderr, result.output + result.stderr
    wrapper = json.loads(shown[1].stdout)
    assert wrapper["feed_url"] == strip_credentials(gated) and all("@" not in url for url in wrapper["sample"])
    assert SECRET not in _database_text(db) and USER not in _database_text(db)


def test_the_web_app_stores_and_shows_none(gated: str, make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    client = make_client()
    queued = client.post("/api/learn", json={"url": gated, "site": "example.test", "wait": 0})
    job = wait_for_job(client, job_id(queued))
    # The job keeps the URL without them, so the gate refuses it: no password is kept to send.
    assert job["url"] == strip_credentials(gated) and job["state"] == "failed" and "401" in job["error"]
    refused = client.post("/api/extract", json={"url": "ftp://" + gated.split("://", 1)[1]})
    assert refused.status_code == 422 and SECRET not in refused.text
    pasted = client.post("/api/extract", json={"html": "<p>pasted</p>", "url": gated, "wait": 0})
    wait_for_job(client, job_id(pasted))
    assert SECRET not in _database_text(tmp_path / "forest.db")
    # A wrapper stored before learning stripped them: still not shown.
    with forest.WrapperStore(tmp_path / "forest.db") as store:
        old = Wrapper(site="old.test", patterns=(Pattern("//article", 1.0, 3, 1.0),), feed_url=gated, sample=(gated,))
        store.save("old.test", old.to_dict())
    for path in ("/", "/jobs", "/jobs/1", "/jobs/2", "/api/jobs", "/api/sites", "/sites/old.test"):
        response = client.get(path)
        assert response.status_code == 200 and SECRET not in response.text and USER not in response.text, path
