"""Train Web2Text's pairwise model and attach it to the block classifier (``forest.classifier.joint``).

Run ``python -m eval.classifier.joint [--folds 3] [--out PATH]``: it featurizes the default split's
training pages (docs/classifier.md: the same pages and sites as the classifier), optionally
cross-validates the joint decoder against the classifier alone (folds grouped by site: the unary
and the pairwise models are both refitted on each fold's training sites, and the held-out pages are
decoded at several weights lambda), then fits the pairwise model on every training page and writes
the shipped classifier with it attached (its unary arrays unchanged).

The pairwise model is histogram gradient boosting (100 trees of depth <= 6, no class weights, so
its probabilities stay calibrated: they are potentials, not decisions).  The paper's are small
CNNs over the sequence of edge features; scikit-learn has no convolutional nets, and on these
tabular features boosted trees beat scikit-learn's MLP in the classifier's own models grid
(`forest eval --block-table`, Table 3.4).  The trees compile to the same plain arrays as the classifier's
(``forest.classifier.compact``), so decoding needs numpy only.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import f1_score
from sklearn.model_selection import GroupKFold

from eval.classifier.train import PageRows, default_classifier, default_split, featurize, fit_pages, say, usable
from eval.metrics import score
from forest.classifier.compact import Compact, compile_trees
from forest.classifier.joint import PAPER_WEIGHT, decode, pair_labels
from forest.classifier.model import TagClassifier
from forest.classifier.predictor import shift_threshold

# Each pairwise fit sees at most this many random pairs of neighbouring blocks (as the
# classifier's MAX_ROWS: about a minute per fit on the shared 2-core machine).
MAX_PAIRS = 30_000
PAIRWISE_PARAMS: dict[str, Any] = {"max_iter": 100, "max_depth": 6, "learning_rate": 0.1, "early_stopping": False}
# Weights lambda tried by the cross-validation: the paper's 0.1 and around it.
WEIGHTS = (0.0, 0.05, 0.1, 0.2, 0.5, 1.0)


def fit_pairwise(pages: Sequence[PageRows], *, max_pairs: int = MAX_PAIRS, random_state: int = 0) -> Compact:
    """The pairwise model, P(two neighbouring blocks share a label), fitted on ``pages``' edges.

    :raises ValueError: a page has no edge features (featurize with ``edges=True``).
    """
    xs, ys = [], []
    for page in pages:
        if page.edges is None:
            raise ValueError(f"page {page.id} has no edge features")
        xs.append(page.edges)
        ys.append(pair_labels(page.rows["blocks"][1]))
    X, y = np.vstack(xs), np.concatenate(ys)
    if len(y) > max_pairs:
        rows = np.sort(np.random.default_rng(random_state).choice(len(y), size=max_pairs, replace=False))
        X, y = X[rows], y[rows]
    model = HistGradientBoostingClassifier(random_state=random_state, **PAIRWISE_PARAMS)
    model.fit(X, y)
    return compile_trees(model, np.zeros(0, dtype=np.int64))


def attach(classifier: TagClassifier, pairwise: Compact, weight: float = PAPER_WEIGHT) -> TagClassifier:
    """``classifier`` with Web2Text's pairwise model and weight attached (in place; returned for chaining)."""
    classifier.pairwise_compact_ = pairwise
    classifier.joint_weight_ = float(weight)
    return classifier


def joint_content(classifier: TagClassifier, page: PageRows, weight: float) -> np.ndarray:
    """Content flags of a featurized page, decoded jointly with ``classifier``'s attached pairwise model."""
    X, _ = page.rows["blocks"]
    p = classifier.predict_proba(X)[:, 1]
    pairwise = classifier.pairwise_compact_
    if pairwise is None or page.edges is None:
        return np.asarray(p >= classifier.threshold)
    return decode(shift_threshold(p, classifier.threshold), pairwise.proba(page.edges, None), weight)


def _page_f1(page: PageRows, content: np.ndarray) -> float:
    return score("\n".join(t for t, keep in zip(page.texts, content) if keep), page.gold).f1


@dataclass(frozen=True, slots=True)
class JointScore:
    """Cross-validated scores of one weight lambda (0: the classifier alone)."""

    weight: float
    block_f1: float
    page_f1: float
    pairwise_accuracy: float  # of P(same) >= 0.5 on the held-out pairs, the same at every weight
    same_share: float  # share of held-out pairs that do share a label (the accuracy of always saying so)


