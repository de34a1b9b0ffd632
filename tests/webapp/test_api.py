"""The JSON API of `forest serve`, through Starlette's test client, on the example site served on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import BASE_URL, FAST
from robustness.hostile import Route, ok, send, serve
from starlette.testclient import TestClient

from forest import Article, FetchSettings
from forest.cli import cli
from forest.demo import DemoServer, ExampleSite, token_f1

RECORD_KEYS = {"source", *Article(url="u", site="s", title="t", text="x", method="none", confidence=0.0).to_dict()}


@pytest.fixture(scope="module")
def learned(site: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    """A client whose database has the example site learned (through the API) as example.test."""
    from forest.webapp import create_app

    db = tmp_path_factory.mktemp("learned") / "forest.db"
    with TestClient(create_app(db, settings=FAST), base_url=BASE_URL) as client:
        response = client.post("/api/learn", json={"url": site.feed_url, "site": "example.test"})
        assert response.status_code == 200, response.text
        yield client, db


def test_learn_returns_what_learning_did(learned: tuple[TestClient, Path], site: DemoServer) -> None:
    client, _ = learned
    jobs = client.get("/api/jobs").json()["jobs"]
    learn = next(j for j in jobs if j["kind"] == "learn")
    assert learn["state"] == "finished" and learn["attempts"] == 1
    result = learn["result"]
    assert result["site"] == "example.test" and result["version"] == 1
    assert result["feed_url"] == site.feed_url
    assert len(result["used"]) == 6 and result["skipped"] == []
    # The new wrapper on its first sample page, from the page as downloaded.
    assert result["article"]["method"] == "wrapper" and result["page"]["revision"] is not None


def test_extract_url_gives_the_cli_record(learned: tuple[TestClient, Path], site: DemoServer,
                                         example: ExampleSite) -> None:
    client, _ = learned
    # The site was learned under its canonical name; the pages are served from 127.0.0.1.
    response = client.post("/api/extract", json={"url": site.held_out_url, "site": "example.test"})
    assert response.status_code == 200, response.text
    record = response.json()
    assert set(record) == RECORD_KEYS
    assert record["source"] == site.held_out_url and record["site"] == "example.test"
    assert record["method"] == "wrapper" and record["pattern"]
    assert token_f1(record["text"], example.expected.read_text(encoding="utf-8")) > 0.9
    job = client.get(response.headers["location"]).json()
    assert job["state"] == "finished" and job["result"]["article"] == record


def test_extract_pasted_html_matches_forest_extract_json(learned: tuple[TestClient, Path],
                                                         example: ExampleSite) -> None:
    client, db = learned
    html = example.held_out.read_text(encoding="utf-8")
    response = client.post("/api/extract", json={"html": html, "site": "example.test"})
    assert response.status_code == 200, response.text
    ours = response.json()
    cli_result = CliRunner(env={"FOREST_DB": str(db)}).invoke(
        cli, ["extract", "--site", "example.test", "--format", "json", str(example.held_out)]
    )
    assert cli_result.exit_code == 0, cli_result.output
    theirs = json.loads(cli_result.stdout)
    assert ours["source"] == "-" and theirs["source"] == str(example.held_out)
    assert {k: v for k, v in ours.items() if k != "source"} == {k: v for k, v in theirs.items() if k != "source"}


def test_sites_lists_health(learned: tuple[TestClient, Path], site: DemoServer) -> None:
    client, _ = learned
    rows = client.get("/api/sites").json()
    assert [row["site"] for row in rows] == ["example.test"]
    row = rows[0]
    assert row["version"] == 1 and row["feed_url"] == site.feed_url and row["health"] == "ok"
    assert {"learned_at", "pages_extracted", "misses"} <= set(row)


def test_get_job_unknown_is_404_json(client: TestClient) -> None:
    response = client.get("/api/jobs/999")
    assert response.status_code == 404 and response.json()["error"] == "no job 999"
    assert client.get("/api/nothing-here").headers["content-type"] == "application/json"


@pytest.mark.parametrize("endpoint", ["/api/extract", "/api/learn"])
@pytest.mark.parametrize(
    "url", ["not a url", "ftp://example.com/feed", "javascript:alert(1)", "http://", "file:///etc/passwd", 42, None],
    ids=["words", "ftp", "javascript", "no-host", "file", "number", "missing"],
)
def test_not_a_url_is_422_json(client: TestClient, endpoint: str, url: object) -> None:
    response = client.post(endpoint, json={"url": url})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/json"
    assert "url" in response.json()["error"]
    assert client.get("/api/jobs").json()["total"] == 0  # nothing queued


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_40_mb_body_is_413_json(client: TestClient, chunked: bool) -> None:
    body = b'{"html": "' + b"x" * 40_000_000 + b'"}'
    content = iter([body[i:i + 1_000_000] for i in range(0, len(body), 1_000_000)]) if chunked else body
    response = client.post("/api/extract", content=content, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "limit" in response.json()["error"]


def test_pasted_page_over_the_page_limit_is_413(make_client: Callable[..., TestClient]) -> None:
    from forest import Settings

    client = make_client(settings=Settings(max_page_bytes=1000, fetch=FetchSettings(per_host_delay=0.0, allow_private=True)), max_body_bytes=100_000)
    response = client.post("/api/extract", json={"html": "<p>" + "word " * 500 + "</p>"})
    assert response.status_code == 413
    assert response.json()["error"] == "html: the page is 2.5 kB, over the 1.0 kB limit (Settings.max_page_bytes)"


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b"\xff\xfe"], ids=["broken", "array", "binary"])
def test_a_body_that_is_not_a_json_object_is_400(client: TestClient, body: bytes) -> None:
    response = client.post("/api/extract", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400 and "JSON" in response.json()["error"]


@pytest.mark.parametrize("wait", [-1, 10_000, "soon", True])
def test_bad_wait_is_422(client: TestClient, wait: object) -> None:
    response = client.post("/api/learn", json={"url": "http://example.com/feed", "wait": wait})
    assert response.status_code == 422 and "wait" in response.json()["error"]


def _not_a_feed() -> dict[str, Route]:
    """A server whose /feed.xml is served as RSS but holds no XML (everything else is a 404)."""
    return {"/feed.xml": lambda sock, stop: send(sock, ok(b"just some words, no XML", b"application/rss+xml"))}


def test_a_feed_that_is_not_a_feed_is_422_and_the_job_failed(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    with serve(_not_a_feed()) as server:
        response = client.post("/api/learn", json={"url": server.url("/feed.xml")})
    assert response.status_code == 422, response.text
    error = response.json()
    assert "feed" in error["error"].lower()
    job = client.get(f"/api/jobs/{error['job']}").json()
    assert job["state"] == "failed" and job["error"] == error["error"]
    # The downloads are kept even though the job failed (robots.txt and the feed): they show what the server sent.
    assert "2 downloads kept" in client.get(f"/jobs/{error['job']}").text


def test_a_dead_url_fails_the_job_with_the_reason(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    with serve(_not_a_feed()) as server:
        response = client.post("/api/extract", json={"url": server.url("/gone.html")})
    assert response.status_code == 422 and "404" in response.json()["error"]


def test_without_waiting_the_job_is_202_pending(make_client: Callable[..., TestClient]) -> None:
    client = make_client(run_worker=False)
    response = client.post("/api/extract", json={"url": "http://example.com/a.html", "wait": 0})
    assert response.status_code == 202
    assert response.json() == {"job": 1, "state": "pending", "url": "/api/jobs/1"}
    assert response.headers["location"] == "/api/jobs/1"
    assert client.get("/api/jobs/1").json()["state"] == "pending"


@pytest.mark.parametrize("headers", [{"origin": "http://evil.example"}, {"sec-fetch-site": "cross-site"}],
                         ids=["origin", "sec-fetch-site"])
def test_a_cross_site_post_is_refused(client: TestClient, headers: dict[str, str]) -> None:
    response = client.post("/api/learn", json={"url": "http://example.com/feed"}, headers=headers)
    assert response.status_code == 403 and "cross-site" in response.json()["error"]
    assert client.get("/api/jobs").json()["total"] == 0


def test_another_host_name_is_refused(client: TestClient) -> None:
    # A page of evil.example whose name now resolves to 127.0.0.1 (DNS rebinding) reads nothing.
    response = client.get("/api/sites", headers={"host": "evil.example:8000"})
    assert response.status_code == 400 and "Host" in response.json()["error"]
    assert client.get("/api/sites", headers={"host": "localhost:8000"}).status_code == 200


def test_another_applications_database_is_left_alone(tmp_path: Path) -> None:
    import sqlite3

    from forest import StoreError
    from forest.webapp import create_app

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    with pytest.raises(StoreError, match="not a forest database"):
        create_app(other)
    with sqlite3.connect(other) as conn:
        assert [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["notes"]
