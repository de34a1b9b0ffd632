"""Render a page in headless Chromium and read each text block's box and computed style (the optional [render] extra).

The browser is Debian's system Chromium (``apt-get install chromium``) driven by Playwright; no
browser is ever downloaded.  Page scripts are off (``java_script_enabled=False``) and every
request other than ``127.0.0.1`` and ``data:`` is aborted, so rendering a page reaches no network:
only the page's own markup and ``<style>`` sheets shape the layout.

Mapping to forest's blocks: the page is parsed as forest parses it, each block's element (the
innermost block-level element holding its text, ``PageTree.owner``) is tagged with its index in a
``data-forest`` attribute, the page's ``<style>`` sheets (which the parse removes) are put back,
and that markup is rendered; the browser then reports every tagged element.  A block gets its
element's box and style.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree, html as lxml_html

from forest.classifier.blocks import PageTree, walk
from forest.html import parse_html

__all__ = ["CHROMIUM", "VIEWPORT", "Box", "Renderer", "annotate", "render_page", "unavailable"]

# Debian's Chromium; $FOREST_CHROMIUM points elsewhere.
CHROMIUM = Path(os.environ.get("FOREST_CHROMIUM", "/usr/bin/chromium"))
# No background traffic of the browser's own (updates, sync, safe browsing): nothing leaves the machine.
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run")  # fmt: skip
# A common desktop window: the width decides the layout, the height only what is "above the fold".
VIEWPORT = (1280, 800)
ATTRIBUTE = "data-forest"
# Longest a page may take to lay out; a slower one is skipped (the callers treat it as unrendered).
TIMEOUT_MS = 15_000
_STYLE_SHEETS = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)

# Runs in the page (Playwright's evaluate works with page scripts off): the document's size and,
# for every tagged element, its box in document coordinates, its computed style and the paper's
# DOM counts.
_COLLECT = """(attribute) => {
  const doc = document.documentElement, body = document.body || doc;
  const width = Math.max(doc.scrollWidth, body.scrollWidth, window.innerWidth);
  const height = Math.max(doc.scrollHeight, body.scrollHeight, window.innerHeight);
  const rgba = (value) => {
    const m = (value || '').match(/rgba?\\(([^)]*)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0] || 0, p[1] || 0, p[2] || 0, p.length > 3 ? p[3] : 1];
  };
  const px = (value) => parseFloat(value) || 0;
  const out = [];
  for (const e of document.querySelectorAll('[' + attribute + ']')) {
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    out.push({
      index: Number(e.getAttribute(attribute)),
      box: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height],
      font_size: px(s.fontSize), font_weight: Number(s.fontWeight) || 400,
      color: rgba(s.color), background: rgba(s.backgroundColor),
      text_align: s.textAlign, display: s.display, visibility: s.visibility, opacity: Number(s.opacity),
      margin: [px(s.marginTop), px(s.marginRight), px(s.marginBottom), px(s.marginLeft)],
      padding: [px(s.paddingTop), px(s.paddingRight), px(s.paddingBottom), px(s.paddingLeft)],
      children: e.children.length, text: (e.textContent || '').length,
      links: e.getElementsByTagName('a').length, paragraphs: e.getElementsByTagName('p').length,
      images: e.getElementsByTagName('img').length, descendants: e.getElementsByTagName('*').length,
    });
  }
  return {width: width, height: height, elements: out};
}"""


def unavailable() -> str | None:
    """Why pages cannot be rendered here (Playwright or Chromium missing), or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install 'forest-extract[render]'"
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)) and shutil.which(str(CHROMIUM)) is None:
        return f"no Chromium at {CHROMIUM}: apt-get install chromium (or set FOREST_CHROMIUM)"
    return None


@dataclass(frozen=True, slots=True)
class Box:
    """One rendered element: its box in CSS pixels (document coordinates) and its computed style."""

    index: int  # the element's index in PageTree.elements
    left: float
    top: float
    width: float
    height: float
    font_size: float
    font_weight: float
    color: tuple[float, float, float, float]
    background: tuple[float, float, float, float]
    text_align: str
    visible: bool  # displayed, not visibility:hidden, not fully transparent, of non-zero size
    margin: tuple[float, float, float, float]
    padding: tuple[float, float, float, float]
    children: int
    text: int
    links: int
    paragraphs: int
    images: int
    descendants: int


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered page: the document's size and the box of each tagged element, by element index."""

    width: float
    height: float
    boxes: dict[int, Box]


