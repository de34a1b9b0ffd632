"""Read RSS/Atom feeds from fetched bytes (feedparser, never fetching by itself) and find a site's feed."""

from __future__ import annotations

import calendar
import html
import logging
import re
import time
from collections.abc import Mapping
from typing import Any
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import feedparser
from lxml import etree, html as lxml_html

from forest.charsets import sniff, text_codec, without_bad_charsets
from forest.errors import FeedError, ParseError
from forest.limits import check_markup, check_size
from forest.urls import host_of, host_problem
from keywords.model import Metadata

LOGGER = logging.getLogger(__name__)

# Paths where sites without a <link rel="alternate"> usually put their feed
# (WordPress /feed, Hugo /index.xml, Jekyll /feed.xml, many others /rss.xml, /atom.xml).
COMMON_FEED_PATHS = ("/feed", "/rss", "/rss.xml", "/atom.xml", "/feed.xml", "/index.xml")
FEED_LINK_TYPES = frozenset({
    "application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+json",
})

# Entities can only be declared inside a DOCTYPE.  Real feeds never need them
# (feedparser knows the HTML entities), while nested entities ("billion laughs") or
# one big entity used many times (quadratic blowup) expand to gigabytes; a document
# with both a DOCTYPE and an entity declaration is refused before any parser sees it.
_DOCTYPE = re.compile(rb"<!DOCTYPE", re.IGNORECASE)
_ENTITY_DECLARATION = re.compile(rb"<!ENTITY", re.IGNORECASE)
# Character and entity references ("&amp;", "&#233;") a feed may hold.  feedparser handles
# each one in Python, some 6 us apiece, linear in them: 800,000 took 4.6 s, and a 10 MB
# feed of nothing else (2,000,000) 15 s (`python -m eval.fuzz --kind feeds`, case huge_text).
# lxml parses a page's in C, so pages need no such limit.  A feed of 100 items with 1,000
# escaped tags each holds some 200,000; 500,000 parse in about 3 s.
MAX_REFERENCES = 500_000
_REFERENCE = re.compile(rb"&#?[A-Za-z0-9]+;")
# Bozo reasons that say only that the server labelled the feed oddly (text/html, a wrong charset).
_BENIGN = (feedparser.NonXMLContentType, feedparser.CharacterEncodingOverride)
_TAG = re.compile(r"<[^>]*>")
_CHARSET = re.compile(r"""; *charset *= *["']?([^;"']*)["']?""", re.IGNORECASE)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
_EMAIL_THEN_NAME = re.compile(r"^\S+@\S+\s*\((?P<name>[^()]+)\)$")
_NAME_THEN_EMAIL = re.compile(r"^(?P<name>[^<>]+?)\s*<\S+@\S+>$")
_BARE_EMAIL = re.compile(r"^\S+@\S+$")
_HTML_START = re.compile(rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class FeedItem:
    """One feed entry: where its page is, and what the feed says about it as the
    :class:`keywords.Metadata` that keyword selection and field learning read.

    ``meta.published`` is ISO 8601 in UTC (``2024-04-16T09:15:00+00:00``) when the
    feed's date could be read, else the feed's own text ('' if none).
    """

    link: str
    meta: Metadata = Metadata()


@dataclass(frozen=True, slots=True)
class Feed:
    """A parsed feed: its URL, title, and items that have a link (first occurrence of each link)."""

    url: str
    title: str
    items: tuple[FeedItem, ...]
    version: str = ""


def parse_feed(body: bytes, url: str, headers: Mapping[str, str] | None = None, *, max_bytes: int = 10_000_000) -> Feed:
    """Parse feed bytes fetched from ``url``.

    Relative item links are resolved against ``url``.  A feed feedparser flags as
    malformed (``bozo``) but which has entries is used, with a warning logged.

    :param headers: the HTTP response headers (their charset helps decoding).
    :param max_bytes: larger feeds are refused (Settings.max_page_bytes, as for pages).
    :raises FeedError: when ``body`` declares XML entities, is over a limit (see
        :func:`check_feed_limits`), is not a feed (an HTML page, no entries), or has no entry with a link.
    """
    if not isinstance(body, bytes):
        raise TypeError(f"body must be bytes, not {type(body).__name__}")
    check_no_entities(body, url)
    check_feed_limits(body, url, max_bytes=max_bytes)
    response_headers = {k.lower(): v for k, v in (headers or {}).items()}
    # feedparser resolves relative URIs inside the feed against Content-Location.
    response_headers["content-location"] = url
    # Without a Content-Type feedparser flags even a perfect feed as malformed.
    response_headers.setdefault("content-type", "application/xml")
    body, response_headers["content-type"] = without_bad_charsets(body, response_headers["content-type"])
    body, response_headers["content-type"] = _decodable(body, response_headers["content-type"])
    try:
        parsed = feedparser.parse(body, response_headers=response_headers)
    except Exception as exc:  # feedparser's parsers raise assorted errors on hostile input
        raise FeedError(f"{url}: cannot parse the feed ({type(exc).__name__}: {exc})", url=url) from exc
    entries = parsed.get("entries") or []
    if not entries:
        raise FeedError(f"{url}: not a feed ({_why_not(body, parsed)})", url=url)
    problem = parsed.get("bozo_exception")
    if parsed.get("bozo") and not isinstance(problem, _BENIGN):
        LOGGER.warning("%s: malformed feed, using its %d entries anyway (%s)", url, len(entries),
                       _one_line(str(parsed.get("bozo_exception", ""))))
    items: dict[str, FeedItem] = {}
    for entry in entries:
        item = _item(entry, url)
        if item is not None and item.link not in items:
            items[item.link] = item
    if not items:
        raise FeedError(f"{url}: the feed's {len(entries)} entries have no http(s) links to pages", url=url)
    title = _text(parsed.get("feed", {}).get("title", ""))
    return Feed(url=url, title=title, items=tuple(items.values()), version=str(parsed.get("version") or ""))


def _decodable(body: bytes, content_type: str) -> tuple[bytes, str]:
    """The feed's bytes and Content-Type such that feedparser decodes them with a charset it is given.

    When no charset the feed declares (HTTP's, then the XML declaration's) decodes it, and
    for text/* without an HTTP charset, feedparser asks chardet, which reads the whole
    document in Python: 81 s over an 8 MB feed (`python -m eval.fuzz --kind feeds`, case
    bad_encoding).  Such a feed is decoded here instead, as a page is: with the charset it
    declares, bytes that do not fit replaced, else UTF-8, else the charset a detector finds
    in its first 64 KB (forest.charsets.sniff), and handed on as UTF-8.
    """
    if body[:4] in (b"\x4c\x6f\xa7\x94", b"\x00\x00\x00\x3c", b"\x3c\x00\x00\x00") or body[:2] in (
            b"\xff\xfe", b"\xfe\xff", b"\x3c\x00", b"\x00\x3c"):
        return body, content_type  # EBCDIC, UTF-16 or UTF-32: feedparser tells them by their first bytes
    charset = _CHARSET.search(content_type)
    xml = _XML_ENCODING.match(body[:512])
    labels = (charset.group(1).strip() if charset else "", xml.group(1).decode("ascii", "replace") if xml else "")
    http, declared = (text_codec(label) for label in labels)
    tried = labels if http or not content_type.lower().startswith("text/") else labels[:1]
    for label in tried:
        # The label itself, as feedparser decodes with it ("shift_jis" refuses bytes its superset cp932 reads).
        if not label or text_codec(label) is None:
            continue
        try:
            body.decode(label)
        except (UnicodeDecodeError, LookupError):
            continue
        return body, content_type
    codec = http or declared
    if codec is None:
        try:
            body.decode("utf-8")
            codec = "utf-8"
        except UnicodeDecodeError:
            codec = sniff(body) or "cp1252"
    text = body if codec == "utf-8" and http is None and declared is None else body.decode(codec, "replace").encode("utf-8")
    media = content_type.split(";", 1)[0].strip() or "application/xml"
    return text, f"{media}; charset=utf-8"


def check_no_entities(body: bytes, url: str) -> None:
    """Refuse a document whose DTD declares entities (entity-expansion attacks).

    :raises FeedError: if it does.
    """
    text = _ascii_view(body)
    if _DOCTYPE.search(text) and _ENTITY_DECLARATION.search(text):
        raise FeedError(
            f"{url}: the document declares XML entities in its DOCTYPE; refused, "
            "as entity expansion can exhaust memory (billion laughs)",
            url=url,
        )


def check_feed_limits(body: bytes, url: str, *, max_bytes: int = 10_000_000) -> None:
    """Refuse a feed over the limits pages have (size, elements, attributes per element, nesting
    depth) and over MAX_REFERENCES character and entity references.

    Checked before feedparser sees the bytes: its attribute handling is quadratic in one
    element's attributes (40,000 took 23 s), it keeps every open element, and it handles
    each element and reference in Python.

    :raises FeedError: naming the limit (in forest.limits, or MAX_REFERENCES) the feed is over.
    """
    try:
        check_size(len(body), max_bytes, source=url, what="feed")
        # Latin-1 maps each byte to one character: the tags and quotes of any ASCII-compatible encoding stay in place.
        check_markup(_ascii_view(body).decode("latin-1"), source=url, xml=True)
    except ParseError as exc:
        raise FeedError(f"{exc}; refused before parsing the feed", url=url) from exc
    # Every reference holds an '&': the count of those (a fraction of a millisecond) spares the exact one.
    if body.count(b"&") > MAX_REFERENCES:
        references = sum(1 for _ in _REFERENCE.finditer(_ascii_view(body)))
        if references > MAX_REFERENCES:
            raise FeedError(
                f"{url}: the feed holds {references:,} character and entity references, over the {MAX_REFERENCES:,} "
                "forest reads (forest.net.feed.MAX_REFERENCES); refused before parsing the feed",
                url=url,
            )


def looks_like_html(body: bytes) -> bool:
    """Whether ``body`` starts like an HTML page rather than an XML feed."""
    return bool(_HTML_START.match(_ascii_view(body[:4096])))


def discover_feed(page_url: str, page_html: str | bytes) -> list[str]:
    """Candidate feed URLs for a page: its ``<link rel="alternate">`` feeds, then common paths of its site.

    The candidates are not fetched; the caller tries them in order.
    """
    found: list[str] = []
    try:
        root = lxml_html.document_fromstring(page_html) if page_html and page_html.strip() else None
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        root = None
    if root is not None:
        base = next((b.get("href") for b in root.iter("base") if b.get("href")), None)
        base_url = (_join(page_url, base) or page_url) if base else page_url
        for link in root.iter("link"):
            rel = (link.get("rel") or "").lower().split()
            kind = (link.get("type") or "").split(";", 1)[0].strip().lower()
            href = (link.get("href") or "").strip()
            if "alternate" in rel and kind in FEED_LINK_TYPES and href:
                found.append(_join(base_url, href))
    parts = urlsplit(page_url)
    found.extend(f"{parts.scheme}://{parts.netloc}{path}" for path in COMMON_FEED_PATHS)
    return [u for u in dict.fromkeys(found) if _fetchable(u) and u != page_url]


def _item(entry: dict[str, Any], feed_url: str) -> FeedItem | None:
    link = _link(entry, feed_url)
    if link is None:
        return None
    tags = tuple(
        dict.fromkeys(_text(str(t.get("term") or "")) for t in entry.get("tags") or [] if isinstance(t, Mapping))
    )
    detail = entry.get("author_detail")
    raw = entry.get("author")
    author = _author_name(raw) if isinstance(raw, str) and raw.strip() else (
        detail.get("name") if isinstance(detail, Mapping) else None) or ""
    meta = Metadata(
        title=_text(str(entry.get("title") or "")),
        summary=_text(str(entry.get("summary") or "")),
        tags=tuple(t for t in tags if t),
        author=_text(str(author)),
        published=_date(entry),
    )
    return FeedItem(link=link, meta=meta)


def _link(entry: dict[str, Any], feed_url: str) -> str | None:
    candidates: list[str] = []
    if isinstance(entry.get("link"), str):
        candidates.append(str(entry["link"]))
    for link in entry.get("links") or []:
        if isinstance(link, Mapping) and link.get("rel", "alternate") == "alternate" and link.get("href"):
            candidates.append(str(link["href"]))
    # An RSS <guid isPermaLink="true"> (the default) is the item's URL.
    if isinstance(entry.get("id"), str) and entry.get("guidislink", True):
        candidates.append(str(entry["id"]))
    for candidate in candidates:
        if _fetchable(absolute := _join(feed_url, candidate.strip())):
            return absolute.split("#", 1)[0]
    return None


def _join(base: str, link: str) -> str:
    # urljoin raises ValueError on a bracketed host that is no IPv6 address ("http://[zz::1]/").
    try:
        return urljoin(base, link)
    except ValueError:
        return ""


def _fetchable(url: str) -> bool:
    """Whether ``url`` is http(s) with a host DNS could look up: a feed's links are whatever its author wrote."""
    try:
        scheme = urlsplit(url).scheme
    except ValueError:
        return False
    return scheme in ("http", "https") and host_problem(host_of(url)) is None


def _author_name(value: str) -> str:
    """The name in an RSS author: ``email (Name)``, ``Name <email>``, or a plain name.

    Parsed here because feedparser's own parse cuts addresses whose top-level domain
    is over four letters ("ana@news.example (Ana Lima)" gives the name "ple (Ana Lima").
    """
    value = value.strip()
    for pattern in (_EMAIL_THEN_NAME, _NAME_THEN_EMAIL):
        match = pattern.match(value)
        if match:
            return match.group("name").strip()
    return "" if _BARE_EMAIL.match(value) else value


def _date(entry: dict[str, Any]) -> str:
    # dict.get, not FeedParserDict's []: its 'updated' -> 'published' fallback warns.
    for key in ("published_parsed", "updated_parsed", "created_parsed"):
        value = dict.get(entry, key)
        if isinstance(value, time.struct_time):
            # feedparser gives UTC struct_times.
            try:
                stamp = calendar.timegm(value)
                return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(stamp))
            except (ValueError, OverflowError, OSError):
                continue  # a date feedparser read but no calendar holds (year -1): the feed's own text below
    for key in ("published", "updated", "created"):
        value = dict.get(entry, key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _text(value: str) -> str:
    """Plain text from a feed field that may hold escaped HTML."""
    return " ".join(html.unescape(_TAG.sub(" ", value)).split())


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200]


def _ascii_view(data: bytes) -> bytes:
    """An ASCII-compatible view of the start of a document, for sniffing (UTF-16/32 feeds exist)."""
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                       (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data.decode(codec, errors="replace").encode("ascii", errors="replace")
    if data[:2] in (b"<\x00", b"\x00<"):  # UTF-16 without a BOM
        codec = "utf-16-le" if data[:1] == b"<" else "utf-16-be"
        return data.decode(codec, errors="replace").encode("ascii", errors="replace")
    return data


def _why_not(body: bytes, parsed: Mapping[str, object]) -> str:
    if not body.strip():
        return "empty document"
    if looks_like_html(body):
        return "it is an HTML page; give the site's feed URL, or its page to discover the feed"
    problem = parsed.get("bozo_exception")
    if problem:
        return f"no entries; {_one_line(str(problem))}"
    return "no entries"
