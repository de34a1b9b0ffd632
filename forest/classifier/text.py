"""Shallow text features of blocks and tags (Kohlschuetter et al. 2010; Hong et al.'s text features)."""

from __future__ import annotations


import numpy as np

from forest.classifier._text import Stopwords, block_columns, text_columns, text_stats
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


def _columns(stats: np.ndarray, link: np.ndarray, position: np.ndarray, offset: np.ndarray, share: np.ndarray,
             prev: np.ndarray, nxt: np.ndarray, page_words: float, page_blocks: int) -> np.ndarray:  # fmt: skip
    """The TEXT_COLUMNS of rows from their raw counts (``_text_stats``' columns), link characters,
    position, offset and share of their parent's text, and their neighbours (-1: none).

    The shallow text features (Kohlschuetter et al. 2010), the neighbours' and the page's: the
    divisions in C (forest.classifier._text.text_columns), the logarithms in numpy, for their bits.
    Its reference, the numpy code it replaces, is in tests/unit/test_native_text.py.
    """
    def floats(a: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(a, dtype=np.float64)

    def indices(a: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(a, dtype=np.int64)

    out = text_columns(floats(stats), floats(link), floats(position), floats(offset), floats(share), indices(prev), indices(nxt), WRAP)
    out[:, 0] = np.log1p(stats[:, 0])
    out[:, 1] = np.log1p(stats[:, 1])
    out[:, 5] = np.log1p(stats[:, 2])
    words = out[:, 1]
    out[:, 14] = np.where(prev >= 0, words[np.maximum(prev, 0)], 0.0)
    out[:, 17] = np.where(nxt >= 0, words[np.maximum(nxt, 0)], 0.0)
    out[:, 20] = np.log1p(page_words)
    out[:, 21] = np.log1p(page_blocks)
    return out


def block_text_features(tree: PageTree) -> np.ndarray:
    """The TEXT_COLUMNS of each block of ``tree``.

    The columns in C (forest.classifier._text.block_columns), but the logarithms, which numpy
    takes for their bits.  Its reference, the numpy code it replaces, is in tests/unit/test_native_text.py.
    """
    n = len(tree.blocks)
    # The texts and their link characters as the walk listed and counted them (PageTree.block_texts, block_counts).
    stats = _text_stats(tree.block_texts())
    link = tree.block_counts()[2].astype(np.float64)
    out = block_columns(stats, link, np.ascontiguousarray(tree.own_chars, dtype=np.int64),
                        np.ascontiguousarray(tree.last, dtype=np.int64), np.ascontiguousarray(tree.owner, dtype=np.int64), WRAP)  # fmt: skip
    out[:, 0] = np.log1p(stats[:, 0])
    out[:, 1] = np.log1p(stats[:, 1])
    out[:, 5] = np.log1p(stats[:, 2])
    # The neighbours' words: the previous and the next block's.
    out[1:, 14] = out[:-1, 1]
    out[:-1, 17] = out[1:, 1]
    out[:, 20] = np.log1p(stats[:, 1].sum())
    out[:, 21] = np.log1p(n)
    return out


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
    prev, nxt = _siblings(tree)
    before = np.cumsum(tree.own_chars) - tree.own_chars
    total = max(float(chars[0]), 1.0)
    parent_chars = chars[np.maximum(tree.parent, 0)]
    full = _columns(stats, tree.subtree_sums(tree.own_link_chars), np.arange(n) / max(n - 1, 1), before / total,
                    chars / np.maximum(parent_chars, 1.0), prev, nxt, stats[0, 1], len(tree.blocks))  # fmt: skip
    picked: np.ndarray = full[rows]
    return picked


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
