"""forest.net.feed: parsing feeds from bytes, refusing what is not a feed or is hostile, and discovering feeds."""

from __future__ import annotations

import logging
import time
import tracemalloc
from pathlib import Path

import pytest

from forest.errors import FeedError
from forest.net.feed import FeedItem, check_no_entities, discover_feed, looks_like_html, parse_feed
from keywords.model import Metadata

FEEDS = Path(__file__).resolve().parent.parent / "data" / "feeds"


def parse(name: str, url: str = "https://feeds.example/x/feed.xml") -> list[FeedItem]:
    return list(parse_feed((FEEDS / name).read_bytes(), url).items)


def test_rss2_items_have_their_metadata() -> None:
    first = parse("rss2.xml")[0]
    assert first == FeedItem(
        link="https://feeds.example/2024/bridge.html",
        meta=Metadata(
            title="Bridge reopens after repairs",
            summary="The old bridge is open again.",
            tags=("Local", "Transport"),
            author="Ana Lima",
            published="2024-04-16T07:15:00+00:00",  # 09:15 +0200, in UTC
        ),
    )


def test_rss2_relative_links_resolve_against_the_feed_url() -> None:
    links = [item.link for item in parse("rss2.xml")]
    assert links[:2] == ["https://feeds.example/2024/bridge.html", "https://feeds.example/x/market.html"]


def test_rss2_guid_permalink_is_a_link_and_items_without_links_are_dropped() -> None:
    titles = [item.meta.title for item in parse("rss2.xml")]
    assert "Guid only" in titles and "No link at all" not in titles


def test_dc_creator_is_the_author() -> None:
    assert parse("rss2.xml")[1].meta.author == "Bo Chen"


def test_atom_entry_uses_xml_base_alternate_link_and_published_date() -> None:
    (item,) = parse("atom.xml")
    assert item.link == "https://blog.example/posts/gardens.html"
    assert (item.meta.title, item.meta.author, item.meta.published) == (
        "Notes on gardens", "Cleo Park", "2024-04-16T09:15:00+00:00")
    assert item.meta.tags == ("Gardening",)


def test_rss1_rdf_feed() -> None:
    (item,) = parse("rss1.xml")
    assert (item.link, item.meta.author, item.meta.published) == (
        "https://old.example/a.html", "Dee Ray", "2024-04-16T09:15:00+00:00")


def test_rss091_with_a_netscape_doctype_is_read() -> None:
    assert [item.link for item in parse("rss091.xml")] == ["http://cafe.example/ouverture.html"]


def test_a_malformed_feed_with_entries_is_used_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="forest.net.feed"):
        items = parse("malformed.xml")
    assert items[0].meta.title == "Fish & chips"
    assert "malformed feed" in caplog.text


def test_a_feed_labelled_text_html_by_its_server_is_read_without_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="forest.net.feed"):
        feed = parse_feed((FEEDS / "atom.xml").read_bytes(), "https://x.example/f", {"Content-Type": "text/html"})
    assert len(feed.items) == 1 and not caplog.records


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ((FEEDS / "not_a_feed.html").read_bytes(), "it is an HTML page"),
        (b"", "empty document"),
        (b"   \n", "empty document"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a feed"),
        (b"<rss version='2.0'><channel><title>Empty</title></channel></rss>", "no entries"),
        (b"<rss><channel><item><title>x</title><guid isPermaLink='false'>1</guid></item></channel></rss>",
         "no http\\(s\\) links"),
    ],
    ids=["html", "empty", "blank", "binary", "no-entries", "no-links"],
)
def test_what_is_not_a_feed_is_refused_naming_the_url(body: bytes, message: str) -> None:
    with pytest.raises(FeedError, match=message) as caught:
        parse_feed(body, "https://x.example/feed")
    assert str(caught.value).startswith("https://x.example/feed: ") and caught.value.url == "https://x.example/feed"


def test_billion_laughs_is_refused_fast_in_little_memory() -> None:
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(FeedError, match="entities"):
            parse_feed((FEEDS / "billion_laughs.xml").read_bytes(), "https://bomb.example/feed")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 1 and peak < 5_000_000


def test_quadratic_blowup_is_refused() -> None:
    big = b"x" * 50_000
    body = (b'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "' + big + b'">]><rss><channel>'
            + b"<item><title>" + b"&a;" * 1000 + b"</title><link>http://x.example/a</link></item></channel></rss>")
    with pytest.raises(FeedError, match="entities"):
        parse_feed(body, "https://x.example/feed")


def test_entities_in_a_utf16_feed_are_refused() -> None:
    body = (FEEDS / "billion_laughs.xml").read_text().replace('<?xml version="1.0"?>', "").encode("utf-16")
    with pytest.raises(FeedError, match="entities"):
        check_no_entities(body, "https://x.example/feed")


def test_parse_feed_wants_bytes() -> None:
    with pytest.raises(TypeError):
        parse_feed("<rss/>", "https://x.example/feed")  # type: ignore[arg-type]


def test_looks_like_html() -> None:
    assert looks_like_html(b"  <!DOCTYPE html><html>") and looks_like_html(b"<!-- hi --><HTML lang=en>")
    assert not looks_like_html(b"<?xml version='1.0'?><rss>")


def test_discover_feed_prefers_alternate_links_then_common_paths() -> None:
    html = """<html><head><base href="/blog/">
    <link rel="alternate" type="application/rss+xml" href="feed.rss">
    <link rel="Alternate stylesheet" type="text/css" href="x.css">
    <link rel="alternate" type="application/atom+xml; charset=utf-8" href="https://cdn.example/atom">
    <link rel="alternate" hreflang="fr" href="/fr/"></head><body></body></html>"""
    found = discover_feed("https://site.example/blog/2024/post.html", html)
    assert found[:2] == ["https://site.example/blog/feed.rss", "https://cdn.example/atom"]
    assert found[2:] == [f"https://site.example{p}" for p in ("/feed", "/rss", "/rss.xml", "/atom.xml", "/feed.xml",
                                                                "/index.xml")]


@pytest.mark.parametrize("html", ["", "   ", "\x00\x01binary", "<html", b"<html><head></head></html>"],
                         ids=["empty", "blank", "binary", "broken", "bytes"])
def test_discover_feed_on_unreadable_pages_falls_back_to_common_paths(html: str | bytes) -> None:
    assert discover_feed("http://a.example/x", html)[0] == "http://a.example/feed"
