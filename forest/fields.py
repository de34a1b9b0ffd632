"""Whole-article fields: learn where a site puts an article's title, author and date, and read them back.

Learning matches each sample page's feed metadata (title, author, published date)
against the page's elements and keeps, per field, the XPath that selects a matching
element on most sample pages.  Reading tries that XPath, then the page's ``og:``/
``article:`` meta tags, then its JSON-LD, then its microdata and ``<time>``, then a date its
``<title>`` states, then a date printed beside its headline (forest.bylines), then the day its own
URL states (forest.metadata.url_date), then, for an archived copy, the day of its capture less the
age the page prints by its headline ("2 minutes ago").
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from itertools import chain
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime, timedelta, timezone

from lxml import etree

from forest.learning._inline import day_candidates, short_texts, text_sizes, unnamed_classes
from forest.html import Meta, first_meta, head_metas, meta_tags, meta_values, page_title
from forest.bylines import (BYLINE, MAX_BYLINE, MAX_NAME_WORDS, WEEKDAYS, PageTexts, person_name, printed_age, printed_fields,
                            written_dates)
from forest.metadata import (DATE_ATTRIBUTES, attributed_date, date_attribute, is_url, json_ld_fields, microdata_fields, parse_date,
                             statement_elements, url_date)
from forest.titles import strip_site_name, title_parts
from forest.xpaths import compiled
from keywords.model import Metadata
from patterns.dom import _XPATH_NAME, ANCHOR_DISTANCE, PageIndex, element_anchors, element_steps

FIELDS = ("title", "author", "date")
# A field's pattern must select the right element on at least this share of the
# sample pages that have a value for the field: with 10 pages a pattern right on
# 5 is the template's, one right on 1 or 2 is a coincidence (a related-story link).
MIN_FIELD_SUPPORT = 0.5
# An element "nearly" matches a title when one text contains the other and the
# shorter is at least this share of the longer ("Title | Site" against "Title").
NEAR_MATCH_SHARE = 0.7
# An element with more text than this multiple of the value's (spaces aside, plus 20 characters
# for punctuation and a site name) cannot match it, even nearly.
MAX_MATCH_RATIO = 3
_WORD = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")
_META_TITLE = ("og:title", "twitter:title")
_META_SITE = ("og:site_name", "application-name", "twitter:site")
# Meta names are compared case-folded ("DC.creator", "dc.creator"; "Byline" on New York Magazine's old pages).
_META_AUTHOR = ("author", "article:author", "dc.creator", "parsely-author", "sailthru.author", "byline", "byl")
# Publication dates only (an update's date is another): the names trafilatura's htmldate reads first, Dublin
# Core's and scholarly pages' ("citation_date"), and a magazine's issue date ("Issue_Date").
_META_DATE = ("article:published_time", "datepublished", "pubdate", "date", "dc.date", "dc.date.issued", "dcterms.issued",
              "og:published_time", "og:article:published_time", "sailthru.date", "published", "publish-date", "publishdate",
              "publish_date", "publication_date", "publicationdate", "parsely-pub-date", "dcterms.date", "dcterms.created",
              "citation_publication_date", "citation_date", "citation_online_date", "article.published", "published_time", "article:published",
              "issue_date", "datecreated")
# The ends of a meta name a site prefixes its own way ("w-published-date"), "_" read as "-".
_DATE_SUFFIXES = ("published-date", "publish-date", "publication-date", "published-time")
# The separators between a <title>'s parts, with spaces around them (a date's own "/" and "-" have none).
_TITLE_CUTS = re.compile(r"\s+[|\u2013\u2014\u00bb\u00ab/:~\u2022\u00b7-]{1,2}\s+")
_SLASHED_DAY = re.compile(r"(\d{1,2})/(\d{1,2})/")
# Where a saved or archived copy of a page records the page's URL (saved_from), each after a marker
# the source must hold: the Wayback Machine's toolbar script (its 2005-2017 "bt" call and its
# later "wombat" one) and the comment a browser's "save as" writes.
_SAVED_FROM = (
    ("__wm.", re.compile(r'__wm\.(?:bt\((?:[^,"()]*,){4}\s*"web",\s*|wombat\(\s*)"(https?://[^"\s]+)"')),
    ("saved from url=", re.compile(r'saved from url=\(\d+\)(https?://[^\s>"]+?)\s*-->')),
)
# How far into the source each marker is looked for, and then its URL: a browser writes its comment
# before the page, the Wayback Machine its scripts in the head and its toolbar at the body's start
# (within 41,000 characters on big9's dev pages, of pages up to 850,000).  Searching whole pages cost
# a fifth of a millisecond a page.
_SAVED_WHERE = {"__wm.": (100_000, 150_000), "saved from url=": (1_000, 2_100)}
# When the Wayback Machine captured a page, as its toolbar records it: the capture's timestamp
# (``__wm.saveSnapshot(url, "20050905180648")``, ``__wm.wombat(url, "20050905180648", ...)``), else its
# day alone (``__wm.bt(..., "web", url, "2005-09-05", ...)``).
_CAPTURED = re.compile(r'__wm\.(?:saveSnapshot\(\s*[\'"][^\'"]*[\'"]\s*,\s*|wombat\(\s*"[^"]*"\s*,\s*)[\'"](\d{14})[\'"]')
_CAPTURED_DAY = re.compile(r'__wm\.bt\((?:[^,"()]*,){4}\s*"web",\s*"[^"]*",\s*"(\d{4}-\d\d-\d\d)"')
# The attributes _Body.day reads a timestamp from on any element, and those it reads on one tag only (an element
# with none of them states its day in its text): a link's or an image's title, most of a page's, states no day.
_DAY_STAMPS = ("datetime", *DATE_ATTRIBUTES)
_DAY_TAGGED_STAMPS = (("content", "meta"), ("title", "abbr"))



def learn_fields(samples: Sequence[tuple[etree._Element, Metadata]], indexes: Sequence[PageIndex | None] | None = None,
                 ) -> dict[str, str]:
    """XPaths that find each field (title, author, date) on the sample pages.

    :param samples: each sample page's parsed tree (from :func:`forest.html.parse_html`)
        and what its feed item says about it.
    :param indexes: each page's index of its ``<body>`` with its structural keys (learning's, from
        forest.learning.index.page_index), where the caller has it: a candidate's elements are then read
        from it instead of evaluating its XPath over the page (the same elements: :class:`_Selection`).
    :return: field name -> XPath, for the fields a pattern was found for.
    """
    learned: dict[str, str] = {}
    selections: dict[int, _Selection] = {}  # each page's, made when a field first has a value on it
    bodies: dict[int, _Body] = {}  # each page's body read once for all three fields, when one has a value
    read = _Read()  # each distinct text's day, words and byline name, read once for all the pages (a template's repeat)
    for name in FIELDS:
        pages: list[tuple[etree._Element, list[etree._Element]]] = []
        selected: list[_Selection | None] = []
        for k, (root, meta) in enumerate(samples):
            value = _value(meta, name)
            if value:
                body = bodies[k] if k in bodies else bodies.setdefault(k, _Body.of(root, read, indexes[k] if indexes is not None else None))
                pages.append((root, _matches(body, name, value)))
                if indexes is not None and k not in selections:
                    selections[k] = _Selection(root, indexes[k])
                selected.append(selections.get(k))
        if not any(found for _, found in pages):
            continue
        xpath = _best_key(pages, selected)
        if xpath is not None:
            learned[name] = xpath
    return learned


def extract_fields(
    root: etree._Element, fields: Mapping[str, str], *, html: str | bytes | None = None, statements: bool = True,
    body: bool = True, url: str | None = None, page: PageTexts | None = None,
) -> dict[str, str | None]:
    """Read title, author and date from a page: learned XPaths first, then meta tags, then JSON-LD,
    then (``statements``) microdata, ``rel=author`` and ``<time>``, then a date the ``<title>`` states, then
    what the page prints by its headline, then (a date still missing) the day the page's own URL states,
    then the day an archive captured the page less the age the page prints by its headline ("2 minutes ago").

    A date is given only where it reads as one (ISO 8601, see :func:`normalize_date`): a source
    whose value is no date ("01/07/16", "last Tuesday") gives way to the next.

    :param fields: field -> XPath, as :func:`learn_fields` gives.
    :param html: the page's source; JSON-LD sits in ``<script>`` elements, which
        parsing removes, so it is read from here when a field is still missing.
    :param statements: search the page body for microdata, ``rel=author`` and ``<time>`` when author
        or date is still missing: a walk of the tree, which a wrapper spares (learning turned the
        site's own places for them into field XPaths).
    :param body: search the body at all: False reads the page's head alone (meta tags and JSON-LD),
        what learning compares the body's statements with.  Otherwise a date or an author still
        missing is searched for where the page prints it, by its headline, with a wrapper or without.
    :param url: where the page was read from: the last date searched is its path's, after the page's own
        canonical URL's (a page read from a mirror or an archive keeps its original's day there).
    :param page: the page's body texts, read by the search of what it prints (if it runs) and shared
        with the caller's own searches of them (forest.titles.headline_of).
    :return: every field in ``FIELDS``, None where nothing was found.
    """
    found: dict[str, str | None] = {name: _by_xpath(root, fields.get(name), name) for name in FIELDS}
    metas = head_metas(root)
    tags = _folded(meta_tags(root, metas))
    site = {first_meta(tags, n).casefold() for n in _META_SITE} - {""}
    meta = {
        "title": _meta_title(root, site, metas),
        "author": next((v for v in (_author(first_meta(tags, n)) for n in (*_META_AUTHOR, _written_by(tags))) if v), "")
        or _cited(first_meta(tags, "citation_author")),
        "date": _iso(first_meta(tags, *_META_DATE)) or _iso(_suffixed_date(tags)),
    }
    # The site's own name as the author (an "author" meta tag a CMS fills with it) says only who
    # publishes: a byline, wherever the page states one, names the writer.
    publisher = meta["author"] if meta["author"].casefold() in site else ""
    if publisher:
        meta["author"] = ""
    for name in FIELDS:
        found[name] = found[name] or meta[name] or None
    if html is not None and not all(found.values()):
        linked = json_ld_fields(html)
        linked["date"] = _iso(linked.get("date", ""))
        for name in FIELDS:
            found[name] = found[name] or linked.get(name) or None
    # The page's <title>, read once where a search first needs it (a walk of the head each time).
    shown: str | None = None
    if not found["title"] and site:
        # No headline stated but the <title>: without the site's name, when it carries it ("Headline | Site").
        title = shown = page_title(root)
        found["title"] = (stripped if (stripped := strip_site_name(title, site)) != title else None)
    # A field whose learned place this page lacks: the page is of another template than the sample's, so
    # the field is searched for as on a page of a site not learned (a page only, not every page of the site).
    unplaced = not statements and any(not found[name] and fields.get(name) for name in ("author", "date"))
    if body and (statements or unplaced) and not (found["author"] and found["date"]):
        # The elements both searches read, found in one walk.
        elements = statement_elements(root)
        stated = microdata_fields(root, elements)
        for name in ("author", "date"):
            found[name] = found[name] or stated.get(name)
        found["date"] = found["date"] or attributed_date(root, html, elements)
    # A date the page's <title> states as one of its parts ("Headline | January 15, 2008 | Site"): the
    # page's own statement, in its head.
    if not found["date"]:
        shown = page_title(root) if shown is None else shown
        found["date"] = _title_date(shown)
    # What the page prints by its headline, for a field still missing, with a wrapper too: a site prints
    # a byline on some of its pages only (bbc.co.uk's of 2005, one page in five), and a sample of five
    # may show none of them; a wrapper that did not search for it found fewer authors than no wrapper
    # (`python -m eval.fields --split dev`, learned and cold).  The search reads the part of the page
    # a wrapper's span bounds: it costs extraction with a wrapper a few hundredths of the parse
    # (`forest bench --dataset big9 --dataset dragnet`).
    printed_for = [name for name in ("date", "author") if not found[name]] if body else []
    if printed_for:
        # A date beside the byline only without a wrapper: with one, a site whose dates are printed there learns their place.
        printed = printed_fields(root, headlines(root, found["title"], shown=shown), date="date" in printed_for, author="author" in printed_for,
                                 beside_byline=statements or unplaced, page=page)
        found["date"] = found["date"] or printed["date"]
        found["author"] = found["author"] or printed["author"]
    if body and not found["date"]:
        # The day the page's own permalink states ("/2012/10/29/slug/"), where it states and prints none:
        # a blog's theme that prints "Posted in News" and no date, an old news page dated in its text
        # only by "2 hours ago".  Last: a date the page states or prints is its own, the URL's may be a draft's.
        found["date"] = _permalink_date(root, tags, html, url)
    if body and not found["date"] and html is not None and (captured := _captured(html)) is not None:
        # An archived copy of a page that prints its date as an age by its headline ("2 minutes ago"): the
        # age is the capture's, and the archive records when that was (Yahoo! News's pages of 2005).
        age = printed_age(root, headlines(root, found["title"], shown=shown), page=page)
        if age is not None:
            stamp, exact = captured
            found["date"] = (stamp - age if exact else stamp - timedelta(days=age.days)).date().isoformat()
    found["author"] = found["author"] or publisher or None
    return found


def _permalink_date(root: etree._Element, tags: Mapping[str, str], html: str | bytes | None, read_from: str | None) -> str | None:
    """The day the page's own URL states in its path, or None: its canonical URL (``<link rel=canonical>``
    in its head, ``og:url``: ``tags`` are its meta tags by folded name), else the URL it was read from
    (``read_from``), else the URL a saved or archived copy records it was read from (:func:`saved_from`)."""
    # The head's links, and the body's own where a stray element in the head made the parser open the body
    # early: forest.html.canonical_url's reading but for a walk of the whole tree.
    head, body = root.find("head"), root.find("body")
    links = chain(head.iter("link") if head is not None else (), body.iterchildren("link") if body is not None else ())
    url = next((link.get("href") for link in links if (link.get("rel") or "").casefold() == "canonical" and link.get("href")), None)
    url = url or tags.get("og:url") or read_from or (saved_from(html) if html is not None else None)
    return url_date(url) if url else None


def saved_from(html: str | bytes) -> str | None:
    """The URL a copy of a page records as the page's own: the Wayback Machine's toolbar names the page it
    archived (``__wm.bt(..., "web", "http://...")``, ``__wm.wombat("http://...", ...)``), a browser's "save as"
    writes ``<!-- saved from url=(0042)http://... -->``.  None where the copy records none."""
    for marker, pattern in _SAVED_FROM:
        head, window = _SAVED_WHERE[marker]
        # Most pages hold neither marker: a substring test spares decoding the page and the pattern's scan.
        if isinstance(html, bytes):
            at = html.find(marker.encode("ascii"), 0, head)
            text = html[at: at + window].decode("ascii", errors="replace") if at >= 0 else ""
        else:
            at = html.find(marker, 0, head)
            text = html[at: at + window] if at >= 0 else ""
        match = pattern.search(text) if text else None
        if match is not None:
            return match.group(1)
    return None