def annotate(html: str | bytes, source: str | None = None) -> tuple[PageTree, str]:
    """forest's block walk of the page, and markup to render with each block's element tagged.

    :raises ParseError: the page does not parse (as ``forest.html.parse_html``).
    """
    root = parse_html(html, source=source)
    body = root.find("body")
    assert body is not None  # parse_html guarantees a body
    tree = walk(body)
    for index in sorted(set(tree.owner.tolist())):
        tree.elements[index].set(ATTRIBUTE, str(index))
    text = html.decode("utf-8", "replace") if isinstance(html, bytes) else html
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    for sheet in _STYLE_SHEETS.findall(text):
        style = etree.SubElement(head, "style")
        style.text = sheet
    markup = lxml_html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")
    for index in set(tree.owner.tolist()):  # leave the tree as forest parsed it
        tree.elements[index].attrib.pop(ATTRIBUTE, None)
    return tree, markup


class Renderer:
    """One headless Chromium, scripts off, no network but 127.0.0.1; use as a context manager.

    :raises RuntimeError: on entry, when Playwright or Chromium is missing (the reason says which).
    """

    def __init__(self, viewport: tuple[int, int] = VIEWPORT) -> None:
        self.viewport = viewport
        self._manager: Any = None
        self._browser: Any = None
        self._page: Any = None
        self.blocked = 0  # requests aborted so far

    def __enter__(self) -> Renderer:
        reason = unavailable()
        if reason:
            raise RuntimeError(reason)
        from playwright.sync_api import sync_playwright

        self._manager = sync_playwright()
        playwright = self._manager.__enter__()
        try:
            self._browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=list(CHROMIUM_ARGS))
            context = self._browser.new_context(
                java_script_enabled=False, viewport={"width": self.viewport[0], "height": self.viewport[1]}
            )
            context.route("**/*", self._route)
            self._page = context.new_page()
        except Exception:
            self._manager.__exit__(None, None, None)
            raise
        return self

    def _route(self, route: Any) -> None:
        url: str = route.request.url
        if url.startswith(("data:", "about:", "http://127.0.0.1", "https://127.0.0.1")):
            route.continue_()
        else:
            self.blocked += 1
            route.abort()

    def __exit__(self, *exc: object) -> None:
        try:
            if self._browser is not None:
                self._browser.close()
        finally:
            self._manager.__exit__(*exc)

    def render(self, markup: str) -> Rendered:
        """Lay ``markup`` out and read every element tagged with ``data-forest``."""
        if self._page is None:
            raise RuntimeError("Renderer used outside its with block")
        self._page.set_content(markup, wait_until="load", timeout=TIMEOUT_MS)
        data = self._page.evaluate(_COLLECT, ATTRIBUTE)
        return Rendered(float(data["width"]), float(data["height"]), {int(e["index"]): _box(e) for e in data["elements"]})


def _box(e: dict[str, Any]) -> Box:
    left, top, width, height = (float(v) for v in e["box"])
    visible = e["display"] != "none" and e["visibility"] not in ("hidden", "collapse") and float(e["opacity"]) > 0
    return Box(
        index=int(e["index"]), left=left, top=top, width=width, height=height,
        font_size=float(e["font_size"]), font_weight=float(e["font_weight"]),
        color=_four(e["color"]), background=_four(e["background"]), text_align=str(e["text_align"]),
        visible=bool(visible and width > 0 and height > 0),
        margin=_four(e["margin"]), padding=_four(e["padding"]),
        children=int(e["children"]), text=int(e["text"]), links=int(e["links"]),
        paragraphs=int(e["paragraphs"]), images=int(e["images"]), descendants=int(e["descendants"]),
    )  # fmt: skip


def _four(values: Sequence[Any]) -> tuple[float, float, float, float]:
    a, b, c, d = (float(v) for v in values)
    return a, b, c, d


def render_page(renderer: Renderer, html: str | bytes, source: str | None = None) -> tuple[PageTree, Rendered]:
    """forest's blocks of the page and the rendered box of each block's element.

    :raises ParseError: the page does not parse.
    """
    tree, markup = annotate(html, source)
    return tree, renderer.render(markup)


@contextmanager
def renderer() -> Iterator[Renderer]:
    """A :class:`Renderer` as a context manager (``with renderer() as r: r.render(...)``)."""
    with Renderer() as r:
        yield r
