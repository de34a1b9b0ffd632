"""Show a page safely with what forest takes from it: a wrapper's region highlighted and the parts it drops
struck through, or, for a page extracted cold, the blocks the classifier kept highlighted."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from forest import ForestError, ParseError
from forest.classifier.page import load_default
from forest.html import parse_html
from forest.limits import classifiable
from forest.region import number_elements, outermost

# Never shown either: they load or run something, or redirect the frame.
UNSAFE_TAGS = ("link", "meta", "base", "frame", "frameset", "applet", "portal", "audio", "video", "source", "track")
# Attributes holding a URL: dropped, so the frame neither navigates nor fetches anything.
URL_ATTRIBUTES = ("href", "src", "srcset", "action", "formaction", "poster", "data", "background", "ping", "xlink:href")
# Elements holding one block of text: the unit forest keeps or drops.
BLOCK_TAGS = frozenset(
    {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "td", "th", "dd", "dt", "figcaption",
     "caption", "address", "div", "section", "article", "aside", "header", "footer", "ul", "ol", "table", "tr"}
)

# The frame's only style.  The page's own CSS is not shown (it would load from the
# page's site); the strict content security policy allows this one block by its hash.
FRAME_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 12px; color: #333; background: #fff; overflow-wrap: anywhere; }
img { display: none; }
pre { white-space: pre-wrap; }
.forest-region, .forest-kept { outline: 3px solid #1a7f37; background: #e6f6ea; }
.forest-excluded, .forest-template, .forest-dropped { text-decoration: line-through; color: #b3261e; background: #fbe9e7; }
.forest-field { outline: 2px dashed #0b57d0; }
""".strip()
FRAME_CSS_HASH = "sha256-" + base64.b64encode(hashlib.sha256(FRAME_CSS.encode()).digest()).decode()
FRAME_CSP = f"default-src 'none'; style-src '{FRAME_CSS_HASH}'"

# The methods of an article extracted without a pattern: its kept blocks are highlighted instead of a region.
COLD_METHODS = frozenset({"classifier", "page"})

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:")


class PageUnreadable(ValueError):
    """The stored page cannot be parsed for display."""


@dataclass(frozen=True, slots=True)
class PageView:
    """A page prepared for a sandboxed frame.

    :param srcdoc: the whole sanitized document, for ``<iframe sandbox srcdoc=...>``.
    :param region: how many region nodes are highlighted.
    :param excluded: how many parts inside them are struck through (exclusions, template, dropped blocks).
    :param notes: why nothing is highlighted, when nothing is.
    :param kept: how many blocks of a page extracted cold are highlighted as kept.
    """

    srcdoc: str
    region: int
    excluded: int
    notes: tuple[str, ...] = ()
    kept: int = 0


def page_view(
    body: bytes | str,
    *,
    wrapper: Mapping[str, Any] | None,
    pattern: str | None,
    article_text: str = "",
    charset: str | None = None,
    method: str = "",
) -> PageView:
    """Sanitize ``body`` and mark what ``wrapper`` (its stored dict) takes from it with ``pattern``.

    The wrapper is read as a plain dict, tolerantly: fields it may gain are ignored,
    and a missing one means nothing to mark.

    :param article_text: the extracted text; region blocks not in it are marked dropped
        (navigation, template, or pruned by the classifier).
    :param method: the article's method; for one extracted cold (``classifier``, ``page``: no
        pattern), the page's blocks that make up ``article_text`` are highlighted as kept.
    :raises PageUnreadable: when the page cannot be parsed.
    """
    root = _parse(body, charset)
    notes: list[str] = []
    region: list[etree._Element] = []
    marked = kept = 0
    wrapper = wrapper or {}
    patterns = [str(p.get("xpath", "")) for p in wrapper.get("patterns", ()) if isinstance(p, Mapping)]
    if pattern and any("@dfs" in p for p in patterns):
        number_elements(root.find("body"))
    if not pattern and method in COLD_METHODS and article_text.strip():
        # Before any mark is added: the classifier reads class names, as it read the page when extracting.
        kept = _mark_kept(root, article_text)
        if not kept:
            notes.append("the article's blocks were not found on this page as stored, so none is highlighted")
    elif not pattern:
        notes.append("no wrapper pattern fitted this page, so no region is highlighted")
    else:
        region = outermost(_xpath(root, pattern))
        if not region:
            notes.append(f"the pattern {pattern} selects nothing on this page")
    for node in region:
        _add_class(node, "forest-region")
    marked += _mark_exclusions(region, [str(x) for x in wrapper.get("exclusions", ())])
    marked += _mark_blocks(region, frozenset(map(str, wrapper.get("template_blocks", ()))), article_text)
    fields = wrapper.get("fields", {})
    if isinstance(fields, Mapping):
        for name, xpath in fields.items():
            for node in _xpath(root, str(xpath))[:1]:
                _add_class(node, "forest-field")
                node.set("data-forest-field", str(name))
    _sanitize(root)
    return PageView(_document(root), len(region), marked, tuple(notes), kept)


