"""Run a batch: learn the sites with enough pages (``--learn K``), then extract every page on a process pool, in input order.

Memory stays flat in the number of pages and sites:

- inputs stream (forest.batch.inputs), and at most ``IN_FLIGHT_PER_JOB`` chunks of
  ``CHUNK`` pages per worker are read ahead of the output;
- each worker opens the wrapper store read-only and loads a site's wrapper when a page of
  that site comes, keeping the ``WRAPPER_CACHE`` most recent ones;
- ``--learn K`` reads the inputs twice: the first pass counts pages per site (a counter
  per site) and keeps the first K pages of each site, on disk in a temporary directory
  for pages read from a WARC or stdin and as a path for files; the sites with more than
  K pages are learned on the pool (one site a task), then the second pass extracts.
  The disk the samples take is at most K pages per site;
- a learning task also extracts its sample pages, from the trees learning parsed (learning
  changes none until it learns a span, which only a site of pages.SPAN_MIN_PAGES or more
  does: its sample pages' span is parsed again, as any page of it is), with the wrapper
  it stored: a sample page is parsed once, and classified once unless its wrapper
  does not fit it (extraction then runs the classifier with its own options, as on any page
  the wrapper misses).  Their records wait on disk beside the samples until the second
  pass, which skips those pages, reaches them.

Extraction counts in the store (pages extracted, misses) are summed per site and written
once at the end: a write per page would cost a commit per page.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import sys
import tempfile
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypeVar

from lxml.html import HtmlElement

from forest.batch.inputs import Inputs
from forest.batch.item import Item
from forest.batch.pages import Result, extract_item, failure, learn_site, sample_site
from forest.config import Settings
from forest.errors import ForestError, ParseError
from forest.page import ParsedPage
from forest.service.pages import stored_wrapper
from forest.storage import WrapperStore
from forest.wrapper import Wrapper

__all__ = ["CHUNK", "Options", "Summary", "default_jobs", "run_batch"]

T = TypeVar("T")
R = TypeVar("R")

# Pages per task sent to a worker: one page (2-5 ms of work) would spend a tenth of its
# time on the pool's messages; 16 pages of about 100 KB are 1.6 MB a task.
CHUNK = 16
# Tasks queued per worker ahead of the output: enough that no worker waits for the
# next, few enough that read-ahead memory stays a few MB per worker.
IN_FLIGHT_PER_JOB = 3
# Wrappers a worker keeps loaded: a WARC of a crawl interleaves a few sites at a time;
# loading one from the store costs about 0.1-0.5 ms.
WRAPPER_CACHE = 256
# With no --jobs, a batch runs in this process until its input proves to have this many pages
# (learning's sample pages included), then on a pool of every core: starting the pool and its
# workers costs more than it saves on a few dozen pages, and less beyond.  (Re-measure:
# `python -m eval.batchbench --jobs 1 2 --limit N` for N around it, on an idle machine.)
POOL_AFTER_PAGES = 64


@dataclass(frozen=True, slots=True)
class Options:
    """How to run a batch.

    :param db: the wrapper store (None: $FOREST_DB or the user data directory).
    :param site: the site of every page (``--site``); default: each page's own.
    :param learn: learn each site with more than this many pages from its first ``learn`` pages.
    :param learn_from_feed: a URL of a site with no wrapper learns the site from its feed first.
    :param jobs: worker processes (1: everything in this process; None: one for a small input,
        every core for a large one).
    :param debug: let an unexpected exception through instead of making it the page's error.
    """

    db: Path | None = None
    site: str | None = None
    settings: Settings = field(default_factory=Settings)
    learn: int | None = None
    learn_from_feed: bool = True
    jobs: int | None = 1
    debug: bool = False


@dataclass(slots=True)
class Summary:
    """What a batch did, for the line on stderr."""

    pages: int = 0
    failed: int = 0
    skipped: int = 0
    methods: Counter[str] = field(default_factory=Counter)
    learned: int = 0
    learn_failed: int = 0
    seconds: float = 0.0

    def add(self, result: Result) -> None:
        if result.skipped:
            self.skipped += 1
            return
        self.pages += 1
        if result.article is None:
            self.failed += 1
        else:
            self.methods[result.article.method] += 1

    def line(self) -> str:
        rate = self.pages / self.seconds if self.seconds > 0 else 0.0
        methods = ", ".join(f"{count} {method}" for method, count in sorted(self.methods.items())) or "no articles"
        parts = [f"{self.pages} pages in {self.seconds:.1f} s ({rate:.1f} pages/s): {methods}, {self.failed} failed"]
        if self.skipped:
            parts.append(f"{self.skipped} records skipped (not HTML, or not a 2xx response)")
        if self.learned or self.learn_failed:
            failed = f" ({self.learn_failed} could not be learned)" if self.learn_failed else ""
            parts.append(f"learned {self.learned} site{'' if self.learned == 1 else 's'}{failed}")
        return "; ".join(parts)


class _Worker:
    """A process's state: the store opened read-only (and read-write only to fetch or learn), and recent wrappers."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._readonly: WrapperStore | None = None
        self._writable: WrapperStore | None = None
        self._wrappers: OrderedDict[str, Wrapper] = OrderedDict()

    def close(self) -> None:
        for store in (self._readonly, self._writable):
            if store is not None:
                store.close()
        self._readonly = self._writable = None

    def readonly(self) -> WrapperStore:
        if self._readonly is None:
            self._readonly = WrapperStore(self.options.db, readonly=True)
        return self._readonly

    def writable(self) -> WrapperStore:
        if self._writable is None:
            self._writable = WrapperStore(self.options.db)
        return self._writable

    def wrapper_of(self, site: str) -> Wrapper | None:
        wrapper = self._wrappers.get(site)
        if wrapper is not None:
            self._wrappers.move_to_end(site)
            return wrapper
        # A missing wrapper is not cached: a page's URL may have the site learned meanwhile.
        wrapper = stored_wrapper(site, self.readonly())
        if wrapper is not None:
            self._wrappers[site] = wrapper
            if len(self._wrappers) > WRAPPER_CACHE:
                self._wrappers.popitem(last=False)
        return wrapper

    def process(self, item: Item) -> Result:
        return self._guarded(item.source, lambda: self._process(item))

    def _guarded(self, source: str, read: Callable[[], Result]) -> Result:
        """``read()``, or the failure of page ``source`` when it raises."""
        try:
            return read()
        except (ForestError, OSError) as exc:
            return failure(source, exc)
        except Exception as exc:  # a bug on one page must not end a crawl's batch
            if self.options.debug:
                raise
            return failure(source, exc)

    def _process(self, item: Item) -> Result:
        options, settings = self.options, self.options.settings
        if item.kind == "error":
            return Result(item.source, error=item.error)
        if item.kind == "skip":
            return Result(item.source, skipped=True)
        if item.kind == "url":
            from forest.service.feeds import extract_url

            article = extract_url(item.source, store=self.writable(), settings=settings,
                                  learn_if_missing=options.learn_from_feed, site=options.site)
            return Result(item.source, article=article)
        page = ParsedPage(item.read(settings.max_page_bytes), url=item.url, charset=item.charset,
                          max_bytes=settings.max_page_bytes)
        return self._extract(page, item.source)

    def _extract(self, page: ParsedPage, source: str) -> Result:
        return extract_item(page, source=source, site=self.options.site, store=self.readonly(),
                            wrapper_of=self.wrapper_of, settings=self.options.settings)

    def learn(self, site: str, samples: list[_Sample], pages: int) -> _Learned:
        """Learn and store ``site``, which has ``pages`` pages in the batch, and extract its sample pages: None
        or why it could not be learned, and each sample's record (the one the second pass would make of it)."""
        settings = self.options.settings
        trees: list[HtmlElement | None] = []
        error = None
        try:
            learn_site(site, [(s.data, s.url, s.charset) for s in samples], settings, self.writable(), pages=pages, trees=trees)
        except ForestError as exc:
            error = " ".join(str(exc).split())
        trees += [None] * (len(samples) - len(trees))  # none, when learning failed before reading them
        results = []
        for sample, tree in zip(samples, trees):
            # The page as the second pass reads it (its own URL, not the canonical one learning may have
            # been given), with learning's tree of it: parse_html's of the same text.
            page = ParsedPage(sample.data, url=sample.item_url, charset=sample.charset, max_bytes=settings.max_page_bytes,
                              tree=tree)
            results.append((sample.position, self._guarded(sample.source, partial(self._extract, page, sample.source))))
        return error, results


