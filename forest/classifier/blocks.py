"""One walk over a page body: its elements in document order and its text blocks, each with the element it comes from."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from forest.classifier._features import block_counts, subtrees, tagged
from forest.classifier._walk import Nodes, attributes_of, flatten, read_names
from patterns.text import BLOCK_TAGS, Block


# Attributes that name an element's part (itemprop, role) or hide it: few elements carry
# any, and the features and invisible() read them only on those (PageTree.marked).
MARKING = frozenset(("itemprop", "role", "hidden", "aria-hidden", "style"))


@dataclass(slots=True)
class PageTree:
    """A page body flattened for feature extraction.

    Element ``i`` is the i-th element of the body in document (depth-first) order, so
    ``elements[0]`` is the body.  ``blocks`` are exactly :func:`patterns.text.text_blocks`
    of the body; ``owner[j]`` is the index of the innermost block-level element that was
    open when block ``j`` was closed (the ``<p>`` of a paragraph, the ``<div>`` of loose text).
    """

    elements: Sequence[etree._Element]  # a list, or made on access (walk's ``proxies``)
    tags: list[str]
    parent: np.ndarray  # index of the parent element, -1 for the body
    depth: np.ndarray  # 0 for the body
    position: np.ndarray  # index among the parent's element children
    n_children: np.ndarray  # element children
    own_chars: np.ndarray  # characters of the element's own text (its text and its children's tails)
    own_link_chars: np.ndarray  # of which inside an <a>
    own_words: np.ndarray
    last: np.ndarray  # the last element of each element's subtree: the subtree of i is [i, last[i]]
    blocks: list[Block]
    owner: np.ndarray
    # (element, block or -1, text) for every text run, kept only for labelling.
    pieces: list[tuple[int, int, str]] = field(default_factory=list)
    _attributes: list[dict[str, str]] | None = field(default=None, init=False, repr=False, compare=False)
    # class and id of every element, the marked elements and their attributes (read_names).
    _names: tuple[list[str], list[str], list[int], dict[int, dict[str, str]]] | None = field(default=None, init=False, repr=False, compare=False)
    # The marked elements and their attributes alone (the features read class and id in C).
    _marked: tuple[list[int], dict[int, dict[str, str]]] | None = field(default=None, init=False, repr=False, compare=False)
    _block_counts: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    # The blocks' texts, where the walk listed them (block_texts).
    _texts: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.elements)

    def attributes(self) -> list[dict[str, str]]:
        """Each element's attributes, read on the first call only: the features and
        :func:`invisible` ask for several attributes of every element, and one read of all
        per element costs less than a few ``get()``."""
        if self._attributes is None:
            # Read from libxml2's nodes in C.
            elements = self.elements
            self._attributes = elements.attributes() if isinstance(elements, Nodes) else attributes_of(list(elements))
        return self._attributes

    def _read_names(self) -> tuple[list[str], list[str], list[int], dict[int, dict[str, str]]]:
        if self._names is None:
            # One pass in C over every element's attributes; dicts only for the few marked elements.
            elements = self.elements
            self._names = read_names(elements if isinstance(elements, Nodes) else list(elements), MARKING)
        return self._names

    def class_and_id(self) -> tuple[list[str], list[str]]:
        """Each element's ``class`` and ``id`` attributes (``""`` for none), read on the first call only."""
        classes, ids, _, _ = self._read_names()
        return classes, ids

    def _read_marked(self) -> tuple[list[int], dict[int, dict[str, str]]]:
        if self._marked is None:
            if self._names is not None:
                self._marked = self._names[2], self._names[3]
            else:
                # Without making a str of every class and id: the features read those in C.
                elements = self.elements
                _, _, marked, attributes = read_names(elements if isinstance(elements, Nodes) else list(elements), MARKING, False)
                self._marked = marked, attributes
        return self._marked

    def marked(self) -> list[int]:
        """Indices of the elements with any of the MARKING attributes, in document order (found on the first call only)."""
        return self._read_marked()[0]

    def marked_attributes(self) -> dict[int, dict[str, str]]:
        """The attributes of each element of :meth:`marked`, by its index."""
        return self._read_marked()[1]

    def block_counts(self) -> np.ndarray:
        """Per block (columns): its characters, words (``Block.words``) and link characters, int64
        rows of 3, counted in C on the first call only (the features and the container read them)."""
        if self._block_counts is None:
            self._block_counts = block_counts(self.blocks)
        return self._block_counts

    def block_texts(self) -> list[str]:
        """Each block's text (``Block.text``), in a list: the walk's, where it listed them as it wrote them."""
        if self._texts is None:
            self._texts = [b.text for b in self.blocks]
        return self._texts

    def subtree_sums(self, own: np.ndarray) -> np.ndarray:
        """Per-element totals of ``own`` (one value or row per element) over each element's subtree."""
        own = np.asarray(own)
        if np.issubdtype(own.dtype, np.integer):
            # Counts: a subtree is a stretch of the document order, so its total is a difference
            # of running sums; in integers exact, hence equal to the level by level sums below.
            running = np.concatenate([np.zeros((1, *own.shape[1:]), dtype=np.int64), np.cumsum(own, axis=0, dtype=np.int64)])
            totals: np.ndarray = (running[self.last + 1] - running[: len(own)]).astype(np.float64)
            return totals
        sums = np.array(own, dtype=np.float64, copy=True)
        parent, depth = self.parent, self.depth
        # Deepest level first, so each level's totals are complete before they move up.
        for level in range(int(depth.max(initial=0)), 0, -1):
            rows = np.flatnonzero(depth == level)
            np.add.at(sums, parent[rows], sums[rows])
        return sums

    def subtree_end(self) -> np.ndarray:
        """The index of the last element of each element's subtree (its subtree is ``[i, end[i]]``)."""
        end: np.ndarray = self.last.copy()
        return end


