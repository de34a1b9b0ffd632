"""Viterbi smoothing of block labels over the page's block order, with learned transition probabilities (after Web2Text)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np

# Probabilities are clipped away from 0 and 1 so a single confident block can still be
# overruled by its neighbours, and log(0) never occurs.
_EPS = 1e-6


def transitions(sequences: Iterable[np.ndarray], *, prior: float = 1.0) -> np.ndarray:
    """Log transition probabilities ``log P(next label | label)`` (2 x 2, boilerplate=0, content=1).

    :param sequences: the labels of each page's blocks, in page order.
    :param prior: Laplace count added to every cell, so an unseen transition is unlikely, not impossible.
    """
    counts = np.full((2, 2), prior, dtype=np.float64)
    for labels in sequences:
        seq = np.asarray(labels, dtype=np.int64)
        if len(seq) > 1:
            np.add.at(counts, (seq[:-1], seq[1:]), 1.0)
    log: np.ndarray = np.log(counts / counts.sum(axis=1, keepdims=True))
    return log


def viterbi(probability: np.ndarray, log_transitions: np.ndarray, weight: float = 1.0) -> np.ndarray:
    """The most likely content/boilerplate labels of a block sequence.

    Maximizes ``sum_i log p_i(l_i) + weight * sum_i log T[l_{i-1}, l_i]`` (Web2Text's
    unary + pairwise objective, with ``weight`` its lambda), where ``p_i`` is the
    classifier's probability of block ``i``'s label.

    :param probability: P(content) of each block, in page order.
    :returns: a boolean array, True for content.
    """
    p = np.clip(np.asarray(probability, dtype=np.float64), _EPS, 1 - _EPS)
    n = len(p)
    if n == 0:
        return np.zeros(0, dtype=bool)
    # Two states: plain floats are ten times faster than numpy calls per block.
    log_b = np.log(1 - p).tolist()
    log_c = np.log(p).tolist()
    (t00, t01), (t10, t11) = (weight * np.asarray(log_transitions, dtype=np.float64)).tolist()
    return best_path(log_b, log_c, itertools.repeat((t00, t01, t10, t11), n - 1))


def best_path(log_b: Sequence[float], log_c: Sequence[float], edges: Iterable[tuple[float, float, float, float]]) -> np.ndarray:
    """Viterbi over the two labels: the path maximizing the blocks' log potentials (boilerplate
    ``log_b``, content ``log_c``) plus, per neighbouring pair, the log weight of its label pair
    ``(b->b, b->c, c->b, c->c)`` from ``edges`` (one per pair).  Ties go to boilerplate.

    Shared by the fixed-transition smoothing here and Web2Text's per-pair potentials (forest.classifier.joint).
    """
    n = len(log_b)
    s0, s1 = log_b[0], log_c[0]
    back: list[tuple[int, int]] = [(0, 0)]
    for i, (t00, t01, t10, t11) in enumerate(edges, 1):
        b0, b1 = s0 + t00, s1 + t10  # into boilerplate, from boilerplate / from content
        c0, c1 = s0 + t01, s1 + t11  # into content
        back.append((0 if b0 >= b1 else 1, 0 if c0 >= c1 else 1))
        s0, s1 = max(b0, b1) + log_b[i], max(c0, c1) + log_c[i]
    labels = np.zeros(n, dtype=bool)
    state = 1 if s1 > s0 else 0
    for i in range(n - 1, -1, -1):
        labels[i] = bool(state)
        state = back[i][state]
    return labels
