"""One evaluation run over several datasets: choose systems, run the protocol (and the learning curve), describe the run."""

from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from eval import datasets, peers, seen
from eval.datasets import Sample, Split, in_split
from eval.forest_systems import (
    PAGE_ALONE,
    SINGLE_PAGE,
    VARIANTS,
    ForestSystem,
    cold_system,
    forest_systems,
    single_page_systems,
)
from eval.protocol import Results, Row, run, run_pages
from eval.classifier.systems import Classifier, Web2Text
from eval.systems import CETR, Description, FullText, System
from eval.classifier.report import Cell

__all__ = [
    "CURVE_KS",
    "PAGE_DATASETS",
    "SITE_DATASETS",
    "CurvePoint",
    "DatasetResult",
    "Selection",
    "Suite",
    "environment",
    "evaluate_pages",
    "evaluate_sites",
    "fingerprint",
    "git_commit",
    "make_systems",
    "peak_memory_mb",
    "select_systems",
]

# The shared datasets with enough pages per site to learn from (see the datasets' README).
SITE_DATASETS = datasets.SITE_LEVEL_DATASETS
# Mostly one page per site: page-level (cold start) only.
PAGE_DATASETS = ("scrapinghub", "cleaneval")
# The learning curve of issue 3: k sample pages per site.
CURVE_KS = (1, 2, 3, 5, 10)
BASELINES = ("fulltext", "description", "cetr", "classifier", "web2text")
# Systems that run only when named: rendering every page in Chromium is too slow for "all",
# and it needs the optional [render] extra.
ON_REQUEST = ("visual",)
# Names a --systems list may use for a whole group.
GROUPS = ("all", "variants", "baselines", "peers")


@dataclass(frozen=True, slots=True)
class Selection:
    """The systems of a run by kind, in report order, and notes (peers not installed)."""

    variants: tuple[str, ...]
    baselines: tuple[str, ...]
    peers: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (*self.variants, *self.baselines, *self.peers)


def select_systems(spec: str | None) -> Selection:
    """Parse a comma-separated ``--systems`` value (names or groups, any case); None means all.

    Groups: ``all``, ``variants`` (forest and the paper's variants), ``baselines``
    (fulltext, description, cetr, classifier, web2text) and ``peers`` (those installed).  ``visual``
    renders every page in Chromium and runs only when named.  A peer not installed
    is noted when it came from a group and refused when it was named.

    :raises ValueError: an unknown name, a named peer that is not installed, or nothing chosen.
    """
    variant_names = [v.name for v in VARIANTS]
    installed = [p.name for p in peers.available_peers()]
    missing = [name for name in peers.peer_names() if name not in installed]
    by_key = {name.lower(): name for name in (*variant_names, *BASELINES, *ON_REQUEST, *peers.peer_names())}
    wanted: set[str] = set()
    tokens = [t.strip() for t in (spec if spec is not None else "all").split(",") if t.strip()]
    for token in tokens:
        key = token.lower()
        if key in ("all", "variants"):
            wanted.update(variant_names)
        if key in ("all", "baselines"):
            wanted.update(BASELINES)
        if key in ("all", "peers"):
            wanted.update(installed)
        if key in GROUPS:
            continue
        if key not in by_key:
            known = ", ".join([*GROUPS, *variant_names, *BASELINES, *ON_REQUEST, *peers.peer_names()])
            raise ValueError(f"unknown system {token!r}; known: {known}")
        if by_key[key] in missing:
            raise ValueError(f"peer {by_key[key]!r} is not installed: pip install 'forest-extract[peers]' (or the package itself)")
        if by_key[key] in ON_REQUEST:
            from eval.classifier.render import unavailable

            reason = unavailable()
            if reason:
                raise ValueError(f"system {by_key[key]!r} cannot run: {reason}")
        wanted.add(by_key[key])
    if not wanted:
        raise ValueError("no system chosen; --systems takes a comma-separated list, for example forest,trafilatura")
    group_used = any(t.lower() in ("all", "peers") for t in tokens)
    notes = (f"peers not installed, skipped: {', '.join(missing)}",) if missing and group_used else ()
    return Selection(
        variants=tuple(n for n in variant_names if n in wanted),
        baselines=tuple(n for n in (*BASELINES, *ON_REQUEST) if n in wanted),
        peers=tuple(n for n in installed if n in wanted),
        notes=notes,
    )


