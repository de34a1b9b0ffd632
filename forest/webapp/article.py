"""The article as the web app shows and serves it: forest's own markdown and HTML renderings, the headline once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

from lxml import etree
from lxml import html as lxml_html

import forest
from forest.article.clean_html import render as clean_html
from forest.article.render import document_of, render

# Link targets the article panel keeps clickable; any other (relative to the page's own site,
# javascript:, data:) keeps its text only, so a click never lands inside the app or runs anything.
LINK_SCHEMES = frozenset({"http", "https", "mailto"})


@dataclass(frozen=True, slots=True)
class Rendered:
    """One article as the app shows it.

    :param markdown: what ``forest extract --format markdown`` prints for the page.
    :param html: the article's blocks after its headline (headings, lists, code, tables), as
        forest's clean HTML renders them, for the article panel; the headline is printed above it.
    """

    markdown: str
    html: str

    def to_dict(self) -> dict[str, str]:
        return {"markdown": self.markdown, "html": self.html}


def rendered(article: forest.Article) -> Rendered:
    """``article`` rendered by forest's own renderers (forest.article); extracted with
    ``Settings.html`` it has its structure, and without it its text lines are paragraphs."""
    body = document_of(article)
    if article.title:
        body = body.without_leading(article.title)  # the headline once: the panel prints the title above
    return Rendered(render(article, "markdown"), _safe(clean_html(body)))


def rendered_of(result: Mapping[str, Any]) -> Rendered:
    """What a job's stored ``result`` shows: the renderings kept with it, else (a job run before
    they were kept) its record's text rendered as paragraphs."""
    kept = result.get("rendered")
    if isinstance(kept, Mapping) and isinstance(kept.get("markdown"), str) and isinstance(kept.get("html"), str):
        return Rendered(kept["markdown"], kept["html"])
    record = result.get("article") or {}
    article = forest.Article(
        text=str(record.get("text") or ""), method=cast(Any, str(record.get("method") or "none")),
        confidence=float(record.get("confidence") or 0.0), title=str(record.get("title") or ""),
        author=record.get("author"), date=record.get("date"),
    )
    return rendered(article)


def _safe(fragment: str) -> str:
    """``fragment`` with only absolute web and mail links left clickable and its images dropped: the
    app's own policy would block them (they load from the page's site), and a broken image says nothing."""
    if not fragment.strip():
        return ""
    holder = lxml_html.fragment_fromstring(fragment, create_parent="div")
    etree.strip_elements(holder, "img", with_tail=False)
    for link in holder.iter("a"):
        if _scheme(link.get("href", "")) in LINK_SCHEMES:
            link.set("rel", "nofollow noopener noreferrer")
        else:
            link.attrib.pop("href", None)
    return "".join(lxml_html.tostring(child, encoding="unicode") for child in holder) if len(holder) else ""


def _scheme(url: str) -> str:
    try:
        return urlsplit(url).scheme.lower()
    except ValueError:  # "http://[" and the like: no link
        return ""
