"""Turn page bytes or text into a cleaned lxml tree, whatever the encoding, or raise ParseError."""

from __future__ import annotations

import codecs
import re

from lxml import etree, html as lxml_html

from forest.charsets import sniff, text_codec
from forest.errors import ParseError
from forest.limits import check_markup, check_size, xml_safe

# Elements whose content is never visible article text.  They are removed with
# their content (their tail text is kept: it belongs to the parent).
# Where a page's body starts in its source: the span's markers are searched after it, and the
# head before it is what ParsedPage reads alone.
BODY_TAG = re.compile(r"<body[\s>]", re.IGNORECASE)
INVISIBLE_TAGS = ("script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "math")

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]+encoding\s*=\s*["']([a-zA-Z0-9_.\-]+)""", re.IGNORECASE)
# A page showing fewer words than this, scripts aside, shows nothing of an article (script_shell).
SHELL_WORDS = 50
_NOSCRIPT = re.compile(r"<noscript[\s>]", re.IGNORECASE)
_NOSCRIPT_BYTES = re.compile(rb"<noscript[\s>]", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
# A close tag's name ends at a space, '/' or '>': a template's slip such as
# '</titlevalue="true" -->' closes no title (l3s_gn1's cbn.com page).
_UNCLOSED_TITLE = re.compile(r"<title[^>]*>(?![^<]*</title[\s/>])", re.IGNORECASE)
_TITLE_TAG = re.compile(r"</?title[^>]*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"<html\b[^>]*>", re.IGNORECASE)
# What a head holds (the HTML standard's "in head" insertion mode); any other element there
# starts the body in a browser, where libxml2 goes on reading the head.
_HEAD_TAGS = frozenset({"base", "basefont", "bgsound", "link", "meta", "noscript", "script", "style", "template", "title"})
# Bytes that never occur in text, only in binary files (NUL and most C0 controls).
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def _codec(label: str | bytes | None) -> str | None:
    return text_codec(label)


def decode(data: bytes, declared: str | None = None, *, source: str | None = None) -> str:
    """Decode page bytes: BOM, then the declared (HTTP) charset, then the page's own
    ``<meta charset>`` or XML declaration (text encodings only), then strict UTF-8, then
    a detector's guess (:func:`forest.charsets.sniff`), then windows-1252.

    :raises ParseError: for empty or binary input.
    """
    if not data.strip():
        raise ParseError("empty page", source=source)
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, errors="replace")
    head = data[:4096]
    if len(_BINARY_BYTES.findall(head)) > 8:
        raise ParseError("binary data, not an HTML page", source=source)
    candidates = [_codec(declared)]
    for pattern in (_XML_ENCODING, _META_CHARSET):
        match = pattern.search(head)
        candidates.append(_codec(match.group(1)) if match else None)
    for name in candidates:
        # A page that declares UTF-16 but has no BOM is almost always lying:
        # the declaration was copied from a template and the bytes are ASCII-based.
        if name and not name.startswith("utf-16") and not name.startswith("utf-32"):
            try:
                return data.decode(name)
            except UnicodeDecodeError:
                continue
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    # No usable declaration and not UTF-8: guess, as browsers do, rather than read
    # a Shift-JIS or KOI8-R page as windows-1252 mojibake.
    return data.decode(sniff(data) or "cp1252", errors="replace")


def parse_html(
    data: bytes | str,
    *,
    declared_charset: str | None = None,
    max_bytes: int = 10_000_000,
    source: str | None = None,
    noscript: bool = False,
) -> lxml_html.HtmlElement:
    """Parse a page into an lxml tree with comments and invisible elements removed.

    :param data: raw bytes (decoded with :func:`decode`) or already decoded text.
    :param declared_charset: the charset from the HTTP ``Content-Type`` header, if any.
    :param max_bytes: larger pages are refused rather than parsed.
    :param source: a file name or URL, used in error messages.
    :param noscript: keep what ``<noscript>`` elements hold, as a browser without scripts
        shows it (see :func:`script_shell`); by default they go with the other invisible elements.
    :raises ParseError: empty, binary, too large or body-less input.
    """
    check_size(len(data), max_bytes, source=source)
    text = decode(data, declared_charset, source=source) if isinstance(data, bytes) else data
    if not text or text.isspace():
        raise ParseError("empty page", source=source)
    if "\x00" in text[:4096]:
        raise ParseError("binary data, not an HTML page", source=source)
    check_markup(text, source=source)
    # lxml refuses str input that carries an XML encoding declaration.
    text = without_xml_declaration(text)
    root = _parse(text, source)
    if root.find("body") is None:
        root = _mended(root, text, source)
    if root.find("body") is None:
        raise ParseError("page has no <body>", source=source)
    if noscript:
        etree.strip_tags(root, "noscript")
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    return root


def script_shell(root: lxml_html.HtmlElement, data: bytes | str) -> bool:
    """Whether the page ``root`` was parsed from (``data``) is a shell its scripts fill: a
    Discourse forum, a single-page app.  Its body, ``<noscript>`` aside, shows fewer than
    SHELL_WORDS words, and it has ``<noscript>`` elements, where such pages serve their content
    to clients without scripts.  forest runs no script: it reads those pages as a browser
    without scripts shows them (``parse_html(..., noscript=True)``).
    """
    body = root.find("body")
    words = 0
    for piece in body.itertext() if body is not None else ():
        # Counted piece by piece, as the pieces joined by spaces would split: most pages pass
        # within their first few texts, and learning asks of every sample page.
        words += len(piece.split())
        if words >= SHELL_WORDS:
            return False
    return (_NOSCRIPT_BYTES.search(data) if isinstance(data, bytes) else _NOSCRIPT.search(data)) is not None


def parse_shown(data: bytes | str, *, max_bytes: int = 10_000_000, source: str | None = None) -> tuple[lxml_html.HtmlElement, bool]:
    """:func:`parse_html`, and a page its scripts fill (:func:`script_shell`) parsed again as a
    browser without scripts shows it: what learning reads.  (Extraction checks a page for it only
    when its article comes out empty, which spares every other page the walk.)

    Returns the tree and whether it is the second reading (else it is :func:`parse_html`'s tree).
    """
    root = parse_html(data, max_bytes=max_bytes, source=source)
    if script_shell(root, data):
        return parse_html(data, max_bytes=max_bytes, source=source, noscript=True), True
    return root, False


def without_xml_declaration(text: str) -> str:
    """``text`` without a leading XML declaration, which lxml refuses in str input."""
    declaration = _XML_DECLARATION.match(text)
    return text[declaration.end():] if declaration else text


def _parse(text: str, source: str | None) -> lxml_html.HtmlElement:
    try:
        try:
            return lxml_html.document_fromstring(text, parser=_parser())
        except ValueError:
            # Characters XML forbids (a lone surrogate) in text given as str: read them as spaces.
            # Only here, not before every parse: scanning every page for them costs a quarter
            # of a millisecond, and real pages never need it.  An XML declaration the pattern
            # above missed (unclosed, or its encoding attribute mangled) goes up to its first '>'.
            if text.lstrip().startswith("<?xml"):
                text = text.lstrip().split(">", 1)[-1]
            return lxml_html.document_fromstring(xml_safe(text), parser=_parser())
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise ParseError(f"not parseable as HTML ({exc})", source=source) from exc


def _mended(root: lxml_html.HtmlElement, text: str, source: str | None) -> lxml_html.HtmlElement:
    """The tree of a page libxml2 found no body in, read again where a browser shows one."""
    if _UNCLOSED_TITLE.search(text):
        # An unclosed <title> swallows the whole page as title text; read it without the tag.
        root = _parse(_TITLE_TAG.sub("", text), source)
    head = root.find("head")
    if root.find("body") is None and head is not None:
        # An element no head holds (an unknown tag, a table) ends the head: what follows is the body.
        start = next((i for i, child in enumerate(head) if isinstance(child.tag, str) and child.tag not in _HEAD_TAGS), None)
        if start is not None:
            etree.SubElement(root, "body").extend(head[start:])
    if root.find("body") is None and _HTML_TAG.search(text):
        # A mangled <html> start tag (a quote left open in it) leaves libxml2 an empty document.
        root = _parse(_HTML_TAG.sub("", text, count=1), source)
    return root


def _parser() -> etree.HTMLParser:
    # A fresh parser per call: lxml parsers are not thread-safe, and creating one costs ~2 us.
    return etree.HTMLParser(remove_comments=True, remove_pis=True, default_doctype=False)


def page_title(root: lxml_html.HtmlElement) -> str:
    """The page's ``<title>``, or ``og:title``, whitespace-normalized ('' if none)."""
    title = next(iter(_head_first(root, "title")), None)
    value = title.text if title is not None else None
    if not (value and value.strip()):
        # og:title is read only where the <title> says nothing (most pages have one).
        value = _meta(root, "og:title")
    return " ".join(value.split()) if value and value.strip() else ""


def _head_first(root: lxml_html.HtmlElement, tag: str) -> list[lxml_html.HtmlElement]:
    """The ``tag`` elements of the page's ``<head>``, or of the whole page when its head has none.

    Broken pages put their head elements in the body; searching the head first spares a
    walk of the whole tree on every other page (extraction's hot path reads the head).
    """
    head = root.find("head")
    found = list(head.iter(tag)) if head is not None else []
    return found or list(root.iter(tag))


def _meta(root: lxml_html.HtmlElement, name: str) -> str | None:
    for meta in _head_first(root, "meta"):
        if meta.get("property") == name or meta.get("name") == name:
            content: str | None = meta.get("content")
            return content
    return None


# A <meta> element's property, name, itemprop and content attributes (None where absent).
Meta = tuple[str | None, str | None, str | None, str | None]


def head_metas(root: lxml_html.HtmlElement) -> list[Meta]:
    """The page's ``<meta>`` elements (its head's, else all of the page's) as (property, name, itemprop, content):
    read once for :func:`meta_tags` and :func:`meta_values`, which each read every one of them."""
    # Read in C from libxml2's nodes (forest._texts.head_metas; its reference, the proxies' get(), is
    # reference_head_metas in tests/unit/test_native_texts.py).  Imported here: the native module loads
    # the classifier's walk, which a road that never reads fields (a feed's parse) need not load.
    from forest._texts import head_metas as read_metas

    return read_metas(root)


def meta_values(root: lxml_html.HtmlElement, name: str, metas: list[Meta] | None = None) -> list[str]:
    """Every ``<meta name|property=name content=...>`` value of the page, in order, whitespace-normalized
    (a page may state ``og:title`` twice: its site's name, then its headline).

    :param metas: the page's :func:`head_metas`, where the caller read them.
    """
    values = (content for prop, named, _, content in (head_metas(root) if metas is None else metas) if name in (prop, named))
    return [" ".join(v.split()) for v in values if v and v.strip()]


def meta_tags(root: lxml_html.HtmlElement, metas: list[Meta] | None = None) -> dict[str, str]:
    """The page's ``<meta name|property|itemprop=... content=...>`` values, the first of each name.

    :param metas: the page's :func:`head_metas`, where the caller read them.
    """
    tags: dict[str, str] = {}
    for prop, name, itemprop, content in head_metas(root) if metas is None else metas:
        if content and content.strip():
            for key in (prop, name, itemprop):
                if key:
                    tags.setdefault(key, content)
    return tags


def first_meta(tags: dict[str, str], *names: str) -> str:
    """The whitespace-normalized value of the first of ``names`` present in ``tags`` ('' if none)."""
    for name in names:
        value = tags.get(name)
        if value:
            return " ".join(value.split())
    return ""


def meta_content(root: lxml_html.HtmlElement, *names: str) -> str:
    """The content of the first ``<meta name|property=...>`` among ``names`` ('' if none)."""
    return first_meta(meta_tags(root), *names)


def canonical_url(root: lxml_html.HtmlElement) -> str | None:
    """The page's own URL from ``<link rel=canonical>`` or ``og:url``, if it states one."""
    for link in root.iter("link"):
        href: str | None = link.get("href")
        if (link.get("rel") or "").lower() == "canonical" and href:
            return href
    return meta_content(root, "og:url") or None


def drop_element(element: etree._Element) -> None:
    """Remove ``element`` and its subtree, keeping its tail text (which belongs to the parent)."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        # lxml parses a form feed or a control character in a page, and refuses it written back.
        previous = element.getprevious()
        if previous is not None:
            previous.tail = xml_safe((previous.tail or "") + element.tail)
        else:
            parent.text = xml_safe((parent.text or "") + element.tail)
    parent.remove(element)
