"""The one interface every evaluated extractor implements, and the FULLTEXT and DESCRIPTION baselines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from lxml import etree, html as lxml_html

from eval.cetr import CETR
from forest.html import parse_html
from forest.model import Page

__all__ = ["CETR", "Description", "FullText", "PageLevel", "System", "baselines", "element_text", "html_text"]

# Elements that start a new line when a browser renders them, so the words on either
# side are never glued together.  Inline elements (a, span, b…) are not here: words
# split across them ("<b>F</b>OREST") render as one word.
BLOCK_TAGS = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html
    legend li main menu nav noframes ol option p pre section summary table tbody td tfoot th thead
    title tr ul""".split()
)


# In order of preference: og:description is written for sharing and is usually the teaser.
_DESCRIPTION_KEYS = ("og:description", "description", "twitter:description")


@runtime_checkable
class System(Protocol):
    """An extractor under evaluation.

    ``site_level`` systems learn from sample pages of a site: the protocol calls
    ``fit`` with a site's training pages (replacing whatever was learned before)
    and then ``extract`` on that site's other pages.  Page-level systems have a
    no-op ``fit``.  ``extract`` returns the article text; it may raise, which the
    protocol records as a failure of that page.
    """

    name: str
    site_level: bool

    def fit(self, pages: Sequence[Page]) -> None: ...

    def extract(self, page: Page) -> str: ...


class PageLevel:
    """Base of systems that look at each page alone: ``fit`` does nothing."""

    name = "page-level"
    site_level = False

    def fit(self, pages: Sequence[Page]) -> None:
        """Nothing to learn."""

    def extract(self, page: Page) -> str:
        """The article text; subclasses implement it."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def element_text(element: lxml_html.HtmlElement) -> str:
    """The text of ``element``, one line per block element, whitespace-normalized, blank lines dropped."""
    parts: list[str] = []
    for event, node in etree.iterwalk(element, events=("start", "end")):
        is_element = isinstance(node.tag, str)
        block = is_element and node.tag.lower() in BLOCK_TAGS
        if event == "start":
            if block:
                parts.append("\n")
            if is_element and node.text:
                parts.append(node.text)
        else:
            if block:
                parts.append("\n")
            # A comment's or processing instruction's tail is visible text too.
            if node is not element and node.tail:
                parts.append(node.tail)
    lines = (" ".join(line.split()) for line in "".join(parts).splitlines())
    return "\n".join(line for line in lines if line)


def html_text(fragment: str) -> str:
    """The text of an HTML fragment or document (as :func:`element_text`); '' for empty input."""
    if not fragment.strip():
        return ""
    try:
        root = lxml_html.document_fromstring(fragment)
    except (etree.ParserError, ValueError):
        return ""
    etree.strip_elements(root, "script", "style", "noscript", "template", with_tail=False)
    return element_text(root)


class FullText(PageLevel):
    """All visible text of the page's body: the recall ceiling of every extractor."""

    name = "fulltext"

    def extract(self, page: Page) -> str:
        """The body's visible text, one line per block."""
        root = parse_html(page.html, source=page.url)
        body = root.find("body")
        return element_text(body) if body is not None else ""


class Description(PageLevel):
    """The feed item's summary, else the page's ``og:description`` or ``<meta name=description>``.

    The paper's DESCRIPTION baseline: high precision, low recall, a check that a
    system does better than repeating the teaser.
    """

    name = "description"

    def extract(self, page: Page) -> str:
        """The description text ('' if the page states none)."""
        if page.meta is not None and page.meta.summary.strip():
            # Feed summaries are often HTML.
            return html_text(page.meta.summary) or page.meta.summary.strip()
        root = parse_html(page.html, source=page.url)
        # Case-insensitive, and anywhere in the page: broken pages put <meta> in the body.
        found: dict[str, str] = {}
        for meta in root.iter("meta"):
            key = (meta.get("property") or meta.get("name") or "").strip().lower()
            content = " ".join((meta.get("content") or "").split())
            if key in _DESCRIPTION_KEYS and content:
                found.setdefault(key, content)
        return next((found[key] for key in _DESCRIPTION_KEYS if key in found), "")


def baselines() -> list[System]:
    """The reimplemented baselines: FULLTEXT, DESCRIPTION and CETR."""
    return [FullText(), Description(), CETR()]
