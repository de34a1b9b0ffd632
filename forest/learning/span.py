"""Learn the part of a site's page source that holds its articles (forest.extraction.span).

The markers are start tags the site's template writes alike on every sample page, once.
A span is kept only where extracting from it alone gives every sample page the same
article, title, author and date as extracting from the whole page: parsing less is an
optimization, never a change of output on the pages learning saw.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from lxml import etree

from forest.config import Settings
from forest.extraction import extract, extract_parsed, extract_span
from forest.html import BODY_TAG
from forest.learning._inline import start_markers
from forest.model import Article
from forest.region import outermost
from forest.wrapper import Wrapper
from forest.xpaths import compiled

__all__ = ["learn_span"]

# A start tag up to the value of its first id or class attribute: what a template writes the
# same on every page, where later attributes often carry the page's own values.
_MARKER = re.compile(
    r"""<(?P<tag>[a-zA-Z][\w:-]*)\s[^<>]*?(?<![\w-])(?P<attribute>id|class)\s*=\s*(?P<value>"[^"<>]*"|'[^'<>]*')""",
    re.IGNORECASE,
)
NO_SPAN = ("", "")
# Sample pages a step of the span's search checks before the span found is checked on all of them.
# A span that fails almost always fails on the page that failed last, so one page is enough: a
# step that passes then costs one extraction instead of one per sample page, and the wrappers
# learned on the site-level datasets are the same as with every page probed at each step
# (`python -m eval.wrappers` prints the wrappers' digests: compare PROBE_PAGES = 1 and = 1000).
PROBE_PAGES = 1


def learn_span(wrapper: Wrapper, pages: Sequence[tuple[str, etree._Element, bool]], settings: Settings | None = None) -> tuple[str, str]:
    """The tightest span found whose article is the whole page's on every sample page the main pattern fits.

    The start marker is the deepest element around the article that every page writes alike
    and once ('' for the page's ``<body>`` when none is); the end marker the first after it that
    keeps every page's article (a binary search over the markers in page order), '' for the end
    of the page.  Where no span reads every page, the tightest that reads most of them and gives
    each its whole-page article (the others are read whole at extraction).  ('', '') when fewer than
    two pages fit or no span reads most of them.  Each step of the search is checked on the page
    that failed last, and the span it finds on every page (the search runs again if a page fails it).

    :param pages: each sample page's source, its tree as learning parsed it, and whether that tree
        is the one extraction parses (learning's last use of it: the whole page's article is then
        extracted from it, which may cut parts out of it; otherwise the page is parsed again).
    """
    settings = replace(settings or Settings(), html=False, comments=False)
    whole = replace(wrapper, span=NO_SPAN)
    fitting: list[tuple[str, tuple[object, ...]]] = []
    around: list[set[tuple[str, str, str]]] = []
    one_node = True
    for text, root, as_extracted in pages:
        names, nodes = _around(root, wrapper.main.xpath)
        if as_extracted and not nodes:
            continue  # extraction's tree, where the main pattern selects nothing: it cannot fit
        article = extract_parsed(whole, root, text, settings=settings) if as_extracted else extract(whole, text, settings=settings)
        if article.method == "wrapper" and article.pattern == wrapper.main.xpath:
            fitting.append((text, _output(article)))
            around.append(names)
            one_node = one_node and nodes == 1
    if len(fitting) < 2:
        return NO_SPAN
    markers = _common_markers([text for text, _ in fitting])

    read: dict[tuple[tuple[str, str], str], bool] = {}  # (span, page) checked already: whether the span read it
    whole_pages = 0  # sample pages a span may leave to the whole page's parse (see below)

    def keeps(span: tuple[str, str], probe: int | None = None) -> bool:
        candidate = replace(wrapper, span=span)
        left = whole_pages
        for k, (text, expected) in enumerate(fitting[:probe]):
            if (span, text) not in read:
                article = extract_span(candidate, text, settings=settings)
                if article is not None and _output(article) != expected:
                    fitting.insert(0, fitting.pop(k))  # the page a span fails on is the likeliest to fail the next one
                    return False
                read[span, text] = article is not None
            if not read[span, text]:
                left -= 1
                if left < 0:
                    fitting.insert(0, fitting.pop(k))
                    return False
        return True

    starts = [i for i, marker in enumerate(markers) if all(_named(marker) in names for names in around)]

    def search(probe: int) -> tuple[str, str]:
        # Each step checks the first ``probe`` pages of ``fitting`` only: the ones that failed last.
        start = next((i for i in reversed(starts) if keeps((markers[i], ""), probe)), None)
        # No element around the article is written alike and once on every page: the span starts at <body>.
        head = markers[start] if start is not None else ""
        # Only a one-node region is cut at its end (forest.extraction.span.holds).
        end = _first(start + 1 if start is not None else 0, len(markers), lambda j: keeps((head, markers[j]), probe)) if one_node else None
        return head, markers[end] if end is not None else ""

    def checked() -> tuple[str, str]:
        # The span found is checked on every page; a page that fails it joins the probed ones and
        # the search runs again, so the span kept gives every sample page its whole-page article.
        probed = PROBE_PAGES
        while True:
            span = search(probed)
            if span == NO_SPAN or probed >= len(fitting) or keeps(span):
                return span
            probed += 1

    span = checked()
    if span == NO_SPAN and len(fitting) > 2:
        # No span reads every sample page: one that reads most of them still pays.  A page it does
        # not read (its learned title or date place outside the part, a region past the cut) is
        # parsed whole at extraction, as it would be with no span, and gives the same article.
        # (Of two pages, one is no minority: the search would run again under the same rule.)
        whole_pages = (len(fitting) - 1) // 2
        span = checked()
    return span


