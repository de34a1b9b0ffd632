"""Metadata keywords: the most frequent terms of an item's title, summary, tags and author."""

from __future__ import annotations

import re
from collections import Counter

from lxml import etree, html as lxml_html

from keywords.model import Keywords, Metadata
from keywords.stopwords import stopwords_for
from keywords.tokenize import UNSPACED_SCRIPT, tokenize

SOURCES = ("feed", "meta")

# A tag opening or closing, a comment, or an entity: enough to say the summary is HTML.
# Feed summaries are HTML more often than not; plain text goes straight to the tokenizer.
_MARKUP = re.compile(r"<[A-Za-z/!?]|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);")
_TAG = re.compile(r"<[^>]*>")
# Never article text, even inside a summary.
_INVISIBLE = ("script", "style", "noscript", "template")


def metadata_keywords(meta: Metadata, k: int = 20, *, source: str = "feed") -> Keywords:
    """The top-``k`` terms of ``meta`` by frequency, stopwords removed.

    The terms come from the title, the summary (its HTML markup stripped), the tags and
    the author, in that order.  Ties in frequency go to title terms first, then to the
    earlier first appearance; since the title comes first, this is one ordering.
    Weights are the term counts.

    :param meta: what the feed item, or the page's own head, says about the article.
    :param k: how many keywords to keep.
    :param source: ``"feed"`` for a feed item, ``"meta"`` for the page's own metadata.
    :raises ValueError: if ``k`` < 1 or ``source`` is not ``"feed"`` or ``"meta"``.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    terms = tokenize(meta.title)
    terms += tokenize(_summary_text(meta.summary))
    for tag in meta.tags:
        terms += tokenize(tag)
    terms += tokenize(meta.author)
    # Metadata is often under the 20 terms that language detection needs; the fallback
    # (every language's stopwords) then applies, see keywords.stopwords.ALL_STOPWORDS.
    stopwords = stopwords_for(terms)
    # One-letter terms of alphabetic scripts ("x" in "2 x 30 ml", initials) say nothing;
    # single Han/kana/Thai characters are how the tokenizer splits those scripts.
    kept = [t for t in terms if t not in stopwords and (len(t) > 1 or UNSPACED_SCRIPT.match(t))]
    # Counter keeps first-insertion order and sorted() is stable, so equal counts stay
    # in order of first appearance, which puts title terms first.
    top = sorted(Counter(kept).items(), key=lambda item: -item[1])[:k]
    return Keywords(
        terms=tuple(term for term, _ in top),
        weights=tuple(float(count) for _, count in top),
        source=source,
    )


def _summary_text(summary: str) -> str:
    # Never raises: markup lxml cannot read is stripped with a regular expression instead.
    if not _MARKUP.search(summary):
        return summary
    try:
        fragment = lxml_html.fragment_fromstring(summary, create_parent="div")
    except Exception:  # noqa: BLE001
        # lxml.html's fragment parser fails in assorted ways on whole documents or bare
        # doctypes: ParserError ("Document is empty" for "<!DOCTYPE html>") but also a
        # bare AssertionError ("too many bodies" for "<html></html>").  A summary is not
        # worth failing a page for, so fall back to cutting out the tags.
        return _TAG.sub(" ", summary)
    etree.strip_elements(fragment, *_INVISIBLE, etree.Comment, with_tail=False)
    # itertext with a separator: text_content() would glue "<p>end</p><p>start" into "endstart".
    return " ".join(fragment.itertext())
