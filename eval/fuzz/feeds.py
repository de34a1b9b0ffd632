"""Fuzz forest's feed reading: mutated RSS, Atom, RDF and JSON feeds, parsed from bytes and learned from over loopback.

Run ``python -m eval.fuzz --kind feeds --cases 600``.  The feeds are the bundled example
site's (forest/examples) written as RSS 2.0, Atom, RSS 1.0 and JSON Feed, and the test
feeds (tests/data/feeds); each case applies one to three mutations (seeded) aimed at
feed parsers (thousands of attributes on one element, deep nesting, entity
declarations, megabytes of text, wrong encodings) or the page mutator's byte edits.
A case is ``forest.net.feed.parse_feed`` on the bytes; every tenth is a learn of the
example site (``forest.service.feeds.learn_feed``) from the mutated feed, served with
the site's pages by a server on 127.0.0.1 in the worker.  A learn that fails must leave
the site's stored wrapper as it was ("stored data changed" otherwise).
"""

from __future__ import annotations

import json
import random
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from eval.fuzz.harness import Handler
from eval.fuzz.pages import mutate
from forest.demo import route_handler

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "forest" / "examples" / "example.test"
TEST_FEEDS = ROOT / "tests" / "data" / "feeds"
SITE = "example.test"
# Feed links name the example site's origin; a learn case serves the feed with it
# replaced by the worker's server, so a mutation that breaks the origin breaks the link.
ORIGIN = b"http://example.test"
FEED_PATH = "/fuzz/feed.xml"
HEADERS: tuple[dict[str, str] | None, ...] = (
    None, {"Content-Type": "application/rss+xml; charset=utf-8"}, {"Content-Type": "text/html"},
    {"Content-Type": "application/xml; charset=utf-16"}, {"Content-Type": "text/xml; charset=bogus"},
    {"Content-Type": "application/feed+json"}, {"Content-Type": "application/atom+xml; charset=shift_jis"},
)

# --- the feeds ------------------------------------------------------------------------------


def _items() -> list[dict[str, str]]:
    """The example site's feed items: title, link, description, author, date."""
    text = (EXAMPLE / "rss.xml").read_text(encoding="utf-8")
    items = []
    for block in re.findall(r"<item>(.*?)</item>", text, re.DOTALL):
        item = {}
        for name in ("title", "link", "description", "author", "pubDate"):
            found = re.search(rf"<{name}>(.*?)</{name}>", block, re.DOTALL)
            item[name] = found.group(1) if found else ""
        items.append(item)
    return items


def base_feeds() -> dict[str, bytes]:
    """The unmutated feeds by name: the example site's in four formats, then the test feeds."""
    items = _items()
    atom = "".join(
        f"<entry><title>{i['title']}</title><link rel='alternate' href='{i['link']}'/><id>{i['link']}</id>"
        f"<updated>2024-04-16T09:15:00Z</updated><author><name>{i['author']}</name></author>"
        f"<summary>{i['description']}</summary></entry>" for i in items
    )
    rdf = "".join(
        f"<item rdf:about='{i['link']}'><title>{i['title']}</title><link>{i['link']}</link>"
        f"<description>{i['description']}</description><dc:date>2024-04-16T09:15:00Z</dc:date></item>" for i in items
    )
    feeds = {
        "example-rss2": (EXAMPLE / "rss.xml").read_bytes(),
        "example-atom": ("<?xml version='1.0' encoding='utf-8'?><feed xmlns='http://www.w3.org/2005/Atom'>"
                         f"<title>Larkford Courier</title><id>{ORIGIN.decode()}/</id>{atom}</feed>").encode(),
        "example-rss1": ("<?xml version='1.0' encoding='utf-8'?><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' "
                         "xmlns='http://purl.org/rss/1.0/' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
                         f"<channel rdf:about='{ORIGIN.decode()}/'><title>Larkford Courier</title></channel>{rdf}</rdf:RDF>").encode(),
        "example-json": json.dumps({
            "version": "https://jsonfeed.org/version/1.1", "title": "Larkford Courier",
            "items": [{"id": i["link"], "url": i["link"], "title": i["title"], "summary": i["description"]} for i in items],
        }).encode(),
    }
    for path in sorted(TEST_FEEDS.iterdir()):
        feeds[f"tests-{path.name}"] = path.read_bytes()
    return feeds


# --- feed mutations ---------------------------------------------------------------------------

_ELEMENT = re.compile(rb"<(?:item|entry|channel|feed|title|link)\b")


def _element_start(data: bytes, rng: random.Random) -> int:
    """Just after the name of a feed element's start tag (where attributes go), or 0."""
    starts = [m.end() for m in _ELEMENT.finditer(data[:200_000])]
    return rng.choice(starts) if starts else 0


