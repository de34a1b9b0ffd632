"""What a page states about its article without a feed: JSON-LD, microdata, meta tags and ``<time>``; dates in ISO 8601.

Small code rather than a library: htmldate (trafilatura's) guesses dates from URLs and
free text as well, and extruct parses every syntax into a generic graph; forest reads
only the page's explicit statements, in a fixed order, and leaves guessing to no one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

from lxml import etree

from forest.bylines import BYLINE, FIRST_YEAR, MAX_BYLINE, written_dates
from forest.classifier._walk import marked_elements
from forest.limits import loads_json

# Searched in the page's bytes (parsing removes <script>; no decoding of the whole page just to find one).
_JSON_LD = re.compile(
    rb"""<script[^>]*type\s*=\s*["']?application/ld\+json["']?[^>]*>(.*?)</script\s*>""", re.IGNORECASE | re.DOTALL
)
# The same on a page given as str, with ASCII's case and whitespace as on bytes: the page is not
# encoded whole for it (a tenth of a millisecond on a large page).  A match's text is then what
# the bytes' match held: stripped of ASCII whitespace, a lone surrogate read as "?".
_JSON_LD_TEXT = re.compile(_JSON_LD.pattern.decode("ascii"), re.IGNORECASE | re.DOTALL | re.ASCII)
_ASCII_SPACE = " \t\n\r\x0b\x0c"  # what bytes.strip() strips
# Where a str page says "ld+json" in any ASCII case, as the pattern reads it: "+json" found from its "+" (sre
# scans for a pattern's uncased first character alone; one with a cased first, "ld", is tried at every
# character, ten times slower), then its "ld".
_JSON_PLUS = re.compile(r"\+[jJ][sS][oO][nN]")
_LD = frozenset({"ld", "lD", "Ld", "LD"})
# JSON-LD types whose headline, author and date are the article's (schema.org's Article and
# its subtypes); a WebPage's or an Organization's name is not the article's title.
_ARTICLE_TYPE = re.compile(r"(Article|BlogPosting|Posting|Report|NewsArticle|LiveBlogPosting)$")
# The JSON-LD types of a news or blog article, read whole (re.match): not a TechArticle or a forum's posting.
_NEWS_TYPE = re.compile(r"(Article|\w*NewsArticle|\w*BlogPosting)$")
# The places microdata, <time>, hAtom's <abbr> and rel=author state a date or an author, tried in this order
# (the page's own statement of the publication date first, any <time>, then an <abbr title=timestamp>
# named for a date ("Thu Apr 2, 1:08 am ET" titled "2009-04-01T22:08:02-0700") last); each place's first
# element in the page is the one read.  Found in one walk of the tree in Python, where an XPath per
# place walked the whole tree six times (and one XPath of them all, in C, takes longer than the walk).
_DATE_PLACES = ("datePublished", "dateCreated", "pubdate", "datetime", "abbr")
_AUTHOR_PLACES = ("author", "rel")
# Longer than this, an "author" element is a bio box, not a name.
MAX_AUTHOR = 100
_ITEMPROP_NAME = etree.XPath(".//*[@itemprop='name']")
# The attributes in which an element states its article's publication date by name (New York Magazine's
# ``<li class="timestamp" data-published="Thu Nov 21 12:25:05 EST 2013">``, empty, its text written by a
# script), and the words a page's source must hold for them to be looked for (an XPath over the tree
# takes as long as microdata_fields' whole walk).
DATE_ATTRIBUTES = ("data-published", "data-published-at", "data-publish-date", "data-published-date",
                   "data-date-published", "data-pubdate")
