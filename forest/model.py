"""Values that cross package boundaries: Page in, Article out.  The Wrapper lives in forest.wrapper."""

from __future__ import annotations

from dataclasses import dataclass, field

from keywords.model import Metadata


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a site, as text.

    :param html: the page's HTML, decoded (see :func:`forest.html.decode`).
    :param url: where it came from, if known.
    :param site: the site it belongs to (a registered domain or a label), if known.
    :param meta: what the feed item said about it, if it came from a feed.
    """

    html: str
    url: str | None = None
    site: str | None = None
    meta: Metadata | None = None


@dataclass(frozen=True, slots=True)
class Article:
    """An extracted article.

    ``method`` says how the text was found: ``"wrapper"`` (the site's learned
    patterns matched), ``"page"`` (no pattern matched: FOREST's scoring ran on
    this page alone with the page's own title and description as keywords) or
    ``"none"`` (nothing usable was found).  ``confidence`` is in [0, 1].
    """

    url: str | None
    site: str | None
    title: str
    text: str
    html: str
    pattern: str | None
    method: str
    confidence: float
    author: str | None = None
    date: str | None = None
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {
            "url": self.url,
            "site": self.site,
            "title": self.title,
            "author": self.author,
            "date": self.date,
            "text": self.text,
            "html": self.html,
            "pattern": self.pattern,
            "method": self.method,
            "confidence": round(self.confidence, 3),
            "notes": list(self.notes),
        }
