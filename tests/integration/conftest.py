"""Fixtures for the HTTP tests: the synthetic Valley Gazette site served on 127.0.0.1, and fast settings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from synthetic_site import (
    Article, Server, atom, endless, flaky, make_articles, page, redirect, rss, serve, slow, static,
)

from forest.config import FetchSettings, Settings

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE rss [
<!ENTITY lol "lol">
<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title>
<item><title>&lol9;</title><link>/news/a.html</link></item></channel></rss>
"""

# Items of the main feed whose pages cannot be used, with a word of the reason reported for each.
BAD_ITEMS = {
    "/news/missing.html": "404",
    "/news/slow.html": "timed out",
    "/news/huge.html": "limit",
    "/news/photo.png": "image/png",
    "/private/secret.html": "robots.txt",
}


@pytest.fixture(scope="session")
def articles() -> list[Article]:
    """Ten articles: 0-7 in the RSS feed (6 behind a redirect, 7 behind a flaky server),
    8 only in the Atom feed, 9 in no feed."""
    return make_articles(10)


@pytest.fixture
def fast() -> Settings:
    """Settings with small timeouts and cap, no politeness delay: every test stays within seconds."""
    return Settings(max_page_bytes=200_000, fetch=FetchSettings(
        connect_timeout=1.0, read_timeout=0.5, total_timeout=5.0, retries=2,
        backoff=0.01, max_retry_after=1.0, per_host_delay=0.0, concurrency=4, allow_private=True,
    ))


@pytest.fixture
def gazette(articles: list[Article]) -> Iterator[Server]:
    """The synthetic site: pages, RSS and Atom feeds, redirects, bad items, hostile feeds."""
    pages = {a.path: static(page(a, articles)) for a in articles}
    a = articles
    # Links written every way feeds write them: absolute, root-relative, relative to the feed.
    rss_items: list[tuple[str, Article | None]] = [
        (a[0].path, a[0]),
        ("/news/missing.html", None),
        (a[1].path.lstrip("/"), a[1]),
        ("/news/slow.html", None),
        (a[2].path, a[2]),
        ("/news/huge.html", None),
        (a[3].path, a[3]),
        ("/news/photo.png", None),
        (a[4].path, a[4]),
        ("/private/secret.html", None),
        (a[5].path, a[5]),
        (f"/old/{a[6].slug}", a[6]),
        ("/flaky" + a[7].path, a[7]),
    ]
    home = b"""<!DOCTYPE html><html><head><title>Valley Gazette</title>
<link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><h1>Valley Gazette</h1></body></html>"""
    routes = {
        **pages,
        "/": static(home),
        "/robots.txt": static(b"User-agent: *\nDisallow: /private/\n", "text/plain"),
        "/feed.xml": static(rss(rss_items), "application/rss+xml"),
        "/atom.xml": static(atom([(a[i].path, a[i]) for i in (0, 1, 2, 3, 4, 8)]), "application/atom+xml"),
        "/feeds/malformed.xml": static(
            rss([(x.path, x) for x in a[:5]]).replace(b"</channel></rss>", b"<item><title>Fish & chips</title>"),
            "application/rss+xml",
        ),
        "/feeds/bomb.xml": static(BILLION_LAUGHS, "application/rss+xml"),
        "/feeds/page.html": static(home.replace(b"<link rel", b"<meta name")),
        "/news/slow.html": slow(2.0, page(a[9], articles)),
        "/news/huge.html": endless(),
        "/news/photo.png": static(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, "image/png"),
        "/private/secret.html": static(page(a[9], articles)),
        f"/old/{a[6].slug}": redirect(a[6].path),
        "/flaky" + a[7].path: flaky(1, page(a[7], articles)),
    }
    yield from serve(routes)
