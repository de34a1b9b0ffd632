"""One walk over a page body: its elements in document order and its text blocks, each with the element it comes from."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

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

    elements: list[etree._Element]
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
    _marked: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.elements)

    def attributes(self) -> list[dict[str, str]]:
        """Each element's attributes, read from lxml on the first call only: the features and
        :func:`invisible` ask for several attributes of every element, and one ``items()``
        per element costs less than a few ``get()``."""
        if self._attributes is None:
            self._attributes = list(map(dict, map(etree._Element.items, self.elements)))
        return self._attributes

    def marked(self) -> list[int]:
        """Indices of the elements with any of the MARKING attributes, in document order (found on the first call only)."""
        if self._marked is None:
            # isdisjoint through map(): the test runs in C for every element, Python sees the few hits.
            lacking = np.fromiter(map(MARKING.isdisjoint, self.attributes()), dtype=bool, count=len(self))
            self._marked = np.flatnonzero(~lacking).tolist()
        return self._marked

    def subtree_sums(self, own: np.ndarray) -> np.ndarray:
        """Per-element totals of ``own`` (one value or row per element) over each element's subtree."""
        own = np.asarray(own)
        if np.issubdtype(own.dtype, np.integer):
            # Counts: a subtree is a stretch of the document order, so its total is a difference
            # of running sums; in integers exact, hence equal to the level by level sums below.
            running = np.concatenate([np.zeros((1, *own.shape[1:]), dtype=np.int64), np.cumsum(own, axis=0, dtype=np.int64)])
            return (running[self.last + 1] - running[: len(own)]).astype(np.float64)
        sums = np.array(own, dtype=np.float64, copy=True)
        parent, depth = self.parent, self.depth
        # Deepest level first, so each level's totals are complete before they move up.
        for level in range(int(depth.max(initial=0)), 0, -1):
            rows = np.flatnonzero(depth == level)
            np.add.at(sums, parent[rows], sums[rows])
        return sums

    def subtree_end(self) -> np.ndarray:
        """The index of the last element of each element's subtree (its subtree is ``[i, end[i]]``)."""
        return self.last.copy()


def walk(body: etree._Element, *, keep_pieces: bool = False) -> PageTree:
    """Walk ``body`` once, as :func:`patterns.text.text_blocks` does, recording elements and blocks.

    :param keep_pieces: also keep every text run with its element and block (for labels).
    """
    # lxml lists the elements and their strings in C; the walk's order of events is then
    # rebuilt with numpy, which is 2-3x faster than reacting to each event of an iterwalk
    # in Python.  Like iterwalk, iter(Element) never shows comments, nor so their tails.
    elements = list(body.iter(etree.Element))
    n = len(elements)
    tags = [e.tag for e in elements]
    index = {e: i for i, e in enumerate(elements)}
    parent = np.asarray([index.get(e.getparent(), -1) for e in elements], dtype=np.int64)
    parent[0] = -1
    is_block = np.fromiter(map(BLOCK_TAGS.__contains__, tags), dtype=bool, count=n)
    is_link = np.fromiter(map("a".__eq__, tags), dtype=bool, count=n)
    depth, last, in_link, block_owner = _structure(parent, is_block, is_link)
    ev_element, ev_end = _events(depth, last)
    runs = _Runs.of(elements, ev_element, ev_end, parent, is_block)
    run_link = runs.chars * in_link[runs.element]
    own_words = np.zeros(len(runs.text), dtype=np.int64)
    # Most runs are only whitespace (indentation between tags): no words, no block text.
    real = runs.chars > 0
    words = map(len, map(str.split, itertools.compress(runs.text, real.tolist())))
    own_words[real] = np.fromiter(words, dtype=np.int64, count=int(real.sum()))

    # The owner of a group is the innermost block-level element open when its closing boundary
    # comes: the element itself at its end, its enclosing block (or the body) at its start.
    closing = np.flatnonzero(is_block[ev_element])
    closer = ev_element[closing]
    # After the last boundary, the final flush: the body's (index 0).
    group_owner = np.append(np.where(ev_end[closing], closer, block_owner[np.maximum(parent[closer], 0)]), 0)
    blocks, owner, block_of_group = _blocks(runs, run_link, group_owner)
    pieces: list[tuple[int, int, str]] = []
    if keep_pieces:
        pieces = [(e, block_of_group.get(g, -1), t) for e, g, t in zip(runs.element.tolist(), runs.group.tolist(), runs.text)]
    return PageTree(
        elements=elements,
        tags=tags,
        parent=parent,
        depth=depth,
        position=_positions(parent, n),
        n_children=np.bincount(parent[1:], minlength=n).astype(np.int64),
        own_chars=np.bincount(runs.element, weights=runs.chars, minlength=n).astype(np.int64),
        own_link_chars=np.bincount(runs.element, weights=run_link, minlength=n).astype(np.int64),
        own_words=np.bincount(runs.element, weights=own_words, minlength=n).astype(np.int64),
        blocks=blocks,
        owner=np.asarray(owner, dtype=np.int64),
        pieces=pieces,
        last=last,
    )


