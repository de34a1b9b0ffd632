"""Train the classifier on the gold datasets: labelled rows, grouped cross-validation, the shipped article and modern models."""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import clone
from sklearn.metrics import f1_score
from sklearn.model_selection import GroupKFold

from eval.datasets import Sample, by_site, load
from eval.metrics import score
from eval.classifier.align import block_labels, tag_labels
from forest.classifier.blocks import walk
from forest.classifier.features import GROUPS, N_HASH, Features, page_features
from forest.classifier.io import save
from forest.classifier.joint import edge_features
from forest.classifier.model import TagClassifier
from forest.classifier.predictor import MODELS
from forest.errors import ParseError
from forest.html import parse_html

# The default model learns from these...
TRAIN_DATASETS = ("cleaneval", "dragnet", "readability")
# ...never from a page of a site that occurs in an evaluation set: the page-level test sets,
# the site-level datasets, and the held-out quarter of CleanEval's sites.
EVAL_DATASETS = ("scrapinghub", "l3s_gn1", "cleanportaleval", "wceb2026")
# Modern pages (2025, seven page types) learn too, but only those whose site (or URL: wceb2026
# shares 256 of its URLs with wcxb_dev) occurs in no evaluation dataset at all: besides the
# above, every site of cleaneval, dragnet and big9, whose pages forest eval scores site by site.
MODERN_DATASET = "wcxb_dev"
MODERN_EXCLUDED_DATASETS = (*EVAL_DATASETS, "cleaneval", "dragnet", "big9")
# Sites with this many pages in a training dataset are site-level evaluation material (forest
# eval learns wrappers from 5 of their pages), so a wrapper the classifier shaped is never scored on a training page.
SITE_LEVEL_PAGES = 5
# CleanEval sites whose SHA-256 starts below this byte (a quarter of them) are held out for testing.
CLEANEVAL_TEST_BYTE = 64
# Gold that covers less of the page's text than this was written for another version of the page.
MIN_COVERAGE = 0.8
# Each first-stage fit sees at most this many random blocks: on the shared 2-core machines a
# gradient-boosting fit then takes about a minute, and 30k blocks scored within 0.005 of 60k.
MAX_ROWS = 30_000
# The default model: gradient boosting of 100 trees of depth <= 8, stacked (see model.py).
DEFAULT_PARAMS: dict[str, Any] = {"max_iter": 100}
# P(content) threshold of the default model.  Swept over 0.4-0.75 on the training pages'
# out-of-fold predictions (folds by site): mean page token F1 0.895 / 0.899 / 0.899 / 0.898 / 0.893
# at 0.4 / 0.5 / 0.55 / 0.6 / 0.65; 0.55 is the middle of the plateau.  Viterbi smoothing on top
# lowered it at every weight (0.880 at 0.5, 0.858 at 1.0): the second stage already sees the neighbours.
DEFAULT_THRESHOLD = 0.55


@dataclass(slots=True)
class PageRows:
    """The labelled feature rows of one page, with its block texts and gold text for page-level scores."""

    id: str
    dataset: str
    site: str
    gold: str
    texts: list[str]
    rows: dict[str, tuple[Features, np.ndarray]] = field(default_factory=dict)  # unit -> (X, y)
    # Web2Text's edge features of each pair of neighbouring blocks (forest.classifier.joint), when asked for.
    edges: np.ndarray | None = None


def say(message: str) -> None:
    """Progress of a classifier command, on stderr (its results go to stdout)."""
    print(message, file=sys.stderr, flush=True)


def is_cleaneval_test_site(site: str) -> bool:
    """Whether a CleanEval site is in the held-out quarter (a fixed hash of its name)."""
    return hashlib.sha256(site.encode("utf-8")).digest()[0] < CLEANEVAL_TEST_BYTE


def usable(sample: Sample) -> bool:
    """Gold that matches the page: non-empty and covering most of its tokens in the page text."""
    coverage = sample.meta.get("gold_token_coverage")
    return bool(sample.gold_text.strip()) and (coverage is None or coverage >= MIN_COVERAGE)