def walk(body: etree._Element, *, keep_pieces: bool = False, proxies: bool = True) -> PageTree:
    """Walk ``body`` once, as :func:`patterns.text.text_blocks` does, recording elements and blocks.

    The walk runs in C over libxml2's nodes (``forest.classifier._walk``); its reference in
    Python is ``reference_walk`` in tests/unit/test_native_walk.py, which it equals on every
    array and block.

    :param keep_pieces: also keep every text run with its element and block (for labels).
    :param proxies: make every element's lxml proxy now (``elements`` is then a list).  Without,
        ``elements`` makes each on access: cheaper when a caller needs a few, but valid only
        while the tree is unchanged (an element cut from it may be freed with its subtree).
    """
    elements, tags, parent, depth, position, n_children, own_chars, own_link_chars, own_words, last, blocks, owner, pieces, counts, texts = (
        # Without proxies, the walk reads the attributes the features ask for as it goes (Nodes); it
        # counts each block's characters, words and links as it writes its text (block_counts).
        flatten(body, BLOCK_TAGS, Block, keep_pieces, proxies, MARKING, True)
    )
    tree = PageTree(
        elements=elements,
        tags=tags,
        parent=parent,
        depth=depth,
        position=position,
        n_children=n_children,
        own_chars=own_chars,
        own_link_chars=own_link_chars,
        own_words=own_words,
        last=last,
        blocks=blocks,
        owner=owner,
        pieces=pieces,
    )
    tree._block_counts = counts
    tree._texts = texts
    return tree


# Inline styles that keep an element from being rendered at all.
NOT_RENDERED = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def invisible(tree: PageTree) -> np.ndarray:
    """Elements a browser does not render: with the ``hidden`` attribute or an inline
    ``display: none`` / ``visibility: hidden`` style, or inside one.

    ``aria-hidden`` is not enough: it hides from screen readers, not from the eye.
    """
    return _within(tree, np.asarray(_hidden_roots(tree), dtype=np.int64))


def _hidden_roots(tree: PageTree) -> list[int]:
    # The elements invisible() hides with their subtrees, in document order.
    attributes = tree.marked_attributes()
    hidden = [i for i in tree.marked() if "hidden" in attributes[i] or _not_rendered(attributes[i].get("style") or "")]
    return _shown_by_scripts(tree, hidden)


