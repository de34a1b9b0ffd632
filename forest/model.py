"""Values that cross package boundaries: Page in, Article out.  The Wrapper lives in forest.wrapper."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from keywords.model import Metadata

if TYPE_CHECKING:
    from forest.article.structure import Document


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
    patterns matched), ``"classifier"`` (no pattern matched, or the site has no
    wrapper: the per-block classifier's content blocks; confidence 0.5, or 0.3 when it
    found under 20 words and its likeliest prose block was added), ``"page"`` (FOREST's
    scoring ran on this page alone, its most frequent content words as keywords;
    confidence 0.3) or ``"none"`` (nothing usable was found).  ``confidence`` is in [0, 1].

    ``document`` is the article's structure (headings, lists, tables, links; see
    :mod:`forest.article`) when extraction was asked for it (``Settings.html``), and ``html``
    its clean rendering (empty otherwise); ``comments`` the site's comment thread, when asked
    for (``Settings.comments``) and found.
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
    document: Document | None = field(default=None, compare=False, repr=False)
    comments: Document | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, object]:
        """The article as JSON: a missing title, author or date is null; ``html`` and ``comments`` only when asked for."""
        record: dict[str, object] = {
            "url": self.url,
            "site": self.site,
            "title": self.title or None,
            "author": self.author,
            "date": self.date,
            "text": self.text,
            **({"html": self.html} if self.document is not None else {}),
            "pattern": self.pattern,
            "method": self.method,
            "confidence": round(self.confidence, 3),
            "notes": list(self.notes),
        }
        if self.comments is not None:
            record["comments"] = self.comments.text
        return record
