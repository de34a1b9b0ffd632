"""The HTML pages of `forest serve`: sites, a site's wrapper, the form, the job list, a job's result."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

import pytest
from lxml import html as lxml_html
from conftest import wait_for_job
from robustness.hostile import send, serve
from starlette.testclient import TestClient

from forest.demo import DemoServer, ExampleSite

SRCDOC = re.compile(r'<iframe id="page"[^>]*\bsandbox=""[^>]*\bsrcdoc="([^"]*)"')


@pytest.fixture
def learned(client: TestClient, site: DemoServer) -> TestClient:
    response = client.post("/api/learn", json={"url": site.feed_url, "site": "example.test"})
    assert response.status_code == 200, response.text
    return client


def test_home_lists_sites_and_has_the_form(learned: TestClient) -> None:
    page = learned.get("/")
    assert page.status_code == 200
    assert '<a href="/sites/example.test">example.test</a>' in page.text
    assert 'name="action" value="learn"' in page.text and 'name="action" value="extract"' in page.text


def test_every_page_has_a_strict_policy_and_no_script(learned: TestClient) -> None:
    for path in ("/", "/jobs", "/jobs/1", "/sites/example.test"):
        page = learned.get(path)
        policy = page.headers["content-security-policy"]
        assert policy.startswith("default-src 'none'") and "unsafe-inline" not in policy and "script-src" not in policy
        assert page.headers["x-frame-options"] == "DENY"
        assert "<script" not in page.text.lower()


def test_site_page_shows_the_wrapper(learned: TestClient) -> None:
    page = learned.get("/sites/example.test").text
    main = learned.get("/api/sites").json()
    assert main  # the stored site, whose main pattern the page shows
    assert "//div[@class=&#39;story-body&#39;]" in page
    for heading in ("Patterns", "Exclusions", "Template blocks", "Fields", "Part of each page parsed", "Notes", "Versions", "Sample pages"):
        assert f"<h2>{heading}</h2>" in page
    assert page.count("show the wrapper on it") == 6  # every sample page was kept as a revision
    preview = re.search(r'href="(/sites/example.test/pages/\d+)"', page)
    assert preview is not None
    shown = learned.get(preview.group(1))
    assert shown.status_code == 200 and SRCDOC.search(shown.text)


def test_unknown_site_and_job_are_404_pages(client: TestClient) -> None:
    for path in ("/sites/nowhere.test", "/jobs/77"):
        page = client.get(path)
        assert page.status_code == 404 and 'class="error"' in page.text


def test_result_page_highlights_the_article_in_a_sandboxed_frame(learned: TestClient, site: DemoServer,
                                                                  example: ExampleSite) -> None:
    job = learned.post("/api/extract", json={"url": site.held_out_url, "site": "example.test"})
    job_id = int(job.headers["location"].rsplit("/", 1)[1])
    page = learned.get(f"/jobs/{job_id}").text
    match = SRCDOC.search(page)
    assert match is not None
    frame = unescape(match.group(1))
    assert "<script" not in frame.lower() and "onclick" not in frame.lower()
    regions = lxml_html.document_fromstring(frame).find_class("forest-region")
    lines = example.expected.read_text(encoding="utf-8").splitlines()
    text = " ".join(" ".join(node.text_content().split()) for node in regions)
    assert regions and lines[1] in text and lines[-1] in text
    sidebar = frame[frame.index('<aside class="sidebar">'):]
    assert "forest-region" not in sidebar
    assert 'id="method">wrapper<' in page and "# Restored estate maps" in page  # the markdown


def test_form_queues_a_job_and_redirects_to_it(client: TestClient, site: DemoServer) -> None:
    response = client.post("/jobs", data={"action": "learn", "url": site.feed_url, "site": "example.test"},
                           follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/jobs/1"
    assert wait_for_job(client, 1)["state"] == "finished"
    page = client.get("/jobs/1").text
    assert 'id="state">finished<' in page and "Learned <a href=\"/sites/example.test\">" in page


def test_form_with_a_bad_url_shows_the_error(client: TestClient) -> None:
    response = client.post("/jobs", data={"action": "extract", "url": "javascript:alert(1)"})
    assert response.status_code == 422
    assert "is not an http:// or https:// URL" in unescape(response.text)
    assert client.get("/api/jobs").json()["total"] == 0


def test_form_extracts_pasted_html(learned: TestClient, example: ExampleSite) -> None:
    html = example.held_out.read_text(encoding="utf-8")
    response = learned.post("/jobs", files={"action": (None, "extract"), "html": (None, html), "url": (None, ""),
                                            "site": (None, "example.test")}, follow_redirects=False)
    assert response.status_code == 303
    job = wait_for_job(learned, int(response.headers["location"].rsplit("/", 1)[1]))
    assert job["state"] == "finished" and job["result"]["article"]["method"] == "wrapper"


def test_job_list_pages_newest_first_and_refreshes_while_jobs_wait(make_client: Callable[..., TestClient]) -> None:
    client = make_client(run_worker=False)
    for i in range(25):
        client.post("/api/extract", json={"url": f"http://example.com/{i}.html", "wait": 0})
    first = client.get("/jobs").text
    ids = [int(n) for n in re.findall(r'<td><a href="/jobs/(\d+)">', first)]
    assert ids == list(range(25, 5, -1))
    assert '<meta http-equiv="refresh"' in first and "page 1 of 2" in first
    second = client.get("/jobs?page=2").text
    assert [int(n) for n in re.findall(r'<td><a href="/jobs/(\d+)">', second)] == [5, 4, 3, 2, 1]
    assert client.get("/jobs?page=0").status_code == 400
    assert '<meta http-equiv="refresh"' in client.get("/jobs/3").text  # a pending job's page reloads


def test_failed_job_shows_its_reason(make_client: Callable[..., TestClient]) -> None:
    unavailable = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    client = make_client()
    with serve({"/a.html": lambda sock, stop: send(sock, unavailable)}) as server:
        client.post("/api/extract", json={"url": server.url("/a.html")})
    listing = client.get("/jobs").text
    assert '<span class="state failed">failed</span>' in listing
    assert "HTTP 503" in listing and "HTTP 503" in client.get("/jobs/1").text
