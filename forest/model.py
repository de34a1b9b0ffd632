"""Values that cross package boundaries: Page in, Article out.  The Wrapper lives in forest.wrapper."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

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


# How an article's text was found (Article.method).
Method = Literal["wrapper", "classifier", "page", "none"]
# The confidence of a guess: the classifier's likeliest prose block added to too few content
# words, or FOREST's region of the page alone (method "page").
GUESS_CONFIDENCE = 0.3


@dataclass(frozen=True, slots=True, kw_only=True)
class Article:
    """An extracted article, built by keyword.

    ``method`` says how the text was found: ``"wrapper"`` (the site's learned
    patterns matched), ``"classifier"`` (no pattern matched, or the site has no
    wrapper: the per-block classifier's content blocks; confidence the classifier's
    probability that the text it kept is content, averaged over its words, or GUESS_CONFIDENCE
    when it found under 20 words and its likeliest prose block was added), ``"page"``
    (FOREST's scoring ran on this page alone, its most frequent content words as keywords;
    confidence GUESS_CONFIDENCE) or ``"none"`` (nothing usable was
    found).  ``confidence`` is in [0, 1].

    ``document`` is the article's structure (headings, lists, tables, links; see
    :mod:`forest.article`) when extraction was asked for it (``Settings.html``), and ``html``
    its clean rendering (empty otherwise); ``comments`` the site's comment thread, when asked
    for (``Settings.comments``) and found.
    """

    text: str
    method: Method
    confidence: float
    url: str | None = None
    site: str | None = None
    title: str = ""
    html: str = ""
    pattern: str | None = None
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
