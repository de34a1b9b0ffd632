"""The article's container: content the classifier finds outside the element that holds most of it must be surer.

An article sits in one element of the page (its ``<article>``, its body ``<div>``). The
blocks the threshold keeps outside that element are a cookie notice, a footer's
disclaimer, a sidebar's teasers, a caption or a byline above the body: each looks like
prose, and the second stage, which sees only 5 ancestors and windows of 10 blocks, can
miss that it lies apart from the rest.  So a block outside the article's container is
kept only at a higher probability, and one inside it at a lower one: in the element that holds
the article, a block the threshold nearly kept (a short paragraph, a list item, a table cell)
is more likely part of it, and a long paragraph of prose between the article's content blocks is
part of it whatever the model says (a roundup's product reviews, a service page's sections: the
model, which learned from older news pages, scores such paragraphs low beside "Shop now" links).

The container is the deepest element that holds more than half of the content words
(the body always does; "more than half" makes it unique, since two disjoint elements
cannot both hold a majority).  Headings before it keep the threshold's label: a heading
titles what follows, and the article's headline often sits in a header above its body.
"""

from __future__ import annotations

import numpy as np

from forest.classifier._features import article_container_of, confined, confined_paragraphs, tagged
from forest.classifier.blocks import PageTree
from patterns.text import MAX_LINK_SHARE

# P(content) a block outside the article's container needs: it guards against a menu or a "related"
# box the model is unsure of being kept beside the article.  Chosen in the middle of the plateau of
# mean page token F1 over the training pages' out-of-fold predictions, folds by site, as the model's
# own threshold was (re-measure: python -m eval.classifier.container).
OUTSIDE_THRESHOLD = 0.75
# P(content) a block inside the container needs, with OUTSIDE_THRESHOLD above: below the model's own
# threshold, so a short paragraph of the article is not lost (same command).
INSIDE_THRESHOLD = 0.45
HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
# Words of a <p> between the content blocks of the container that is content at any probability
# (mostly not links, as Block.is_prose).  It guards the article's own paragraphs that a page's
# commerce makes the model doubt; shorter ones are a pitch's or a caption's as often (re-measure:
# python -m eval.classifier.modern --no-cv, and forest eval --split dev for the cold column).
PROSE_WORDS = 30
_PARAGRAPH = frozenset(("p",))


def article_container(tree: PageTree, content: np.ndarray) -> int:
    """Index (in ``tree.elements``) of the deepest element holding more than half of the words of the
    ``content`` blocks; 0 (the body) when no block is content."""
    # In C (forest.classifier._features): bincount's and subtree_sums' numpy calls cost more than the sums on a page.
    return int(article_container_of(_flags(content), tree.owner, tree.block_counts()[1], tree.last, tree.depth))


def confine(
    tree: PageTree, probability: np.ndarray, content: np.ndarray, *, outside: float = OUTSIDE_THRESHOLD,
    inside: float = INSIDE_THRESHOLD,
) -> np.ndarray:
    """``content`` (the threshold's labels) held to the article's container: a block outside it stays content
    only at a probability of at least ``outside`` or as a heading before it; one inside it is content from ``inside`` on."""
    probability = np.asarray(probability)
    if probability.dtype.kind == "f" and probability.dtype != np.float64:
        # numpy compares a float32 (or float16) array with a threshold cast to its dtype: so are they here.
        outside, inside = float(probability.dtype.type(outside)), float(probability.dtype.type(inside))
    # In C (forest.classifier._features.confined): the numpy calls' fixed costs were most of a small page's.
    # Its reference, the numpy code it replaced, is reference_confine in tests/unit/test_native_container.py.
    labels: np.ndarray = confined(np.ascontiguousarray(probability, dtype=np.float64), _flags(content), tree.owner,
                                  tree.block_counts()[1], tree.last, tree.depth, tree.tags, HEADINGS, outside, inside)  # fmt: skip
    return labels


def confine_with_paragraphs(
    tree: PageTree, probability: np.ndarray, content: np.ndarray, hidden: np.ndarray, *, outside: float = OUTSIDE_THRESHOLD,
    inside: float = INSIDE_THRESHOLD,
) -> np.ndarray:
    """``confine(tree, probability, content) | (long_paragraphs(tree, content) & ~hidden)`` (``hidden``: per
    block), in one C pass that finds the container once (forest.classifier._features.confined_paragraphs):
    the two calls found it twice and spent a dozen numpy calls on a page's few hundred blocks."""
    probability = np.asarray(probability)
    if probability.dtype.kind == "f" and probability.dtype != np.float64:
        # As confine: a float32 array is compared with a threshold cast to its dtype.
        outside, inside = float(probability.dtype.type(outside)), float(probability.dtype.type(inside))
    # Its reference is the two functions above and below, in tests/unit/test_native_container.py.
    labels: np.ndarray = confined_paragraphs(
        np.ascontiguousarray(probability, dtype=np.float64), _flags(content), tree.owner, tree.block_counts(), tree.last,
        tree.depth, tree.tags, HEADINGS, outside, inside, _PARAGRAPH, PROSE_WORDS, MAX_LINK_SHARE, _flags(hidden),
    )
    return labels


def long_paragraphs(tree: PageTree, content: np.ndarray) -> np.ndarray:
    """The blocks that are a ``<p>`` of at least PROSE_WORDS words, mostly not links, between the first and
    the last content block (of the labels ``content``) inside the article's container: content at any
    probability.  None when the container is the body."""
    top = article_container(tree, content)
    if not top:  # the body vouches for nothing
        return np.zeros(len(tree.blocks), dtype=bool)
    counts = tree.block_counts()
    paragraphs = np.zeros(len(tree.tags), dtype=bool)
    paragraphs[tagged(tree.tags, _PARAGRAPH)] = True
    owner = tree.owner
    within = (owner >= top) & (owner <= tree.last[top])
    # Between the container's first and last content block: a bio, a pitch or a company's profile
    # after the article, or a promotion before it, is as long as the article's paragraphs.
    held = np.flatnonzero(within & np.asarray(content, dtype=bool))
    between = np.zeros(len(owner), dtype=bool)
    between[held[0] : held[-1] + 1] = True
    found: np.ndarray = (counts[1] >= PROSE_WORDS) & (counts[2] <= MAX_LINK_SHARE * counts[0]) & paragraphs[owner] & within & between
    return found


def _flags(content: np.ndarray) -> np.ndarray:
    # The labels as the bytes the C reads (a bool array's, viewed).
    return np.ascontiguousarray(content, dtype=bool).view(np.uint8)
