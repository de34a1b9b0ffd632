"""End to end in a real browser: Debian's headless Chromium, driven by Playwright, learns the example site through the form."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FAST

from forest.demo import DemoServer, ExampleSite
from forest.webapp.live import CHROMIUM, chromium_path, serve_in_thread, submit_job

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser test needs Playwright: pip install -e '.[test]'"
)
if chromium_path() is None:
    pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (.ci/run does)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser_page(site: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    """A Chromium page and the base URL of the app, served by uvicorn on 127.0.0.1 over a fresh database."""
    from forest.webapp import create_app
    from forest.webapp.live import launch

    app = create_app(tmp_path_factory.mktemp("browser") / "forest.db", settings=FAST)
    with serve_in_thread(app) as base_url, sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            yield page, base_url
        finally:
            browser.close()


def region_text(page: Any) -> str:
    frame = page.frame_locator("iframe#page")
    return "\n".join(frame.locator(".forest-region").all_inner_texts())


def test_learn_through_the_form_highlights_the_article_not_the_sidebar(
    browser_page: tuple[Any, str], site: DemoServer
) -> None:
    page, base_url = browser_page
    job_url = submit_job(page, base_url, url=site.feed_url, action="learn", site="example.test")
    assert page.inner_text("#state") == "finished", page.inner_text("main")
    assert "Learned example.test (version 1)" in page.inner_text("#learned")

    # The result: the first sample page in a sandboxed frame, the article beside it.
    frame_element = page.locator("iframe#page")
    assert frame_element.get_attribute("sandbox") == ""
    highlighted = region_text(page)
    first_paragraph = page.locator("#text p").first.inner_text()
    assert first_paragraph and first_paragraph in highlighted
    assert "Most read" not in highlighted and "Related stories" not in highlighted
    frame = page.frame_locator("iframe#page")
    assert frame.locator("aside.sidebar").count() == 1
    assert frame.locator("aside.sidebar .forest-region, .forest-region aside.sidebar").count() == 0
    assert frame.locator("script").count() == 0
    assert job_url.startswith(f"{base_url}/jobs/")


def test_extract_the_held_out_page_through_the_form(browser_page: tuple[Any, str], site: DemoServer,
                                                   example: ExampleSite) -> None:
    page, base_url = browser_page
    submit_job(page, base_url, url=site.held_out_url, action="extract", site="example.test")
    assert page.inner_text("#state") == "finished", page.inner_text("main")
    assert page.inner_text("#method") == "wrapper"
    expected = example.expected.read_text(encoding="utf-8").splitlines()
    highlighted = region_text(page)
    assert expected[1] in highlighted and expected[-1] in highlighted  # first and last paragraphs
    assert "Most read" not in highlighted


def test_a_bad_url_in_the_form_is_refused_with_the_reason(browser_page: tuple[Any, str]) -> None:
    page, base_url = browser_page
    page.goto(f"{base_url}/")
    # type=url lets the browser refuse words itself; a URL of another scheme gets to the server.
    page.fill("#url", "ftp://example.com/feed.xml")
    page.click("#learn")
    page.wait_for_selector("#form-error")
    assert "is not an http:// or https:// URL" in page.inner_text("#form-error")


def test_the_job_list_shows_the_jobs_newest_first(browser_page: tuple[Any, str]) -> None:
    page, base_url = browser_page
    page.goto(f"{base_url}/jobs")
    kinds = page.locator("#jobs tbody tr td:nth-child(2)").all_inner_texts()
    assert kinds[:2] == ["extract_url", "learn"]
    assert page.locator("#jobs .state.finished").count() == 2


def test_the_shown_page_never_runs_its_scripts(browser_page: tuple[Any, str], tmp_path: Path) -> None:
    page, base_url = browser_page
    hostile = ('<html><head><link rel="canonical" href="http://example.test/x.html"></head>'
               '<body onload="document.title=\'pwned\'"><div class="story-body"><p>Text</p>'
               '<img src="x" onerror="parent.document.title=\'pwned\'"><script>document.title="pwned"</script>'
               '</div></body></html>')
    page.goto(f"{base_url}/")
    page.click("#new summary")
    page.fill("#html", hostile)
    page.fill("#site", "example.test")
    page.click("#extract")
    page.wait_for_selector("#state.finished, #state.failed", timeout=60_000)
    page.wait_for_timeout(300)
    assert page.title() != "pwned"
    frame = page.frame_locator("iframe#page")
    assert frame.locator("script").count() == 0
    assert frame.locator("[onload], [onerror]").count() == 0