def _captured(html: str | bytes) -> tuple[datetime, bool] | None:
    """When the Wayback Machine captured the page whose copy ``html`` is, and whether to the second (True)
    or to the day (False), as its toolbar records it; None for a page that is no such copy."""
    head, window = _SAVED_WHERE["__wm."]
    if isinstance(html, bytes):
        at = html.find(b"__wm.", 0, head)
        text = html[at: at + window].decode("ascii", errors="replace") if at >= 0 else ""
    else:
        at = html.find("__wm.", 0, head)
        text = html[at: at + window] if at >= 0 else ""
    if not text:
        return None
    try:
        if (stamp := _CAPTURED.search(text)) is not None:
            return datetime.strptime(stamp.group(1), "%Y%m%d%H%M%S"), True
        if (day := _CAPTURED_DAY.search(text)) is not None:
            return datetime.strptime(day.group(1), "%Y-%m-%d"), False
    except ValueError:  # no calendar date ("20051399...")
        return None
    return None


def _title_date(title: str) -> str | None:
    """The day a part of the page's ``<title>`` (:func:`forest.html.page_title`) is (between separators, a weekday aside), or None."""
    if not title or not _DIGIT.search(title):
        return None
    for part in _TITLE_CUTS.split(title):
        found = written_dates(part)
        if len(found) == 1:
            day, start, end = found[0]
            if (numbers := _SLASHED_DAY.match(part, start)) and max(int(numbers.group(1)), int(numbers.group(2))) <= 12:
                continue  # "01/02/2008": January 2nd or February 1st
            if all(word.casefold() in WEEKDAYS for word in _WORD.findall(f"{part[:start]} {part[end:]}")):
                return day.isoformat()
    return None