def make_systems(selection: Selection, *, page_level: bool = False) -> list[System]:
    """Fresh adapters for ``selection``; a page-level run gets one forest row, with no wrapper.

    A site-level run always has forest's cold path (``cold``) beside the learners: the baseline
    learning must beat, scored on the same test pages.
    """
    baselines: dict[str, System] = {
        "fulltext": FullText(),
        "description": Description(),
        "cetr": CETR(),
        "classifier": Classifier(),
        "web2text": Web2Text(),
    }
    if "visual" in selection.baselines:
        from eval.classifier.visual import Visual

        baselines["visual"] = Visual()
    forest: list[System] = []
    if page_level:
        forest = [*single_page_systems()] if selection.variants else []
    else:
        forest = [*forest_systems(selection.variants), cold_system()]
    return [*forest, *(baselines[n] for n in selection.baselines), *(peers.peer(n) for n in selection.peers)]


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """A site-level system's F1 when it learns from ``k`` pages per site."""

    k: int
    system: str
    sites: int
    pages: int
    f1: float
    f1_sites: float


@dataclass(frozen=True, slots=True)
class DatasetResult:
    """One dataset's run: the protocol's results, forest's extraction methods, the curve, and notes."""

    name: str
    mode: str  # "site-level" or "page-level"
    sha256: str
    pages: int
    results: Results
    methods: dict[str, dict[str, int]] = field(default_factory=dict)
    curve: tuple[CurvePoint, ...] = ()
    notes: tuple[str, ...] = ()
    learn_errors: dict[str, dict[str, str]] = field(default_factory=dict)
    # Which sites were scored: "test", "dev" or "all" (datasets.split_of); page-level runs score "all".
    split: str = "all"
    # Sites with enough pages in the split, and in the whole dataset.
    split_sites: int = 0
    total_sites: int = 0
    # Sites left out because the shipped classifier trained on pages of them (eval.seen).
    seen_sites: tuple[str, ...] = ()


def evaluate_sites(
    name: str,
    samples: Sequence[Sample],
    selection: Selection,
    *,
    k: int,
    seed: int,
    min_pages: int,
    min_coverage: float | None,
    curve: bool = False,
    progress: bool | None = None,
    sha256: str = "",
    split: Split = "test",
    training_sites: seen.Seen | None = None,
    cache: dict[tuple[str, str], Row] | None = None,
) -> DatasetResult:
    """Learn from ``k`` pages per site and score the rest; with ``curve``, also each k of :data:`CURVE_KS`.

    Only the sites of ``split`` are scored (:func:`eval.datasets.split_of` of ``name`` and the site),
    and never a site the classifier trained on (``training_sites``): the cold path beside forest is the
    classifier.  The curve reruns only the site-level systems: a page-level system does not change with k.
    ``cache`` carries page-level systems' rows from a run of the same dataset at another seed.
    """
    every = datasets.by_site(samples, min_pages=min_pages, min_coverage=min_coverage)
    sites = {site: pages for site, pages in every.items() if in_split(name, site, split)}
    split_sites = len(sites)
    dropped: list[str] = []
    if training_sites is not None:
        dropped = sorted(site for site in sites if site in training_sites.sites)
        sites = {site: pages for site, pages in sites.items() if site not in training_sites.sites}
    systems = make_systems(selection)
    results = run(systems, sites, k=k, seed=seed, progress=progress, cache=cache)
    _close(systems)
    notes = _forest_notes(systems) + _identical(results, selection.variants)
    if training_sites is not None:
        note = seen.describe(dropped, sum(len(every[site]) for site in dropped), training_sites)
        notes += [note] if note else []
    if not every:
        notes.append(f"no site has {min_pages} or more pages: nothing to score")
    elif not sites:
        notes.append(f"no site of the {split} split has {min_pages} or more pages: nothing to score")
    points: list[CurvePoint] = []
    if curve:
        for curve_k in sorted({*CURVE_KS, k}):
            if curve_k == k:
                curve_results = results
            elif any(len(pages) > curve_k for pages in sites.values()):
                learners = [s for s in make_systems(selection) if s.site_level]
                if not learners:
                    continue
                curve_results = run(learners, sites, k=curve_k, seed=seed, progress=progress)
            else:
                continue
            points.extend(_curve_points(curve_k, curve_results, selection.variants))
    errors = {s.name: dict(s.learn_errors) for s in systems if isinstance(s, ForestSystem) and s.learn_errors}
    return DatasetResult(
        name, "site-level", sha256, len(samples), results, _methods(systems), tuple(points), tuple(notes), errors,
        split=split, split_sites=split_sites, total_sites=len(every), seen_sites=tuple(dropped),
    )