# An element hidden with more than this share of the body's words is the page itself, which its
# scripts show once they run (a shop's lock-down app wraps the whole product page in a
# ``display:none`` div; React streams a page into ``<div hidden id="S:0">``): its text is no
# hidden template's.  A popup, a menu or a copy of the headline holds far less.  A dialog stays
# hidden whatever it holds: a "republish this story" box copies the whole article into one.
# Re-measure: `python -m eval.classifier.modern`.
MAX_HIDDEN_SHARE = 0.5
DIALOG_ROLES = frozenset(("dialog", "alertdialog"))


def _shown_by_scripts(tree: PageTree, hidden: list[int]) -> list[int]:
    """``hidden`` (elements) without those that hold more than MAX_HIDDEN_SHARE of the body's words
    and are no dialog."""
    if not hidden:
        return hidden
    words = np.cumsum(tree.own_words)
    most = MAX_HIDDEN_SHARE * words[-1]
    attributes = tree.marked_attributes()
    # The words of element i's subtree [i, last[i]], from the running sum.
    return [i for i in hidden if words[tree.last[i]] - (words[i - 1] if i else 0) <= most
            or attributes[i].get("role") in DIALOG_ROLES]


@functools.lru_cache(maxsize=1 << 12)
def _not_rendered(style: str) -> bool:
    # A page repeats its inline styles ("display:none" on every hidden item): each is searched once.
    return NOT_RENDERED.search(style) is not None


# Parts of a page that are never its article's text: a figure's legend (it describes a photo
# the article refers to), a footer (a section's byline, tags and share links, or the site's
# copyright) and navigation, by their HTML5 element or ARIA role.
NOT_ARTICLE_TAGS = frozenset(("figcaption", "footer", "nav"))
NOT_ARTICLE_ROLES = frozenset(("contentinfo", "navigation"))
_NO_TAGS: frozenset[str] = frozenset()


def not_article(tree: PageTree) -> np.ndarray:
    """Elements that are, or lie inside, a ``<figcaption>``, a ``<footer>`` or a ``<nav>``, or an
    element whose ``role`` is ``contentinfo`` or ``navigation``."""
    return _within(tree, _not_article_roots(tree))


def unshown(tree: PageTree, *, landmarks: bool = True) -> np.ndarray:
    """:func:`invisible` elements, and with ``landmarks`` :func:`not_article` ones too: one count of
    their roots' subtrees (an element inside either's roots is inside their union's)."""
    # In C (forest.classifier._features.subtrees): the roots' union and _within's numpy calls cost a page
    # more than finding the few roots.  Its reference is invisible | not_article, in tests/unit/test_native_unshown.py.
    attributes = tree.marked_attributes()
    roles = [i for i in tree.marked() if landmarks and attributes[i].get("role") in NOT_ARTICLE_ROLES]
    roots = sorted({*_hidden_roots(tree), *roles})
    found: np.ndarray = subtrees(tree.tags, NOT_ARTICLE_TAGS if landmarks else _NO_TAGS, np.asarray(roots, dtype=np.int64), tree.last)
    return found


def _not_article_roots(tree: PageTree) -> np.ndarray:
    # The elements not_article() marks with their subtrees.
    attributes = tree.marked_attributes()
    # The tags' elements found by one set lookup per element in C; then the few elements with a role.
    roles = [i for i in tree.marked() if attributes[i].get("role") in NOT_ARTICLE_ROLES]
    found = tagged(tree.tags, NOT_ARTICLE_TAGS)
    return np.union1d(found, roles) if roles else found


def _within(tree: PageTree, roots: np.ndarray) -> np.ndarray:
    """Elements that are one of ``roots`` (element indices) or inside one."""
    n = len(tree)
    # A subtree is a stretch of the document order: count the roots open at each element.
    inside = np.bincount(roots, minlength=n + 1) - np.bincount(tree.last[roots] + 1, minlength=n + 1)
    return np.cumsum(inside[:n]) > 0