def _suffixed_date(tags: Mapping[str, str]) -> str:
    """The value of a meta tag (names case-folded) named for a publication date under a prefix of the
    site's ("w-published-date", "cms.published_date"), for a page with no name of _META_DATE; '' if none."""
    names = {name.replace("_", "-"): value for name, value in tags.items()}
    for suffix in _DATE_SUFFIXES:  # a date's name before a time's: a CMS's "published-time" can be its build's
        for name, value in names.items():
            if name.endswith(suffix):
                return value
    return ""


def _folded(tags: Mapping[str, str]) -> dict[str, str]:
    """Meta tags by their names case-folded, the first of each name kept."""
    folded: dict[str, str] = {}
    for name, value in tags.items():
        folded.setdefault(name.casefold(), value)
    return folded


def _iso(value: str) -> str:
    """``value`` in ISO 8601 when it reads as a date, else ''."""
    parsed = parse_date(" ".join(value.split())) if value else None
    return parsed.isoformat() if parsed is not None else ""


def _meta_title(root: etree._Element, site: set[str], metas: list[Meta] | None = None) -> str:
    """The headline the page's meta tags state (``og:title``, ``twitter:title``), not the site's name.

    A tag whose value is the site's name (``og:site_name``) is not the headline; of two different
    ``og:title`` tags (a theme's, its site's name, and a plugin's, the post's), the one its
    ``<title>`` or an ``<h1>`` also states.  The site's name joined to the headline ("Headline | Site")
    is stripped.
    """
    values = dict.fromkeys(v for name in _META_TITLE for v in meta_values(root, name, metas) if v.casefold() not in site)
    titles = list(values)
    if not titles:
        return ""
    if len(titles) > 1:
        shown = {p.casefold() for p in title_parts(page_title(root))} | {_text(h).casefold() for h in root.iter("h1")}
        titles.sort(key=lambda t: t.casefold() not in shown)  # stable: page order among the rest
    return strip_site_name(titles[0], site)


