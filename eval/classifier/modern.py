"""The cold path on modern pages: the classifier on wcxb_dev per page type, cross-validated by site, beside trafilatura.

``python -m eval.classifier.modern`` prints, for each ``meta.page_type`` of wcxb_dev and over all
its pages, the mean token F1 (``eval.metrics.score``: lower-cased ``\\w+``) and the median time
per page (parse included) of forest's cold extraction (``forest.extraction.extract`` with no
wrapper, so the classifier extracts the page, as for a site forest has not learned) with

* **article model**: the shipped article model on every page; it never saw a wcxb_dev page;
* **cv**: the shipped configuration, cross-validated: the modern model's configuration trained 5
  times (folds of wcxb_dev grouped by site) on the older datasets' training pages and the wcxb_dev
  pages allowed to train (``eval.classifier.train.default_split``), never on a page whose site is in
  the scored fold, reads the pages that call for the modern model (forest.extraction.models); the
  shipped article model reads the others;

and of

* **trafilatura** (``eval.peers``), whose extractions are cached (``--cache``).

On scrapinghub and cleaneval's held-out sites (``--dataset``), which neither shipped model saw,
**shipped**, beside the article model, is forest's cold path as it runs: each page read by the model
it calls for.

Feature rows and each fold's scores are cached in ``--cache`` too, keyed by the feature layout, so a second run
only fits what it has not (clear the cache after changing the model's configuration).
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import numpy as np
from sklearn.model_selection import GroupKFold

from eval.classifier.train import (
    MODERN_DATASET,
    PageRows,
    default_classifier,
    default_split,
    featurize,
    fit_pages,
    is_cleaneval_test_site,
    say,
    site_key,
)
from eval.datasets import Sample, load
from eval.metrics import score
from forest.classifier import BlockPredictor, load_default
from forest.classifier.features import FEATURE_VERSION, feature_names
from forest.errors import ForestError
from forest.extraction import extract, extractor

FOLDS = 5
DEFAULT_CACHE = Path("/tmp/forest-classifier-modern")
# Cached rows and scores are kept under the feature version and width they were computed with.
LAYOUT = f"v{FEATURE_VERSION}-{len(feature_names())}"
# The version of the shipped rule a fold's cached scores were taken with: "pair3" rereads the pages the
# article model misreads with the modern model (forest.extraction.extractor.MIN_PROSE_KEPT, a fifth
# of the prose), and reads a hidden element holding most of a page's words (forest.classifier.blocks);
# "pair4" also leaves a product page's reviews out (forest.extraction.reviews); "pair5" keeps a copied box
# once (forest.extraction.copies); "pair6" rereads a page the article model finds nothing in; "pair7"
# searches for copies on pages with a viewport only.
CV_RULE = "pair7"


def cached_rows(name: str, samples: Sequence[Sample], cache: Path) -> list[PageRows]:
    """:func:`featurize` of ``samples``, kept in ``cache`` under ``name`` and the feature version."""
    path = cache / f"{name}-features-{LAYOUT}.pkl"
    if path.exists():
        with path.open("rb") as f:
            rows: list[PageRows] = pickle.load(f)  # our own scratch file, written below
        if {r.id for r in rows} <= {s.id for s in samples}:
            return rows
    say(f"features of {len(samples)} {name} pages")
    rows = featurize(samples, progress=say)
    cache.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(rows, f, protocol=pickle.HIGHEST_PROTOCOL)
    return rows


@dataclass(frozen=True, slots=True)
class PageResult:
    """One system's extraction of one page: its type, token F1 and seconds (parse included)."""

    id: str
    page_type: str
    f1: float
    seconds: float


def run_cold(
    samples: Sequence[Sample], model: BlockPredictor | None = None, *, modern: BlockPredictor | None = None
) -> list[PageResult]:
    """forest's cold extraction of each page (no wrapper: the classifier extracts the page, as for
    ``forest extract`` with an empty database), scored against its gold, timed.

    :param model: None: each page is read by the shipped model it calls for
        (forest.extraction.models), as forest extracts it. A model: that model reads every page, or,
        with ``modern``, the shipped rule runs with ``model`` as its article model and ``modern`` as its
        modern one (a cross-validation fold's): the pages the rule gives the modern model, and those the
        article model misreads (forest.extraction.extractor.MIN_PROSE_KEPT).
    """
    pair = None if model is None or modern is None else {False: model, True: modern}
    out = []
    for s in samples:
        start = time.perf_counter()
        try:
            if pair is None:
                text = extract(None, s.html, url=s.url, classifier=model).text
            else:
                # The extractor's own choice of model, each model swapped for the fold's.
                with mock.patch.object(extractor, "shipped_model", lambda *, modern: pair[modern]):
                    text = extract(None, s.html, url=s.url).text
        except ForestError:
            text = ""  # a page forest refuses scores 0
        seconds = time.perf_counter() - start
        out.append(PageResult(s.id, page_type(s), score(text, s.gold_text).f1, seconds))
    return out