def site_key(site: str) -> str:
    """A site's domain, comparable across datasets: big9's ``cnn.com@2013`` and cleanportaleval's
    ``washingtonpost.com_blog1`` name their domain first; ``www.`` is dropped."""
    domain = site.split("@", 1)[0].split("_", 1)[0].lower()
    return domain.removeprefix("www.")


@dataclass(frozen=True, slots=True)
class Exclusions:
    """Sites (:func:`site_key`) and URLs whose pages may never train the model."""

    sites: frozenset[str]
    urls: frozenset[str]

    def excludes(self, sample: Sample) -> bool:
        """Whether ``sample`` must stay out of training."""
        return site_key(sample.site) in self.sites or (sample.url or "") in self.urls


def modern_exclusions(loaded: dict[str, list[Sample]], modern: Sequence[Sample]) -> Exclusions:
    """Every site and URL of :data:`MODERN_EXCLUDED_DATASETS` (``loaded`` by name), and the
    modern dataset's own sites with :data:`SITE_LEVEL_PAGES` or more pages."""
    sites = {site_key(s.site) for name in MODERN_EXCLUDED_DATASETS for s in loaded[name]}
    sites |= {site_key(site) for site in by_site(modern, min_pages=SITE_LEVEL_PAGES)}
    urls = {s.url for name in MODERN_EXCLUDED_DATASETS for s in loaded[name] if s.url}
    return Exclusions(frozenset(sites), frozenset(urls))


@dataclass(frozen=True, slots=True)
class Split:
    """Which pages train the default model and which evaluate it (never a site in both)."""

    train: list[Sample]
    evaluation: dict[str, list[Sample]]  # dataset -> pages scored page-level
    excluded_sites: frozenset[str]
    # The modern pages among ``train``, and the rule that chose them (empty without modern pages).
    modern: list[Sample] = field(default_factory=list)
    modern_excluded: Exclusions = Exclusions(frozenset(), frozenset())


def default_split(root: Path | None = None, *, modern: bool = True) -> Split:
    """The split of the shared datasets used for the shipped model (see docs/classifier.md).

    :param modern: add the modern dataset's allowed pages (:func:`modern_exclusions`) to ``train``.
    """
    names = dict.fromkeys((*TRAIN_DATASETS, *EVAL_DATASETS, *(MODERN_EXCLUDED_DATASETS if modern else ())))
    loaded = {name: load(name, root=root) for name in names}
    cleaneval_test = [s for s in loaded["cleaneval"] if is_cleaneval_test_site(s.site)]
    excluded = {s.site for name in EVAL_DATASETS for s in loaded[name]} | {s.site for s in cleaneval_test}
    for name in TRAIN_DATASETS:
        excluded |= set(by_site(loaded[name], min_pages=SITE_LEVEL_PAGES))
    train = [s for name in TRAIN_DATASETS for s in loaded[name] if s.site not in excluded and usable(s)]
    evaluation = {"scrapinghub": loaded["scrapinghub"], "l3s_gn1": loaded["l3s_gn1"], "cleaneval": cleaneval_test}
    if not modern:
        return Split(train, evaluation, frozenset(excluded))
    pages = load(MODERN_DATASET, root=root)
    rule = modern_exclusions(loaded, pages)
    allowed = [s for s in pages if usable(s) and not rule.excludes(s)]
    return Split(train + allowed, evaluation, frozenset(excluded), allowed, rule)


def page_rows(sample: Sample, units: Sequence[str] = ("blocks",), *, n_hash: int = N_HASH, edges: bool = False) -> PageRows | None:
    """Features and gold labels of one page (None if the page does not parse or has no text).

    :param edges: also compute the edge features of neighbouring blocks (needs the blocks unit).
    """
    try:
        root = parse_html(sample.html, source=sample.id)
    except ParseError:
        return None
    body = root.find("body")
    if body is None:
        return None
    tree = walk(body, keep_pieces="tags" in units)
    if not tree.blocks:
        return None
    texts = [b.text for b in tree.blocks]
    labels = block_labels(texts, sample.gold_text)
    out = PageRows(sample.id, sample.dataset, sample.site, sample.gold_text, texts)
    for unit in units:
        features, rows = page_features(tree, unit, n_hash=n_hash)
        y = labels if unit == "blocks" else tag_labels(tree, labels)[rows]
        out.rows[unit] = (features, y.astype(np.int64))
        if edges and unit == "blocks":
            out.edges = edge_features(tree, features)
    return out


