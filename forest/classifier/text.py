"""Shallow text features of blocks and tags (Kohlschuetter et al. 2010; Hong et al.'s text features)."""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence

import numpy as np

from forest.classifier.blocks import PageTree
from keywords.stopwords import ALL_STOPWORDS

TEXT_COLUMNS = (
    "chars words link_density text_density word_len sentences punctuation stopwords digits capitals "
    "ends_sentence position offset owner_share prev_words prev_link_density prev_text_density "
    "next_words next_link_density next_text_density page_words page_blocks".split()
)
# Kohlschuetter et al. 2010's text density: words per line when text is wrapped at 80 characters.
WRAP = 80
_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)")
_PUNCTUATION = re.compile(r"[^\w\s]")
_DIGIT = re.compile(r"\d")
_ENDINGS = tuple(".!?:\"'”’»)")


def _text_stats(texts: Sequence[str]) -> np.ndarray:
    """Raw counts per text: chars, words, sentences, punctuation, stopwords, tokens, digits, capitals, ends."""
    stats = np.zeros((len(texts), 9))
    is_stopword = ALL_STOPWORDS.__contains__
    sentences, punctuation, digit, word = _SENTENCE_END.findall, _PUNCTUATION.findall, _DIGIT.findall, _WORD.findall
    for i, text in enumerate(texts):
        words = text.split()
        toks = word(text.lower())
        stats[i] = (
            len(text),
            len(words),
            len(sentences(text)),
            len(punctuation(text)),
            sum(map(is_stopword, toks)),
            len(toks),
            len(digit(text)),
            sum(map(_starts_upper, words)),
            text.rstrip().endswith(_ENDINGS),
        )
    return stats


def _starts_upper(word: str) -> bool:
    return word[:1].isupper()


def _block_stats(texts: Sequence[str]) -> np.ndarray:
    """:func:`_text_stats` of whitespace-normalized texts (blocks), counted for the whole page at once.

    The texts are joined by newlines (which a normalized text never holds), and each pattern's
    matches are counted from per-character classes with numpy: ``re`` decides ``\\w``, ``\\s``
    and ``\\d`` with the same Unicode predicates as ``str.isalnum``, ``isspace`` and
    ``isdecimal``, so the counts are the findall counts.  Only the stopword test still needs the
    tokens themselves: one findall per page instead of four per block.
    """
    n = len(texts)
    joined = "\n".join(texts)
    if n == 0 or joined.count("\n") != n - 1 or not all(texts):
        return _text_stats(texts)
    stats = np.zeros((n, 9))
    code = _code_points(joined)
    word, space, digit, upper = _classes(code)
    block = np.cumsum(code == 10)  # the text of each character (a newline starts the next)
    stats[:, 0] = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    # Normalized: words are separated by single spaces.
    stats[:, 1] = np.fromiter(map(operator.methodcaller("count", " "), texts), dtype=np.int64, count=n) + 1
    # [.!?]+(?=\\s|$): the last character of a run of them, followed by a space or the end.
    mark = (code == 46) | (code == 33) | (code == 63)
    followed = np.append(space[1:], True)
    ends = mark & ~np.append(mark[1:], False) & followed
    stats[:, 2] = np.bincount(block[ends], minlength=n)
    stats[:, 3] = np.bincount(block[~word & ~space], minlength=n)
    # Tokens are read from the lower-cased text, as _text_stats does: lower() may change a
    # character's class (U+0130 becomes "i" and a combining dot).
    lower = joined.lower()
    lower_code = _code_points(lower)
    lower_word = _classes(lower_code)[0]
    starts = lower_word & ~np.concatenate(([False], lower_word[:-1]))
    tokens = np.bincount(np.cumsum(lower_code == 10)[starts], minlength=n)
    stopword = np.fromiter(map(ALL_STOPWORDS.__contains__, _WORD.findall(lower)), dtype=bool, count=int(tokens.sum()))
    stats[:, 4] = np.bincount(np.repeat(np.arange(n), tokens), weights=stopword, minlength=n)
    stats[:, 5] = tokens
    stats[:, 6] = np.bincount(block[digit], minlength=n)
    first = ~space & np.concatenate(([True], space[:-1]))
    stats[:, 7] = np.bincount(block[first & upper], minlength=n)
    stats[:, 8] = np.fromiter(map(operator.methodcaller("endswith", _ENDINGS), map(str.rstrip, texts)), dtype=bool, count=n)
    return stats


def _code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _classes(code: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per character: word (``\\w``), space (``\\s``), digit (``\\d``), upper case."""
    bits = _ASCII_CLASSES[np.minimum(code, 127)]
    other = np.flatnonzero(code > 127)
    if len(other):
        # Other characters are rarer and fewer: each distinct one asked once.
        distinct = np.unique(code[other])
        bits[other] = _char_classes([chr(c) for c in distinct.tolist()])[np.searchsorted(distinct, code[other])]
    return (bits & 1) > 0, (bits & 2) > 0, (bits & 4) > 0, (bits & 8) > 0


def _char_classes(chars: Sequence[str]) -> np.ndarray:
    # The predicates re uses for \w, \s and \d on str patterns, and str.isupper; one bit each.
    bits = [(c.isalnum() or c == "_") | c.isspace() << 1 | c.isdecimal() << 2 | c.isupper() << 3 for c in chars]
    return np.array(bits, dtype=np.uint8)


_ASCII_CLASSES = _char_classes([chr(c) for c in range(128)])
_ASCII_CLASSES.flags.writeable = False


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
    stats = _block_stats(list(map(operator.attrgetter("text"), blocks)))
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
