"""Bag-of-words token precision, recall and F1 of a text against another: the measure forest is judged by.

The common protocol (trafilatura's evaluation, Bevendorff et al. 2023): lower-cased ``\\w+``
runs.  Digits and underscores count as words here, unlike keywords.tokenize, so that scores
stay comparable with published figures.  It lives in the product because the demo reports it
and the web app's tests use it; ``eval.metrics`` aggregates it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Score:
    """Precision, recall and F1 of one page, or a mean of several."""

    p: float
    r: float
    f1: float


def tokens(text: str) -> list[str]:
    """The lower-cased ``\\w+`` tokens of ``text``, in order."""
    return _TOKEN.findall(text.lower())


def score(pred: str, gold: str) -> Score:
    """Token precision, recall and F1 of ``pred`` against ``gold``.

    Both texts are bags of tokens; the overlap counts each token ``min(pred, gold)`` times.
    Empty cases follow the ROUGE-based scorer of Bevendorff et al. 2023
    (``extraction_benchmark/eval.py``), "empty" meaning no token:

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
    pred_bag, gold_bag = Counter(tokens(pred)), Counter(tokens(gold))
    n_pred, n_gold = pred_bag.total(), gold_bag.total()
    if n_gold == 0:
        return Score(1.0, 1.0, 1.0) if n_pred == 0 else Score(0.0, 1.0, 0.0)
    if n_pred == 0:
        return Score(0.0, 0.0, 0.0)
    overlap = (pred_bag & gold_bag).total()
    p, r = overlap / n_pred, overlap / n_gold
    f1 = 2 * p * r / (p + r) if overlap else 0.0
    return Score(p, r, f1)