def _cited(value: str) -> str:
    """A scholarly page's first author (``citation_author``, Highwire Press's tag, one per author), as a byline
    names them: "Berger, Emery D." is Emery D. Berger."""
    last, comma, first = value.partition(",")
    return _author(f"{first.strip()} {last.strip()}" if comma and first.strip() and "," not in first else value)


def _author(value: str) -> str:
    """A meta tag's author without the byline's words ("By Ana Lima"); '' for a URL (a profile page)."""
    value = BYLINE.sub("", value).strip(" ,;|")
    return "" if is_url(value) else value


def _written_by(tags: Mapping[str, str]) -> str:
    """The meta name holding the author in Twitter's label/data pairs (``twitter:label1`` "Written by"), or ''."""
    for n in ("1", "2", "3"):
        if tags.get(f"twitter:label{n}", "").strip().casefold() in ("written by", "author", "by"):
            return f"twitter:data{n}"
    return ""


def headlines(root: etree._Element, *titles: str | None, shown: str | None = None) -> list[str]:
    """What the page's headline may read: ``titles`` (an ``og:title``, a JSON-LD headline), its
    ``<title>`` (``shown``, where the caller read it: :func:`forest.html.page_title`), and their parts
    between separators ("Headline - Section - Site")."""
    shown = page_title(root) if shown is None else shown
    return [part for title in (*titles, shown) if title for part in title_parts(title)]


