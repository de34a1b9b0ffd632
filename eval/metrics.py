"""Bag-of-words token precision, recall and F1 between extracted and gold text, and their aggregates."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

# The common protocol (trafilatura's evaluation, Bevendorff et al. 2023): lower-cased
# \w+ runs.  Digits and underscores count as words here, unlike keywords.tokenize,
# so that scores stay comparable with published figures.
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Score:
    """Precision, recall and F1 of one page, or a mean of several."""

    p: float
    r: float
    f1: float


def tokens(text: str) -> Counter[str]:
    """The multiset of lower-cased ``\\w+`` tokens of ``text``."""
    return Counter(_TOKEN.findall(text.lower()))


def score(pred: str, gold: str) -> Score:
    """Token precision, recall and F1 of ``pred`` against ``gold``.

    Both texts are bags of tokens (see :func:`tokens`); the overlap counts each
    token ``min(pred, gold)`` times.  Empty cases follow the ROUGE-based scorer of
    Bevendorff et al. 2023 (``extraction_benchmark/eval.py``), "empty" meaning
    no token:

    ============ ============ ===== ===== =====
    gold         prediction   P     R     F1
    ============ ============ ===== ===== =====
    empty        empty        1.0   1.0   1.0
    empty        non-empty    0.0   1.0   0.0
    non-empty    empty        0.0   0.0   0.0
    ============ ============ ===== ===== =====

    An empty prediction thus costs precision too: a system cannot raise its mean
    precision by giving up on hard pages.
    """
    pred_bag, gold_bag = tokens(pred), tokens(gold)
    n_pred, n_gold = pred_bag.total(), gold_bag.total()
    if n_gold == 0:
        return Score(1.0, 1.0, 1.0) if n_pred == 0 else Score(0.0, 1.0, 0.0)
    if n_pred == 0:
        return Score(0.0, 0.0, 0.0)
    overlap = (pred_bag & gold_bag).total()
    p, r = overlap / n_pred, overlap / n_gold
    f1 = 2 * p * r / (p + r) if overlap else 0.0
    return Score(p, r, f1)


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