def featurize(
    samples: Iterable[Sample], units: Sequence[str] = ("blocks",), *, progress: Callable[[str], None] | None = None,
    edges: bool = False,
) -> list[PageRows]:
    """:func:`page_rows` of every sample that parses."""
    out = []
    for i, sample in enumerate(samples, 1):
        rows = page_rows(sample, units, edges=edges)
        if rows is not None:
            out.append(rows)
        if progress and i % 200 == 0:
            progress(f"features of {i} pages")
    return out


def assemble(pages: Sequence[PageRows], unit: str) -> tuple[Features, np.ndarray, np.ndarray]:
    """All rows of ``pages`` for ``unit``: features (pages numbered in order), labels, and each row's site."""
    parts = [p.rows[unit] for p in pages]
    sites = np.concatenate([np.full(len(y), p.site, dtype=object) for p, (_, y) in zip(pages, parts)])
    return Features.stack([f for f, _ in parts]), np.concatenate([y for _, y in parts]), sites


def fit_pages(classifier: TagClassifier, pages: Sequence[PageRows]) -> TagClassifier:
    """Fit ``classifier`` on the rows of ``pages`` (stacking folds grouped by site)."""
    X, y, sites = assemble(pages, classifier.unit)
    return classifier.fit(X, y, groups=sites)


def page_f1(classifier: TagClassifier, page: PageRows) -> float:
    """Token F1 of the page's content blocks, as predicted, against its gold text."""
    X, _ = page.rows["blocks"]
    content = classifier.smooth(classifier.predict_proba(X)[:, 1])
    return score("\n".join(t for t, keep in zip(page.texts, content) if keep), page.gold).f1


@dataclass(frozen=True, slots=True)
class CVScore:
    """Cross-validated scores: F1 of the content rows pooled over folds, and mean page token F1 (blocks only)."""

    row_f1: float
    page_f1: float | None
    folds: int
    pages: int


def cross_validate(classifier: TagClassifier, pages: Sequence[PageRows], *, folds: int = 3) -> CVScore:
    """Grouped k-fold cross-validation: pages of a site are all in training or all in validation."""
    truth: list[np.ndarray] = []
    predicted: list[np.ndarray] = []
    page_scores: list[float] = []
    splits = GroupKFold(n_splits=folds).split(np.arange(len(pages)), groups=[p.site for p in pages])
    for train, held_out in splits:
        model = fit_pages(clone(classifier), [pages[i] for i in train])
        X, y, _ = assemble([pages[i] for i in held_out], classifier.unit)
        truth.append(y)
        predicted.append(model.predict(X))
        if classifier.unit == "blocks":
            page_scores.extend(page_f1(model, pages[i]) for i in held_out)
    row_f1 = float(f1_score(np.concatenate(truth), np.concatenate(predicted)))
    return CVScore(row_f1, float(np.mean(page_scores)) if page_scores else None, folds, len(pages))


def default_classifier(model: str = "gbt", **overrides: Any) -> TagClassifier:
    """The configuration of the shipped model (``model`` other than gbt: that learner's defaults)."""
    settings: dict[str, Any] = {"groups": GROUPS, "stacking": True, "max_rows": MAX_ROWS, "threshold": DEFAULT_THRESHOLD,
                                "params": dict(DEFAULT_PARAMS) if model == "gbt" else None}  # fmt: skip
    settings.update(overrides)
    return TagClassifier(model, **settings)