_DATE_ATTRIBUTE_NAMES = frozenset(DATE_ATTRIBUTES)  # as keys() names them: a namespaced one is "{uri}name"
_DATE_ATTRIBUTE_WORDS = (b"data-publish", b"data-date-publish", b"data-pubdate")
# Whether a page's source holds one of _DATE_ATTRIBUTE_WORDS, in one scan: sre finds the shared
# "data-" as a literal prefix, where three substring searches each read the whole page.
_DATE_ATTRIBUTE_SOURCE = re.compile(b"data-(?:" + b"|".join(re.escape(w[5:]) for w in _DATE_ATTRIBUTE_WORDS) + b")")
_DATE_ATTRIBUTE_TEXT = re.compile(_DATE_ATTRIBUTE_SOURCE.pattern.decode())
_DATE_ATTRIBUTED = etree.XPath(f"//body//*[{' or '.join('@' + a for a in DATE_ATTRIBUTES)}]")
# What statement_elements finds: the attributes and tags microdata_fields' places and attributed_date read.
_STATEMENT_ATTRIBUTES = ("itemprop", "rel", *DATE_ATTRIBUTES)
_STATEMENT_TAGS = ("time", "abbr")
# The class of an <abbr> whose title is a timestamp (hAtom's "published", "updated"; "timedate").
_DATE_NAMED = re.compile(r"date|time|published|updated", re.IGNORECASE)

# Dates a page may print; the feed's date is compared by calendar day.
_DATE_FORMATS = (
    "%Y-%m-%d", "%d %B %Y", "%d %b %Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%b %d %Y",
    "%d.%m.%Y", "%Y/%m/%d", "%A, %d %B %Y", "%A, %B %d, %Y", "%a, %d %b %Y",
)
_ORDINAL = re.compile(r"(\d)(st|nd|rd|th)\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# What a text must hold for strptime to read it by each format, tested first: strptime keeps only
# five compiled formats, so trying all twelve on each short text of a page (learning tries every
# one) recompiled each format every time.  Every format has a year, which strptime reads as four
# digits (its %Y is \d\d\d\d); a format opens with a number (%Y, %d) or a name (%A, %B...), and
# its punctuation is matched as written.  A format whose needs a text misses would raise ValueError.
_YEAR_DIGITS = re.compile(r"\d\d\d\d")
# Each format's shape, for a text to fully match before strptime is tried: a failed strptime costs
# several microseconds, and a byline ("Published: Thursday, January 17, 2008") fails every format
# it has the marks of before the written-date search reads it.  Each piece is at least as lenient as
# strptime's own (its %d also reads " 5", a space in a format reads as any run of whitespace, names
# are its locale's words), so no text strptime would read is turned away.
_SHAPES = {"%Y": r"\d{4}", "%d": r"(?:\d{1,2}| \d)", "%m": r"\d{1,2}", "%B": r"[^\W\d_]+", "%b": r"[^\W\d_]+",
           "%A": r"[^\W\d_]+", "%a": r"[^\W\d_]+"}


def _shape(fmt: str) -> re.Pattern[str]:
    pieces = re.split(r"(%.|\s+)", fmt)
    return re.compile("".join(_SHAPES[p] if p in _SHAPES else r"\s+" if p.isspace() else re.escape(p) for p in pieces if p))


_FORMAT_NEEDS = tuple(
    (fmt, fmt[1] in "Yd", tuple(set(re.sub("%.", "", fmt)) - {" "}), _shape(fmt)) for fmt in _DATE_FORMATS
)
_CLOCK_12H = re.compile(r"\d\s*[AaPp]\.?[Mm]\b")
# A time zone written as a name after a timestamp ("2024-04-16 09:15 EST"): the names US and
# European pages use, at their standard offsets.
_ZONES = {"UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6,
          "PST": -8, "PDT": -7, "CET": 1, "CEST": 2, "BST": 1, "EET": 2, "EEST": 3}
_ZONE_NAME = re.compile(r"\s*\b([A-Z]{1,4})$")
_OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})$")

