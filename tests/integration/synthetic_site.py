"""A synthetic news site for the HTTP tests: article pages with known text and metadata, feeds, and bad routes.

Pages come from one template with varied paragraphs, so the wrapper has a real
template to learn and each page has its own words for tf-idf and feed keywords.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

TOPICS = {
    "harbour": ["harbour", "trawler", "quay", "fishermen", "tide", "crane", "cargo", "pier"],
    "orchard": ["orchard", "apple", "blossom", "frost", "growers", "cider", "pruning", "harvest"],
    "library": ["library", "archive", "manuscript", "readers", "catalogue", "librarian", "shelves", "loans"],
    "railway": ["railway", "platform", "signal", "carriages", "timetable", "commuters", "junction", "track"],
    "brewery": ["brewery", "malt", "hops", "barrels", "brewers", "fermentation", "taproom", "yeast"],
    "observatory": ["telescope", "astronomers", "comet", "nebula", "observatory", "eclipse", "lens", "orbit"],
    "bakery": ["bakery", "sourdough", "ovens", "flour", "bakers", "loaves", "pastry", "dough"],
    "theatre": ["theatre", "actors", "rehearsal", "stage", "audience", "premiere", "costumes", "script"],
    "river": ["river", "floodplain", "otters", "anglers", "weir", "bank", "salmon", "bridge"],
    "market": ["market", "stallholders", "vendors", "produce", "square", "awnings", "cheese", "traders"],
}
AUTHORS = ["Ruth Adeyemi", "Tomas Reyes", "Maren Holt", "Joel Fairweather", "Ines Okafor"]
VERBS = ["reported", "described", "welcomed", "questioned", "measured", "recorded", "planned", "explained"]
ADJECTIVES = ["careful", "unusual", "steady", "remarkable", "modest", "difficult", "promising", "quiet"]
PLACES = ["the valley", "the old town", "the county", "the coast road", "the upper moor", "the council chamber"]
GENERIC = ["residents", "volunteers", "officials", "visitors", "neighbours", "engineers", "students", "families"]
START = datetime(2024, 4, 16, 9, 15, tzinfo=timezone.utc)


@dataclass(frozen=True, slots=True)
class Article:
    """One article of the synthetic site and what its feed item says about it."""

    slug: str
    title: str
    summary: str
    author: str
    published: datetime
    tags: tuple[str, ...]
    paragraphs: tuple[str, ...]

    @property
    def path(self) -> str:
        return f"/news/{self.slug}.html"

    @property
    def text(self) -> str:
        """The article's known text: its paragraphs, one per line."""
        return "\n".join(self.paragraphs)

    @property
    def iso_published(self) -> str:
        return self.published.isoformat()


def make_articles(n: int = 10, seed: int = 7) -> list[Article]:
    rng = random.Random(seed)
    topics = list(TOPICS)
    articles = []
    for i in range(n):
        topic = topics[i % len(topics)]
        words = TOPICS[topic]

        def sentence(words: list[str] = words) -> str:
            a, b, c = rng.sample(words, 3)
            return (f"The {rng.choice(GENERIC)} of {rng.choice(PLACES)} {rng.choice(VERBS)} a "
                    f"{rng.choice(ADJECTIVES)} change in the {a}, and the {b} near the {c} "
                    f"drew {rng.randint(3, 900)} people over {rng.randint(2, 30)} days.")

        paragraphs = tuple(" ".join(sentence() for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(4, 7)))
        title = f"{words[0].title()} {rng.choice(['plans', 'news', 'season', 'report'])}: {words[1]} and {words[2]} in {rng.choice(PLACES)}"
        summary = f"{words[3].title()} and {words[4]}: {rng.choice(GENERIC)} {rng.choice(VERBS)} the {words[5]}."
        articles.append(Article(
            slug=f"{topic}-{i}", title=title, summary=summary, author=AUTHORS[i % len(AUTHORS)],
            published=START - timedelta(days=i, hours=i), tags=(topic.title(), "Local"), paragraphs=paragraphs,
        ))
    return articles


def page(article: Article, others: list[Article]) -> bytes:
    """The article's page in the site's template: header, nav, byline, body, share bar, related list, footer."""
    related = "".join(f'<li><a href="{o.path}">{escape(o.title)}</a></li>' for o in others[:4] if o is not article)
    body = "".join(f"<p>{escape(p)}</p>" for p in article.paragraphs)
    date = article.published.strftime("%d %B %Y")
    stamp = article.published.isoformat().replace("+00:00", "Z")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{escape(article.title)} | Valley Gazette</title>
<meta name="description" content="{escape(article.summary)}">
<link rel="alternate" type="application/rss+xml" title="Valley Gazette" href="/feed.xml">
<link rel="stylesheet" href="/static/site.css">
<script>var analytics = {{"page": "{article.slug}"}};</script>
</head><body>
<header class="top"><a class="brand" href="/">Valley Gazette</a>
<nav class="menu"><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
<li><a href="/culture">Culture</a></li><li><a href="/weather">Weather</a></li></ul></nav></header>
<div class="layout">
<main class="main-column">
<article class="post">
<h1 class="post-title">{escape(article.title)}</h1>
<div class="meta">By <a class="author" href="/people/{article.author.lower().replace(' ', '-')}">{escape(article.author)}</a>
 &middot; <time datetime="{stamp}">{date}</time></div>
