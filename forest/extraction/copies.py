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

from lxml import etree

from forest.classifier.predictor import BlockPrediction

__all__ = ["without_copies"]

# A line of at least this many words, printed twice, starts the search for a copied box: shorter
# lines ("Read more", a price) repeat on any page.
MIN_LINE_WORDS = 3
# A box is a copy when this share of its kept words repeats text kept outside and before it...
MIN_COPY_SHARE = 0.9
# ...and it keeps two lines or more, of this many words in all (a copied line alone is no box).
MIN_COPY_WORDS = 10


def without_copies(content: Sequence[BlockPrediction]) -> list[BlockPrediction]:
    """``content`` (kept blocks, in page order) without the blocks of the boxes that copy text kept before them."""
    first: dict[str, int] = {}  # a line's text -> the index of its first kept block
    boxes: list[etree._Element] = []
    for i, p in enumerate(content):
        text = p.block.text
        if text.count(" ") + 1 < MIN_LINE_WORDS:
            continue
        seen = first.setdefault(text, i)
        if seen != i and content[seen].element is not p.element:
            box = _branch(content[seen].element, p.element)
            if box is not None and box not in boxes:
                boxes.append(box)
    if not boxes:
        return list(content)
    dropped: set[etree._Element] = set()
    for box in boxes:
        if box in dropped:
            continue
        inside = set(box.iter())
        mine = [i for i, p in enumerate(content) if p.element in inside]
        # Text kept before the box and outside it: the first copy's.
        words = copied = 0
        for i in mine:
            text = content[i].block.text
            n = text.count(" ") + 1
            words += n
            if first.get(text, i) < mine[0]:
                copied += n
        if len(mine) >= 2 and words >= MIN_COPY_WORDS and copied >= MIN_COPY_SHARE * words:
            dropped |= inside
    return [p for p in content if p.element not in dropped] if dropped else list(content)


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
