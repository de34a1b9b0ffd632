"""A page as read once: its bytes, its decoded text, its canonical URL and its tree, each computed on first use.

Every road to an article (a file, a batch, Spark, the web app, a URL) builds one
:class:`ParsedPage` and hands it on, so that nothing reads the same page twice: the site
is looked up from the page's head alone (:meth:`ParsedPage.canonical`), which leaves a
learned site's span fast path (forest.extraction.span) free to parse only the article's
part of the source, and the whole tree is built at most once, by whoever needs it first.
"""

from __future__ import annotations

import re

from lxml import etree, html as lxml_html

from forest.errors import ParseError
from forest.html import BODY_TAG, INVISIBLE_TAGS, canonical_url, decode, first_meta, meta_tags, parse_html, without_xml_declaration
from forest.limits import check_markup, check_size
from forest.site import site_or_none

__all__ = ["DEFAULT_MAX_BYTES", "ParsedPage"]

# parse_html's own default (forest.config.Settings.max_page_bytes): a page over it is refused unread.
DEFAULT_MAX_BYTES = 10_000_000
# What the page's source past its <body> tag must mention for a link or meta tag there to name
# the page's URL: without it, the head alone gives the answer the whole tree would.
_CANONICAL = re.compile(r"canonical", re.IGNORECASE)
_OG_URL = re.compile(r"og:url", re.IGNORECASE)
# A <title> left open swallows the rest of the page (forest.html._mended reads such a page
# without it): its head read alone would hide the links the whole page's reading finds.
_UNCLOSED_TITLE = re.compile(r"<title[^>]*>(?![^<]*</title[\s/>])", re.IGNORECASE)
# A "<body" inside a script, a style or a comment is no body tag: the head cut there ends inside
# text the parser reads as raw, and its reading would differ from the whole page's.
_RAW_OPEN = re.compile(r"<(script|style|textarea|xmp|iframe|noembed|noframes|noscript|template)\b|<!--", re.IGNORECASE)


class ParsedPage:
    """One page's source and what is read from it, each read at most once.

    :param data: the page's bytes (decoded with :func:`forest.html.decode`) or its text.
    :param url: where the page is (a WARC record's target, a fetched page's final URL), if known.
    :param charset: the charset it was served with (an HTTP header's), if known.
    :param max_bytes: a page over this size is refused unread (``Settings.max_page_bytes``).
    :param source: what error messages name the page by (default: ``url``).
    :param tree: the page's tree as :func:`forest.html.parse_html` made it of its text, when the caller
        has it already (a batch extracting the sample pages it learned a site from): not parsed again.
    """

    __slots__ = ("data", "url", "charset", "max_bytes", "source", "_text", "_tree", "_canonical")

    def __init__(self, data: bytes | str, *, url: str | None = None, charset: str | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES, source: str | None = None,
                 tree: lxml_html.HtmlElement | None = None) -> None:
        self.data = data
        self.url = url
        self.charset = charset
        self.max_bytes = max_bytes
        self.source = source if source is not None else url
        self._text: str | None = None
        self._tree: lxml_html.HtmlElement | None = tree
        self._canonical: tuple[str | None] | None = None

    @property
    def size(self) -> int:
        """The page's size as given (bytes, or characters for text): what ``max_bytes`` bounds."""
        return len(self.data)

    @property
    def text(self) -> str:
        """The page's text, decoded once.

        :raises ParseError: for empty or binary bytes.
        """
        if self._text is None:
            self._text = decode(self.data, self.charset, source=self.source) if isinstance(self.data, bytes) else self.data
        return self._text

    def tree(self) -> lxml_html.HtmlElement:
        """The whole page's tree (:func:`forest.html.parse_html`), parsed once.

        :raises ParseError: if the page is too large, empty, binary or not readable as HTML.
        """
        # The size is checked on the page as given, before decoding, as parse_html does (a tree
        # given with the page too); the text has at most as many characters as the bytes it was decoded from.
        check_size(self.size, self.max_bytes, source=self.source)
        if self._tree is None:
            self._tree = parse_html(self.text, max_bytes=self.max_bytes, source=self.source)
        return self._tree

    def take_tree(self) -> lxml_html.HtmlElement:
        """:meth:`tree`, for a caller that changes it (extraction cuts a site's exclusions out):
        the page forgets it, and a later :meth:`tree` parses again."""
        tree = self.tree()
        self._tree = None
        return tree

    def canonical(self) -> str | None:
        """The page's own URL from ``<link rel=canonical>`` or ``og:url``
        (:func:`forest.html.canonical_url`), read from the page's head alone where that gives
        the whole tree's answer, else from the whole tree (which is then kept).

        :raises ParseError: if the page is too large, empty, binary or not readable as HTML.
        """
        if self._canonical is None:
            self._canonical = (self._read_canonical(),)
        return self._canonical[0]

    def named_site(self) -> str | None:
        """The site the page names: its URL's registered domain, else its canonical link's.

        :raises ParseError: if the page has no URL and cannot be read for its canonical link.
        """
        return site_or_none(self.url) or site_or_none(self.canonical())

    def _read_canonical(self) -> str | None:
        if self._tree is not None:
            return canonical_url(self._tree)
        check_size(self.size, self.max_bytes, source=self.source)
        text = self.text
        if not text.strip():
            raise ParseError("empty page", source=self.source)
        body = BODY_TAG.search(text)
        head = without_xml_declaration(text[: body.start()]) if body is not None else ""
        if body is None or not head.strip() or _UNCLOSED_TITLE.search(head) or _inside_raw_text(head):
            return canonical_url(self.tree())
        # The head's markup bounded as parse_html bounds a page's (the body's is the extraction's to check).
        check_markup(head, source=self.source)
        root = _parse_head(head)
        if root is None:
            return canonical_url(self.tree())
        # canonical_url: the first <link rel=canonical> of the whole page, in document order; the
        # head's, if it has one, comes first.
        for link in root.iter("link"):
            href = link.get("href")
            if (link.get("rel") or "").lower() == "canonical" and href:
                return str(href)
        rest = text[body.start():]
        if _CANONICAL.search(rest):
            return canonical_url(self.tree())
        # og:url from the head's <meta> tags, or from every one of the page's when its head holds none.
        head_element = root.find("head")
        if head_element is not None and next(head_element.iter("meta"), None) is not None:
            return first_meta(meta_tags(root), "og:url") or None
        if _OG_URL.search(rest):
            return canonical_url(self.tree())
        return first_meta(meta_tags(root), "og:url") or None


def _inside_raw_text(head: str) -> bool:
    """Whether ``head`` (a source up to a ``<body`` match) ends inside a script, a style or a
    comment: one of them opens, read from the start, and is not closed before its end."""
    lowered = head.lower()
    at = 0
    while (opening := _RAW_OPEN.search(head, at)) is not None:
        name = opening.group(1)
        end = lowered.find("-->" if name is None else f"</{name.lower()}", opening.end())
        if end < 0:
            return True
        at = end + 1
    return False


def _parse_head(head: str) -> lxml_html.HtmlElement | None:
    """The tree of a page's head (its source up to ``<body>``) as :func:`forest.html.parse_html`
    reads it, invisible elements removed; None when lxml refuses it (the whole page is read then)."""
    try:
        root = lxml_html.document_fromstring(head, parser=etree.HTMLParser(remove_comments=True, remove_pis=True,
                                                                           default_doctype=False))
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    return root
