"""What the classifier gives probability 0 (forest.classifier.blocks.unshown) against its reference,
the two masks it replaced: ``invisible(tree) | not_article(tree)``, with not_article's tags found by
``list.index`` as before they were found in C (forest.classifier._features.tagged).

On hand-made pages (hidden elements inside landmarks, roles, nested footers) and on a fixed
sample of every shared dataset's pages (``-m bench``: all of them).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dataset_pages import bodies, body_of, dataset_pages, skip_without_datasets
from forest.classifier._features import subtrees, tagged
from forest.classifier.blocks import (
    MAX_HIDDEN_SHARE, NOT_ARTICLE_ROLES, NOT_ARTICLE_TAGS, NOT_RENDERED, PageTree, _within, unshown, walk,
)


def reference_invisible(tree: PageTree) -> np.ndarray:
    attributes = tree.marked_attributes()
    hidden = [i for i in tree.marked() if "hidden" in attributes[i] or NOT_RENDERED.search(attributes[i].get("style") or "")]
    # An element hiding most of the body's words is the page, which its scripts show.
    total = int(tree.own_words.sum())
    hidden = [i for i in hidden if int(tree.own_words[i:tree.last[i] + 1].sum()) <= MAX_HIDDEN_SHARE * total
              or attributes[i].get("role") in ("dialog", "alertdialog")]
    return _within(tree, np.asarray(hidden, dtype=np.int64))


def reference_not_article(tree: PageTree) -> np.ndarray:
    starts = np.zeros(len(tree), dtype=bool)
    for tag in NOT_ARTICLE_TAGS:
        at = -1
        try:
            while True:
                at = tree.tags.index(tag, at + 1)
                starts[at] = True
        except ValueError:
            pass
    attributes = tree.marked_attributes()
    for i in tree.marked():
        starts[i] |= attributes[i].get("role") in NOT_ARTICLE_ROLES
    return _within(tree, np.flatnonzero(starts))


def assert_same(tree: PageTree) -> None:
    hidden = reference_invisible(tree)
    assert unshown(tree, landmarks=False).tolist() == hidden.tolist()
    assert unshown(tree).tolist() == (hidden | reference_not_article(tree)).tolist()


PAGES = [
    "<html><body><nav><p>menu</p></nav><div style='display: none'><p>gone</p><footer>f</footer></div>"
    "<div role='navigation'><p>links</p></div><figure><img><figcaption>cap</figcaption></figure>"
    "<p hidden>h</p><div role='contentinfo' style='visibility:hidden'><span>c</span></div><p>kept</p>"
    "<footer><footer><p>inner</p></footer></footer><div role='main'><p>main</p></div></body></html>",
    "<html><body><p>nothing hidden</p></body></html>",
    "<html><body><div style='DISPLAY : NONE'><nav>n</nav></div><div style='color: red'>red</div></body></html>",
    # A page its scripts show: the hidden wrapper holds most of its words (a shop's lock-down app).
    "<html><body><p>Menu</p><div style='display:none'><h1>Death Wish Coffee</h1><p>Dark roast, whole bean or ground,"
    " a bold cup.</p><div hidden><p>Added to your cart</p></div></div></body></html>",
    # A "republish this story" dialog that copies the article: hidden until asked for.
    "<html><body><p>Republish</p><div role='dialog' style='display:none'><p>Gardening shows to watch this"
    " autumn, from the allotment to the greenhouse.</p></div></body></html>",
]


@pytest.mark.parametrize("page", PAGES, ids=range(len(PAGES)))
def test_hand_made_pages_hide_what_the_reference_hides(page: str) -> None:
    assert_same(walk(body_of(page)))


def test_a_hidden_element_holding_most_of_the_page_is_shown_and_what_it_hides_is_not() -> None:
    tree = walk(body_of(PAGES[-2]))
    hidden = unshown(tree)[tree.owner]
    assert [b.text for b, h in zip(tree.blocks, hidden) if h] == ["Added to your cart"]


def test_a_hidden_dialog_stays_hidden_whatever_it_holds() -> None:
    tree = walk(body_of(PAGES[-1]))
    assert [b.text for b, h in zip(tree.blocks, unshown(tree)[tree.owner]) if not h] == ["Republish"]


_TAGS = ["p", "div", "nav", "footer", "figcaption", "a", "navigation", "Footer", "nav "]


@given(st.lists(st.sampled_from(_TAGS) | st.text(max_size=3), max_size=40))
def test_tagged_finds_the_tags_a_set_lookup_finds(tags: list[str]) -> None:
    assert tagged(tags, NOT_ARTICLE_TAGS).tolist() == [i for i, tag in enumerate(tags) if tag in NOT_ARTICLE_TAGS]


@given(st.sampled_from(range(len(PAGES))), st.data(), st.booleans())
def test_subtrees_are_within_s_subtrees_of_the_same_roots(which: int, data: st.DataObject, landmarks: bool) -> None:
    # unshown's one pass in C against _within (numpy) of the tagged elements and the roots together.
    tree = walk(body_of(PAGES[which]))
    roots = data.draw(st.lists(st.integers(0, len(tree) - 1), max_size=6))
    names = NOT_ARTICLE_TAGS if landmarks else frozenset()
    native = subtrees(tree.tags, names, np.asarray(roots, dtype=np.int64), tree.last)
    assert native.dtype == bool
    both = np.concatenate([np.asarray(roots, dtype=np.int64), tagged(tree.tags, names)])
    assert native.tolist() == _within(tree, both).tolist()


def test_subtrees_refuses_bad_arrays() -> None:
    tree = walk(body_of(PAGES[0]))
    none = np.zeros(0, dtype=np.int64)
    with pytest.raises(ValueError, match="differ in length"):
        subtrees(tree.tags[:-1], NOT_ARTICLE_TAGS, none, tree.last)
    with pytest.raises(IndexError, match="root is out of range"):
        subtrees(tree.tags, NOT_ARTICLE_TAGS, np.asarray([len(tree)], dtype=np.int64), tree.last)
    with pytest.raises(IndexError, match="subtree end is out of range"):
        subtrees(tree.tags, NOT_ARTICLE_TAGS, none, tree.last - 1)


def _check_pages(every: bool) -> int:
    checked = 0
    for pages in dataset_pages(every).values():
        for body in bodies(pages):
            assert_same(walk(body, proxies=False))
            checked += 1
    return checked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_hides_what_the_reference_hides() -> None:
    skip_without_datasets()
    assert _check_pages(every=False) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_hides_what_the_reference_hides() -> None:
    skip_without_datasets()
    assert _check_pages(every=True) > 0
