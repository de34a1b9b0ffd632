"""Learn where a site puts its comment thread: the containers that most sample pages carry under one name each.

A thread is named for what it is (``id="comments"``, ``class="comment-list"``,
``disqus_thread``, ``responses``): an element whose id or class says so, holding text,
outside the article's headline and not around the article itself, found under the same
XPath step on most sample pages.  A site often splits it in several such containers
(the list of comments, its "N comments" heading, the reply form): each that recurs is
cut from the article (an exclusion), and the one holding the most text is the thread
extraction reads separately when asked (``Settings(comments=True)``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from forest.learning._inline import comment_named_candidates
from forest.learning.consensus import PageLabels
from forest.region import clean, raw_text
from patterns.dom import element_steps
from patterns.text import text_blocks

# Words of an id or class that name a comment thread (not "responsive", a layout class).
_COMMENTISH = re.compile(r"comment|disqus|discussion|respon(?:d|se)|replies|reactions", re.IGNORECASE)
# The thread must be on at least this share of the sample pages (and two): the site's, not one page's.
MIN_COMMENT_SHARE = 0.5
# Fewer characters of text than this: an empty shell or a "0 comments" link, not a thread.
MIN_COMMENT_CHARS = 40
# A container on fewer pages is still the site's when the classifier labels at least this share
# of its text boilerplate on every sample page it is on: its name and the labels are two
# independent signals (a thread shown only under the posts that have comments).  Not when the
# name is numbered (``comment_40748797``): a generated name, one comment's, never on another page.
MIN_REJECTED_SHARE = 0.9
# The web's convention for a comment section, which readability and trafilatura drop too: a
# container whose class or id says "comment" (or "Comment"), anywhere in the region.  Every site
# gets these as exclusions unless its sample shows otherwise (:func:`comments_named_so`): they cut
# the thread of a page the sample pages did not show with one.
# Containers by name, not any element: the stylesheet that writes the region's text tests a
# pattern for any element on every element of the region, a named step only on elements of its
# name (the measurement is in the commit that made them named steps).
COMMENT_SECTIONS = tuple(
    f"//{tag}[contains(concat(@class, ' ', @id), 'omment')]" for tag in ("div", "section", "form", "ul", "ol")
)
_SECTION = etree.XPath(" | ".join(f"descendant-or-self::{xpath[2:]}" for xpath in COMMENT_SECTIONS))
_NUMBERED = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class CommentNamed:
    """A page's elements whose id or class names a comment thread, in document order, each with
    its naming steps: found once per sample page (learning asks for the regions J x U chose,
    then for the final ones), by a look at every element's id and class."""

    elements: tuple[tuple[etree._Element, tuple[str, ...]], ...]

    @staticmethod
    def of(root: etree._Element) -> CommentNamed:
        body = root.find("body")
        found = []
        # The elements whose id or class may name one, found in C (forest/learning/_inline.pyx): the
        # pattern's search below runs on them alone, not on every element with an id or a class.
        for element in comment_named_candidates(body) if body is not None else ():
            if _COMMENTISH.search(f"{element.get('id', '')} {element.get('class', '')}"):
                named = tuple(s for s in element_steps(element) if _COMMENTISH.search(s.split("[", 1)[1]))
                if named:
                    found.append((element, named))
        return CommentNamed(tuple(found))


def learn_comments(
    pages: Sequence[tuple[CommentNamed, Sequence[etree._Element]]], labels: Sequence[PageLabels] | None = None
) -> tuple[str, ...]:
    """XPaths (one step each, ``//div[@id='comments']``) of the site's comment containers, the
    thread (the one holding the most text over the sample) first; () when the sample has none.

    :param pages: each sample page's comment-named elements (``CommentNamed.of(root)``) and its
        article region's elements.
    :param labels: the classifier's labels on each of those pages, when it is trusted on the site.
    """
    found = [_containers(named, region) for named, region in pages]
    pages_with: Counter[str] = Counter()
    holders: Counter[str] = Counter()
    for containers in found:
        pages_with.update({step for _, _, steps in containers for step in steps})
        holders.update(step for _, _, steps in containers for step in steps)
    needed = max(2, math.ceil(MIN_COMMENT_SHARE * len(pages)))
    # Each container is named by the name most sample pages use; ties to the name most containers
    # share (a class every comment carries, not each comment's numbered id), then to the shorter.
    # A name must recur on enough pages to be the site's, not one page's, unless the classifier
    # rejects it wherever it is.
    pages_named: Counter[str] = Counter()
    chars: Counter[str] = Counter()
    rejected: dict[str, bool] = {}
    for k, containers in enumerate(found):
        shares = _rejected_shares([element for element, _, _ in containers], labels[k]) if labels else {}
        named: dict[str, int] = {}
        for element, length, steps in containers:
            best = min(steps, key=lambda step: (-pages_with[step], -holders[step], len(step), step))
            named[best] = named.get(best, 0) + length
            rejected[best] = (rejected.get(best, True) and shares.get(element, 0.0) >= MIN_REJECTED_SHARE
                              and not _NUMBERED.search(best.split("[", 1)[1]))
        pages_named.update(named.keys())
        chars.update(named)
    recurring = [step for step, n in pages_named.items() if n >= needed or rejected[step]]
    return tuple(f"//{step}" for step in sorted(recurring, key=lambda step: (-chars[step], step)))