def read_field(root: etree._Element, fields: Mapping[str, str], name: str) -> str | None:
    """One field read by its learned XPath alone (None when none is learned or it finds nothing)."""
    return _by_xpath(root, fields.get(name), name)


def placed(root: etree._Element, fields: Mapping[str, str], name: str) -> bool:
    """Whether the field's learned XPath selects an element of ``root`` (whatever it states)."""
    return _place(root, fields.get(name)) is not None


# --- learning ----------------------------------------------------------------------


def _value(meta: Metadata, name: str) -> str:
    return {"title": meta.title, "author": meta.author, "date": meta.published}[name].strip()


@dataclass(slots=True)
class _Read:
    """What learning reads of a text, by the text, for the pages of one sample: each text's day
    (:meth:`_Body.day`), words and byline name's words.  A template writes the same texts on
    every page (its menus, its footer, its labels): each is read once, not once a page."""

    days: dict[str, date | None] = field(default_factory=dict)
    words: dict[str, list[str]] = field(default_factory=dict)
    names: dict[str, list[str]] = field(default_factory=dict)


class _Body:
    """A sample page's body as learning reads it for every field: its elements in document order, and
    (read when first asked for) their subtree sizes, their texts and words, and the day each states.

    Title and author search the same short elements; each element's text is read once for both.
    """

    __slots__ = ("elements", "_sizes", "_raw", "_texts", "_words", "_text_words", "_names", "_days")

    def __init__(self, body: etree._Element | None, read: _Read | None = None, elements: list[etree._Element] | None = None) -> None:
        """:param elements: the body's elements in document order, where the caller has them listed (not copied)."""
        self.elements: list[etree._Element] = (elements if elements is not None else list(body.iter(etree.Element))
                                               if body is not None else [])
        self._sizes: list[int] | None = None  # each element's characters of text, spaces aside
        self._raw: dict[etree._Element, str] = {}  # short elements' texts as itertext joins them
        self._texts: dict[etree._Element, str] = {}
        self._words: dict[etree._Element, list[str]] = {}
        read = read or _Read()
        self._text_words, self._names, self._days = read.words, read.names, read.days

    @classmethod
    def of(cls, root: etree._Element, read: _Read | None = None, index: PageIndex | None = None) -> _Body:
        """The body of ``root``; ``read``: what is read of each text, shared by the pages of a sample; ``index``:
        the page index of that body, whose elements are the body's in document order (learning's: not listed again)."""
        body = root.find("body")
        listed = index is not None and body is not None and bool(index.elements) and index.elements[0] is body
        return cls(body, read, index.elements if listed and index is not None else None)

    def short(self, limit: float) -> list[etree._Element]:
        """The elements with some text but at most ``limit`` characters of it (spaces aside), in document order.

        Reading every element's text is quadratic in the page's depth; a headline or a byline is
        short, and the sizes of all the subtrees cost one walk.  An element without text (an image,
        a break, a wrapper of images) matches no value: learning reads the text of those it keeps.
        """
        if self._sizes is None:
            # In C (forest/learning/_inline.pyx; its reference, the Python loop over every element's
            # children, is in tests/learning/test_native_inline.py).
            self._sizes = text_sizes(self.elements[0]) if self.elements else []
        raw = self._raw
        # Their texts: an element's is its own text, its child elements' and their tails (itertext's: a
        # comment's or a processing instruction's tail, not its content), joined in C
        # (forest/learning/_inline.pyx; its reference, the Python loop over every element, is in
        # tests/learning/test_native_inline.py).  The few it cannot join are joined here, children's first:
        # a short element's children are short, so each text is joined from texts already read.
        short, unjoined = short_texts(self.elements, self._sizes, limit, raw)
        for element in reversed(unjoined):
            raw[element] = "".join([element.text or "", *(raw.get(c, "") + (c.tail or "") for c in element)])
        return short

    def text(self, element: etree._Element) -> str:
        """:func:`_text` of ``element``, read once."""
        text = self._texts.get(element)
        if text is None:
            raw = self._raw.get(element)
            text = self._texts[element] = " ".join(raw.split()) if raw is not None else _text(element)
        return text

    def words(self, element: etree._Element) -> list[str]:
        words = self._words.get(element)
        if words is None:
            text = self.text(element)
            words = self._text_words.get(text)
            if words is None:
                words = self._text_words[text] = folded_words(text)
            self._words[element] = words
        return words

    def name_words(self, text: str) -> list[str]:
        """The words of the name a byline's text gives (:func:`forest.bylines.person_name`), once per text."""
        words = self._names.get(text)
        if words is None:
            words = self._names[text] = folded_words(person_name(text) or "")
        return words

    def day(self, element: etree._Element) -> date | None:
        """The day an element states: a timestamp attribute's, else its own short text's; each distinct text parsed once per page."""
        stamp = element.get("datetime") or (element.get("content") if element.tag == "meta" else None) or (
            element.get("title") if element.tag == "abbr" else None) or (date_attribute(element) if element.attrib else None)
        if stamp:
            return self._parsed(stamp)
        # Only short texts an element holds itself: a paragraph that mentions a date is not the date
        # element, nor is the container of a dateline.  Its own text is its text and its children's
        # tails ("<p><strong>Posted:</strong> Thu, 10 Jan 2008</p>"); a byline's length at most.
        own = _own_text(element)
        if not _DIGIT.search(own):  # no date without a digit: most elements are spared the spaces' join
            return None
        text = " ".join(own.split())
        if len(text) > MAX_BYLINE:
            return None
        return self._parsed(text)

    def stated_days(self) -> Iterator[tuple[etree._Element, date]]:
        """``(element, day)`` for every element :meth:`day` reads a day in, in document order.

        Only the elements that may state one are read (forest.learning._inline.day_candidates, in
        C: those with an attribute :meth:`day` reads a timestamp from, or an ASCII digit or a
        non-ASCII character in their own text); asking every element was most of the date's search.
        """
        if not self.elements:
            return
        for element in day_candidates(self.elements[0], _DAY_STAMPS, _DAY_TAGGED_STAMPS):
            day = self.day(element)
            if day is not None:
                yield element, day

    def _parsed(self, text: str) -> date | None:
        if text in self._days:
            return self._days[text]
        day = self._days[text] = _day(text)
        return day


