"""The site-level protocol: learn from k pages of a site, score every other page of it, time everything."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np
from lxml import html as lxml_html

from eval.datasets import Sample
from eval.metrics import Score, bootstrap_ci, mean_scores, score
from eval.systems import System
from forest.config import Settings
from forest.errors import ForestError
from forest.html import without_xml_declaration
from forest.model import Page
from forest.service.pages import group_by_site, learn_pages
from forest.wrapper import Wrapper

# Long tracebacks would swamp the JSON report; the head says what went wrong.
_MAX_ERROR = 300


@dataclass(frozen=True, slots=True)
class Row:
    """One system's result on one test page.  ``error`` is set when the page counts as a failure;
    ``confidence`` is the record's confidence, for systems that give one (forest)."""

    system: str
    dataset: str
    site: str
    page: str
    p: float
    r: float
    f1: float
    ms: float | None
    error: str | None = None
    confidence: float | None = None


@dataclass(frozen=True, slots=True)
class FitRow:
    """One site-level system's fit on one site's training pages."""

    system: str
    site: str
    pages: int
    ms: float
    error: str | None = None


@dataclass(frozen=True, slots=True)
class FloorRow:
    """The time lxml alone takes to parse a test page: the speed floor."""

    site: str
    page: str
    ms: float


@dataclass(frozen=True, slots=True)
class Summary:
    """A system's aggregate over all its scored pages.

    ``p``, ``r`` and ``f1`` are means over pages, ``f1_sites`` the mean over sites of
    each site's mean page F1, ``ci`` a bootstrap 95% interval of the page-mean F1.
    """

    system: str
    p: float
    r: float
    f1: float
    f1_sites: float
    ci: tuple[float, float]
    pages: int
    sites: int
    failures: int
    ms_median: float | None
    ms_p95: float | None
    fit_ms_median: float | None


@dataclass(frozen=True, slots=True)
class Results:
    """Everything one run measured: per-page rows, fits, the parse floor, and the splits used.

    ``k`` is ``None`` for a page-level run (:func:`run_pages`).  ``splits`` maps each
    evaluated site to the ids of its training pages.
    """

    systems: tuple[str, ...]
    rows: tuple[Row, ...]
    fits: tuple[FitRow, ...]
    floor: tuple[FloorRow, ...]
    k: int | None
    seed: int
    splits: tuple[tuple[str, tuple[str, ...]], ...] = ()
    skipped_sites: tuple[str, ...] = ()

    def rows_of(self, system: str) -> list[Row]:
        """The rows of one system, in run order."""
        return [row for row in self.rows if row.system == system]

    def per_site(self, system: str) -> dict[str, Score]:
        """Mean page scores of ``system`` per site, sites sorted."""
        groups: dict[str, list[Score]] = {}
        for row in self.rows_of(system):
            groups.setdefault(row.site, []).append(Score(row.p, row.r, row.f1))
        return {site: mean_scores(groups[site]) for site in sorted(groups)}

    def fit_ms(self, system: str) -> dict[str, float]:
        """Milliseconds ``system`` spent learning each site (site-level systems only)."""
        return {fit.site: fit.ms for fit in self.fits if fit.system == system}

    def floor_ms(self) -> tuple[float | None, float | None]:
        """Median and 95th percentile of lxml's bare parse time per page."""
        return _percentiles([row.ms for row in self.floor])

    def summary(self, system: str) -> Summary:
        """The aggregate of one system.

        :raises ValueError: ``system`` has no rows in this run.
        """
        rows = self.rows_of(system)
        if not rows:
            raise ValueError(f"no results for system {system!r}; systems: {', '.join(self.systems)}")
        pages = mean_scores(Score(row.p, row.r, row.f1) for row in rows)
        sites = self.per_site(system)
        median, p95 = _percentiles([row.ms for row in rows if row.ms is not None])
        fits = [fit.ms for fit in self.fits if fit.system == system]
        return Summary(
            system=system,
            p=pages.p,
            r=pages.r,
            f1=pages.f1,
            f1_sites=float(np.mean([s.f1 for s in sites.values()])),
            ci=bootstrap_ci([row.f1 for row in rows], seed=self.seed),
            pages=len(rows),
            sites=len(sites),
            failures=sum(row.error is not None for row in rows),
            ms_median=median,
            ms_p95=p95,
            fit_ms_median=float(np.median(fits)) if fits else None,
        )

    def summaries(self) -> list[Summary]:
        """One summary per system that has rows, in the order the systems were given."""
        present = {row.system for row in self.rows}
        return [self.summary(name) for name in self.systems if name in present]