# A calendar date in a URL's path, as a blog's or a news site's permalinks print it: year, month and
# day as segments ("/2012/10/29/slug/"), with the sections between year and month ("/2005/WORLD/meast/
# 04/05/"), joined by dashes ("/2012-10-29-slug"), or as eight digits ("/s/ap/20050922/rita",
# "/post/20051228-5858.html") or with the month's name ("la-me-sheriff25-2009jun25").  A year and a
# month alone ("/2012/10/slug") name an archive, not a day; a query's ("?date=2008/01/15") is a
# link's parameter.  Month first ("02252009") is left: it reads as day first as well.
_URL_DATES = (
    re.compile(r"/(?P<y>\d{4})/(?:[A-Za-z][\w-]*/){0,3}(?P<m>\d{1,2})/(?P<d>\d{1,2})(?=/|$|[._-])"),
    re.compile(r"(?<![\d])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?=/|$|[._,-])"),
    re.compile(r"(?<=[/_-])(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})(?=/|$|[._,-])"),
    re.compile(r"(?<![\w])(?P<y>\d{4})(?P<m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?P<d>\d{1,2})(?!\d)", re.IGNORECASE),
)
_URL_MONTHS = {name: number for number, name in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}


def normalize_date(value: str) -> str:
    """An ISO 8601 form of a date or timestamp: ``YYYY-MM-DD``, or a timestamp with the UTC offset the
    page states (a zone name read as its offset), or the text itself when it is not a date it can
    read ('' stays '').

    The offset is kept, not converted to UTC: the calendar day is then the one the page prints
    ("2025-12-18T19:30:00-05:00" is December 18th where it was published, the 19th in UTC).
    """
    value = " ".join(value.split())
    if not value:
        return ""
    parsed = parse_date(value)
    if parsed is None:
        return value
    return parsed.isoformat()


def parse_date(value: str) -> date | datetime | None:
    """A date or timestamp from ISO 8601, RFC 2822, a zone-named timestamp or a written date; None if none."""
    text = value.strip()
    if not _DIGIT.search(text):  # every form below has one; learning tries every short text of a page
        return None
    iso = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        if len(iso) == 10:
            return date.fromisoformat(iso)
        if len(iso) == 8 and iso.isdigit():  # a day in ISO 8601's basic format ("20080115"), which Python 3.10 does not read
            return date(int(iso[:4]), int(iso[4:6]), int(iso[6:]))
        return datetime.fromisoformat(iso)
    except ValueError:
        pass
    named = _ZONE_NAME.search(text)
    if named and named.group(1) in _ZONES:
        base = parse_date(text[: named.start()])
        if isinstance(base, datetime) and base.tzinfo is None:
            return base.replace(tzinfo=timezone(timedelta(hours=_ZONES[named.group(1)])))
    cleaned = _ORDINAL.sub(r"\1", text)
    for fmt in _formats_for(cleaned):
        try:
            return datetime.strptime(cleaned, fmt).date()
        except ValueError:
            continue
    if not _CLOCK_12H.search(text):  # RFC 2822 has no AM/PM: its reader gives "5:50 PM" as 05:50
        try:
            return parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            pass
    # A short text that holds one written date among other words ("Posted on Sat 11 February 2017",
    # "8:43 AM, April 19, 2013"): a byline's, read as its day.
    if len(text) <= MAX_BYLINE:
        found = [day for day, _, _ in written_dates(text)]
        if len(set(found)) == 1:
            return found[0]
    return None


def _formats_for(text: str) -> list[str]:
    """The formats of _DATE_FORMATS whose needs ``text`` (stripped) meets: the only ones strptime may read it by."""
    if not _YEAR_DIGITS.search(text):
        return []
    numeric = _DIGIT.match(text) is not None
    return [fmt for fmt, number_first, marks, shape in _FORMAT_NEEDS
            if number_first == numeric and all(m in text for m in marks) and shape.fullmatch(text) is not None]