def _around(root: etree._Element, xpath: str) -> tuple[set[tuple[str, str, str]], int]:
    """(tag, attribute, value) of the id and class attributes of the elements around the region's
    first node, itself included; and the region's number of nodes."""
    nodes = outermost(compiled(xpath)(root))
    names: set[tuple[str, str, str]] = set()
    for element in [nodes[0], *nodes[0].iterancestors()] if nodes else []:
        for attribute in ("id", "class"):
            value = element.get(attribute)
            if value is not None and isinstance(element.tag, str):
                names.add((element.tag.lower(), attribute, value))
    return names, len(nodes)


def _named(marker: str) -> tuple[str, str, str]:
    match = _MARKER.fullmatch(marker)
    assert match is not None  # markers are _MARKER's matches
    return match.group("tag").lower(), match.group("attribute").lower(), match.group("value")[1:-1]


def _output(article: Article) -> tuple[object, ...]:
    return article.text, article.title, article.author, article.date, article.confidence


def _common_markers(texts: Sequence[str]) -> list[str]:
    """Markers found exactly once in the body of every text, in their mean order on the pages."""
    common: set[str] | None = None
    where: dict[str, float] = {}
    for text in texts:
        body = BODY_TAG.search(text)
        start = body.end() if body else len(text)
        # _MARKER.finditer's matches, scanned in C (forest/learning/_inline.pyx): a page's start tags
        # are read at every sample page's learning, and the regex's scan cost as much as a parse.
        found = start_markers(text, start, _MARKER)
        counts = Counter(marker for marker, _ in found)
        once = {marker for marker, n in counts.items() if n == 1}
        common = once if common is None else common & once
        for marker, at in found:
            if marker in once:
                where[marker] = where.get(marker, 0.0) + at / len(text)
    return sorted(common or (), key=lambda marker: (where[marker], marker))


def _first(lo: int, n: int, works: Callable[[int], bool]) -> int | None:
    """The first j in [lo, n) where ``works`` (it fails up to some point, then works), or None."""
    hi, found = n - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        if works(mid):
            found, hi = mid, mid - 1
        else:
            lo = mid + 1
    return found