def _matches(body: _Body, name: str, value: str) -> list[etree._Element]:
    """Elements of the page body whose text is ``value``: exact matches if any, else near ones."""
    if not body.elements:
        return []
    if name == "date":
        day = _day(value)
        if day is None:
            return []
        # One day either way: the feed's UTC time can fall on the day before or after the page's local date.
        return [el for el, found in body.stated_days() if abs((found - day).days) <= 1]
    want = folded_words(value)
    if not want:
        return []
    exact: list[etree._Element] = []
    near: list[etree._Element] = []
    for element in body.short(MAX_MATCH_RATIO * len("".join(value.split())) + 20):
        words = body.words(element)
        if name == "author" and words[:1] == ["by"]:
            words = words[1:]
        if words == want:
            exact.append(element)
        elif name == "author" and len(words) > len(want) and body.name_words(body.text(element)) == want:
            near.append(element)  # a byline holding the name and more ("Ana Lima | March 3, 2014")
        elif name == "title" and words and _near(words, want):
            near.append(element)
    return exact or near


def _near(words: list[str], want: list[str]) -> bool:
    shorter, longer = sorted((words, want), key=len)
    if len(shorter) < NEAR_MATCH_SHARE * len(longer):
        return False
    joined, part = " ".join(longer), " ".join(shorter)
    return f" {part} " in f" {joined} "