def url_date(url: str) -> str | None:
    """The calendar day (``YYYY-MM-DD``) a URL's path states (``/2012/10/29/slug/``), or None.

    A page that states no date anywhere else is dated by its permalink: the first date of the path
    (a site's section may follow it, never precede it), when it is a real day of the web's years.
    """
    path = url.split("?", 1)[0].split("#", 1)[0]
    if "://" in path:
        path = path.split("://", 1)[1]
        path = path[path.find("/"):] if "/" in path else ""
    if not _DIGIT.search(path):
        return None
    found = []
    for pattern in _URL_DATES:
        match = pattern.search(path)
        if match is not None:
            found.append(match)
    for match in sorted(found, key=lambda m: m.start()):
        month_text = match.group("m")
        year, day = int(match.group("y")), int(match.group("d"))
        month = int(month_text) if month_text.isdigit() else _URL_MONTHS[month_text.casefold()]
        if FIRST_YEAR <= year <= date.today().year + 1:
            try:
                return date(year, month, day).isoformat()
            except ValueError:
                continue
    return None


def json_ld_fields(html: str | bytes) -> dict[str, str]:
    """Title (``headline``), author and date (``datePublished``) from a page's JSON-LD, where present.

    Objects of an article type (``Article``, ``NewsArticle``, ``BlogPosting``...) are read
    first, anywhere in the page's scripts, lists and ``@graph``; then any object with a
    headline or a publication date.  Broken JSON is skipped: sites ship trailing commas
    and raw newlines in strings.
    """
    found: dict[str, str] = {}
    for node in sorted(_json_ld_nodes(html), key=lambda n: not _is_article(n)):  # stable: page order within each kind
        if not (_is_article(node) or "datePublished" in node or "headline" in node):
            continue
        title = node.get("headline") or node.get("name")
        author = _json_author(node.get("author"))
        published = normalize_date(str(node.get("datePublished") or node.get("dateCreated") or ""))
        for name, value in (("title", title), ("author", author), ("date", published)):
            if isinstance(value, str) and value.strip() and name not in found:
                found[name] = " ".join(value.split())
    return found


def json_ld_declares_article(html: str | bytes) -> bool:
    """Whether the page's JSON-LD calls it a news or blog article (schema.org's ``Article``, a kind of
    ``NewsArticle``, a ``BlogPosting``): a stricter reading than the fields' search, for which a forum's
    ``DiscussionForumPosting`` or a manual's ``TechArticle`` has a headline and a date too."""
    return _declares(html, lambda kind: _NEWS_TYPE.match(kind) is not None)


def json_ld_declares_product(html: str | bytes) -> bool:
    """Whether the page's JSON-LD describes a product (schema.org's ``Product``, ``ProductGroup``)."""
    return _declares(html, _PRODUCT_TYPES.__contains__)


_PRODUCT_TYPES = frozenset({"Product", "ProductGroup"})


def _declares(html: str | bytes, wanted: Callable[[str], bool]) -> bool:
    """Whether an object of the page's JSON-LD has an ``@type`` (one, or one of a list) that is ``wanted``."""
    for node in _json_ld_nodes(html):
        kind = node.get("@type")
        if any(isinstance(k, str) and wanted(k) for k in (kind if isinstance(kind, list) else [kind])):
            return True
    return False


# The last page's source and its JSON-LD objects: a cold page's fields and the choice of its classifier
# model (forest.extraction.models) both read them, and parsing a page's JSON took longer than that choice.
# Matched by identity, and the source is held, so no other page can match it (one tuple: one atomic read).
_last_nodes: tuple[str | bytes | None, list[Mapping[str, object]]] = (None, [])


def _json_ld_nodes(html: str | bytes) -> list[Mapping[str, object]]:
    """Every object of the page's JSON-LD scripts, in page order; broken JSON is skipped (callers do not change the list)."""
    global _last_nodes
    last = _last_nodes
    if last[0] is html:
        return last[1]
    nodes = _parsed_json_ld(html)
    _last_nodes = (html, nodes)
    return nodes


