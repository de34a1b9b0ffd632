"""The article's container and the labels held to it in C (forest.classifier._features.confined,
confined_paragraphs and article_container_of) against their reference, the numpy code they replaced.

``reference_article_container`` and ``reference_confine`` below are how forest.classifier.container
computed them before they were native; the labels with the long paragraphs in one pass
(``confine_with_paragraphs``) must equal ``confine | long_paragraphs & ~hidden``, the two calls it replaced
(long_paragraphs' numpy is its reference).  The native labels must equal them on every block: on hand-made
pages (headings before the container, content only outside it, no content), on random labels and
probabilities over those pages (hypothesis: probabilities at the thresholds, float32 ones), and with
the shipped model's probabilities on a fixed sample of every shared dataset's pages (``-m bench``: all).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_pages import bodies, body_of, dataset_pages, skip_without_datasets
from forest.classifier._features import article_container_of, confined, confined_paragraphs
from forest.classifier.blocks import PageTree, unshown, walk
from forest.classifier.container import (
    HEADINGS, INSIDE_THRESHOLD, OUTSIDE_THRESHOLD, PROSE_WORDS, article_container, confine, confine_with_paragraphs,
    long_paragraphs,
)
from forest.classifier.page import load_default

# --- The reference: the numpy code ----------------------------------------------------------------


def reference_article_container(tree: PageTree, content: np.ndarray) -> int:
    """forest.classifier.container.article_container as it was before it was native."""
    content = np.asarray(content, dtype=bool)
    words = tree.block_counts()[1]
    own = np.bincount(tree.owner[content], weights=words[content], minlength=len(tree.parent)).astype(np.int64)
    held = tree.subtree_sums(own)
    majority = np.flatnonzero(2 * held > own.sum())
    if not len(majority):
        return 0
    return int(majority[np.argmax(tree.depth[majority])])


def reference_confine(tree: PageTree, probability: np.ndarray, content: np.ndarray, *, outside: float = OUTSIDE_THRESHOLD,
                      inside: float = INSIDE_THRESHOLD) -> np.ndarray:  # fmt: skip
    """forest.classifier.container.confine as it was before it was native."""
    content = np.asarray(content, dtype=bool)
    if not content.any():
        return content
    probability = np.asarray(probability)
    top = reference_article_container(tree, content)
    owner = tree.owner
    within = (owner >= top) & (owner <= tree.last[top])
    keep = probability >= outside
    first = int(np.argmax(within & content))
    keep[:first] |= np.fromiter((tree.tags[o] in HEADINGS for o in owner[:first].tolist()), dtype=bool, count=first)
    result: np.ndarray = np.where(within, content | (probability >= inside), content & keep)
    return result


def assert_same(tree: PageTree, p: np.ndarray, content: np.ndarray, hidden: np.ndarray | None = None, **thresholds: float) -> None:
    native = confine(tree, p, content, **thresholds)
    assert native.dtype == bool
    assert native.tolist() == reference_confine(tree, p, content, **thresholds).tolist()
    assert article_container(tree, content) == reference_article_container(tree, content)
    for shown in (np.zeros(len(tree.blocks), dtype=bool), np.arange(len(tree.blocks)) % 3 == 1) if hidden is None else (hidden,):
        both = confine_with_paragraphs(tree, p, content, shown, **thresholds)
        assert both.dtype == bool
        assert both.tolist() == (native | (long_paragraphs(tree, content) & ~shown)).tolist()


# --- Hand-made pages ------------------------------------------------------------------------------

PAGES = [
    # A headline in a header before the article's body, a sidebar after it.
    "<html><body><header><h1>The headline of it</h1><p>By someone</p></header><div class='body'><p>"
    + "word " * 40 + "</p><p>" + "more words " * 20 + "</p><h2>A part</h2><p>" + "x " * 30 + "</p></div>"
    "<aside><h3>Related</h3><ul><li>one link</li><li>two links</li></ul></aside><footer>(c) 2026</footer></body></html>",
    # Loose text and nested containers of equal word counts.
    "<html><body>loose text<div><div><p>a b c</p></div><div><p>d e f</p></div></div><h4>tail</h4>after</body></html>",
    # One block.
    "<html><body><p>only this</p></body></html>",
    # Headings everywhere, tables.
    "<html><body><h1>x</h1><h2>y</h2><table><tr><td>" + "cell " * 12 + "</td><td><h3>z</h3></td></tr></table><h5>w</h5>"
    "<div><p>" + "p " * 25 + "</p></div><h6>v</h6></body></html>",
    # Long paragraphs inside the container, before, between and after its content, one mostly links.
    "<html><body><p>" + "pitch " * 35 + "</p><div class='post'><p>" + "one " * 35 + "</p><p>short one</p><p>"
    + "two " * PROSE_WORDS + "</p><p>" + "<a href='/x'>link words</a> " * 20 + "</p><li>" + "item " * 40 + "</li><p>"
    + "three " * 31 + "</p><p>" + "bio " * 45 + "</p></div><p>" + "after " * 50 + "</p></body></html>",
]
TREES = [walk(body_of(page)) for page in PAGES]


@pytest.mark.parametrize("tree", TREES, ids=range(len(TREES)))
def test_hand_made_pages_give_the_references_labels(tree: PageTree) -> None:
    n = len(tree.blocks)
    for p in (np.linspace(0, 1, n), np.linspace(1, 0, n), np.full(n, 0.5), np.full(n, OUTSIDE_THRESHOLD)):
        for content in (p >= 0.55, p >= 0.0, p > 2.0, np.arange(n) % 2 == 0, np.arange(n) == n - 1):
            assert_same(tree, p, content)
            assert_same(tree, p, content, outside=0.6, inside=0.55)


# The thresholds themselves, their float32 neighbours, 0 and 1.
_P = st.sampled_from([0.0, 1.0, 0.5, 0.55, OUTSIDE_THRESHOLD, INSIDE_THRESHOLD, float(np.float32(INSIDE_THRESHOLD)),
                      float(np.nextafter(np.float32(INSIDE_THRESHOLD), np.float32(1))), 0.3, 0.9]) | st.floats(0, 1)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(TREES))), st.data(), st.booleans())
def test_random_labels_and_probabilities_give_the_references_labels(which: int, data: st.DataObject, single: bool) -> None:
    tree = TREES[which]
    n = len(tree.blocks)
    p = np.array(data.draw(st.lists(_P, min_size=n, max_size=n)), dtype=np.float32 if single else np.float64)
    content = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    hidden = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    assert_same(tree, p, content, hidden)


def test_bad_arrays_are_refused_not_read_out_of_bounds() -> None:
    tree = TREES[0]
    n = len(tree.blocks)
    flags = np.ones(n, dtype=np.uint8)
    words, last, depth, owner = tree.block_counts()[1], tree.last, tree.depth, tree.owner
    with pytest.raises(ValueError, match="differ in length"):
        article_container_of(flags[:-1], owner, words, last, depth)
    with pytest.raises(IndexError, match="owner is out of range"):
        article_container_of(flags, np.full(n, len(last), dtype=np.int64), words, last, depth)
    with pytest.raises(IndexError, match="subtree end is out of range"):
        confined(np.zeros(n), flags, owner, words, np.zeros_like(last) - 1, depth, tree.tags, HEADINGS, 0.75, 0.45)
    with pytest.raises(ValueError, match="differ in length"):
        confined(np.zeros(n), flags, owner, words, last, depth, tree.tags[:-1], HEADINGS, 0.75, 0.45)
    # Both check the owners and the subtree ends alike (one helper).
    with pytest.raises(IndexError, match="owner is out of range"):
        confined(np.zeros(n), flags, np.full(n, -1, dtype=np.int64), words, last, depth, tree.tags, HEADINGS, 0.75, 0.45)
    with pytest.raises(IndexError, match="subtree end is out of range"):
        article_container_of(flags, owner, words, np.full_like(last, len(last)), depth)
    counts = tree.block_counts()
    paragraphs = frozenset(("p",))
    short = np.ascontiguousarray(counts[:, :-1])
    with pytest.raises(ValueError, match="differ in length"):
        confined_paragraphs(np.zeros(n), flags, owner, short, last, depth, tree.tags, HEADINGS, 0.75, 0.45, paragraphs, 30, 0.7, flags)
    with pytest.raises(ValueError, match="differ in length"):
        confined_paragraphs(np.zeros(n), flags, owner, counts, last, depth, tree.tags, HEADINGS, 0.75, 0.45, paragraphs, 30, 0.7,
                            flags[:-1])  # fmt: skip
    with pytest.raises(IndexError, match="owner is out of range"):
        confined_paragraphs(np.zeros(n), flags, np.full(n, -1, dtype=np.int64), counts, last, depth, tree.tags, HEADINGS, 0.75, 0.45,
                            paragraphs, 30, 0.7, flags)  # fmt: skip


# --- The shared datasets' pages -------------------------------------------------------------------


def _check_pages(every: bool) -> int:
    model = load_default()
    checked = 0
    for pages in dataset_pages(every).values():
        for body in bodies(pages):
            tree = walk(body, proxies=False)
            if not tree.blocks:
                continue
            p = np.array([x.probability for x in model.predict_blocks(body.getparent(), confined=False)])
            hidden = unshown(tree)[tree.owner]
            assert_same(tree, p, p >= model.threshold, hidden)
            checked += 1
    return checked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_gives_the_references_labels() -> None:
    skip_without_datasets()
    assert _check_pages(every=False) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_gives_the_references_labels() -> None:
    skip_without_datasets()
    assert _check_pages(every=True) > 0
