"""The measurements of docs/classifier.md: a Table 3.4 of models x feature sets, page-level F1 next to trafilatura, speed.

Run ``python -m eval.classifier.report [--pages] [--table] [--stacked]`` (all by default); it
prints Markdown.  The table refits 240 small models: about an hour on one core.
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from eval.datasets import Sample, by_site, load
from forest.classifier.features import FEATURE_SETS, UNITS
from forest.classifier.model import TagClassifier
from forest.classifier.predictor import MODELS, BlockPredictor
from eval.classifier.train import DEFAULT_THRESHOLD, cross_validate, default_split, featurize, say, usable

TABLE_DATASETS = ("cleaneval", "dragnet")
# Pages per dataset in the table (whole sites, in a seeded order): 300 pages give ~40k blocks and
# ~90k tags, enough for stable F1 (+-0.01 between seeds) at a cost the shared machines can bear.
TABLE_PAGES = 300
TABLE_FOLDS = 3
TABLE_ROWS = 15_000
# Small but not starved: the thesis tuned each model by random search, we keep defaults.
TABLE_PARAMS: dict[str, dict[str, Any] | None] = {"logreg": None, "forest": None, "gbt": {"max_iter": 100}, "mlp": None}
SET_NAMES = {"node": "node", "ancestors": "+ancestors", "descendants": "+descendants", "text": "+text",
             "tokens": "+class/id tokens"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the table: F1 of the content rows, pooled over the grouped folds."""

    dataset: str
    unit: str
    model: str
    features: str
    f1: float
    page_f1: float | None
    seconds: float


def table_pages(name: str, n_pages: int = TABLE_PAGES, seed: int = 0) -> list[Sample]:
    """Whole sites of dataset ``name`` in a seeded order, until ``n_pages`` usable pages."""
    sites = by_site([s for s in load(name) if usable(s)])
    order = sorted(sites)
    random.Random(f"{seed}:{name}").shuffle(order)
    chosen: list[Sample] = []
    for site in order:
        if len(chosen) >= n_pages:
            break
        chosen.extend(sites[site])
    return chosen


def table(
    datasets: Sequence[str] = TABLE_DATASETS,
    *,
    n_pages: int = TABLE_PAGES,
    progress: Callable[[str], None] | None = say,
) -> list[Cell]:
    """Every model x feature set x unit on each dataset, by grouped cross-validation.

    :param progress: called with a line per dataset and per cell (``None``: silent).
    """
    say = progress or (lambda message: None)
    cells = []
    for name in datasets:
        pages = featurize(table_pages(name, n_pages), UNITS)
        say(f"{name}: {len(pages)} pages")
        for unit in UNITS:
            for model in MODELS:
                for set_name, groups in FEATURE_SETS.items():
                    start = time.perf_counter()
                    classifier = TagClassifier(model, groups=groups, unit=unit, max_rows=TABLE_ROWS,
                                               params=TABLE_PARAMS[model])  # fmt: skip
                    cv = cross_validate(classifier, pages, folds=TABLE_FOLDS)
                    cell = Cell(name, unit, model, set_name, cv.row_f1, cv.page_f1, time.perf_counter() - start)
                    say(f"  {unit} {model} {set_name}: F1 {cv.row_f1:.3f} ({cell.seconds:.0f} s)")
                    cells.append(cell)
    return cells


def stacked(datasets: Sequence[str] = TABLE_DATASETS, *, n_pages: int = TABLE_PAGES) -> list[Cell]:
    """The default configuration (gbt, all features, stacked second stage) on the table's pages and folds."""
    from eval.classifier.train import default_classifier

    cells = []
    for name in datasets:
        pages = featurize(table_pages(name, n_pages))
        start = time.perf_counter()
        classifier = default_classifier("gbt", max_rows=TABLE_ROWS)
        cv = cross_validate(classifier, pages, folds=TABLE_FOLDS)
        cells.append(Cell(name, "blocks", "gbt", "stacked", cv.row_f1, cv.page_f1, time.perf_counter() - start))
        say(f"{name}: stacked gbt F1 {cv.row_f1:.3f}, page F1 {cv.page_f1:.3f}")
    return cells


def stacked_markdown(cells: Sequence[Cell]) -> str:
    """One line per dataset: block F1 and page token F1 of the stacked default configuration."""
    lines = ["| dataset | model | block F1 | page token F1 |", "|---|---|---|---|"]
    for c in cells:
        page = f"{c.page_f1:.3f}" if c.page_f1 is not None else ""
        lines.append(f"| {c.dataset} | gbt + class/id tokens + stacked second stage (threshold {DEFAULT_THRESHOLD}) | "
                     f"{100 * c.f1:.1f} | {page} |")  # fmt: skip
    return "\n".join(lines)