def _parsed_json_ld(html: str | bytes) -> list[Mapping[str, object]]:
    # Most pages have none: a substring test spares encoding and scanning the whole page.
    if (b"ld+json" not in html) if isinstance(html, bytes) else ("ld+json" not in html):
        return []
    if isinstance(html, str):
        # Encoded and decoded as the bytes' matches are (a lone surrogate read as "?"), unless ASCII (most are).
        scripts = [script if (script := m.group(1).strip(_ASCII_SPACE)).isascii()
                   else script.encode("utf-8", errors="replace").decode("utf-8", errors="replace") for m in _json_ld_matches(html)]
    else:
        scripts = [m.group(1).strip().decode("utf-8", errors="replace") for m in _JSON_LD.finditer(html)]
    nodes: list[Mapping[str, object]] = []
    for script in scripts:
        try:
            # Bounded depth: a page's JSON-LD nested 100,000 deep raised RecursionError (issue 15, case 4).
            data = loads_json(script, strict=False)
        except ValueError:
            continue
        nodes.extend(_json_nodes(data))
    return nodes


def statement_elements(root: etree._Element) -> list[etree._Element]:
    """The elements :func:`microdata_fields` and :func:`attributed_date` read (an ``itemprop``, a ``rel`` or an
    attribute of DATE_ATTRIBUTES; the ``<time>`` and ``<abbr>`` elements), in document order, found in one walk
    in C: a caller that reads both passes them to each, where each walked the tree (and attributed_date's
    test of the page's source for its attributes' names took as long as the walk)."""
    return marked_elements(root, _STATEMENT_ATTRIBUTES, _STATEMENT_TAGS)


def _json_ld_matches(html: str) -> list[re.Match[str]]:
    """``_JSON_LD_TEXT.finditer(html)``'s matches, tried only where
    they may start: every match's opening tag names the type, so it starts at a "<" after the last ">" before
    one of the places "ld+json" is in any ASCII case (the pattern's).  sre found the pattern's "<script" in any
    case by trying it at every "<" of the page: a third of a millisecond on a page with JSON-LD."""
    places = [at - 2 for m in _JSON_PLUS.finditer(html) if (at := m.start()) >= 2 and html[at - 2: at] in _LD]
    found: list[re.Match[str]] = []
    end = tried = 0  # where the last match ended, and up to where each "<" was tried
    for at in places:
        if at < end:
            continue  # inside the last match (its script's text)
        # A match opening before ``at`` without reaching it would have no ">" before it: it opens after the last one.
        start = html.find("<", max(end, tried, html.rfind(">", 0, at) + 1), at)
        while start >= 0:
            match = _JSON_LD_TEXT.match(html, start)
            if match is not None:
                # Its opening tag ends at the first ">" after ``start``, which is after ``at``.
                found.append(match)
                end = match.end()
                break
            start = html.find("<", start + 1, at)
        tried = at
    return found


def microdata_fields(root: etree._Element, statements: Sequence[etree._Element] | None = None) -> dict[str, str]:
    """Author and date from microdata (``itemprop``), ``rel=author``, ``<time datetime>`` and ``<abbr title>``, where present.

    :param statements: the page's :func:`statement_elements`, where the caller found them.
    """
    first = _places(root, statements)
    found: dict[str, str] = {}
    for dated in (first[place] for place in _DATE_PLACES if place in first):
        stamp = " ".join((dated.get("datetime") or dated.get("content") or (dated.get("title") if dated.tag == "abbr" else "")
                          or _text(dated)).split())
        if stamp and parse_date(stamp) is not None:
            found["date"] = normalize_date(stamp)
            break
    for credited in (first[place] for place in _AUTHOR_PLACES if place in first):
        # A name may be a <meta itemprop=name content=...> inside the author's element (Stack Exchange's).
        names = [e.get("content") or _text(e) for e in _ITEMPROP_NAME(credited)]
        author = " ".join((credited.get("content") or next((n for n in names if n), "") or _text(credited)).split())
        author = BYLINE.sub("", author).strip(" ,;|")
        if author and not is_url(author) and len(author) <= MAX_AUTHOR:
            found["author"] = author
            break
    return found