def _best_key(pages: Sequence[tuple[etree._Element, list[etree._Element]]], selections: Sequence[_Selection | None] = (),
              ) -> str | None:
    """The candidate XPath right on most pages; ties go to one that selects a single element,
    then one with attributes (more stable than a bare tag), then the shorter, then the first
    described (pages in order, each page's matches in document order).

    :param selections: per page, its index's answer for what a key selects (:class:`_Selection`), or None
        (or none given): the XPath is evaluated over the page.
    """
    # Each candidate, and whether every tag of its path is one the page indexes name (patterns.dom._XPATH_NAME).
    candidates: dict[str, bool] = {}
    for _, found in pages:
        for element in found:
            for key, named in _named_keys(element):
                candidates.setdefault(key, named)
    matched = [set(found) for _, found in pages]
    needed = max(1, math.ceil(MIN_FIELD_SUPPORT * len(pages)))
    best: tuple[tuple[int, int, int, int], str] | None = None
    for key, named in candidates.items():
        shape = (int("@" in key), -len(key))
        if best is not None and (len(pages), len(pages), *shape) <= best[0]:
            continue  # right and single on every page, it still ranks no higher than the best: not compiled
        # Compiled only where a page's index cannot answer for the key, or when it would become the
        # best: the indexes (_Selection) answer for most candidates, which then need no XPath.  A key
        # lxml refuses is never the best, as when every candidate was compiled first.
        xpath: etree.XPath | None = None
        right = single = 0
        for k, (root, _) in enumerate(pages):
            left = len(pages) - k
            if right + left < needed or (best is not None and (right + left, single + left, *shape) <= best[0]):
                break  # right and single on every page left, it still ranks no higher than the best or is too rare (learning time)
            selection = selections[k] if k < len(selections) else None
            selected = selection.first(key, named) if selection is not None else None
            if selected is None:
                xpath = xpath or _compiled_key(key)
                if xpath is None:
                    break
                result = xpath(root)
                selected = [e for e in result if isinstance(e, etree._Element)] if isinstance(result, list) else []
            if selected and selected[0] in matched[k]:
                right += 1
                single += len(selected) == 1
        rank = (right, single, int("@" in key), -len(key))
        if right >= needed and (best is None or rank > best[0]) and (xpath or _compiled_key(key)) is not None:
            best = (rank, key)
    return best[1] if best else None


def _compiled_key(key: str) -> etree.XPath | None:
    """``key`` compiled, or None where lxml refuses it."""
    try:
        return etree.XPath(key)
    except (etree.XPathError, ValueError):  # ValueError: a control character in a value ("a\x0cb"), which lxml refuses
        return None


# XPath's normalize-space() collapses these alone (libxml2's blanks); str.split() splits on every Unicode space.
_XML_SPACE = re.compile("[ \t\r\n]+")
# A class token step's test, as patterns.dom writes it: "//tag" + _TOKEN_TEST + token + "')]".
_TOKEN_TEST = "[contains(concat(' ', normalize-space(@class), ' '), ' "
_TOKEN_KEY = re.compile(r"//[^\W\d][\w.\-]*" + re.escape(_TOKEN_TEST) + r"([^'\s]+) '\)\]")


class _Selection:
    """The elements a candidate key's XPath (``//step`` or an anchored path, as :func:`element_keys` writes them)
    selects on one sample page, up to two in document order, read from the page index's keys: evaluating
    each candidate over the whole page was most of :func:`_best_key`'s time.

    The index holds the body's elements and the keys patterns.dom names them by, the same strings as
    :func:`element_keys` (both spell them with patterns.dom's steps); the head is indexed alike here, and the
    XPath's elements are the head's and then the body's.  Where the index cannot stand for the XPath,
    :meth:`first` answers None and the caller evaluates the XPath: a key no indexed element holds (a tag
    XPath cannot name, a path through one), the root's own keys, and every key of a page whose root holds
    elements besides its head and body, or in another order, or whose document holds elements beside its
    root.  A class token step selects the elements whose class holds the token between XPath's spaces: an
    index key's elements hold it between ``str.split``'s, which split on more (a no-break space), and are
    checked; and an element whose class patterns.dom does not name (over 120 characters, holding both
    quotes, or a character XML forbids) has no token key, so a token it holds is left to the XPath.
    """

    def __init__(self, root: etree._Element, index: PageIndex | None) -> None:
        from forest.learning.index import page_index

        self._indexes: list[PageIndex] = []
        self._own: frozenset[str] = frozenset()
        self._unnamed: list[etree._Element] = []
        children = [child for child in root if isinstance(child.tag, str)]
        if index is None or not index.elements or children[-1:] != [index.elements[0]]:
            return
        # XPath's // reads the whole document: a broken page's parse can hold elements beside its root.
        if any(isinstance(node.tag, str) for node in (*root.itersiblings(), *root.itersiblings(preceding=True))):
            return
        if len(children) == 2 and children[0].tag == "head":
            self._indexes.append(page_index(children[0]))
        elif len(children) != 1:
            return
        self._indexes.append(index)
        self._own = frozenset({f"//{root.tag}", *(f"//{step}" for step in element_steps(root))})
        self._unnamed = unnamed_classes(root)

    def first(self, key: str, named: bool = False) -> list[etree._Element] | None:
        """The first two elements ``key`` selects (fewer where it selects fewer), or None where the index cannot tell.

        :param named: whether every tag of the key's path is one the indexes name (:func:`_named_keys`): a key
            no indexed element holds then selects none, where it was evaluated over the whole page (a key of
            another sample page's element, a third of the field search's keys).  The indexes name every
            element by each key :func:`element_keys` spells for it (the same steps, and the same anchors up to
            ANCHOR_DISTANCE), so the XPath selects no element the indexes do not list under that key.
        """
        if not self._indexes or key in self._own:
            return None
        token = None
        if _TOKEN_TEST in key:
            match = _TOKEN_KEY.fullmatch(key)
            if match is None:
                return None  # the test's text inside an attribute's value: the XPath decides
            token = match.group(1)
            tag = key[2 : key.index("[")]
            if any(element.tag == tag and token in _XML_SPACE.split(element.get("class") or "") for element in self._unnamed):
                return None
        found: list[etree._Element] = []
        known = False
        for index in self._indexes:
            nodes = index.keys.get(key)
            if nodes is None:
                continue
            known = True
            for i in nodes:
                element = index.elements[i]
                if token is not None and token not in _XML_SPACE.split(element.get("class") or ""):
                    continue
                found.append(element)
                if len(found) == 2:
                    return found
        return found if known or named else None