<div class="post-body">{body}</div>
<div class="share">Share this story: <a href="#">Email</a> <a href="#">Print</a></div>
</article>
</main>
<aside class="sidebar"><h2>Most read</h2><ul>{related}</ul>
<p class="promo">Subscribe to the Valley Gazette newsletter for the week's stories every Friday.</p></aside>
</div>
<footer class="bottom"><p>Valley Gazette, 12 Mill Lane. Contact the newsroom at news@gazette.test.</p></footer>
</body></html>""".encode()


def rss(items: list[tuple[str, Article | None]], title: str = "Valley Gazette") -> bytes:
    """An RSS 2.0 feed; each item is (link as written in the feed, its article or None for a bare link)."""
    out = []
    for link, article in items:
        if article is None:
            out.append(f"<item><title>Other</title><link>{escape(link)}</link><description>x</description></item>")
            continue
        categories = "".join(f"<category>{escape(t)}</category>" for t in article.tags)
        out.append(
            f"<item><title>{escape(article.title)}</title><link>{escape(link)}</link>"
            f"<description>{escape(article.summary)}</description>"
            f"<dc:creator>{escape(article.author)}</dc:creator>{categories}"
            f"<pubDate>{format_datetime(article.published)}</pubDate></item>"
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<channel><title>{escape(title)}</title><link>/</link><description>News</description>{''.join(out)}"
        "</channel></rss>"
    ).encode()


def atom(items: list[tuple[str, Article]]) -> bytes:
    entries = "".join(
        f"<entry><title>{escape(a.title)}</title><link rel=\"alternate\" href=\"{escape(link)}\"/>"
        f"<id>tag:gazette.test,2024:{a.slug}</id><updated>{a.iso_published.replace('+00:00', 'Z')}</updated>"
        f"<published>{a.iso_published.replace('+00:00', 'Z')}</published>"
        f"<author><name>{escape(a.author)}</name></author><summary>{escape(a.summary)}</summary>"
        + "".join(f'<category term="{escape(t)}"/>' for t in a.tags)
        + "</entry>"
        for link, a in items
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        "<title>Valley Gazette</title><id>tag:gazette.test,2024:feed</id>"
        f"<updated>{START.isoformat().replace('+00:00', 'Z')}</updated>{entries}</feed>"
    ).encode()


# A route answers a request: (status, headers, body), or it writes the response itself.
Route = Callable[["Handler"], "tuple[int, Mapping[str, str], bytes] | None"]


class Handler(BaseHTTPRequestHandler):
    routes: Mapping[str, Route] = {}
    stop: threading.Event

    def do_GET(self) -> None:  # noqa: N802
        route = self.routes.get(urlsplit(self.path).path)
        try:
            answer = route(self) if route else (404, {"Content-Type": "text/plain"}, b"not found")
            if answer is not None:
                status, headers, body = answer
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                if "Content-Length" not in headers:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout or a size cap under test)

    def log_message(self, format: str, *args: object) -> None:
        pass


@dataclass
class Server:
    base_url: str
    hits: dict[str, int]

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"


def serve(routes: dict[str, Route]) -> Iterator[Server]:
    """Serve ``routes`` on 127.0.0.1:0 in a thread until the generator is closed."""
    stop = threading.Event()
    hits: dict[str, int] = {}

    def counted(path: str, route: Route) -> Route:
        def wrapped(handler: Handler) -> tuple[int, Mapping[str, str], bytes] | None:
            hits[path] = hits.get(path, 0) + 1
            return route(handler)
        return wrapped

    handler = type("H", (Handler,), {"routes": {p: counted(p, r) for p, r in routes.items()}, "stop": stop})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.block_on_close = False
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{server.server_address[1]}", hits)
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def static(body: bytes, content_type: str = "text/html; charset=utf-8", status: int = 200,
           headers: Mapping[str, str] | None = None) -> Route:
    return lambda handler: (status, {"Content-Type": content_type, **(headers or {})}, body)


def redirect(location: str, status: int = 301) -> Route:
    return lambda handler: (status, {"Location": location}, b"")


def slow(seconds: float, body: bytes) -> Route:
    def route(handler: Handler) -> tuple[int, Mapping[str, str], bytes]:
        handler.stop.wait(seconds)  # the fixture's teardown cuts the sleep short
        return 200, {"Content-Type": "text/html"}, body
    return route


def endless(chunk: bytes = b"<p>" + b"x" * 8190 + b"</p>") -> Route:
    """An HTML body streamed without Content-Length, far longer than any size cap."""
    def route(handler: Handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Connection", "close")
        handler.end_headers()
        deadline = time.monotonic() + 5
        handler.wfile.write(b"<html><body>")
        while time.monotonic() < deadline and not handler.stop.is_set():
            handler.wfile.write(chunk)
        return None
    return route


def flaky(failures: int, body: bytes) -> Route:
    """503 with Retry-After: 0 for the first ``failures`` requests, then the page."""
    count = {"n": 0}

    def route(handler: Handler) -> tuple[int, Mapping[str, str], bytes]:
        count["n"] += 1
        if count["n"] <= failures:
            return 503, {"Retry-After": "0", "Content-Type": "text/plain"}, b"busy"
        return 200, {"Content-Type": "text/html; charset=utf-8"}, body
    return route