def _parse(body: bytes | str, charset: str | None) -> lxml_html.HtmlElement:
    # The page as extraction reads it: the same decoding, limits and cleaning (forest.html).
    try:
        return parse_html(body, declared_charset=charset)
    except ParseError as exc:
        raise PageUnreadable(str(exc)) from exc


def _xpath(root: etree._Element, xpath: str) -> list[etree._Element]:
    try:
        found = root.xpath(xpath)
    except etree.XPathError:
        return []
    return [n for n in found if isinstance(n, etree._Element)] if isinstance(found, list) else []


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _mark_exclusions(region: Sequence[etree._Element], exclusions: Sequence[str]) -> int:
    """Strike through what the exclusions cut: each is a relative XPath applied inside the region.

    Like forest's extraction, a match holding half or more of the region's text is not
    cut on this page (a wrapper div reused around the article), so it is not struck.
    """
    total = sum(len(_text(node)) for node in region)
    marked = 0
    for xpath in exclusions:
        for node in region:
            for element in _xpath(node, f".{xpath}"):
                if len(_text(element)) < total / 2:
                    _add_class(element, "forest-excluded")
                    marked += 1
    return marked


def _mark_blocks(region: Sequence[etree._Element], template: frozenset[str], article_text: str) -> int:
    """Strike through the region's text blocks the article left out: template blocks, and,
    when the article's text is known, blocks not in it (navigation, pruned by the classifier)."""
    kept = " ".join(article_text.split())
    marked = 0
    for node in region:
        for element in _leaf_blocks(node):
            if _struck(element):
                continue
            text = _text(element)
            if not text:
                continue
            if text in template:
                _add_class(element, "forest-template")
                marked += 1
            elif kept and text not in kept:
                _add_class(element, "forest-dropped")
                marked += 1
    return marked


def _mark_kept(root: etree._Element, article_text: str) -> int:
    """Highlight the blocks a cold extraction kept: the page's text blocks as the classifier cuts
    them (each with the element owning its text), matched in page order against the article's
    lines, which are those blocks' texts in that order (forest.region.to_text).

    Matching the text rather than asking the classifier again shows what was kept whichever cold
    road made the article: the classifier's content blocks, the likeliest prose block it added,
    or FOREST's region of the page alone.
    """
    lines = [line for line in article_text.split("\n") if line]
    at = 0
    for text, element in _blocks(root):
        if at < len(lines) and text == lines[at]:
            _add_class(element, "forest-kept")
            at += 1
    return at


def _blocks(root: etree._Element) -> list[tuple[str, etree._Element]]:
    """The page's text blocks, each with the element owning it: as the classifier cuts them, or, on a
    page too large for the classifier (forest.limits) or when its model cannot be read, its innermost
    block elements (the same cut on most pages, and no model to run)."""
    if classifiable(root):
        try:
            return [(p.block.text, p.element) for p in load_default().predict_blocks(root)]
        except ForestError:
            pass
    body = root.find("body")
    return [(_text(e), e) for e in _leaf_blocks(body)] if body is not None else []


def _leaf_blocks(node: etree._Element) -> Iterable[etree._Element]:
    """Block elements with no block element inside: the pieces of text forest keeps or drops."""
    for element in node.iter(etree.Element):
        if element.tag in BLOCK_TAGS and not any(child.tag in BLOCK_TAGS for child in element.iterdescendants()):
            yield element


def _struck(element: etree._Element) -> bool:
    return any(
        cls in (e.get("class") or "").split()
        for e in (element, *element.iterancestors())
        for cls in ("forest-excluded", "forest-template")
    )


def _add_class(element: etree._Element, name: str) -> None:
    classes = (element.get("class") or "").split()
    if name not in classes:
        element.set("class", " ".join([*classes, name]))


def _sanitize(root: lxml_html.HtmlElement) -> None:
    """Remove everything that could run, load or navigate: the frame is sandboxed and under a
    strict policy as well, but a page shown for inspection need not even try."""
    etree.strip_elements(root, *UNSAFE_TAGS, with_tail=False)
    for element in root.iter(etree.Element):
        for name in list(element.attrib):
            lowered = name.lower()
            if lowered.startswith("on") or lowered in ("style", "dfs", "target", "http-equiv") or lowered in URL_ATTRIBUTES:
                target = element.get(name, "").strip()
                if lowered == "href" and (not _SCHEME.match(target) or target.lower().startswith(("http:", "https:"))):
                    element.set("data-href", target)  # visible on inspection, never followed
                del element.attrib[name]


def _document(root: lxml_html.HtmlElement) -> str:
    head = root.find("head")
    title = head.findtext("title") if head is not None else None
    if head is not None:
        root.remove(head)
    head = lxml_html.Element("head")
    etree.SubElement(head, "meta", charset="utf-8")
    etree.SubElement(head, "meta", {"http-equiv": "Content-Security-Policy", "content": FRAME_CSP})
    etree.SubElement(head, "title").text = title or ""
    etree.SubElement(head, "style").text = FRAME_CSS
    root.insert(0, head)
    document: str = lxml_html.tostring(root, encoding="unicode", method="html", doctype="<!DOCTYPE html>")
    return document