def cross_validate(
    pages: Sequence[PageRows],
    *,
    folds: int = 3,
    weights: Sequence[float] = WEIGHTS,
    classifier: TagClassifier | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[JointScore]:
    """Grouped k-fold cross-validation of joint decoding at each weight (folds by site)."""
    base = classifier if classifier is not None else default_classifier()
    truth: list[np.ndarray] = []
    predicted: dict[float, list[np.ndarray]] = {w: [] for w in weights}
    page_scores: dict[float, list[float]] = {w: [] for w in weights}
    pair_hits: list[np.ndarray] = []
    pair_truth: list[np.ndarray] = []
    splits = GroupKFold(n_splits=folds).split(np.arange(len(pages)), groups=[p.site for p in pages])
    for k, (train, held_out) in enumerate(splits, 1):
        start = time.perf_counter()
        training = [pages[i] for i in train]
        model = attach(fit_pages(clone(base), training), fit_pairwise(training))
        assert model.pairwise_compact_ is not None
        for i in held_out:
            page = pages[i]
            y = page.rows["blocks"][1]
            truth.append(y)
            if page.edges is not None and len(y) > 1:
                pair_truth.append(pair_labels(y))
                pair_hits.append((model.pairwise_compact_.proba(page.edges, None) >= 0.5) == pair_truth[-1])
            for w in weights:
                content = joint_content(model, page, w)
                predicted[w].append(content.astype(np.int64))
                page_scores[w].append(_page_f1(page, content))
        if progress:
            progress(f"fold {k}/{folds}: {len(held_out)} held-out pages, {time.perf_counter() - start:.0f} s")
    y_all = np.concatenate(truth)
    accuracy = float(np.concatenate(pair_hits).mean()) if pair_hits else float("nan")
    same = float(np.concatenate(pair_truth).mean()) if pair_truth else float("nan")
    return [
        JointScore(w, float(f1_score(y_all, np.concatenate(predicted[w]))), float(np.mean(page_scores[w])), accuracy, same)
        for w in weights
    ]


def markdown(scores: Sequence[JointScore], pages: int, folds: int) -> str:
    """The cross-validation as a Markdown table."""
    lines = [f"| lambda | block F1 | page token F1 | ({pages} pages, {folds} folds by site) |", "|---|---|---|---|"]
    for s in scores:
        name = "classifier alone" if s.weight == 0 else ("the paper's" if s.weight == PAPER_WEIGHT else "")
        lines.append(f"| {s.weight:g} | {100 * s.block_f1:.1f} | {s.page_f1:.3f} | {name} |")
    lines.append(f"\npairwise model accuracy (P(same) >= 0.5) on held-out pairs: {scores[0].pairwise_accuracy:.3f} "
                 f"(always 'same': {scores[0].same_share:.3f})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m eval.classifier.joint [--folds K] [--weight W] [--out PATH]``."""
    import argparse

    from forest.classifier.io import load, save
    from forest.classifier.page import DEFAULT_MODEL

    parser = argparse.ArgumentParser(prog="python -m eval.classifier.joint", description=__doc__)
    parser.add_argument("--folds", type=int, default=0, help="cross-validate the joint decoder first (0: no)")
    parser.add_argument("--weight", type=float, default=PAPER_WEIGHT, help="lambda stored with the pairwise model")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="the unary classifier to attach it to")
    parser.add_argument("--out", type=Path, default=None, help="where to save (default: --model, in place)")
    parser.add_argument("--limit", type=int, default=None, help="train on the first N training pages only (a smoke run)")
    args = parser.parse_args(argv)
    np.seterr(all="ignore")
    start = time.perf_counter()
    split = default_split()
    samples = [s for s in split.train if usable(s)][: args.limit]
    pages = featurize(samples, edges=True, progress=say)
    say(f"{len(pages)} training pages of {len({p.site for p in pages})} sites featurized")
    if args.folds > 1:
        print(markdown(cross_validate(pages, folds=args.folds, progress=say), len(pages), args.folds), flush=True)
    classifier, header = load(args.model)
    attach(classifier, fit_pairwise(pages), args.weight)
    notes = dict(header.get("training", {}))
    command = " ".join(["python -m eval.classifier.joint", *(argv if argv is not None else sys.argv[1:])])
    notes["pairwise"] = {"command": command, "pages": len(pages), "sites": len({p.site for p in pages}),
                         "max_pairs": MAX_PAIRS, "weight": args.weight, "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
    save(classifier, args.out or args.model, notes)
    print(f"pairwise model fitted on {len(pages)} pages, lambda {args.weight}: {args.out or args.model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
