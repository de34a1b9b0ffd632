"""The part of a page's source a wrapper reads.

Learning finds two start tags that bound the article's part of the site's pages (the
site's template writes them the same on every page, once) and checks on the sample that
extracting from that part alone gives the same article, title, author and date as from
the whole page (forest.learning.span).  Extraction then parses the page's head and that
part only: the menus before the article and the footers and scripts after it are never
parsed.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from forest.html import BODY_TAG

__all__ = ["cut", "holds"]


def cut(text: str, span: tuple[str, str]) -> tuple[str, tuple[str, str]] | None:
    """The page's head and its source from ``span``'s start marker up to its end marker, and the
    span it was cut by.

    A marker the page does not hold exactly once after its ``<body>`` tag, or '', is not used:
    the part then starts at ``<body>`` or runs to the end of the page, which only parses more.
    None when neither marker is used: the page is parsed whole.
    """
    body = BODY_TAG.search(text)
    if body is None:
        return None
    start = _once(text, span[0], body.end())
    i = start if start is not None else body.start()
    end = _once(text, span[1], i + 1)
    if start is None and end is None:
        return None
    used = (span[0] if start is not None else "", span[1] if end is not None else "")
    return text[: body.start()] + text[i : end if end is not None else len(text)], used


def _once(text: str, marker: str, after: int) -> int | None:
    """Where ``marker`` starts in ``text`` after ``after``, if it is there exactly once."""
    if not marker:
        return None
    at = text.find(marker, after)
    return at if at >= 0 and text.find(marker, at + len(marker)) < 0 else None


def holds(root: etree._Element, region: Sequence[etree._Element], span: tuple[str, str]) -> bool:
    """Whether the ``region`` a pattern selects on a page :func:`cut` by ``span`` lies whole in it.

    Every node of it must lie inside the element the start marker opens.  With an end marker,
    the region must be one node, closed before the cut: the last element parsed is outside it.
    A region of several nodes is not cut at its end: a node past the cut would be lost unseen.
    A page whose markers sit elsewhere than on the sample pages (inside the article) fails here
    and is read whole.
    """
    body = root.find("body")
    if body is None or len(body) == 0 or not region:
        return False
    first = body[0]
    if span[0] and not all(node is first or first in node.iterancestors() for node in region):
        return False
    if not span[1]:
        return True
    if len(region) > 1:
        return False
    last = body
    while len(last):
        last = last[-1]
    return not (last is region[0] or region[0] in last.iterancestors())