def page_type(sample: Sample) -> str:
    """wcxb_dev's ``meta.page_type`` (the dataset's name where there is none)."""
    return str(sample.meta.get("page_type") or sample.dataset)


def run_trafilatura(name: str, samples: Sequence[Sample], cache: Path) -> list[PageResult]:
    """trafilatura's extraction of each page (``eval.peers``), cached by page id with its time."""
    from eval.peers import Trafilatura

    path = cache / f"{name}-trafilatura.json"
    known: dict[str, tuple[str, float]] = {k: (str(t), float(sec)) for k, (t, sec) in json.loads(path.read_text()).items()} if path.exists() else {}
    system = Trafilatura()
    out = []
    for i, s in enumerate(samples, 1):
        if s.id not in known:
            start = time.perf_counter()
            try:
                text = system.extract(s.page)
            except Exception:  # noqa: BLE001 - a peer's failure on a page scores 0, as in forest eval
                text = ""
            known[s.id] = (text, time.perf_counter() - start)
            if i % 200 == 0:
                say(f"trafilatura: {i} pages")
        text, seconds = known[s.id]
        out.append(PageResult(s.id, page_type(s), score(text, s.gold_text).f1, seconds))
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known))
    return out


def cross_validated(
    samples: Sequence[Sample],
    base: Sequence[PageRows],
    modern: Sequence[PageRows],
    *,
    folds: int = FOLDS,
    only: Collection[int] = (),
    cache: Path | None = None,
    progress: Callable[[str], None] = say,
) -> list[PageResult]:
    """Each page of ``samples`` scored by the model of its fold: trained on ``base`` and ``modern``
    rows (the allowed wcxb_dev pages) of every site outside that fold.

    :param only: fit and score only these folds (numbered from 1); the others' scores are read
        from ``cache`` where kept there, and left out otherwise.
    :param cache: keep each fold's scores there (by feature version and fold), so an interrupted
        run resumes at the first fold it has not finished.
    """
    groups = [site_key(s.site) for s in samples]
    out: list[PageResult] = []
    for k, (_, held_out) in enumerate(GroupKFold(n_splits=folds).split(np.arange(len(samples)), groups=groups)):
        kept = cache / f"cv-pair-{CV_RULE}-{LAYOUT}-fold{k + 1}of{folds}.json" if cache is not None else None
        pages = [samples[i] for i in held_out]
        if kept is not None and kept.exists():
            done = [PageResult(*row) for row in json.loads(kept.read_text())]
            if [r.id for r in done] == [s.id for s in pages]:
                out.extend(done)
                continue
        if only and k + 1 not in only:
            continue
        scored = {groups[i] for i in held_out}
        train = [p for p in (*base, *modern) if site_key(p.site) not in scored]
        progress(f"fold {k + 1}/{folds}: training on {len(train)} pages, scoring {len(held_out)}")
        model = fit_pages(default_classifier(), train)
        # The shipped rule: the fold's model where a page calls for the modern model, the shipped article model elsewhere.
        results = run_cold(pages, load_default(), modern=model)
        if kept is not None:
            kept.write_text(json.dumps([[r.id, r.page_type, r.f1, r.seconds] for r in results]))
        out.extend(results)
    return out