@dataclass(frozen=True, slots=True)
class _Sample:
    """A sample page of a site to learn: its bytes, the URL learning reads it with (its canonical link's
    when it has none), its charset, its place in the input, and its record's source and URL."""

    data: bytes
    url: str | None
    charset: str | None
    position: int
    source: str
    item_url: str | None


# A learning task's answer: None or why the site could not be learned, and (input position, record) of each sample page.
_Learned = tuple[str | None, list[tuple[int, Result]]]

# The worker of a pool's process, made once by the pool's initializer (_start_worker).
_WORKER: _Worker | None = None


def _start_worker(options: Options) -> None:
    global _WORKER
    _WORKER = _Worker(options)


def _pool_worker() -> _Worker:
    assert _WORKER is not None, "a pool task ran in a process the pool did not initialize"
    return _WORKER


def _extract_chunk(items: list[Item]) -> list[Result]:
    worker = _pool_worker()
    return [worker.process(item) for item in items]


def _learn_task(task: tuple[str, list[_Sample], int]) -> _Learned:
    return _pool_worker().learn(*task)


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class _Runner:
    """Runs tasks in this process (one job) or on a pool, results in task order, a bounded number in flight.

    With ``options.jobs`` None the number is the input's to decide: this process for a small
    input, every core for one of POOL_AFTER_PAGES pages or more (:meth:`decide`, or the first
    :meth:`map` reads that far ahead to know).
    """

    def __init__(self, options: Options) -> None:
        self.options = options
        self.jobs = options.jobs
        self._local: _Worker | None = None
        self._pool: ProcessPoolExecutor | None = None

    def decide(self, pages: int) -> None:
        """Fix the number of jobs left to the input: ``pages`` is how many it has (or at least has)."""
        if self.jobs is None:
            self.jobs = default_jobs() if pages >= POOL_AFTER_PAGES else 1

    def close(self) -> None:
        if self._local is not None:
            self._local.close()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def _executor(self, jobs: int) -> ProcessPoolExecutor:
        if self._pool is None:
            # fork on Linux: workers start in milliseconds with the classifier already
            # imported; the parent holds no store connection when they start.
            method = "fork" if sys.platform.startswith("linux") else None
            self._pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method),
                                             initializer=_start_worker, initargs=(self.options,))
        return self._pool

    def map(self, function: Callable[[T], R], local: Callable[[_Worker, T], R], tasks: Iterable[T],
            pages: Callable[[T], int]) -> Iterator[R]:
        """``function`` of each task on the pool (``local`` in this process); ``pages`` weighs a task in pages."""
        tasks = iter(tasks)
        if self.jobs is None:
            ahead: list[T] = []
            seen = 0
            for task in tasks:
                ahead.append(task)
                seen += pages(task)
                if seen >= POOL_AFTER_PAGES:
                    break
            self.decide(seen)
            tasks = itertools.chain(ahead, tasks)
        jobs = self.jobs or 1
        if jobs <= 1:
            if self._local is None:
                self._local = _Worker(self.options)
            for task in tasks:
                yield local(self._local, task)
            return
        pending: deque[Future[R]] = deque()
        limit = IN_FLIGHT_PER_JOB * jobs
        try:
            for task in tasks:
                pending.append(self._executor(jobs).submit(function, task))
                if len(pending) >= limit:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except BrokenProcessPool as exc:
            raise ForestError("a worker process died (out of memory, or killed); rerun with fewer --jobs") from exc


