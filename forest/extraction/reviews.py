"""A product page's customer reviews, left out of what the classifier keeps of it.

A shop's product page prints its customers' reviews under the product: their ratings, dates and
opinions. They are the page's readers' comments, and forest keeps comments out of an article (a
learned site's thread is read apart, on request). The modern model keeps them: a review reads as
prose, and a forum's posts, which it learned to keep, read the same. So on a page that declares
itself a product (``og:type`` ``product``, a JSON-LD ``Product``), the blocks inside an element
its class or id names for reviews or ratings are dropped from the classifier's content.

Re-measure: ``python -m eval.classifier.modern`` (wcxb_dev's product pages; no other type moved).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from lxml import etree

from forest.classifier._walk import elements_holding
from forest.classifier.features import og_type
from forest.classifier.predictor import BlockPrediction
from forest.metadata import json_ld_declares_product
from patterns.text import text_lengths

__all__ = ["declares_product", "without_reviews"]

# Elements whose class or id holds "review" or "rating" in any case (the cheap test, in C); _NAMED says
# which of them are named for reviews: not a "preview", nor a "generating" or "operating" something.
_ATTRIBUTES = ("class", "id")
_PARTS = ("eview", "EVIEW", "ating", "ATING")
_NAMED = re.compile(r"(?<![Pp])[Rr]eview|REVIEW|(?<![A-Za-z])[Rr]ating|Rating|RATING")


def declares_product(root: etree._Element, html: str | bytes) -> bool:
    """Whether the page ``root`` (parsed from ``html``) says it is a product's: its ``og:type`` or its JSON-LD."""
    head = root.find("head") if root.tag == "html" else None
    if head is not None and og_type(head).startswith("product"):
        return True
    return json_ld_declares_product(html)


def without_reviews(root: etree._Element, content: Sequence[BlockPrediction]) -> list[BlockPrediction]:
    """``content`` without the blocks inside the page's review boxes: the elements named for reviews or
    ratings, each holding under half the body's text (a page's wrapper may carry a theme's
    ``single-product-reviews`` class too) and under half the text kept."""
    body = root.find("body")
    if body is None:
        return list(content)
    kept: Counter[etree._Element] = Counter()
    for p in content:
        kept[p.element] += len(p.block.text)
    half_kept = sum(kept.values()) / 2
    # Each kept element with the elements around it: a box's kept text is summed from these, not from a
    # set of every element in the box (a proxy for each, in every candidate's subtree).
    lineages = [({element, *element.iterancestors()}, n) for element, n in kept.items()]
    half: float | None = None
    boxes: set[etree._Element] = set()
    for element in elements_holding(body, _ATTRIBUTES, _PARTS):
        if not _NAMED.search(f"{element.get('class') or ''} {element.get('id') or ''}"):
            continue
        if boxes and any(a in boxes for a in element.iterancestors()):
            continue  # inside a box already dropped
        if sum(n for lineage, n in lineages if element in lineage) >= half_kept:
            continue
        if half is None:
            half = text_lengths(body)[1] / 2
        if text_lengths(element)[1] < half:
            boxes.add(element)
    if not boxes:
        return list(content)
    return [p for p in content if not (p.element in boxes or any(a in boxes for a in p.element.iterancestors()))]
