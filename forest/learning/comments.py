"""Learn where a site puts its comment thread: the container that most sample pages carry under one name.

A thread is named for what it is (``id="comments"``, ``class="comment-list"``,
``disqus_thread``, ``responses``): an element whose id or class says so, holding text,
outside the article's headline and not around the article itself, found under the same
XPath step on most sample pages.  The wrapper cuts it from the article (an exclusion) and
extraction reads it separately when asked (``Settings(comments=True)``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from lxml import etree

from patterns.dom import element_steps

# Words of an id or class that name a comment thread.
_COMMENTISH = re.compile(r"comment|disqus|discussion|respon[sd]|replies|reactions", re.IGNORECASE)
# The thread must be on at least this share of the sample pages (and two): the site's, not one page's.
MIN_COMMENT_SHARE = 0.5
# Fewer characters of text than this: an empty shell or a "0 comments" link, not a thread.
MIN_COMMENT_CHARS = 40
_NAMED = etree.XPath(".//*[@id or @class]")


def learn_comments(pages: Sequence[tuple[etree._Element, Sequence[etree._Element]]]) -> str:
    """The XPath (one step, ``//div[@id='comments']``) of the site's comment container, or ''.

    :param pages: each sample page's parsed tree and its article region's elements.
    """
    counts: Counter[str] = Counter()
    for root, region in pages:
        counts.update(set(_containers(root, region)))
    needed = max(2, math.ceil(MIN_COMMENT_SHARE * len(pages)))
    # The most common name; ties to the shorter (an id over a class-token test).
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], len(kv[0])))
    return f"//{ranked[0][0]}" if ranked and ranked[0][1] >= needed else ""


def _containers(root: etree._Element, region: Sequence[etree._Element]) -> list[str]:
    """The steps naming the page's outermost comment-named elements."""
    body = root.find("body")
    if body is None:
        return []
    around = {a for node in region for a in node.iterancestors()} | set(region)
    steps: list[str] = []
    chosen: list[etree._Element] = []
    for element in _NAMED(body):
        if not _COMMENTISH.search(f"{element.get('id', '')} {element.get('class', '')}"):
            continue
        if element in around or any(c in chosen for c in element.iterancestors()):
            continue
        named = [s for s in element_steps(element) if _COMMENTISH.search(s.split("[", 1)[1])]
        if not named:
            continue
        if len("".join(element.itertext()).strip()) < MIN_COMMENT_CHARS:
            continue
        chosen.append(element)
        steps.extend(named)
    return steps


def inside_regions(xpath: str, regions: Sequence[Sequence[etree._Element]]) -> bool:
    """Whether the thread ``xpath`` names sits inside the article region on some sample page: only
    then is it worth an exclusion (one more pattern for extraction's walk of every page)."""
    inside = f".{xpath}"
    return any(node.xpath(inside) for region in regions for node in region)