def _rejected_shares(containers: Sequence[etree._Element], labels: PageLabels) -> dict[etree._Element, float]:
    """The share of each container's text that the classifier labels boilerplate."""
    if not containers:
        return {}  # most sample pages: no block's ancestors need be read
    rejected = dict.fromkeys(containers, 0)
    total = dict.fromkeys(containers, 0)
    # Each element's innermost container, itself included (None outside every one), kept for the
    # elements above a block: a page's blocks share their ancestors.
    holders: dict[etree._Element, etree._Element | None] = {}
    for element, length, is_content in zip(labels.elements, labels.lengths, labels.content):
        chain: list[etree._Element] = []
        node: etree._Element | None = element
        holder: etree._Element | None = None
        while node is not None:
            if node in total:
                holder = node
                break
            if node in holders:
                holder = holders[node]
                break
            chain.append(node)
            node = node.getparent()
        for node in chain:
            holders[node] = holder
        if holder is not None:
            total[holder] += length
            rejected[holder] += 0 if is_content else length
    return {element: rejected[element] / total[element] if total[element] else 0.0 for element in containers}


def _containers(named: CommentNamed, region: Sequence[etree._Element]) -> list[tuple[etree._Element, int, tuple[str, ...]]]:
    """The page's outermost comment-named elements, each with the characters of text it holds and its naming steps.

    A broad pattern (``//td[@class='content']/div``) selects the article and each comment
    beside it: a region node holding less than half of the region's text is a container too.
    """
    around = {a for node in region for a in node.iterancestors()}
    if len(region) == 1:
        around.add(region[0])
    region_chars = sum(_chars(node) for node in region) if len(region) > 1 else 0
    containers: list[tuple[etree._Element, int, tuple[str, ...]]] = []
    chosen: set[etree._Element] = set()
    for element, steps in named.elements:
        if element in around or any(c in chosen for c in element.iterancestors()):
            continue
        length = _chars(element)
        if length < MIN_COMMENT_CHARS or (element in region and 2 * length > region_chars):
            continue
        chosen.add(element)
        containers.append((element, length, steps))
    return containers


def comments_named_so(regions: Sequence[Sequence[etree._Element]], exclusions: Sequence[str], template: frozenset[str]) -> bool:
    """Whether cutting COMMENT_SECTIONS too leaves every sample region's text as the other
    exclusions leave it: the site names no part of its articles so."""
    skip = tuple(xpath.removeprefix("//") for xpath in exclusions)
    sections = tuple(xpath.removeprefix("//") for xpath in COMMENT_SECTIONS)
    try:
        text_blocks((), skip + sections)  # raises the ValueError below, whatever the regions
        # A region without such a section reads the same either way (learning time: two text walks saved).
        return all(clean(text_blocks(region, skip), template) == clean(text_blocks(region, skip + sections), template)
                   for region in regions if any(_SECTION(node) for node in region))
    except ValueError:  # an exclusion XSLT cannot match (forest.region.select cuts it from the tree instead)
        return False


def inside_regions(xpath: str, regions: Sequence[Sequence[etree._Element]]) -> bool:
    """Whether the thread ``xpath`` names sits inside the article region, or is one of its nodes, on some
    sample page: only then is it worth an exclusion (one more pattern for extraction's walk of every page)."""
    inside = f".{xpath} | self::{xpath[2:]}"
    return any(node.xpath(inside) for region in regions for node in region)


def _chars(element: etree._Element) -> int:
    return len(raw_text(element).strip())
