"""One walk over a page body: its elements in document order and its text blocks, each with the element it comes from."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from patterns.text import BLOCK_TAGS, Block


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
    blocks: list[Block]
    owner: np.ndarray
    # (element, block or -1, text) for every text run, kept only for labelling.
    pieces: list[tuple[int, int, str]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.elements)

    def subtree_sums(self, own: np.ndarray) -> np.ndarray:
        """Per-element totals of ``own`` (one value or row per element) over each element's subtree."""
        sums = np.array(own, dtype=np.float64, copy=True)
        parent, depth = self.parent, self.depth
        # Deepest level first, so each level's totals are complete before they move up.
        for level in range(int(depth.max(initial=0)), 0, -1):
            rows = np.flatnonzero(depth == level)
            np.add.at(sums, parent[rows], sums[rows])
        return sums

    def subtree_end(self) -> np.ndarray:
        """The index of the last element of each element's subtree (its subtree is ``[i, end[i]]``)."""
        end = np.arange(len(self.elements))
        parent = self.parent
        for i in range(len(end) - 1, 0, -1):
            if end[i] > end[parent[i]]:
                end[parent[i]] = end[i]
        return end


def walk(body: etree._Element, *, keep_pieces: bool = False) -> PageTree:
    """Walk ``body`` once, as :func:`patterns.text.text_blocks` does, recording elements and blocks.

    :param keep_pieces: also keep every text run with its element and block (for labels).
    """
    elements: list[etree._Element] = []
    tags: list[str] = []
    parent: list[int] = []
    depth: list[int] = []
    n_children: list[int] = []
    own_chars: list[int] = []
    own_link: list[int] = []
    own_words: list[int] = []
    blocks: list[Block] = []
    owner: list[int] = []
    pieces: list[tuple[int, int, str]] = []
    run_start = 0  # first piece of the current (unflushed) run

    parts: list[str] = []
    link_chars = 0
    links = 0  # <a> elements open around the current position
    open_elements: list[int] = []  # indices of the elements open around the current position
    owners: list[int] = [0]  # the block-level elements among them

    def flush() -> None:
        nonlocal link_chars, run_start
        if parts:
            text = " ".join("".join(parts).split())
            if text:
                if keep_pieces:
                    for k in range(run_start, len(pieces)):
                        e, _, t = pieces[k]
                        pieces[k] = (e, len(blocks), t)
                blocks.append(Block(text, min(link_chars, len(text))))
                owner.append(owners[-1])
            parts.clear()
            link_chars = 0
        run_start = len(pieces)

    def add(text: str, element: int) -> None:
        nonlocal link_chars
        parts.append(text)
        stripped = len(text.strip())
        own_chars[element] += stripped
        own_words[element] += len(text.split())
        if links:
            link_chars += stripped
            own_link[element] += stripped
        if keep_pieces:
            pieces.append((element, -1, text))

    # lxml's C-level walk: faster than any stack in Python, and it never recurses.
    for event, node in etree.iterwalk(body, events=("start", "end")):
        tag = node.tag
        if not isinstance(tag, str):
            # Comments and processing instructions (parse_html removes them): only their tail is text.
            if event == "end" and node.tail and open_elements:
                add(node.tail, open_elements[-1])
            continue
        if event == "start":
            index = len(elements)
            up = open_elements[-1] if open_elements else -1
            elements.append(node)
            tags.append(tag)
            parent.append(up)
            depth.append(depth[up] + 1 if up >= 0 else 0)
            n_children.append(0)
            if up >= 0:
                n_children[up] += 1
            own_chars.append(0)
            own_link.append(0)
            own_words.append(0)
            open_elements.append(index)
            if tag in BLOCK_TAGS:
                flush()
                owners.append(index)
            elif tag == "a":
                links += 1
            if node.text:
                add(node.text, index)
            continue
        index = open_elements.pop()
        if tag in BLOCK_TAGS:
            flush()
            owners.pop()
        elif tag == "a":
            links -= 1
        if node.tail and node is not body:
            # A tail is the parent's text.
            add(node.tail, open_elements[-1])
    flush()
    n = len(elements)
    parent_array = np.asarray(parent, dtype=np.int64)
    return PageTree(
        elements=elements,
        tags=tags,
        parent=parent_array,
        depth=np.asarray(depth, dtype=np.int64),
        position=_positions(parent_array, n),
        n_children=np.asarray(n_children, dtype=np.int64),
        own_chars=np.asarray(own_chars, dtype=np.int64),
        own_link_chars=np.asarray(own_link, dtype=np.int64),
        own_words=np.asarray(own_words, dtype=np.int64),
        blocks=blocks,
        owner=np.asarray(owner, dtype=np.int64),
        pieces=pieces,
    )


# Inline styles that keep an element from being rendered at all.
NOT_RENDERED = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def invisible(tree: PageTree) -> np.ndarray:
    """Elements a browser does not render: with the ``hidden`` attribute or an inline
    ``display: none`` / ``visibility: hidden`` style, or inside one.

    ``aria-hidden`` is not enough: it hides from screen readers, not from the eye.
    """
    hidden = np.zeros(len(tree), dtype=bool)
    for i, element in enumerate(tree.elements):
        if element.attrib and (element.get("hidden") is not None or NOT_RENDERED.search(element.get("style") or "")):
            hidden[i] = True
    if hidden.any():
        parent = tree.parent.tolist()
        # Document order: a parent is always decided before its children.
        for i in range(1, len(parent)):
            if hidden[parent[i]]:
                hidden[i] = True
    return hidden


def _positions(parent: np.ndarray, n: int) -> np.ndarray:
    # Elements come in document order, so siblings appear in order: a running count per parent.
    position = np.zeros(n, dtype=np.int64)
    seen: dict[int, int] = {}
    for i in range(1, n):
        p = int(parent[i])
        position[i] = seen.get(p, 0)
        seen[p] = position[i] + 1
    return position