def _many_attributes(data: bytes, rng: random.Random) -> bytes:
    # Issue 42: feedparser's attribute handling is quadratic (40,000 attributes: 23 s).
    count = rng.choice((1_000, 5_001, 20_000, 40_000))
    at = _element_start(data, rng)
    return data[:at] + b"".join(b" a%d='x'" % i for i in range(count)) + data[at:]


def _deep_nesting(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((1_000, 10_000, 100_000))
    at = data.find(b"</title>")
    at = at if at >= 0 else rng.randrange(len(data) + 1)
    if rng.random() < 0.5:  # XML elements
        return data[:at] + b"<x>" * depth + b"</x>" * depth + data[at:]
    return data[:at] + b"&lt;div&gt;" * depth + data[at:]  # escaped HTML the sanitizer parses


_ENTITIES = (
    b'<!DOCTYPE rss [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>',
    b'<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
    b'<!DOCTYPE rss [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>',
    b'<!doctype rss [<!entity big "' + b"x" * 100_000 + b'">]>',
    b'<!DOCTYPE rss SYSTEM "http://127.0.0.1:9/rss.dtd">',
    b'<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">',
)


def _entities(data: bytes, rng: random.Random) -> bytes:
    declaration = rng.choice(_ENTITIES)
    end = data.find(b"?>")
    at = end + 2 if end >= 0 and end < 200 else 0
    uses = rng.choice((b"&c;", b"&xxe;", b"&big;" * 1000, b"&lol;" * 10_000, b"&#x26;c;"))
    title = data.find(b"</title>")
    body = data[:title] + uses + data[title:] if title >= 0 else data + uses
    return body[:at] + declaration + body[at:]


def _huge_text(data: bytes, rng: random.Random) -> bytes:
    size = rng.choice((100_000, 1_000_000, 8_000_000))
    piece = rng.choice((b"word ", b"&amp;", b"<![CDATA[x]]>", b"&#x1F600;", b"\xe2\x80\xae"))
    at = data.find(b"</description>")
    if at < 0:
        at = data.find(b"</title>")
    at = at if at >= 0 else len(data)
    return data[:at] + piece * (size // len(piece)) + data[at:]


def _many_items(data: bytes, rng: random.Random) -> bytes:
    for start_tag, end_tag in ((b"<item", b"</item>"), (b"<entry", b"</entry>")):
        start = data.find(start_tag)
        end = data.find(end_tag, start + 1)
        if start >= 0 and end > start:
            item = data[start:end + len(end_tag)]
            return data[:start] + item * rng.choice((1_000, 20_000)) + data[start:]
    return data


_ENCODINGS = (b"utf-16", b"utf-32", b"bogus", b"ebcdic-cp-us", b"x-mac-roman", b"\x00", b"utf-7", b"cp037", b"")


def _bad_encoding(data: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(4)
    if choice == 0:  # the declaration lies
        return re.sub(rb'encoding=["\'][^"\']*["\']', b'encoding="' + rng.choice(_ENCODINGS) + b'"', data, count=1)
    if choice == 1:  # re-encoded, the declaration left saying utf-8
        return data.decode("utf-8", "replace").encode(rng.choice(("utf-16-le", "utf-16", "utf-32", "cp500")), "replace")
    if choice == 2:  # invalid UTF-8 sequences in text
        at = data.find(b"</title>")
        return data[:at] + rng.choice((b"\xff\xfe", b"\xed\xa0\x80", b"\xc3", b"\xf4\x90\x80\x80", b"\x00")) * 10 + data[at:]
    return rng.choice((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\x00\x00\xfe\xff")) + data  # a BOM that lies


_HOSTILE_VALUES = (
    b"javascript:alert(1)", b"file:///etc/passwd", b"http://[::1", b"http://" + b"a" * 5000 + b".test/",
    b"//example.test/x", b"", b"http://127.0.0.1:0/", b"data:text/html,<p>x", b"Tue, 99 Apr 99999 99:99:99 +9999",
    b"0000-00-00T00:00:00Z", b"\x00", b"<![CDATA[", b"]]>", b"&#0;", b"&#xD800;", b"&#x110000;", b"x@y (" * 100,
)


def _hostile_value(data: bytes, rng: random.Random) -> bytes:
    """One link, guid, date, author or title replaced by a value parsers trip on."""
    spans = [m.span(1) for m in re.finditer(rb"<(?:link|guid|pubDate|author|title|updated|id)>([^<]*)<", data[:200_000])]
    spans += [m.span(1) for m in re.finditer(rb"href=['\"]([^'\"]*)['\"]", data[:200_000])]
    if not spans:
        return data
    start, end = rng.choice(spans)
    return data[:start] + rng.choice(_HOSTILE_VALUES) + data[end:]


def _json_twist(data: bytes, rng: random.Random) -> bytes:
    """A JSON feed made hostile: deep nesting, huge integers, lone surrogates, wrong types."""
    twist = rng.choice((b"[" * 50_000 + b"]" * 50_000, b"9" * 5_000, b'"\\ud800"', b"null", b'{"url": []}', b"NaN"))
    at = data.find(b'"items"')
    return data[:at] + b'"x": ' + twist + b", " + data[at:] if at > 0 else twist


_FEED_OPERATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    _many_attributes, _deep_nesting, _entities, _huge_text, _many_items, _bad_encoding, _bad_encoding,
    _hostile_value, _hostile_value, _hostile_value, _json_twist,
)


def mutate_feed(data: bytes, rng: random.Random, applied: list[str] | None = None) -> bytes:
    """One to three mutations: a feed-parser attack or the page mutator's byte edits (truncation, flips, snippets).

    :param applied: if given, the mutations' names are appended to it.
    """
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.6:
            operation = rng.choice(_FEED_OPERATIONS)
            data = operation(data, rng)
            name = operation.__name__.strip("_")
        else:
            data, name = mutate(data, rng, max_ops=1), "bytes"
        if applied is not None:
            applied.append(name)
    return data


def cases(count: int, *, seed: int, learn_every: int = 10) -> Iterator[tuple[str, str, Any]]:
    """``count`` cases ``(label, "parse"|"learn", payload)``; they depend on ``seed`` alone."""
    rng = random.Random(seed)
    feeds = base_feeds()
    names = sorted(feeds)
    learnable = [n for n in names if n.startswith("example-")]
    for number in range(1, count + 1):
        learn = number % learn_every == 0
        name = rng.choice(learnable if learn else names)
        applied: list[str] = []
        body = mutate_feed(feeds[name], rng, applied)
        label = f"{name}: {'+'.join(applied)}"
        if learn:
            yield label, "learn", ("learn", body, None)
        else:
            yield label, "parse", ("parse", body, rng.choice(HEADERS))


# --- the worker ----------------------------------------------------------------------------------


def setup() -> Handler:
    """A store holding the example site's wrapper, and a server for its pages and the case's feed on 127.0.0.1."""
    from forest.config import FetchSettings, Settings
    from forest.demo import example_site
    from forest.model import Page
    from forest.net.feed import parse_feed
    from forest.service.feeds import learn_feed
    from forest.service.pages import learn_pages
    from forest.storage import WrapperStore

    example = example_site()
    store = WrapperStore(Path(tempfile.mkdtemp(prefix="forest-fuzz-feeds-")) / "fuzz.db")
    learn_pages([Page(p.read_text(encoding="utf-8"), site=SITE) for p in example.sample], site=SITE, store=store)
    routes: dict[str, tuple[str, bytes]] = {}
    for page in example.directory.glob("*.html"):
        found = re.search(rb'<link rel="canonical" href="([^"]+)"', page.read_bytes())
        if found:
            routes[urlsplit(found.group(1).decode()).path] = ("text/html; charset=utf-8", page.read_bytes())
    base_url = _serve(routes)
    # Politeness and retries only slow a learn from our own server down; the address
    # policy is opened for loopback, and the harness keeps every connection there.
    settings = Settings(fetch=FetchSettings(allow_private=True, per_host_delay=0.0, retries=0))

    def handle(payload: tuple[str, bytes, dict[str, str] | None]) -> tuple[str, str]:
        kind, body, headers = payload
        if kind == "parse":
            parse_feed(body, "http://example.test/feed", headers)
            return "ok", ""
        routes[FEED_PATH] = ("application/rss+xml", body.replace(ORIGIN, base_url.encode()))
        before = store.find(SITE)
        try:
            learn_feed(base_url + FEED_PATH, store=store, settings=settings, site=SITE)
        except Exception:
            if store.find(SITE) != before:
                return "changed", f"a learn that failed changed {SITE}'s stored wrapper"
            raise
        return "ok", ""

    return handle


def _serve(routes: dict[str, tuple[str, bytes]]) -> str:
    """Serve ``routes`` (read at each request, so a case can change them) on 127.0.0.1; the base URL."""

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: object, client_address: object) -> None:
            pass  # a learn that gives up on a page resets its connection: not the fuzzer's concern

    server = Server(("127.0.0.1", 0), route_handler(routes))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"

