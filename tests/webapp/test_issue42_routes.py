"""Issue 42, item 8: any site name opens in the web app, and a stored page is shown only under its own site."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import BASE_URL, FAST
from lxml import html as lxml_html
from starlette.testclient import TestClient

import forest
from forest.demo import DemoServer
from forest.webapp.live import chromium_path, serve_in_thread

LEARNED = "example.com/blog"  # a name with "/", as --site or a path gives them
# Names that break a naive /sites/{name} route: "/", "%", dot segments, a fake page
# suffix, non-ASCII text, an encoded slash written out, spaces and query characters.
NAMES = [
    LEARNED, "100%real", "a/../b", "..", ".", "...", "x/pages/3", "a%2Fb", "bücher.example/ünï", "a b?c#d",
    "/leading", "trailing/",
]
OTHER = "other.test"  # a site whose wrapper has no sample pages of its own
PAGE = re.compile(r'href="([^"]*/pages/\d+|[^"]*revision=\d+)"')


@pytest.fixture(scope="module")
def learned(site: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    """A client whose database has the example site learned as example.com/blog, its wrapper
    copied under each of NAMES, and under other.test without the sample."""
    from forest.webapp import create_app

    db = tmp_path_factory.mktemp("routes") / "forest.db"
    with TestClient(create_app(db, settings=FAST), base_url=BASE_URL) as client:
        response = client.post("/api/learn", json={"url": site.feed_url, "site": LEARNED})
        assert response.status_code == 200, response.text
        with forest.WrapperStore(db) as store:
            wrapper = store.get(LEARNED)
            for name in NAMES[1:]:
                store.save(name, wrapper)
            store.save(OTHER, {**wrapper, "sample": []})
        yield client, db


def _links(page: str) -> dict[str, str]:
    """Link text -> href of a page's links."""
    return {a.text_content(): a.get("href") for a in lxml_html.fromstring(page).iter("a")}


def _href(client: Any, name: str) -> str:
    """The home page's link to site ``name``."""
    return _links(client.get("/").text)[name]


def _heading(page: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert found is not None
    return html.unescape(found.group(1))


def _revision_href(client: Any, site_path: str) -> str:
    page = client.get(site_path)
    assert page.status_code == 200, page.text[:300]
    found = PAGE.search(page.text)
    assert found is not None, "the site page links no stored page"
    return html.unescape(found.group(1))


@pytest.mark.parametrize("name", NAMES)
def test_every_site_name_opens_from_the_home_page(learned: tuple[TestClient, Path], name: str) -> None:
    client, _ = learned
    href = _href(client, name)
    page = client.get(href)
    assert page.status_code == 200, (href, page.text[:300])
    assert _heading(page.text) == name
    shown = client.get(_revision_href(client, href))
    assert shown.status_code == 200 and 'id="page"' in shown.text


def test_a_name_with_a_slash_opens_as_typed(learned: tuple[TestClient, Path]) -> None:
    client, _ = learned
    page = client.get("/sites/example.com/blog")
    assert page.status_code == 200 and _heading(page.text) == LEARNED
    revision = re.search(r"/pages/(\d+)", _revision_href(client, "/sites/example.com/blog"))
    assert revision is not None
    assert client.get(f"/sites/example.com/blog/pages/{revision.group(1)}").status_code == 200


def test_a_stored_page_is_shown_only_under_its_own_site(learned: tuple[TestClient, Path]) -> None:
    client, _ = learned
    own = _revision_href(client, _href(client, LEARNED))
    revision = int(own.rsplit("/", 1)[1])
    assert client.get(own).status_code == 200
    for address in (f"/sites/{OTHER}/pages/{revision}", f"/sites/nowhere.test/pages/{revision}"):
        page = client.get(address)
        assert page.status_code == 404, address
        assert 'class="error"' in page.text and 'id="page"' not in page.text


@pytest.mark.parametrize("path", ["/sites/", "/sites/nowhere.test", "/sites/x/pages/99999999999999999999",
                                  "/sites/?name=..&revision=zz", "/jobs/99999999999999999999",
                                  "/api/jobs/99999999999999999999", "/sites/%ff%fe"])
def test_addresses_of_nothing_are_404(learned: tuple[TestClient, Path], path: str) -> None:
    client, _ = learned
    assert client.get(path).status_code == 404


def test_uvicorn_routes_the_names_as_the_test_client_does(learned: tuple[TestClient, Path]) -> None:
    # uvicorn decodes the path and keeps the raw one: the route must read the same names there.
    from forest.webapp import create_app

    _, db = learned
    with serve_in_thread(create_app(db, settings=FAST, run_worker=False)) as base_url, httpx.Client(base_url=base_url) as http:
        for name in NAMES:
            page = http.get(_href(http, name))
            assert page.status_code == 200 and _heading(page.text) == name, name
        assert http.get(_revision_href(http, _href(http, LEARNED))).status_code == 200


def test_a_browser_follows_every_site_link(learned: tuple[TestClient, Path]) -> None:
    # Browsers remove dot segments and re-encode what they send: the links must survive that.
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright: pip install -e '.[test]'")
    if chromium_path() is None:
        pytest.skip("no Chromium: apt-get install chromium")
    from forest.webapp import create_app
    from forest.webapp.live import launch

    _, db = learned
    with serve_in_thread(create_app(db, settings=FAST, run_worker=False)) as base_url, \
            sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page()
            for name in NAMES:
                page.goto(f"{base_url}/")
                page.locator("#sites").get_by_role("link", name=name, exact=True).click()
                page.wait_for_load_state()
                assert page.locator("h1").inner_text() == name, (name, page.url)
        finally:
            browser.close()
