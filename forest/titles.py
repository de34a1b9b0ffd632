"""A site's title decoration: the prefix and suffix it adds to every page's ``<title>`` ("... | Larkford Courier").

Learned from the sample pages (the longest affix that ends, or starts, at a word boundary
on most of them), stored in the wrapper, and stripped from a page's ``<title>`` or
``og:title`` when the site's headline element is not found.
"""

from __future__ import annotations

import math
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence

from lxml import etree

from forest._texts import BodyTexts
from forest.classifier._walk import body_texts

# An affix is the site's when at least this share of the sample titles carry it (and two
# at least): one page's title ending like another's by chance is not decoration.
MIN_AFFIX_SHARE = 0.6
# What joins a decoration to the headline, stripped with it ("Title | Site", "Title - Site").
SEPARATORS = " \t|-\u2013\u2014:\u00bb\u00ab/\\_\u2022\u00b7~=<>*"


def learn_affixes(titles: Sequence[str]) -> tuple[str, str]:
    """The prefix and suffix most of ``titles`` share, each starting or ending at a word boundary
    and holding a letter ('' for none)."""
    titles = [" ".join(t.split()) for t in titles if t and t.strip()]
    needed = max(2, math.ceil(MIN_AFFIX_SHARE * len(titles)))
    if len(titles) < needed:
        return "", ""
    suffix = _common(titles, needed, reverse=False)
    prefix = _common([t[: len(t) - len(suffix)] if suffix and t.endswith(suffix) else t for t in titles], needed, reverse=True)
    return prefix, suffix


def strip_affixes(title: str, affixes: tuple[str, str]) -> str:
    """``title`` without the site's decoration (and the separators joining it), whitespace-normalized.

    A title that is all decoration is returned whole.
    """
    title = " ".join(title.split())
    prefix, suffix = affixes
    stripped = title
    if suffix and stripped.endswith(suffix) and len(stripped) > len(suffix):
        stripped = stripped[: -len(suffix)].rstrip(SEPARATORS)
    if prefix and stripped.startswith(prefix) and len(stripped) > len(prefix):
        stripped = stripped[len(prefix):].lstrip(SEPARATORS)
    return stripped if any(c.isalnum() for c in stripped) else title


def _common(titles: Sequence[str], needed: int, *, reverse: bool) -> str:
    """The longest suffix (``reverse``: prefix) found on ``needed`` titles, cut at a word boundary."""
    counts: Counter[str] = Counter()
    for title in titles:
        seen = set()
        for i in range(1, len(title)):
            # A boundary: the affix starts (ends) where a word does not continue across it.
            if title[i - 1].isalnum() and title[i].isalnum():
                continue
            affix = title[:i] if reverse else title[i:]
            if any(c.isalpha() for c in affix) or any(c in SEPARATORS.strip() for c in affix):
                seen.add(affix)
        counts.update(seen)
    best = ""
    for affix, count in counts.items():
        if count < needed or len(affix) <= len(best):
            continue
        # Never the whole of a title: something must be left of each title that carries it.
        rest = [t[len(affix):] if reverse else t[: -len(affix)] for t in titles if (t.startswith(affix) if reverse else t.endswith(affix))]
        if all(any(c.isalnum() for c in r) for r in rest):
            best = affix
    # Decoration is joined by a separator ("Title | Site", "AFP: Title", "=> Title <="); words
    # alone shared by most titles ("The ...") are the headlines' own.
    return best if any(c in SEPARATORS.strip() for c in best) else ""


# Where a <title> is cut into the headline and the site's other parts ("Headline - Section - Site").
_CUTS = re.compile(r"\s+(?:[|\u2013\u2014\u00bb\u00ab/:~\u2022\u00b7-]{1,2})\s+|_")
# Three letters or digits: ``[^\W_]`` is a character str.isalnum() accepts, so a part matches exactly
# where ``sum(c.isalnum() for c in part) >= 3``, found by sre where a generator stepped through every
# character of every part (two to five times faster on the datasets' titles; the page's titles are
# cut two or three times a page: its found title's and its <title>'s parts, the headline's search).
_THREE_ALNUM = re.compile(r"[^\W_](?:[\W_]*[^\W_]){2}")


def strip_site_name(title: str, names: Iterable[str]) -> str:
    """``title`` without a site's name (one of ``names``, as ``og:site_name`` states it) joined to it by a
    separator at its end or its start ("Headline | Site", "Site - Headline"); ``title`` itself otherwise."""
    title = " ".join(title.split())
    folded = title.casefold()
    for name in sorted({" ".join(n.split()).casefold() for n in names if n and n.strip()}, key=len, reverse=True):
        if folded.endswith(name) and len(folded) > len(name):
            rest = title[: -len(name)]
            if rest.rstrip().endswith(tuple(SEPARATORS.strip())) and rest.rstrip(SEPARATORS):
                return rest.rstrip(SEPARATORS)
        if folded.startswith(name) and len(folded) > len(name):
            rest = title[len(name):]
            if rest.lstrip().startswith(tuple(SEPARATORS.strip())) and rest.lstrip(SEPARATORS):
                return rest.lstrip(SEPARATORS)
    return title


def title_parts(title: str) -> list[str]:
    """``title`` and the runs of its parts from its start or its end ("A - B - C": A, A - B, B - C, C),
    each with three letters or digits at least: where its headline may be."""
    title = " ".join(title.split())
    cuts = list(_CUTS.finditer(title))
    parts = [title[: m.start()].strip() for m in cuts] + [title[m.end():].strip() for m in cuts]
    return [p for p in dict.fromkeys([title, *parts]) if _THREE_ALNUM.search(p)]


def headline_of(root: etree._Element, title: str, texts: BodyTexts | None = None) -> str:
    """The part of ``title`` that is the page's headline: the longest run of its parts, from its
    start or its end, that some text of the page states alone; else ``title``.

    "Boy killed by dog - World - General - Camden Advertiser" on a page with
    ``<strong>Boy killed by dog</strong>`` gives "Boy killed by dog".

    :param texts: the page's body texts, where a search read them already (forest.bylines.PageTexts):
        they are sifted by their lengths rather than walked again.
    """
    cuts = list(_CUTS.finditer(title))
    if not cuts:
        return title
    parts = {title[: m.start()].strip() for m in cuts} | {title[m.end():].strip() for m in cuts}
    parts = {p for p in parts if _THREE_ALNUM.search(p)}
    if not parts:
        return title
    best = ""
    shortest = min(len(p) for p in parts)
    if texts is not None:
        # The texts that, split and joined, may be as long as the title or one of its parts (by
        # their lengths, in C): the body's texts were read already, and a walk in C to find them
        # cost as much as the printed date's search.
        lengths = {len(p) for p in parts} | {len(title)}
        found: Iterable[str] = map(texts.texts.__getitem__,
                                   texts.lines(shortest, sys.maxsize, bytes(n in lengths for n in range(max(lengths) + 1))))
    else:
        # One pass over the page's text nodes in C (its reference, the XPath
        # //body//text()[string-length(normalize-space(.)) >= $shortest], is tests/unit/test_native_headline.py's)
        # finds those that may state a part of the title alone: none longer than the title, once split and joined.
        found = body_texts(root, shortest, len(title))
    for text in found:
        text = " ".join(text.split())
        if text == title:
            return title
        if text in parts and len(text) > len(best):
            best = text
    return best or title
