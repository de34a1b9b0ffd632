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

from forest.classifier.features import og_type
from forest.classifier.predictor import BlockPrediction
from forest.metadata import json_ld_declares_product
from patterns.text import text_lengths

__all__ = ["declares_product", "without_reviews"]

# Elements whose class or id holds "review" or "rating" in any case (the cheap test, in C); _NAMED says
# which of them are named for reviews: not a "preview", nor a "generating" or "operating" something.
_CANDIDATES = etree.XPath(
    ".//*[" + " or ".join(f"contains(@{attribute}, '{part}')" for attribute in ("class", "id")
                          for part in ("eview", "EVIEW", "ating", "ATING")) + "]"
)
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
    ``single-product-reviews`` class too)."""
    body = root.find("body") if root.tag == "html" else root
    if body is None:
        return list(content)
    half = text_lengths(body)[1] / 2
    kept: Counter[etree._Element] = Counter()
    for p in content:
        kept[p.element] += len(p.block.text)
    half_kept = sum(kept.values()) / 2
    inside: set[etree._Element] = set()
    for element in _CANDIDATES(body):
        if element in inside:
            continue
        name = f"{element.get('class') or ''} {element.get('id') or ''}"
        if not _NAMED.search(name) or text_lengths(element)[1] >= half:
            continue
        box = set(element.iter())
        if sum(n for e, n in kept.items() if e in box) < half_kept:
            inside |= box
    return [p for p in content if p.element not in inside] if inside else list(content)