def element_keys(element: etree._Element) -> Iterator[str]:
    """XPaths describing ``element`` as patterns.dom describes nodes: by tag, by its own
    identifying attributes, and by a path from a close ancestor that has some."""
    return (key for key, _ in _named_keys(element))


def _named_keys(element: etree._Element) -> Iterator[tuple[str, bool]]:
    """:func:`element_keys`, each with whether every tag of its path is one a page index names (patterns.dom._XPATH_NAME:
    a step exists only for such a tag, and the index names no element through another)."""
    tag = element.tag
    named = isinstance(tag, str) and _XPATH_NAME.match(tag) is not None
    yield f"//{tag}", named
    for step in element_steps(element):
        yield f"//{step}", named
    path = tag
    ancestor = element.getparent()
    for _ in range(ANCHOR_DISTANCE):
        if ancestor is None or ancestor.tag in ("body", "html"):
            break
        for step in element_anchors(ancestor):
            yield f"//{step}/{path}", named
        path = f"{ancestor.tag}/{path}"
        named = named and isinstance(ancestor.tag, str) and _XPATH_NAME.match(ancestor.tag) is not None
        ancestor = ancestor.getparent()


# --- reading -----------------------------------------------------------------------


def _place(root: etree._Element, xpath: str | None) -> etree._Element | None:
    """The first element a field's learned XPath selects on ``root`` (None: none, or no XPath)."""
    if not xpath:
        return None
    try:
        selected = compiled(xpath)(root)
    except etree.XPathEvalError:  # valid, but not on this page (a function of a missing node)
        return None
    return next((e for e in selected if isinstance(e, etree._Element)), None) if isinstance(selected, list) else None


def _by_xpath(root: etree._Element, xpath: str | None, name: str) -> str | None:
    element = _place(root, xpath)
    if element is None:
        return None
    if name == "date":
        stamp = _stamp(element)
        if stamp:
            return _iso(stamp) or None
        text = _text(element)
        # The text is whitespace-normalized already: its date, where it states one, is _iso(text)'s
        # (parsed once: a date's formats are tried one by one).
        parsed = parse_date(text)
        if parsed is not None:
            return parsed.isoformat()
        if not len(element):
            return None
        # A dateline's container learned by its own text ("Posted: Thu, 10 Jan 2008 | By Reuters").
        return _iso(" ".join(_own_text(element).split()) or text) or None
    text = _text(element)
    if name == "author":
        if len(text) > MAX_BYLINE:
            # The place holds a paragraph on this page, not a byline (a wire story's first paragraph, where a
            # sample page printed its byline): no name is read from it.
            return None
        text = BYLINE.sub("", text).strip(" ,;|")
        if len(text.split()) > MAX_NAME_WORDS or any(c.isdigit() or c in "|•·" for c in text):
            # A byline element holding more than names ("Ana Lima | March 3, 2014 | 5 min read").
            text = person_name(text) or text
    return text or None


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def folded_words(text: str) -> list[str]:
    """``text``'s words, case-folded: what a field's value and a page's text are compared by."""
    # NFKC folds typographic variants; curly and straight quotes both drop out as non-words.
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _day(value: str) -> date | None:
    parsed = parse_date(value)
    if isinstance(parsed, datetime):
        return (parsed.astimezone(timezone.utc) if parsed.tzinfo else parsed).date()
    return parsed


def _stamp(element: etree._Element) -> str | None:
    """The timestamp an element states in an attribute: ``<time datetime>``, ``<meta content>``, hAtom's ``<abbr title>``,
    a ``data-published`` (forest.metadata.date_attribute)."""
    return element.get("datetime") or element.get("content") or (element.get("title") if element.tag == "abbr" else None) or \
        date_attribute(element)


def _own_text(element: etree._Element) -> str:
    return " ".join([element.text or "", *(child.tail or "" for child in element)])