def run_batch(inputs: Inputs, options: Options, summary: Summary) -> Iterator[Result]:
    """The result of every page of ``inputs``, in input order, counting them in ``summary`` (and its time).

    With ``options.learn``, sites with more pages than that are learned first (see the module's docstring).

    :raises StoreError: if the store cannot be opened or written.
    """
    start = time.perf_counter()
    counts: dict[str, list[int]] = {}
    # Open (and create) the store once here: a bad --db fails before any page is read,
    # and the workers' read-only openings find a forest database.  One that cannot be
    # written still serves extraction, and counts no pages.
    with WrapperStore.for_extraction(options.db) as opened:
        writable = not opened.readonly
    runner = _Runner(options)
    try:
        with ExitStack() as stack:
            extracted = None
            if options.learn:
                spill = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="forest-learn-")))
                extracted = _learn(inputs, options, runner, summary, spill)
            for result in _extract(inputs, runner, extracted):
                result = result.shown()
                summary.add(result)
                if result.counted is not None:
                    pages_misses = counts.setdefault(result.counted, [0, 0])
                    pages_misses[0] += 1
                    pages_misses[1] += int(result.miss)
                yield result
    finally:
        runner.close()
        summary.seconds = time.perf_counter() - start
    if counts and writable:
        with WrapperStore(options.db) as store:
            for site, (pages, misses) in counts.items():
                store.record_extractions(site, pages=pages, misses=misses)


