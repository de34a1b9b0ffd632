"""What the result page shows, in Debian's headless Chromium: a cold page's kept blocks, the article as forest
renders it (the headline once, headings, code with its lines), a phone's width, and learning's progress."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from forest import FetchSettings, Settings
from forest.demo import DemoServer, ExampleSite, route_handler
from forest.webapp.live import CHROMIUM, JOB_TIMEOUT_MS, chromium_path, serve_in_thread

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser test needs Playwright: pip install -e '.[test]'"
)
if chromium_path() is None:
    pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (.ci/run does)", allow_module_level=True)

COLD_PAGE = Path(__file__).with_name("data") / "cold_article.html"
HEADLINE = "Bringing a network interface up by hand"
FIRST_CODE_LINES = [
    "$ ip link show dev eth0",
    "2: eth0: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN mode DEFAULT group default qlen 1000",
    "    link/ether 52:54:00:12:34:56 brd ff:ff:ff:ff:ff:ff",
]
# An iPhone's CSS width: the page body must not scroll sideways at it.
PHONE_WIDTH = 390
# How long the gated site holds its pages while the test looks at the running job (the
# worker stores progress each second and the job page reloads each second).
GATE_S = 30.0


@pytest.fixture(scope="module")
def app_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    """A Chromium page and the base URL of the app, served by uvicorn on 127.0.0.1 over a fresh database."""
    from forest.webapp import create_app
    from forest.webapp.live import launch

    # Fetches may wait on the gated site below for as long as the test holds it.
    settings = Settings(fetch=FetchSettings(per_host_delay=0.0, connect_timeout=2.0, read_timeout=GATE_S + 10,
                                            total_timeout=GATE_S + 20, retries=0, allow_private=True))
    app = create_app(tmp_path_factory.mktemp("browser-article") / "forest.db", settings=settings)
    with serve_in_thread(app) as base_url, sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900}), base_url
        finally:
            browser.close()


@pytest.fixture(scope="module")
def cold_job(app_page: tuple[Any, str]) -> str:
    """The address of the finished job that extracted the cold page, pasted into the form (no site learned)."""
    page, base_url = app_page
    page.goto(f"{base_url}/")
    page.click("#new summary")
    page.fill("#html", COLD_PAGE.read_text(encoding="utf-8"))
    page.click("#extract")
    page.wait_for_url(f"{base_url}/jobs/*")
    page.wait_for_selector("#state.finished, #state.failed", timeout=JOB_TIMEOUT_MS)
    assert page.inner_text("#state") == "finished", page.inner_text("main")
    url: str = page.url
    return url


def test_a_cold_page_highlights_the_blocks_the_classifier_kept(app_page: tuple[Any, str], cold_job: str) -> None:
    page, _ = app_page
    page.goto(cold_job)
    assert page.inner_text("#method") == "classifier"
    frame = page.frame_locator("iframe#page")
    kept = frame.locator(".forest-kept").all_inner_texts()
    joined = "\n".join(kept)
    assert HEADLINE in joined and "Reading the flags" in joined and FIRST_CODE_LINES[0] in joined
    assert joined.count("When a server boots without its network") == 1
    # The menu, the sidebar and the footer are not the article.
    assert not any(word in joined for word in ("Archive", "Most read", "Ten shell tricks", "All rights reserved"))
    assert frame.locator("nav .forest-kept, aside .forest-kept, footer .forest-kept").count() == 0
    assert f"{len(kept)} kept blocks highlighted" in page.inner_text("section.page")


def test_the_article_prints_its_headline_once_with_headings_and_code(app_page: tuple[Any, str], cold_job: str) -> None:
    page, _ = app_page
    page.goto(cold_job)
    # The panel as read (its markdown and JSON folded away): the headline once, as its heading.
    assert page.inner_text("#article").count(HEADLINE) == 1
    assert page.locator("#article-body h1").all_inner_texts() == [HEADLINE]
    assert page.locator("#text h2").all_inner_texts() == ["Reading the flags", "Bringing it up"]
    code = page.locator("#text pre").first.inner_text()
    assert code.split("\n") == FIRST_CODE_LINES
    assert page.locator("#text pre").count() == 2


def test_pages_read_at_a_phones_width(app_page: tuple[Any, str], cold_job: str) -> None:
    page, base_url = app_page
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 844})
    try:
        for address in (cold_job, f"{base_url}/", f"{base_url}/jobs"):
            page.goto(address)
            width = page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= PHONE_WIDTH, (address, width)
        page.goto(cold_job)
        # One column: the article under the page, each as wide as the screen allows.
        frame_box, article_box = page.locator("iframe#page").bounding_box(), page.locator("#article").bounding_box()
        assert article_box["y"] >= frame_box["y"] + frame_box["height"]
        assert article_box["x"] + article_box["width"] <= PHONE_WIDTH
        # The code block keeps its lines and scrolls inside its own box.
        assert page.locator("#text pre").first.inner_text().split("\n") == FIRST_CODE_LINES
        assert page.locator("#text pre").first.evaluate("e => e.scrollWidth > e.clientWidth")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


@pytest.fixture
def gated_site(example: ExampleSite) -> Iterator[tuple[DemoServer, threading.Event]]:
    """The example site on 127.0.0.1, whose pages after the first wait until the event is set (or GATE_S)."""
    routes: dict[str, tuple[str, bytes]] = {}
    for path in example.directory.glob("*.html"):
        canonical = re.search(r'<link rel="canonical" href="([^"]+)"', path.read_text(encoding="utf-8"))
        assert canonical is not None
        routes[urlsplit(canonical.group(1)).path] = ("text/html; charset=utf-8", path.read_bytes())
    gate, served = threading.Event(), []

    class Gated(route_handler(routes)):  # type: ignore[misc]
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path.endswith(".html"):
                served.append(self.path)
                if len(served) > 1:
                    gate.wait(GATE_S)
            super().do_GET()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Gated)
    server.daemon_threads = True
    base = f"http://127.0.0.1:{server.server_address[1]}"
    routes["/rss.xml"] = ("application/rss+xml",
                          example.feed.read_bytes().replace(b"http://example.test/", base.encode() + b"/"))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield DemoServer(base, f"{base}/rss.xml", ""), gate
    finally:
        gate.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_learn_job_shows_how_many_pages_it_fetched(app_page: tuple[Any, str],
                                                     gated_site: tuple[DemoServer, threading.Event]) -> None:
    page, base_url = app_page
    site, gate = gated_site
    page.goto(f"{base_url}/")
    page.fill("#url", site.feed_url)
    page.fill("#site", "example.test")
    page.click("#learn")
    page.wait_for_url(f"{base_url}/jobs/*")
    job_url = page.url
    try:
        # The page reloads itself; the line appears once the worker has stored it.
        page.wait_for_selector("#progress:has-text('fetched 1 of 7 pages')", timeout=15_000)
        assert page.inner_text("#state") == "running"
        # The job list says it too, for a job named after its site as for any other.
        page.goto(f"{base_url}/jobs")
        assert "fetched 1 of 7 pages" in page.locator("#jobs tbody tr").first.inner_text()
        page.goto(job_url)
        bar = page.locator("#progress-bar")
        assert (bar.get_attribute("value"), bar.get_attribute("max")) == ("1", "7")
    finally:
        gate.set()
    page.goto(job_url)
    page.wait_for_selector("#state.finished, #state.failed", timeout=JOB_TIMEOUT_MS)
    assert page.inner_text("#state") == "finished", page.inner_text("main")
    assert page.locator("#progress").count() == 0
