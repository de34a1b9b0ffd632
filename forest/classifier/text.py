"""Shallow text features of blocks and tags (Kohlschuetter et al. 2010; Hong et al.'s text features)."""

from __future__ import annotations

import operator

import numpy as np

from forest.classifier._text import Stopwords, text_stats
from forest.classifier.blocks import PageTree
from keywords.stopwords import ALL_STOPWORDS

TEXT_COLUMNS = (
    "chars words link_density text_density word_len sentences punctuation stopwords digits capitals "
    "ends_sentence position offset owner_share prev_words prev_link_density prev_text_density "
    "next_words next_link_density next_text_density page_words page_blocks".split()
)
# Kohlschuetter et al. 2010's text density: words per line when text is wrapped at 80 characters.
WRAP = 80
# What a text ending a sentence (or a quote, a label) ends with.
_ENDINGS = ".!?:\"'”’»)"
_STOPWORDS = Stopwords(ALL_STOPWORDS)


def _text_stats(texts: list[str]) -> np.ndarray:
    """Raw counts per text: chars, words, sentences, punctuation, stopwords, tokens, digits, capitals, ends.

    Counted in C (forest.classifier._text), as the regular expressions ``[.!?]+(?=\\s|$)``,
    ``[^\\w\\s]``, ``\\d`` and ``\\w+`` (of the lower-cased text) and ``str.split`` count them.
    """
    return text_stats(texts, _STOPWORDS, _ENDINGS)


def _shallow(stats: np.ndarray, link_chars: np.ndarray) -> np.ndarray:
    """Shallow text features (Kohlschuetter et al. 2010) from raw counts: 11 columns."""
    chars = np.maximum(stats[:, 0], 1.0)
    words = stats[:, 1]
    tokens = np.maximum(stats[:, 5], 1.0)
    lines = np.maximum(np.ceil(stats[:, 0] / WRAP), 1.0)
    return np.column_stack(
        [
            np.log1p(stats[:, 0]),
            np.log1p(words),
            np.minimum(link_chars / chars, 1.0),
            words / lines,
            stats[:, 0] / np.maximum(words, 1.0),
            np.log1p(stats[:, 2]),
            stats[:, 3] / chars,
            stats[:, 4] / tokens,
            stats[:, 6] / chars,
            stats[:, 7] / np.maximum(words, 1.0),
            stats[:, 8] > 0,
        ]
    )


def _context(shallow: np.ndarray, prev: np.ndarray, nxt: np.ndarray) -> np.ndarray:
    # Words, link density and text density of the neighbours; zeros where there is none.
    cols = shallow[:, [1, 2, 3]]
    before = np.where((prev >= 0)[:, None], cols[np.maximum(prev, 0)], 0.0)
    after = np.where((nxt >= 0)[:, None], cols[np.maximum(nxt, 0)], 0.0)
    return np.hstack([before, after])


def block_text_features(tree: PageTree) -> np.ndarray:
    """The TEXT_COLUMNS of each block of ``tree``."""
    blocks = tree.blocks
    n = len(blocks)
    stats = _text_stats(list(map(operator.attrgetter("text"), blocks)))
    link = np.fromiter(map(operator.attrgetter("link_chars"), blocks), dtype=np.float64, count=n)
    shallow = _shallow(stats, link)
    index = np.arange(n)
    chars = stats[:, 0]
    total = max(chars.sum(), 1.0)
    owner_chars = tree.subtree_sums(tree.own_chars)[tree.owner] if n else np.zeros(0)
    return _assemble(shallow, index / max(n - 1, 1), (np.cumsum(chars) - chars) / total,
                     chars / np.maximum(owner_chars, 1.0), index - 1, np.where(index + 1 < n, index + 1, -1),
                     stats[:, 1].sum(), n)  # fmt: skip


def tag_text_features(tree: PageTree, rows: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """The TEXT_COLUMNS of elements ``rows`` of ``tree`` (``chars``: every element's subtree characters)."""
    n = len(tree)
    own = np.zeros((n, 9))
    if tree.pieces:
        stats = _text_stats([t for _, _, t in tree.pieces])
        np.add.at(own, np.fromiter((e for e, _, _ in tree.pieces), dtype=np.int64, count=len(tree.pieces)), stats)
        own[:, 8] = 0
        last: dict[int, int] = {}
        for k, (e, _, t) in enumerate(tree.pieces):
            if t.strip():
                last[e] = k
        for e, k in last.items():
            own[e, 8] = stats[k, 8]
    else:
        own[:, 0], own[:, 1] = tree.own_chars, tree.own_words
    stats = tree.subtree_sums(own)
    stats[:, 0] = chars
    shallow = _shallow(stats, tree.subtree_sums(tree.own_link_chars))
    prev, nxt = _siblings(tree)
    before = np.cumsum(tree.own_chars) - tree.own_chars
    total = max(float(chars[0]), 1.0)
    parent_chars = chars[np.maximum(tree.parent, 0)]
    full = _assemble(shallow, np.arange(n) / max(n - 1, 1), before / total, chars / np.maximum(parent_chars, 1.0),
                     prev, nxt, stats[0, 1], len(tree.blocks))  # fmt: skip
    picked: np.ndarray = full[rows]
    return picked


def _assemble(shallow: np.ndarray, position: np.ndarray, offset: np.ndarray, share: np.ndarray,
              prev: np.ndarray, nxt: np.ndarray, page_words: float, page_blocks: int) -> np.ndarray:  # fmt: skip
    n = len(shallow)
    page = np.tile([np.log1p(page_words), np.log1p(page_blocks)], (n, 1))
    return np.hstack([shallow, position[:, None], offset[:, None], share[:, None], _context(shallow, prev, nxt), page])


def _siblings(tree: PageTree) -> tuple[np.ndarray, np.ndarray]:
    """Previous and next element sibling of every element (-1 where there is none)."""
    n = len(tree)
    prev = np.full(n, -1, dtype=np.int64)
    nxt = np.full(n, -1, dtype=np.int64)
    last: dict[int, int] = {}
    for i in range(1, n):
        p = int(tree.parent[i])
        j = last.get(p, -1)
        prev[i] = j
        if j >= 0:
            nxt[j] = i
        last[p] = i
    return prev, nxt