def _percentiles(values: Sequence[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    median, p95 = np.percentile(values, [50, 95])
    return float(median), float(p95)


def split(samples: Sequence[Sample], k: int, *, seed: int, site: str) -> tuple[list[Sample], list[Sample]]:
    """Choose ``k`` training pages of a site; the rest are its test pages (both in input order).

    The generator is seeded with ``"{seed}:{site}"`` (string seeds hash with SHA-512, so
    the split is the same in every process), so adding or removing other sites never
    changes this site's split.
    """
    chosen = set(random.Random(f"{seed}:{site}").sample(range(len(samples)), k))
    train = [s for i, s in enumerate(samples) if i in chosen]
    test = [s for i, s in enumerate(samples) if i not in chosen]
    return train, test


def run(
    systems: Sequence[System],
    sites: Mapping[str, Sequence[Sample]],
    *,
    k: int,
    seed: int = 0,
    progress: bool | None = None,
    cache: dict[tuple[str, str], Row] | None = None,
) -> Results:
    """Score every system on every site with at least ``k + 1`` pages.

    Site-level systems are fit on the site's ``k`` training pages, then every system
    (site- or page-level) extracts each of the site's other pages, so all systems are
    scored on the same pages.  A training page is never extracted.  An ``extract`` that
    raises scores an empty prediction and keeps the error; a ``fit`` that raises does
    the same for all of that system's pages of the site.

    :param progress: a progress line on stderr; ``None`` shows it only when stderr is a terminal.
    :param cache: rows of page-level systems by (system, page id), shared between runs that differ
        only in seed: a system that learns nothing gives the same row for a page at every seed
        (systems with a ``methods`` counter, forest's, always extract).
    :raises ValueError: ``k < 1`` or duplicate system names.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1 (pages to learn from), got {k}")
    names = _names(systems)
    eligible = {site: list(pages) for site, pages in sites.items() if len(pages) >= k + 1}
    skipped = tuple(sorted(site for site in sites if site not in eligible))
    plan = {site: split(pages, k, seed=seed, site=site) for site, pages in sorted(eligible.items())}
    meter = _Progress(sum(len(test) for _, test in plan.values()) * len(systems), progress)
    rows: list[Row] = []
    fits: list[FitRow] = []
    floor: list[FloorRow] = []
    for site, (train, test) in plan.items():
        floor.extend(_floor(site, test))
        test_pages = [sample.page for sample in test]
        for system in systems:
            fit_error = None
            if system.site_level:
                fit_row = _fit(system, site, [sample.page for sample in train])
                fits.append(fit_row)
                fit_error = fit_row.error
            for sample, page in zip(test, test_pages):
                if fit_error is not None:
                    rows.append(_failed(system.name, sample, f"fit: {fit_error}", None))
                # forest's systems count their pages' methods, which a cached row would skip.
                elif cache is not None and not system.site_level and not hasattr(system, "methods"):
                    key = (system.name, sample.id)
                    if key not in cache:
                        cache[key] = _extract(system, sample, page)
                    rows.append(cache[key])
                else:
                    rows.append(_extract(system, sample, page))
                meter.step(f"{site} {system.name}")
    meter.close()
    splits = tuple((site, tuple(s.id for s in train)) for site, (train, _) in plan.items())
    return Results(names, tuple(rows), tuple(fits), tuple(floor), k, seed, splits, skipped)


def run_pages(
    systems: Sequence[System], samples: Sequence[Sample], *, seed: int = 0, progress: bool | None = None
) -> Results:
    """Score every system on every page with no learning (page-level datasets, cold start).

    ``fit`` is never called, so a site-level system meets each page unprepared.
    """
    names = _names(systems)
    meter = _Progress(len(samples) * len(systems), progress)
    rows: list[Row] = []
    floor = _floor(None, samples)
    for sample in samples:
        page = sample.page
        for system in systems:
            rows.append(_extract(system, sample, page))
            meter.step(system.name)
    meter.close()
    return Results(names, tuple(rows), (), tuple(floor), None, seed)


def _names(systems: Sequence[System]) -> tuple[str, ...]:
    names = tuple(system.name for system in systems)
    if len(set(names)) != len(names):
        raise ValueError(f"system names must be unique, got {', '.join(names)}")
    return names


def _error(exc: BaseException) -> str:
    message = f"{type(exc).__name__}: {exc}"
    # Some peers raise a bare wrapper (boilerpy3's HTMLExtractionError) whose cause says what happened.
    if not str(exc) and exc.__cause__ is not None:
        message = f"{type(exc).__name__} (from {type(exc.__cause__).__name__}: {exc.__cause__})"
    return message[:_MAX_ERROR]


def _fit(system: System, site: str, pages: list[Page]) -> FitRow:
    start = time.perf_counter()
    try:
        system.fit(pages)
    except Exception as exc:  # a broken fit must cost this site, not the run
        return FitRow(system.name, site, len(pages), (time.perf_counter() - start) * 1000, _error(exc))
    return FitRow(system.name, site, len(pages), (time.perf_counter() - start) * 1000)


def _extract(system: System, sample: Sample, page: Page) -> Row:
    start = time.perf_counter()
    try:
        text = system.extract(page)
    except Exception as exc:  # a peer that crashes on one page must not end the benchmark
        return _failed(system.name, sample, _error(exc), (time.perf_counter() - start) * 1000)
    ms = (time.perf_counter() - start) * 1000
    if not isinstance(text, str):
        return _failed(system.name, sample, f"TypeError: extract returned {type(text).__name__}, not str", ms)
    s = score(text, sample.gold_text)
    confidence = getattr(system, "last_confidence", None)
    return Row(system.name, sample.dataset, sample.site, sample.id, s.p, s.r, s.f1, ms, confidence=confidence)


def _failed(system: str, sample: Sample, error: str, ms: float | None) -> Row:
    s = score("", sample.gold_text)
    return Row(system, sample.dataset, sample.site, sample.id, s.p, s.r, s.f1, ms, error)


def _floor(site: str | None, samples: Sequence[Sample]) -> list[FloorRow]:
    rows = []
    for sample in samples:
        text = without_xml_declaration(sample.html)
        start = time.perf_counter()
        try:
            lxml_html.document_fromstring(text)
        except Exception:  # an unparseable page still took this long to refuse
            pass
        rows.append(FloorRow(site or sample.site, sample.id, (time.perf_counter() - start) * 1000))
    return rows


class _Progress:
    """A one-line progress counter on stderr, redrawn at most ten times a second."""

    def __init__(self, total: int, enabled: bool | None, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = total
        self.done = 0
        self.last = 0.0

    def step(self, label: str) -> None:
        self.done += 1
        now = time.monotonic()
        if self.enabled and (now - self.last > 0.1 or self.done == self.total):
            self.last = now
            self.stream.write(f"\r\x1b[K{self.done}/{self.total} pages  {label}"[:200])
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()


def learn_files(sources: Sequence[tuple[str, bytes]], site: str, settings: Settings) -> Wrapper | None:
    """The wrapper ``forest learn --site S FILES`` learns from files' ``(name, bytes)``, without a store
    (None when it learns none): the files grouped by site as the CLI groups them, then learned."""
    groups, _ = group_by_site(sources, site=site, settings=settings)
    if site not in groups:
        return None
    try:
        wrapper, _ = learn_pages(groups[site][0], site=site, settings=settings)
    except ForestError:
        return None
    return wrapper
