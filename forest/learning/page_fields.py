"""Learn where a site shows an article's title, author and date, from feed items or, without a feed, from what the pages state.

A field XPath costs extraction a walk of the page, so one is learned only where the
page's head does not already say it: the headline when the site's ``<title>`` (its
decoration stripped) is not the headline on some sample page, the author and date when
they are stated in the body (microdata, ``<time>``, a date printed by the headline) and not in
meta tags or JSON-LD.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from forest.fields import FIELDS, extract_fields, headlines, learn_fields
from forest.html import page_title
from forest.bylines import printed_fields
from forest.metadata import attributed_date, microdata_fields
from forest.titles import headline_of, strip_affixes
from keywords.model import Metadata
from patterns.dom import PageIndex


def site_fields(
    samples: Sequence[tuple[etree._Element, str, Metadata | None]], affixes: tuple[str, str],
    indexes: Sequence[PageIndex | None] | None = None,
) -> dict[str, str]:
    """Field name -> XPath for the site.  A field no one XPath finds on enough sample pages is
    searched for on each page that lacks it, as on a page of a site not learned (forest.fields).

    :param samples: each sample page's parsed tree, its HTML and its feed item (None without a feed).
    :param affixes: the site's ``<title>`` decoration (forest.titles).
    :param indexes: each page's body index with its structural keys, where learning built one (forest.fields.learn_fields).
    """
    values: list[dict[str, str]] = []
    needed: set[str] = set()
    heads = [extract_fields(root, {}, html=html, body=False) if meta is None else None for root, html, meta in samples]
    stated = [head["title"] for head in heads if head is not None]
    # A title the head states alike on every sample page (og:title) is the site's name, not the
    # article's: the headline is then read from <title> and learned where the page shows it.
    named = len(stated) >= 2 and len(set(stated)) == 1 and bool(stated[0])
    if named:
        needed.add("title")
    for (root, html, meta), head in zip(samples, heads):
        if meta is not None:
            values.append({"title": meta.title, "author": meta.author, "date": meta.published})
            needed.update(FIELDS)
            continue
        assert head is not None  # read for every page without a feed item
        plain = strip_affixes((not named and head["title"]) or page_title(root), affixes)
        headline = headline_of(root, plain)
        body = microdata_fields(root) if not (head["author"] and head["date"]) else {}
        if not (head["date"] or body.get("date")):
            body["date"] = attributed_date(root, html) or ""
        date, author = not (head["date"] or body.get("date")), not (head["author"] or body.get("author"))
        printed: dict[str, str | None] = {}
        if date or author:
            # A date or an author the page prints by its headline and states nowhere a machine reads (a
            # Pelican or Hugo theme's "Sat 11 February 2017", "By Ana Lima"): learned where the site
            # prints it, as a feed's are.
            printed = printed_fields(root, [headline, *headlines(root, head["title"])], date=date, author=author)
            body.update({name: value for name, value in printed.items() if value})
        values.append({"title": headline, "author": head["author"] or body.get("author", ""),
                       "date": head["date"] or body.get("date", "")})
        if headline != plain:
            needed.add("title")
        needed.update(name for name in ("author", "date") if body.get(name) and not head[name])
    kept = [{name: value[name] if name in needed else "" for name in FIELDS} for value in values]
    return learn_fields([
        (root, Metadata(title=value["title"], author=value["author"], published=value["date"]))
        for (root, _, _), value in zip(samples, kept)
    ], indexes)