def _events(depth: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The walk's start and end events in document order: the element of each, and whether it ends.

    Element i starts (key i), then the elements whose subtree ends at i end, deepest first.
    """
    n = len(depth)
    element = np.arange(n)
    ev_element = np.concatenate([element, element])
    ev_end = np.repeat(np.array([False, True]), n)
    order = np.lexsort((np.concatenate([np.zeros(n, np.int64), -depth]), ev_end, np.concatenate([element, last])))
    return ev_element[order], ev_end[order]


@dataclass(frozen=True, slots=True)
class _Runs:
    """The non-empty text runs of a walk, in document order (an element's text follows its
    start event, its tail its end event)."""

    text: list[str]
    element: np.ndarray  # whose own text the run is: a tail is the parent's text
    group: np.ndarray  # block boundaries (block-level starts and ends) before the run
    chars: np.ndarray  # characters without the surrounding whitespace

    @staticmethod
    def of(elements: list[etree._Element], ev_element: np.ndarray, ev_end: np.ndarray, parent: np.ndarray, is_block: np.ndarray) -> _Runs:
        n = len(elements)
        strings: list[str | None] = [e.text for e in elements] + [e.tail for e in elements]
        strings[n] = None  # the body's tail is not its text
        string_of_event = ev_element + n * ev_end
        at = np.flatnonzero(np.fromiter(map(bool, strings), dtype=bool, count=2 * n)[string_of_event])
        text = [strings[k] for k in string_of_event[at].tolist()]
        element = np.where(ev_end[at], parent[ev_element[at]], ev_element[at])
        group = np.cumsum(is_block[ev_element])[at]
        chars = np.fromiter(map(len, map(str.strip, text)), dtype=np.int64, count=len(text))
        return _Runs(text, element, group, chars)


def _blocks(runs: _Runs, run_link: np.ndarray, group_owner: np.ndarray) -> tuple[list[Block], list[int], dict[int, int]]:
    """The blocks (the whitespace-normalized text of each group with any), their owners, and the block of each such group."""
    if not runs.text:
        return [], [], {}
    first = np.flatnonzero(np.diff(runs.group, prepend=-1))
    links = np.add.reduceat(run_link, first).tolist()
    # Only a group with a non-blank run has text: the others would normalize to nothing.
    with_text = np.flatnonzero(np.add.reduceat(runs.chars, first) > 0).tolist()
    groups = runs.group[first].tolist()
    bounds = np.append(first, len(runs.text)).tolist()
    owners = group_owner.tolist()
    blocks: list[Block] = []
    owner: list[int] = []
    block_of_group: dict[int, int] = {}
    for k in with_text:
        text = " ".join("".join(runs.text[bounds[k] : bounds[k + 1]]).split())
        block_of_group[groups[k]] = len(blocks)
        blocks.append(Block(text, min(links[k], len(text))))
        owner.append(owners[groups[k]])
    return blocks, owner, block_of_group


def _structure(parent: np.ndarray, is_block: np.ndarray, is_link: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per element: depth, last element of its subtree, whether it is inside an <a> (or one), and
    its innermost block-level ancestor-or-self (the body when none).

    By pointer jumping: each round doubles how far up every element looks, so a page of depth d
    takes log2(d) rounds of numpy instead of a Python step per element.
    """
    n = len(parent)
    up = np.maximum(parent, 0)
    # Depth: the distance to the body, summed over jumps of doubling length.
    depth = (parent >= 0).astype(np.int64)
    jump = up.copy()
    while jump.any():
        depth += depth[jump]
        jump = jump[jump]
    # A subtree ends just before the next sibling of its nearest ancestor-or-self that has one
    # (elements are in document order), or with the page.
    order = np.argsort(parent[1:], kind="stable") + 1
    following = np.full(n, n, dtype=np.int64)
    same = parent[order[1:]] == parent[order[:-1]]
    following[order[:-1][same]] = order[1:][same]
    has_next = following < n
    anchor = _nearest(up, has_next)
    last = np.where(has_next[anchor], following[anchor], n) - 1
    link = is_link[_nearest(up, is_link)]
    block = _nearest(up, is_block)
    return depth, last, link, block


def _nearest(up: np.ndarray, marked: np.ndarray) -> np.ndarray:
    # The nearest ancestor-or-self of each element that is ``marked``, else the body (0).
    target = np.where(marked, np.arange(len(up)), up)
    target[0] = 0
    while True:
        further = target[target]
        if np.array_equal(further, target):
            return target
        target = further


# Inline styles that keep an element from being rendered at all.
NOT_RENDERED = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def invisible(tree: PageTree) -> np.ndarray:
    """Elements a browser does not render: with the ``hidden`` attribute or an inline
    ``display: none`` / ``visibility: hidden`` style, or inside one.

    ``aria-hidden`` is not enough: it hides from screen readers, not from the eye.
    """
    attributes = tree.attributes()
    hidden = [i for i in tree.marked() if "hidden" in attributes[i] or NOT_RENDERED.search(attributes[i].get("style") or "")]
    return _within(tree, np.asarray(hidden, dtype=np.int64))


# Parts of a page that are never its article's text: a figure's legend (it describes a photo
# the article refers to), a footer (a section's byline, tags and share links, or the site's
# copyright) and navigation, by their HTML5 element or ARIA role.
NOT_ARTICLE_TAGS = frozenset(("figcaption", "footer", "nav"))
NOT_ARTICLE_ROLES = frozenset(("contentinfo", "navigation"))


def not_article(tree: PageTree) -> np.ndarray:
    """Elements that are, or lie inside, a ``<figcaption>``, a ``<footer>`` or a ``<nav>``, or an
    element whose ``role`` is ``contentinfo`` or ``navigation``."""
    n = len(tree)
    starts = np.fromiter(map(NOT_ARTICLE_TAGS.__contains__, tree.tags), dtype=bool, count=n)
    attributes = tree.attributes()
    for i in tree.marked():  # the few elements with a role
        starts[i] |= attributes[i].get("role") in NOT_ARTICLE_ROLES
    return _within(tree, np.flatnonzero(starts))


def _within(tree: PageTree, roots: np.ndarray) -> np.ndarray:
    """Elements that are one of ``roots`` (element indices) or inside one."""
    n = len(tree)
    # A subtree is a stretch of the document order: count the roots open at each element.
    inside = np.zeros(n + 1, dtype=np.int64)
    np.add.at(inside, roots, 1)
    np.add.at(inside, tree.last[roots] + 1, -1)
    return np.cumsum(inside[:n]) > 0


def _positions(parent: np.ndarray, n: int) -> np.ndarray:
    # Elements come in document order, so siblings appear in order: a stable sort by parent
    # lines each family up, and an element's position is its offset from its family's first.
    position = np.zeros(n, dtype=np.int64)
    order = np.argsort(parent[1:], kind="stable")
    grouped = parent[1:][order]
    position[1 + order] = np.arange(n - 1) - np.searchsorted(grouped, grouped, side="left")
    return position
