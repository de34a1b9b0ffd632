"""Sweep the article container's outside threshold (forest.classifier.container) on the training pages' out-of-fold predictions.

``python -m eval.classifier.container`` (about 10 minutes: three fits of the stacked model).
The default configuration is refitted in 3 folds grouped by site on the default split's
training pages; each held-out page's blocks get that fold's P(content).  It prints the mean
page token F1, precision and recall of the threshold alone (``off``), of the container at
each outside threshold (inside it, the threshold), then at ``OUTSIDE_THRESHOLD`` of each
inside threshold.  No test page is read: ``OUTSIDE_THRESHOLD`` and ``INSIDE_THRESHOLD`` are
chosen here, on the training pages.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import GroupKFold

from eval.classifier.train import PageRows, default_classifier, default_split, fit_pages, page_rows, say, usable
from forest.classifier.blocks import PageTree, walk
from forest.classifier.container import OUTSIDE_THRESHOLD, confine
from forest.errors import ParseError
from forest.html import parse_html
from forest.score import Score, score

OUTSIDE = (0.6, 0.65, 0.7, 0.75, 0.8, 0.9)
INSIDE = (0.35, 0.4, 0.45, 0.5)


@dataclass(slots=True)
class HeldOut:
    """One training page's out-of-fold probabilities, with what the container rule needs."""

    rows: PageRows
    tree: PageTree
    probability: np.ndarray


def _tree(html: str, source: str) -> PageTree | None:
    try:
        body = parse_html(html, source=source).find("body")
    except ParseError:
        return None
    if body is None:
        return None
    tree = walk(body)
    # Only the arrays are read: without its elements the tree no longer keeps the parsed page alive.
    tree.elements = []
    return tree


def out_of_fold(folds: int = 3) -> list[HeldOut]:
    """The default configuration's out-of-fold P(content) on every training page, folds grouped by site."""
    pages: list[tuple[PageRows, PageTree]] = []
    for sample in default_split().train:
        if not usable(sample):
            continue
        rows, tree = page_rows(sample), _tree(sample.html, sample.id)
        if rows is not None and tree is not None and len(tree.blocks) == len(rows.texts):
            pages.append((rows, tree))
    say(f"features of {len(pages)} pages")
    out: list[HeldOut] = []
    splits = GroupKFold(n_splits=folds).split(np.arange(len(pages)), groups=[r.site for r, _ in pages])
    for k, (train, held_out) in enumerate(splits, 1):
        say(f"fold {k} of {folds}")
        model = fit_pages(clone(default_classifier()), [pages[i][0] for i in train])
        for i in held_out:
            rows, tree = pages[i]
            out.append(HeldOut(rows, tree, model.predict_proba(rows.rows["blocks"][0])[:, 1]))
    return out


def _mean(scores: Sequence[Score]) -> Score:
    n = max(len(scores), 1)
    return Score(sum(s.p for s in scores) / n, sum(s.r for s in scores) / n, sum(s.f1 for s in scores) / n)


def sweep(pages: Sequence[HeldOut], threshold: float, outside: float | None, inside: float | None = None) -> Score:
    """Mean page score of the labels at ``threshold``, then the container at ``outside`` (None: no container)
    and ``inside`` (None: the threshold)."""
    scores = []
    for page in pages:
        content = page.probability >= threshold
        if outside is not None:
            content = confine(page.tree, page.probability, content, outside=outside, inside=threshold if inside is None else inside)
        scores.append(score("\n".join(t for t, keep in zip(page.rows.texts, content) if keep), page.rows.gold))
    return _mean(scores)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.classifier.container", description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=int, default=3)
    args = parser.parse_args(argv)
    threshold = default_classifier().threshold
    pages = out_of_fold(args.folds)
    print(f"{len(pages)} training pages, out-of-fold, threshold {threshold}")
    print("| outside threshold | inside threshold | P | R | page F1 |")
    print("|---|---|---:|---:|---:|")
    settings = [(None, None), *((o, None) for o in OUTSIDE), *((OUTSIDE_THRESHOLD, i) for i in INSIDE)]
    for outside, inside in settings:
        s = sweep(pages, threshold, outside, inside)
        print(f"| {'off' if outside is None else outside} | {threshold if inside is None else inside} | {s.p:.4f} | {s.r:.4f} | {s.f1:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