class _Extracted:
    """The records learning's tasks made of the sample pages, on disk until the second pass reaches them."""

    def __init__(self, spill: Path) -> None:
        self._spill = spill
        self.positions: set[int] = set()

    def put(self, position: int, result: Result) -> None:
        (self._spill / f"{position}.result").write_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        self.positions.add(position)

    def take(self, position: int) -> Result:
        path = self._spill / f"{position}.result"
        result: Result = pickle.loads(path.read_bytes())
        path.unlink()
        return result


def _learn(inputs: Inputs, options: Options, runner: _Runner, summary: Summary, spill: Path) -> _Extracted:
    """First pass: count pages per site, keep each site's first K; then learn the sites with more than K pages,
    each task extracting its sample pages too."""
    k = options.learn or 0
    counts: Counter[str] = Counter()
    # Per site: each kept page as spilled (not the item read: a WARC record's holds its bytes), the URL to
    # learn it with, its input position, and its record's source and URL.
    samples: dict[str, list[tuple[Item, str | None, int, str, str | None]]] = {}
    for position, item in enumerate(inputs):
        if item.kind not in ("file", "bytes"):
            continue  # URLs learn from their feed; errors and skipped records are not pages
        try:
            data = item.read(options.settings.max_page_bytes)
            site, url = sample_site(ParsedPage(data, url=item.url, charset=item.charset,
                                               max_bytes=options.settings.max_page_bytes), options.site)
        except (OSError, ParseError):
            continue
        if site is None:
            continue
        counts[site] += 1
        kept = samples.setdefault(site, [])
        if len(kept) < k:
            kept.append((_spill(item, data, spill / str(position)), url, position, item.source, item.url))
    # Closed before the pool forks: a child never inherits an open SQLite connection.
    with WrapperStore(options.db, readonly=True) as store:
        stored = {site for site in samples if counts[site] > k and store.info(site) is not None}
    tasks = (
        (site, _read_samples(kept, options.settings.max_page_bytes), counts[site])
        for site, kept in samples.items() if counts[site] > k and site not in stored
    )
    runner.decide(counts.total())
    extracted = _Extracted(spill)
    for error, results in runner.map(_learn_task, lambda worker, task: worker.learn(*task), tasks, lambda task: len(task[1])):
        if error is None:
            summary.learned += 1
        else:
            summary.learn_failed += 1
        for position, result in results:
            extracted.put(position, result)
    return extracted


def _extract(inputs: Inputs, runner: _Runner, extracted: _Extracted | None) -> Iterator[Result]:
    """Second pass: every page's record in input order, the sample pages' from learning, the others' from the pool."""
    done = extracted.positions if extracted is not None else set()
    waiting = sorted(done)
    layouts: deque[list[int]] = deque()  # each task's pages' input positions, in task order

    def tasks() -> Iterator[list[Item]]:
        for chunk in _chunks(((p, item) for p, item in enumerate(inputs) if p not in done), CHUNK):
            layouts.append([p for p, _ in chunk])
            yield [item for _, item in chunk]

    at = 0
    for chunk in runner.map(_extract_chunk, lambda worker, items: [worker.process(item) for item in items], tasks(), len):
        for position, result in zip(layouts.popleft(), chunk):
            while extracted is not None and at < len(waiting) and waiting[at] < position:
                yield extracted.take(waiting[at])
                at += 1
            yield result
    if extracted is not None:
        for position in waiting[at:]:
            yield extracted.take(position)


def _read_samples(kept: list[tuple[Item, str | None, int, str, str | None]], max_bytes: int) -> list[_Sample]:
    """A site's kept pages to learn from; a page that cannot be read again (a file changed since the first
    pass, a WARC record over the size limit) is left out, as learning leaves out unreadable pages, and the
    second pass extracts it."""
    samples = []
    for entry, url, position, source, item_url in kept:
        try:
            data = entry.read(max_bytes)
        except (OSError, ParseError):
            continue
        samples.append(_Sample(data, url, entry.charset, position, source, item_url))
    return samples


def _spill(item: Item, data: bytes, path: Path) -> Item:
    """``item`` to keep until learning: a file as its path, a page already read (WARC, stdin) as a file in the spill directory."""
    if item.kind == "file":
        return item
    path.write_bytes(data)
    return Item(str(path), "file", url=item.url, charset=item.charset)


def default_jobs() -> int:
    """The machine's cores (``os.cpu_count()``), at least 1."""
    return os.cpu_count() or 1