def attributed_date(root: etree._Element, html: str | bytes | None = None,
                    statements: Sequence[etree._Element] | None = None) -> str | None:
    """The date (ISO 8601) the first element of the body that states one in an attribute named for it
    (``data-published``, ``data-pubdate``...) states, or None.

    :param html: the page's source: the tree is searched only when it holds such an attribute's name.
    :param statements: the page's :func:`statement_elements`, where the caller found them: the elements
        with such an attribute are taken from them (most pages have none, and the source is then not read).
    """
    dated: Sequence[etree._Element] | None = None
    if statements is not None:
        # _DATE_ATTRIBUTED's elements: with one of the attributes, under a <body>.
        dated = [e for e in statements if not _DATE_ATTRIBUTE_NAMES.isdisjoint(e.keys())
                 and any(a.tag == "body" for a in e.iterancestors())]
        if not dated:
            return None
    if isinstance(html, bytes) and _DATE_ATTRIBUTE_SOURCE.search(html) is None:
        return None
    if isinstance(html, str) and _DATE_ATTRIBUTE_TEXT.search(html) is None:
        return None
    for element in _DATE_ATTRIBUTED(root) if dated is None else dated:
        stamp = date_attribute(element)
        if stamp and parse_date(stamp) is not None:
            return normalize_date(stamp)
    return None


def date_attribute(element: etree._Element) -> str | None:
    """The value of the first attribute of ``element`` named for a publication date (``data-published``...), or None."""
    return next((" ".join(value.split()) for name in DATE_ATTRIBUTES if (value := element.get(name))), None)


def _places(root: etree._Element, statements: Sequence[etree._Element] | None = None) -> dict[str, etree._Element]:
    """The first element of each place of _DATE_PLACES and _AUTHOR_PLACES (``itemprop`` anywhere;
    ``<time pubdate>`` and ``<abbr title>`` named for a date anywhere; ``<time datetime>`` and ``rel=author`` in the body),
    among ``statements`` (the page's :func:`statement_elements`) where the caller found them."""
    first: dict[str, etree._Element] = {}
    body = root.find("body")
    # The elements with an itemprop or a rel, the <time>s and the <abbr>s, found in C: a proxy and
    # two get() for every element of the page cost more than the rest (an XPath test of each, more still).
    # (Those with a date's attribute alone, among ``statements``, are none of the places.)
    for element in marked_elements(root, ("itemprop", "rel"), _STATEMENT_TAGS) if statements is None else statements:
        get = element.get
        itemprop, rel, tag = get("itemprop"), get("rel"), element.tag
        if itemprop in ("datePublished", "dateCreated", "author"):
            first.setdefault(itemprop, element)
        # Whether the element is in the body, asked only where it decides (most rels are a link's "nofollow").
        if rel == "author" and "rel" not in first and _in_body(element, body):
            first["rel"] = element
        if tag == "time":
            if get("pubdate") is not None:
                first.setdefault("pubdate", element)
            # The first whose datetime reads as one: a theme's malformed one ("02-12-2025") gives way to the next.
            if "datetime" not in first and _in_body(element, body) and parse_date(get("datetime") or "") is not None:
                first["datetime"] = element
        if tag == "abbr" and get("title") and _DATE_NAMED.search(get("class") or ""):
            first.setdefault("abbr", element)
    return first


def _in_body(element: etree._Element, body: etree._Element | None) -> bool:
    return body is not None and any(a is body for a in element.iterancestors())


def is_url(value: str) -> bool:
    return value.startswith(("http://", "https://", "//"))


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _is_article(node: Mapping[str, object]) -> bool:
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and _ARTICLE_TYPE.search(k) is not None for k in kinds)


def _json_nodes(data: object) -> Iterator[Mapping[str, object]]:
    """Every object in a JSON-LD document, through lists and ``@graph`` (bounded depth), in document order."""
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > 4:
            continue
        if isinstance(node, list):
            stack.extend((n, depth + 1) for n in reversed(node))
        elif isinstance(node, dict):
            yield node
            if "@graph" in node:
                stack.append((node["@graph"], depth + 1))


def _json_author(value: object) -> str | None:
    names: list[str] = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str) and not is_url(item):
            names.append(item)
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            names.append(str(item["name"]))
    return ", ".join(n.strip() for n in names if n.strip()) or None
