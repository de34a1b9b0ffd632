"""Bag-of-words token precision, recall and F1 between extracted and gold text, and their aggregates."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from forest.score import Score, score
from forest.score import tokens as token_list

__all__ = ["Score", "bootstrap_ci", "mean_scores", "score", "spearman", "tokens"]


def tokens(text: str) -> Counter[str]:
    """The multiset of lower-cased ``\\w+`` tokens of ``text`` (forest.score's tokens)."""
    return Counter(token_list(text))


def mean_scores(scores: Iterable[Score]) -> Score:
    """The arithmetic mean of each of P, R and F1 (F1 is averaged, not recomputed).

    :raises ValueError: if ``scores`` is empty.
    """
    items = list(scores)
    if not items:
        raise ValueError("mean_scores() needs at least one score")
    n = len(items)
    return Score(
        sum(s.p for s in items) / n,
        sum(s.r for s in items) / n,
        sum(s.f1 for s in items) / n,
    )


def bootstrap_ci(
    values: Sequence[float], *, n: int = 1000, seed: int = 0, alpha: float = 0.05
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean of ``values``.

    :param n: number of resamples.
    :param seed: seed of the resampling; the same inputs give the same interval.
    :param alpha: 0.05 gives a 95% interval.
    :raises ValueError: if ``values`` is empty or ``alpha`` is not in (0, 1).
    """
    if len(values) == 0:
        raise ValueError("bootstrap_ci() needs at least one value")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    # Resample in chunks: n x len(values) indices at once would need ~80 MB for 10k pages.
    chunk = max(1, 1_000_000 // len(data))
    means = np.concatenate(
        [data[rng.integers(0, len(data), size=(min(chunk, n - i), len(data)))].mean(axis=1) for i in range(0, n, chunk)]
    )
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties sharing the mean of their ranks."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values), dtype=float)
    ranks[order] = np.arange(1, len(values) + 1)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=ranks)
    return sums[inverse] / counts[inverse]


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation of paired values (ties ranked by their mean rank).

    :returns: None when it is undefined: fewer than 3 pairs, or either side constant.
    :raises ValueError: ``xs`` and ``ys`` differ in length.
    """
    if len(xs) != len(ys):
        raise ValueError(f"spearman() needs pairs, got {len(xs)} and {len(ys)} values")
    if len(xs) < 3:
        return None
    a, b = _ranks(np.asarray(xs, dtype=float)), _ranks(np.asarray(ys, dtype=float))
    if a.std() == 0 or b.std() == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])
