"""A page's second copy of a box, left out of what the classifier keeps of it.

Today's page builders print a section once per screen size and hide all but one with CSS: a
product's description for phones and again for desktops (Squarespace's ``hidden-md-up`` and
``hidden-md-down``), a Framer site's every section in two or three ``ssr-variant`` boxes, a case
study's slide for ``desktop`` and for ``mobile``. forest reads no stylesheet, so it sees every copy,
and the classifier keeps each: the page's text comes out twice.

A copy is told by its text, not its class names (each builder names its own): a box whose kept
text is, nearly word for word, text kept before it elsewhere on the page is a second copy. The
box is the copy's branch under the element it shares with the first: a whole variant, not a line of
it. A line repeated alone (a coupon's fine print on every card, "Rest day" in a training plan, a
forum's dates) is no box, nor is a card whose title differs from its siblings': those stay.

Re-measure: ``python -m eval.classifier.modern`` (wcxb_dev per page type) and ``--dataset
scrapinghub``; MIN_COPY_SHARE, MIN_COPY_WORDS and MIN_LINE_WORDS guard the repeated lines above.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from lxml import etree

from forest.classifier.predictor import BlockPrediction

__all__ = ["without_copies"]

_TEXT = attrgetter("block.text")

# A line of at least this many words, printed twice, starts the search for a copied box: shorter
# lines ("Read more", a price) repeat on any page, and count as copied only inside a box so found.
MIN_LINE_WORDS = 3
# A box is a copy when this share of its kept words repeats lines kept before it (so outside it)...
MIN_COPY_SHARE = 0.9
# ...and it keeps two lines or more, of this many words in all (a copied line alone is no box).
MIN_COPY_WORDS = 10


def without_copies(content: Sequence[BlockPrediction]) -> list[BlockPrediction]:
    """``content`` (kept blocks, in page order) without the blocks of the boxes that copy text kept before them."""
    # A line's text -> the index of its first kept block: built in C, the last index written the first's.
    texts = list(map(_TEXT, content))
    first = dict(zip(reversed(texts), range(len(texts) - 1, -1, -1)))
    if len(first) == len(texts):
        return list(content)
    repeated = {i: text.count(" ") + 1 for i, text in enumerate(texts) if first[text] != i}  # each later line's words
    # A copy's words are nine tenths repeated lines: no box holds more than this (most boxes the
    # search meets are a page's columns, hundreds of lines long, and are given up on early).
    most = sum(repeated.values()) / MIN_COPY_SHARE
    # The search starts at a repeated line of a few words: shorter ones repeat on any page.
    again = [i for i, n in repeated.items() if n >= MIN_LINE_WORDS]
    dropped: list[range] = []
    tried: set[etree._Element] = set()  # a box's lines are often copies each: it is judged once
    for i in again:
        if dropped and i < dropped[-1].stop:
            continue
        element = content[i].element
        box = _branch(content[first[texts[i]]].element, element)
        if box is None or box in tried:
            continue
        tried.add(box)
        # A subtree is a stretch of the page: the box's kept blocks are those around i inside it.
        start, stop = i, i + 1
        words = texts[i].count(" ") + 1
        while start > 0 and words <= most and _inside(content[start - 1].element, box):
            start -= 1
            words += texts[start].count(" ") + 1
        while stop < len(content) and words <= most and _inside(content[stop].element, box):
            words += texts[stop].count(" ") + 1
            stop += 1
        if words > most or stop - start < 2 or words < MIN_COPY_WORDS:
            continue
        # The words of lines kept before the box, so outside it.
        copied = sum(text.count(" ") + 1 for text in texts[start:stop] if first[text] < start)
        if copied >= MIN_COPY_SHARE * words:
            dropped.append(range(start, stop))
    if not dropped:
        return list(content)
    out = set().union(*dropped)
    return [p for i, p in enumerate(content) if i not in out]


def _inside(element: etree._Element, box: etree._Element) -> bool:
    return element is box or any(above is box for above in element.iterancestors())


def _branch(one: etree._Element, other: etree._Element) -> etree._Element | None:
    """``other``'s ancestor-or-self that is a child of the deepest element holding both (None: one holds the other)."""
    lineage = {one, *one.iterancestors()}
    if other in lineage:
        return None
    below = other
    for element in other.iterancestors():
        if element in lineage:
            return None if element is one else below
        below = element
    return None