def train(
    classifier: TagClassifier,
    samples: Sequence[Sample],
    out: Path | None = None,
    *,
    folds: int = 0,
    command: str = "forest train",
    progress: Callable[[str], None] | None = None,
) -> tuple[TagClassifier, dict[str, Any]]:
    """Fit ``classifier`` on the usable ``samples``, optionally cross-validate first, save to ``out``.

    :returns: the fitted classifier and the notes written into the model file's header.
    """
    start = time.perf_counter()
    pages = featurize([s for s in samples if usable(s)], progress=progress)
    notes: dict[str, Any] = {"command": command, "datasets": sorted({p.dataset for p in pages}), "pages": len(pages),
                             "sites": len({p.site for p in pages}), "page_ids": sorted(p.id for p in pages)}  # fmt: skip
    if folds > 1:
        if progress:
            progress(f"{folds}-fold cross-validation grouped by site")
        cv = cross_validate(classifier, pages, folds=folds)
        notes["cv"] = {"folds": cv.folds, "block_f1": round(cv.row_f1, 4), "page_f1": round(cv.page_f1 or 0.0, 4)}
    if progress:
        progress(f"fitting on {len(pages)} pages")
    fit_pages(classifier, pages)
    notes["seconds"] = round(time.perf_counter() - start, 1)
    if out is not None:
        save(classifier, out, notes)
    return classifier, notes


def train_default(
    model: str = "gbt",
    out: Path | None = None,
    *,
    modern: bool = False,
    folds: int = 0,
    command: str = "python -m eval.classifier.train",
    progress: Callable[[str], None] | None = None,
) -> tuple[TagClassifier, dict[str, Any]]:
    """Train a shipped model on the default split's training pages (docs/classifier.md) and save to ``out`` if given.

    :param modern: the modern model (the older datasets' pages and wcxb_dev's allowed pages); else the
        article model (the older datasets' pages alone).  forest.extraction.models says which reads a page.
    """
    split = default_split(modern=modern)
    classifier, notes = train(default_classifier(model), split.train, out, folds=folds, command=command,
                              progress=progress)  # fmt: skip
    notes["rule"] = (
        f"pages of {', '.join(TRAIN_DATASETS)} with usable gold (coverage >= {MIN_COVERAGE}), except sites of "
        f"{', '.join(EVAL_DATASETS)}, CleanEval's held-out sites and sites with >= {SITE_LEVEL_PAGES} pages"
    )
    if modern:
        notes["rule"] += (
            f"; pages of {MODERN_DATASET} with usable gold, except sites and URLs of {', '.join(MODERN_EXCLUDED_DATASETS)} "
            f"and its sites with >= {SITE_LEVEL_PAGES} pages"
        )
    if out is not None:
        save(classifier, out, notes)
    return classifier, notes


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m eval.classifier.train [--which article|modern|both] [--model M] [--out PATH] [--folds K]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m eval.classifier.train", description=__doc__)
    parser.add_argument("--which", default="both", choices=("article", "modern", "both"),
                        help="the article model, the modern model, or both (default)")  # fmt: skip
    parser.add_argument("--model", default="gbt", choices=MODELS)
    parser.add_argument("--out", type=Path, default=None,
                        help="where to save the model (default: the shipped one; only with --which article or modern)")  # fmt: skip
    parser.add_argument("--folds", type=int, default=0, help="grouped cross-validation folds first (0: none)")
    args = parser.parse_args(argv)
    if args.out is not None and args.which == "both":
        parser.error("--out needs --which article or --which modern")
    from forest.classifier.page import DEFAULT_MODEL, MODERN_MODEL

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    command = " ".join(["python -m eval.classifier.train", *(argv if argv is not None else sys.argv[1:])])
    for which in ("article", "modern") if args.which == "both" else (args.which,):
        modern = which == "modern"
        out = args.out or (MODERN_MODEL if modern else DEFAULT_MODEL)
        _, notes = train_default(args.model, out, modern=modern, folds=args.folds, command=command, progress=say)
        print(f"trained the {which} model ({args.model}) on {notes['pages']} pages in {notes['seconds']} s; "
              f"cv: {notes.get('cv', '-')}; saved to {out}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