def evaluate_pages(
    name: str,
    samples: Sequence[Sample],
    selection: Selection,
    *,
    seed: int,
    min_coverage: float | None,
    progress: bool | None = None,
    sha256: str = "",
    training_sites: seen.Seen | None = None,
) -> DatasetResult:
    """Score every page with no learning (forest runs without a wrapper: every page cold).

    Pages of a site the classifier trained on (``training_sites``) are left out: every figure of a
    page-level run is a cold figure.
    """
    grouped = datasets.by_site(samples, min_coverage=min_coverage)
    kept = [s for pages in grouped.values() for s in pages]
    dropped: list[str] = []
    if training_sites is not None:
        kept, dropped = seen.drop_seen(kept, training_sites)
    systems = make_systems(selection, page_level=True)
    results = run_pages(systems, kept, seed=seed, progress=progress)
    _close(systems)
    notes = _forest_notes(systems)
    if training_sites is not None:
        note = seen.describe(dropped, sum(len(grouped[site]) for site in dropped), training_sites)
        notes += [note] if note else []
    if selection.variants:
        notes += [f"{v.name}: {v.legend}; the forest variants differ only in learning" for v in (SINGLE_PAGE, PAGE_ALONE)]
    return DatasetResult(
        name, "page-level", sha256, len(samples), results, _methods(systems), (), tuple(notes),
        split="all", split_sites=len(grouped), total_sites=len(grouped), seen_sites=tuple(dropped),
    )


def _close(systems: Iterable[System]) -> None:
    """Release what a system holds open between pages (the visual system's browser)."""
    for system in systems:
        close = getattr(system, "close", None)
        if callable(close):
            close()


def _forest_notes(systems: Iterable[System]) -> list[str]:
    return [note for s in systems if isinstance(s, ForestSystem) for note in s.notes()]


def _identical(results: Results, names: Sequence[str]) -> list[str]:
    """Variants that scored the same on every page: an ablation that changed nothing is worth a look."""
    scores = {name: [(r.page, r.f1) for r in results.rows_of(name)] for name in names}
    notes = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if scores[first] and scores[first] == scores[second]:
                notes.append(f"{first} and {second} gave the same F1 on every page (same wrapper choices?)")
    return notes


def _methods(systems: Iterable[System]) -> dict[str, dict[str, int]]:
    return {s.name: dict(sorted(s.methods.items())) for s in systems if isinstance(s, ForestSystem)}


def _curve_points(k: int, results: Results, names: Sequence[str]) -> list[CurvePoint]:
    points = []
    for summary in results.summaries():
        if summary.system in names:
            points.append(CurvePoint(k, summary.system, summary.sites, summary.pages, summary.f1, summary.f1_sites))
    return points


def fingerprint(path: Path) -> str:
    """SHA-256 of a dataset file, or of a RED-like directory's files (relative names and bytes, sorted)."""
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        if path.is_dir():
            digest.update(str(file.relative_to(path)).encode() + b"\0")
        with open(file, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def git_commit(root: Path | None = None) -> str:
    """``git rev-parse --short HEAD`` of the repository, ``+dirty`` if tracked files changed; ``unknown`` outside git."""
    where = str(root or datasets.repo_root())
    try:
        head = subprocess.run(
            ["git", "-C", where, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True, timeout=30
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", where, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, check=True, timeout=30,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}+dirty" if status else head


def peak_memory_mb() -> float | None:
    """The process's peak resident memory so far (getrusage; tracemalloc would slow the run down)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def environment() -> dict[str, Any]:
    """When and where the run happened: UTC date, git commit, Python, machine."""
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git_commit(),
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
    }


@dataclass(frozen=True, slots=True)
class Suite:
    """A whole ``forest eval`` run: what was run (the command), where, the per-dataset results, the cost."""

    command: str
    environment: dict[str, Any]
    runs: tuple[DatasetResult, ...]
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    peak_memory_mb: float | None = None
    # The block classifier's models x feature sets grid (``--block-table``), when it was run.
    block_table: tuple[Cell, ...] = ()
    # The split of the site-level datasets that was scored (datasets.split_of).
    split: str = "test"