def table(results: dict[str, list[PageResult]]) -> str:
    """A markdown table: per page type and over all pages, each system's mean F1 and median ms."""
    systems = list(results)
    by_type: dict[str, dict[str, list[PageResult]]] = defaultdict(lambda: defaultdict(list))
    for system, rows in results.items():
        for r in rows:
            by_type[r.page_type][system].append(r)
            by_type["all"][system].append(r)
    order = sorted((t for t in by_type if t != "all"), key=lambda t: -len(by_type[t][systems[0]])) + ["all"]
    head = "| page type | pages | " + " | ".join(f"{s} F1 | {s} ms" for s in systems) + " |"
    lines = [head, "|---|---:|" + "---:|---:|" * len(systems)]
    for t in order:
        cells = []
        for s in systems:
            rows = by_type[t][s]
            cells.append(f"{statistics.fmean(r.f1 for r in rows):.3f} | {1000 * statistics.median(r.seconds for r in rows):.1f}")
        lines.append(f"| {t} | {len(by_type[t][systems[0]])} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def held_out_pages(name: str) -> list[Sample]:
    """The pages of dataset ``name`` that no model of this command trained on, with gold: all of
    scrapinghub's, CleanEval's held-out sites (``is_cleaneval_test_site``), all of wcxb_dev's
    (each scored by the fold that never saw its site)."""
    samples = [s for s in load(name) if s.gold_text.strip()]
    if name == "cleaneval":
        return [s for s in samples if is_cleaneval_test_site(s.site)]
    if name not in (MODERN_DATASET, "scrapinghub"):
        raise ValueError(f"--dataset must be {MODERN_DATASET}, scrapinghub or cleaneval, got {name!r}")
    return samples


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m eval.classifier.modern [--dataset NAME] [--model PATH] [--folds K] [--no-shipped] [--no-cv]
    [--no-trafilatura] [--cache DIR]``."""
    parser = argparse.ArgumentParser(prog="python -m eval.classifier.modern", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--dataset", default=MODERN_DATASET, help=f"{MODERN_DATASET} (default), or scrapinghub or cleaneval (its held-out sites): no cross-validation"
    )
    parser.add_argument("--model", type=Path, default=None, help="a model file to score beside the shipped one")
    parser.add_argument("--folds", type=int, default=FOLDS, help=f"folds of {MODERN_DATASET} grouped by site (default {FOLDS})")
    parser.add_argument("--fold", type=int, action="append", default=[], help="fit only this fold (repeatable; others from the cache)")
    parser.add_argument("--no-shipped", action="store_true", help="leave out the shipped models (wcxb_dev: the article model)")
    parser.add_argument("--no-cv", action="store_true", help="leave out the cross-validation")
    parser.add_argument("--no-trafilatura", action="store_true", help="leave out trafilatura")
    parser.add_argument(
        "--cache",
        type=Path,
        default=DEFAULT_CACHE,
        help="feature rows, trafilatura's texts and each fold's scores (clear it after changing the features or the model)",
    )
    args = parser.parse_args(argv)
    if args.folds < 2:
        parser.error("--folds must be at least 2")
    try:
        samples = held_out_pages(args.dataset)
        model = load_default(args.model) if args.model is not None else None
    except (ValueError, OSError, ForestError) as exc:
        parser.error(str(exc))
    results: dict[str, list[PageResult]] = {}
    if not args.no_shipped:
        say(f"shipped article model on {len(samples)} {args.dataset} pages")
        results["article model"] = run_cold(samples, load_default())
    if not args.no_shipped and args.dataset != MODERN_DATASET:
        # On wcxb_dev the shipped modern model learned from the allowed pages: the cross-validation scores the pair there.
        say(f"shipped models on {len(samples)} {args.dataset} pages")
        results["shipped"] = run_cold(samples)
    if model is not None:
        say(f"{args.model} on {len(samples)} {args.dataset} pages")
        results["model"] = run_cold(samples, model)
    if not args.no_cv and args.dataset == MODERN_DATASET:
        split = default_split()
        say(f"{len(split.modern)} of {len(samples)} {MODERN_DATASET} pages may train")
        base = cached_rows("default-train", [s for s in split.train if s.dataset != MODERN_DATASET], args.cache)
        modern = cached_rows(MODERN_DATASET, split.modern, args.cache)
        results["cv"] = cross_validated(samples, base, modern, folds=args.folds, only=args.fold, cache=args.cache)
    if not args.no_trafilatura:
        results["trafilatura"] = run_trafilatura(args.dataset, samples, args.cache)
    if not results:
        parser.error("nothing to run")
    if "cv" in results and len(results["cv"]) < len(samples):
        say(f"cv: {len(results['cv'])} of {len(samples)} pages scored (the folds done); the table compares those pages only")
        done = {r.id for r in results["cv"]}
        results = {name: [r for r in rows if r.id in done] for name, rows in results.items()}
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