def table_rows(cells: Sequence[Cell]) -> tuple[list[str], list[list[str]]]:
    """Table 3.4's layout as a header and rows: a block of rows per dataset and unit, a column per model."""
    header = ["dataset (unit)", "features", *MODELS]
    body = []
    for dataset in dict.fromkeys(c.dataset for c in cells):
        for unit in UNITS:
            for set_name in FEATURE_SETS:
                row = {c.model: c for c in cells if (c.dataset, c.unit, c.features) == (dataset, unit, set_name)}
                if row:
                    values = [f"{100 * row[m].f1:.1f}" if m in row else "" for m in MODELS]
                    body.append([f"{dataset} ({unit})", SET_NAMES[set_name], *values])
    return header, body


def table_markdown(cells: Sequence[Cell]) -> str:
    """The table as Markdown (see :func:`table_rows`)."""
    header, body = table_rows(cells)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


TABLE_CAPTION = (
    f"Block-level F1 (x100) of the content class, pooled over {TABLE_FOLDS} folds grouped by site, on "
    f"{TABLE_PAGES} pages (whole sites) per dataset; each fit sees at most {TABLE_ROWS:,} rows. Feature sets "
    "are cumulative, top to bottom. Unit: text blocks (what forest classifies) or all tags (every element, "
    "as in the thesis). Learners keep scikit-learn's defaults (gbt: 100 iterations)."
)


def page_level(classifier: BlockPredictor | None = None) -> str:
    """Page token F1 of the classifier alone and of trafilatura on the default split's test pages, one run."""
    from eval.classifier.systems import Classifier, Web2Text
    from eval.peers import Trafilatura
    from eval.protocol import run_pages
    from forest.classifier.page import load_default

    model = classifier or load_default()
    first_stage = copy.copy(model)
    first_stage.context_compact_ = None
    smoothed = copy.copy(model)
    smoothed.smoothing = 1.0
    systems = [Classifier(model), Classifier(first_stage, name="classifier (first stage only)"),
               Classifier(smoothed, name="classifier + Viterbi"), Trafilatura()]  # fmt: skip
    if model.has_joint:
        # Web2Text's structure on the classifier's probabilities, and on the first stage's alone (the
        # stacked second stage already sees the neighbours, which is what the pairwise term adds).
        systems[3:3] = [Web2Text(model), Web2Text(first_stage, name="web2text (first-stage unary)")]
    split = default_split()
    lines = ["| dataset | pages | system | P | R | F1 | 95% CI | ms median | ms p95 |", "|---|---|---|---|---|---|---|---|---|"]
    for name, samples in split.evaluation.items():
        say(f"page-level: {name} ({len(samples)} pages)")
        results = run_pages(systems, samples)
        floor = results.floor_ms()[0]
        for s in results.summaries():
            lines.append(f"| {name} | {s.pages} | {s.system} | {s.p:.3f} | {s.r:.3f} | {s.f1:.3f} | "
                         f"{s.ci[0]:.3f}-{s.ci[1]:.3f} | {s.ms_median:.1f} | {s.ms_p95:.1f} |")  # fmt: skip
        lines.append(f"| {name} | {len(samples)} | lxml parse alone (floor) | | | | | {floor:.1f} | |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m eval.classifier.report [--table] [--pages] [--table-pages N]``: prints Markdown."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m eval.classifier.report", description=__doc__)
    parser.add_argument("--table", action="store_true", help="the Table 3.4 grid (grouped CV on cleaneval, dragnet)")
    parser.add_argument("--pages", action="store_true", help="page-level F1 and speed of the default model")
    parser.add_argument("--stacked", action="store_true", help="the default (stacked) configuration on the table's folds")
    parser.add_argument("--table-pages", type=int, default=TABLE_PAGES, help="pages per dataset in the table")
    args = parser.parse_args(argv)
    both = not (args.table or args.pages or args.stacked)
    np.seterr(all="ignore")
    if args.pages or both:
        print(page_level(), flush=True)
        print(flush=True)
    if args.table or both:
        print(table_markdown(table(n_pages=args.table_pages)), flush=True)
        print(flush=True)
    if args.stacked or both:
        print(stacked_markdown(stacked(n_pages=args.table_pages)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
