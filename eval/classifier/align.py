"""Labels from gold text: align the gold tokens to the page's text blocks, then label blocks and tags."""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

import numpy as np

from forest.classifier.blocks import PageTree
from forest.score import tokens

# Gold and blocks are tokenized as the evaluation scores them (forest.score), so labels and scores agree.
# A block is content when at least this share of its tokens align to the gold text (the brief's
# majority rule; the thesis used 0.1 after Dragnet's code, which keeps blocks that only quote the article).
MIN_ALIGNED_SHARE = 0.5
# Between two anchors, the exact (quadratic) matcher runs only on gaps up to this many token
# pairs; larger gaps without a unique anchor are rare and get difflib's faster junk heuristic.
MAX_EXACT_GAP = 4_000_000




def align(page: Sequence[str], gold: Sequence[str]) -> np.ndarray:
    """Which tokens of ``page`` belong to an in-order alignment with ``gold``.

    Unique-anchor (patience) alignment: tokens that occur exactly once in both ranges and
    in the same order (longest increasing subsequence) anchor the alignment; runs of equal
    tokens around them extend it; the gaps between anchors are aligned the same way, and a
    gap with no unique token left is matched by difflib (longest common blocks first).
    """
    matched = np.zeros(len(page), dtype=bool)
    work = [(0, len(page), 0, len(gold))]
    while work:
        a0, a1, b0, b1 = work.pop()
        # Equal prefix and suffix need no search.
        while a0 < a1 and b0 < b1 and page[a0] == gold[b0]:
            matched[a0] = True
            a0, b0 = a0 + 1, b0 + 1
        while a0 < a1 and b0 < b1 and page[a1 - 1] == gold[b1 - 1]:
            matched[a1 - 1] = True
            a1, b1 = a1 - 1, b1 - 1
        if a0 >= a1 or b0 >= b1:
            continue
        anchors = _unique_anchors(page, gold, a0, a1, b0, b1)
        if anchors:
            prev_a, prev_b = a0, b0
            for i, j in anchors:
                matched[i] = True
                work.append((prev_a, i, prev_b, j))
                prev_a, prev_b = i + 1, j + 1
            work.append((prev_a, a1, prev_b, b1))
            continue
        autojunk = (a1 - a0) * (b1 - b0) > MAX_EXACT_GAP
        matcher = difflib.SequenceMatcher(None, page[a0:a1], gold[b0:b1], autojunk=autojunk)
        for block in matcher.get_matching_blocks():
            matched[a0 + block.a : a0 + block.a + block.size] = True
    return matched


def _unique_anchors(
    page: Sequence[str], gold: Sequence[str], a0: int, a1: int, b0: int, b1: int
) -> list[tuple[int, int]]:
    """Pairs (i, j) of tokens unique in both ranges, the longest run increasing in both."""
    in_page = Counter(page[a0:a1])
    in_gold = Counter(gold[b0:b1])
    where = {t: j for j, t in enumerate(gold[b0:b1], b0) if in_gold[t] == 1 and in_page.get(t) == 1}
    pairs = [(i, where[t]) for i, t in enumerate(page[a0:a1], a0) if t in where]
    return _increasing(pairs)


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    # Patience sorting: longest subsequence increasing in j (pairs already increase in i).
    tails: list[int] = []  # tails[k]: smallest j ending an increasing run of length k + 1
    tail_at: list[int] = []  # index into pairs of that tail
    back: list[int] = []
    for n, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[k] = j
            tail_at[k] = n
        back.append(tail_at[k - 1] if k else -1)
    chain: list[tuple[int, int]] = []
    n = tail_at[-1] if tail_at else -1
    while n >= 0:
        chain.append(pairs[n])
        n = back[n]
    return chain[::-1]


def block_labels(blocks: Sequence[str], gold: str, *, min_share: float = MIN_ALIGNED_SHARE) -> np.ndarray:
    """Content (True) or boilerplate for each block text: at least ``min_share`` of its tokens align to ``gold``.

    A block without tokens (punctuation only) is boilerplate.
    """
    per_block = [tokens(text) for text in blocks]
    page = [t for block in per_block for t in block]
    matched = align(page, tokens(gold))
    sizes = np.fromiter((len(b) for b in per_block), dtype=np.int64, count=len(per_block))
    ends = np.cumsum(sizes)
    aligned = np.concatenate(([0], np.cumsum(matched, dtype=np.int64)))
    hits = aligned[ends] - aligned[ends - sizes]
    return (sizes > 0) & (hits >= min_share * sizes)


def tag_labels(tree: PageTree, labels: np.ndarray) -> np.ndarray:
    """Content (True) for each element of ``tree`` most of whose text tokens lie in content blocks.

    ``tree`` must come from ``walk(..., keep_pieces=True)``; ``labels`` are its blocks' labels.
    An element without text is boilerplate.
    """
    total = np.zeros(len(tree), dtype=np.float64)
    content = np.zeros(len(tree), dtype=np.float64)
    for element, block, text in tree.pieces:
        n = len(tokens(text))
        total[element] += n
        if block >= 0 and labels[block]:
            content[element] += n
    total = tree.subtree_sums(total)
    content = tree.subtree_sums(content)
    return (total > 0) & (2 * content > total)
