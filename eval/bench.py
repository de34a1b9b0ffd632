"""Speed benchmark: extraction with a stored wrapper against lxml's bare parse, and learning a site from 10 pages."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from lxml import html as lxml_html

from eval.datasets import Sample
from eval.protocol import split
from eval.systems import System
from forest.config import Settings
from forest.html import without_xml_declaration
from forest.errors import ForestError, LearnError
from forest.extraction import extract, extract_span
from forest.learning.induce import Inducer
from forest.wrapper import Wrapper

__all__ = ["Bench", "LearnTiming", "PageTiming", "best_ms", "run_bench", "summary", "text"]

# DESIGN.md section 6: a site is learned from 10 fetched pages.
LEARN_PAGES = 10


@dataclass(frozen=True, slots=True)
class PageTiming:
    """Best-of-n times of one test page: forest's extraction as shipped, lxml's parse, and each peer's extraction."""

    site: str
    page: str
    method: str
    extract_ms: float  # as shipped, text only: the classifier runs only on pages no pattern fits
    parse_ms: float
    spanned: bool = False  # read from the part of its source the wrapper's span bounds (forest.extraction.span)
    peer_ms: Mapping[str, float | None] = field(default_factory=dict)  # peer -> ms (None: it failed on the page)


@dataclass(frozen=True, slots=True)
class LearnTiming:
    """Learning one site from its sample pages: best-of-n wall and CPU seconds."""

    site: str
    pages: int
    wall_s: float
    cpu_s: float
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Bench:
    """One dataset's speed measurements."""

    dataset: str
    k: int
    repeat: int
    peers: tuple[str, ...]
    pages: tuple[PageTiming, ...]
    learns: tuple[LearnTiming, ...]
    notes: tuple[str, ...] = ()


def best_ms(function: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` timed calls of ``function``, in ms, after one untimed warm-up call.

    The minimum is the least disturbed run: other processes on the machine only add time.
    """
    function()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _parse(text: str) -> None:
    try:
        lxml_html.document_fromstring(text)
    except Exception:  # a page lxml refuses still took this long to refuse
        pass


def _stored(wrapper: Wrapper) -> Wrapper:
    # What the store hands back: the wrapper after a JSON round trip.
    return Wrapper.from_dict(json.loads(json.dumps(wrapper.to_dict())))


def run_bench(
    name: str,
    sites: Mapping[str, Sequence[Sample]],
    *,
    k: int = 5,
    seed: int = 0,
    repeat: int = 3,
    settings: Settings | None = None,
    peers: Sequence[System] = (),
    progress: Callable[[str], None] | None = None,
) -> Bench:
    """Time extraction on every test page (sites with more than ``k`` pages, the protocol's split)
    and learning from :data:`LEARN_PAGES` pages (sites with at least that many)."""
    settings = settings or Settings()
    pages: list[PageTiming] = []
    learns: list[LearnTiming] = []
    notes: list[str] = []
    for site, samples in sorted(sites.items()):
        if progress:
            progress(f"{name}: {site}")
        if len(samples) > k:
            train, test = split(samples, k, seed=seed, site=site)
            try:
                wrapper: Wrapper | None = _stored(Inducer(settings).fit([s.page for s in train], site).wrapper_)
            except LearnError:
                wrapper = None
                notes.append(f"{site}: no wrapper learned; its pages were timed with the single-page fallback")
            for sample in test:
                timing = _time_page(sample, wrapper, settings, repeat, peers)
                if timing is None:
                    notes.append(f"{sample.id}: forest refused the page (not timed)")
                else:
                    pages.append(timing)
        if len(samples) >= LEARN_PAGES:
            learns.append(_time_learning(site, split(samples, LEARN_PAGES, seed=seed, site=site)[0], settings, repeat))
    return Bench(name, k, repeat, tuple(p.name for p in peers), tuple(pages), tuple(learns), tuple(notes))


def _time_page(sample: Sample, wrapper: Wrapper | None, settings: Settings, repeat: int, peers: Sequence[System]) -> PageTiming | None:
    html, url = sample.html, sample.url
    try:
        method = extract(wrapper, html, url=url, settings=settings).method
    except ForestError:
        return None
    spanned = wrapper is not None and extract_span(wrapper, html, url=url, settings=settings) is not None
    extract_ms = best_ms(lambda: extract(wrapper, html, url=url, settings=settings), repeat)
    text = without_xml_declaration(html)
    parse_ms = best_ms(lambda: _parse(text), repeat)
    peer_ms: dict[str, float | None] = {}
    page = sample.page
    for peer in peers:
        try:
            peer_ms[peer.name] = best_ms(lambda: peer.extract(page), repeat)  # noqa: B023 (called at once)
        except Exception:  # a peer that fails on this page has no time for it
            peer_ms[peer.name] = None
    return PageTiming(sample.site, sample.id, method, extract_ms, parse_ms, spanned, peer_ms)


def _time_learning(site: str, train: Sequence[Sample], settings: Settings, repeat: int) -> LearnTiming:
    pages = [s.page for s in train]
    wall = cpu = float("inf")
    error = None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            Inducer(settings).fit(pages, site)
        except LearnError as exc:
            error = " ".join(str(exc).split())
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return LearnTiming(site, len(pages), wall, cpu, error)


def _median(values: Sequence[float]) -> float | None:
    return float(np.median(values)) if len(values) else None


def _ratios(pages: Sequence[PageTiming]) -> dict[str, float | None]:
    extract_med = _median([p.extract_ms for p in pages])
    parse_med = _median([p.parse_ms for p in pages])
    return {
        "pages": len(pages),
        "extract_ms_median": extract_med,
        "parse_ms_median": parse_med,
        "ratio_of_medians": extract_med / parse_med if extract_med is not None and parse_med else None,
        "median_of_ratios": _median([p.extract_ms / p.parse_ms for p in pages if p.parse_ms > 0]),
    }


def summary(bench: Bench) -> dict[str, Any]:
    """The criteria as numbers: extraction / parse ratios, each peer's time on the same pages, learning seconds."""
    learned = [t for t in bench.learns if t.error is None]
    methods: dict[str, int] = {}
    for p in bench.pages:
        methods[p.method] = methods.get(p.method, 0) + 1
    peers = {}
    for name in bench.peers:
        timed = [p for p in bench.pages if p.peer_ms.get(name) is not None]
        peer_med = _median([p.peer_ms[name] for p in timed])  # type: ignore[misc]
        forest_med = _median([p.extract_ms for p in timed])
        peers[name] = {
            "pages": len(timed),
            "ms_median": peer_med,
            "forest_ms_median": forest_med,
            "speedup_of_medians": peer_med / forest_med if peer_med and forest_med else None,
        }
    return {
        "dataset": bench.dataset,
        "k": bench.k,
        "repeat": bench.repeat,
        "methods": methods,
        "all_pages": _ratios(bench.pages),
        "wrapper_pages": _ratios([p for p in bench.pages if p.method == "wrapper"]),
        "spanned_pages": sum(p.spanned for p in bench.pages),
        "peers": peers,
        "learn_sites": len(bench.learns),
        "learn_failures": len(bench.learns) - len(learned),
        "learn_wall_s_median": _median([t.wall_s for t in bench.learns]),
        "learn_wall_s_max": max((t.wall_s for t in bench.learns), default=None),
        "learn_cpu_s_median": _median([t.cpu_s for t in bench.learns]),
        "learn_cpu_s_max": max((t.cpu_s for t in bench.learns), default=None),
        "notes": list(bench.notes),
    }


def to_dict(bench: Bench) -> dict[str, Any]:
    """The summary plus every page and site timing."""
    return summary(bench) | {"page_timings": [asdict(p) for p in bench.pages], "learn_timings": [asdict(t) for t in bench.learns]}


def _f(value: float | None, digits: int = 2, suffix: str = "") -> str:
    return "-" if value is None else f"{value:.{digits}f}{suffix}"


def text(bench: Bench) -> str:
    """A short human report of one dataset's benchmark."""
    s = summary(bench)
    lines = [f"== {bench.dataset}: forest as shipped with a stored wrapper (text only), k={bench.k}, best of {bench.repeat} after a warm-up"]
    methods = ", ".join(f"{kind} {count}" for kind, count in sorted(s["methods"].items())) or "no pages"
    lines.append(f"pages by method: {methods}; {s['spanned_pages']} read from the part of their source the wrapper's span bounds")
    for label, key in (("all pages", "all_pages"), ("wrapper pages", "wrapper_pages")):
        r = s[key]
        lines.append(
            f"{label} ({r['pages']}): forest median {_f(r['extract_ms_median'])} ms, lxml parse median "
            f"{_f(r['parse_ms_median'])} ms; median(forest)/median(parse) {_f(r['ratio_of_medians'])}x, "
            f"median of per-page ratios {_f(r['median_of_ratios'])}x  (target: within 1.5x)"
        )
    for name, peer in s["peers"].items():
        lines.append(
            f"{name} on the same {peer['pages']} pages: median {_f(peer['ms_median'])} ms against forest's "
            f"{_f(peer['forest_ms_median'])} ms ({_f(peer['speedup_of_medians'], 1)}x forest's time)"
        )
    if bench.learns:
        lines.append(
            f"learning from {LEARN_PAGES} pages, {s['learn_sites']} sites: wall median {_f(s['learn_wall_s_median'], 3)} s, "
            f"max {_f(s['learn_wall_s_max'], 3)} s; CPU median {_f(s['learn_cpu_s_median'], 3)} s, "
            f"max {_f(s['learn_cpu_s_max'], 3)} s; {s['learn_failures']} failed  (target: median under 0.5 s)"
        )
    else:
        lines.append(f"learning: no site has {LEARN_PAGES} pages")
    lines += [f"note: {note}" for note in bench.notes]
    return "\n".join(lines) + "\n"


def pooled_learning(benches: Sequence[Bench]) -> str:
    """One line on learning over every site of every dataset timed: the median site, whatever its dataset.

    A dataset's own median can stand on few sites (cleanportaleval has 4 with ten pages, so its
    median is the mean of two); the median over all of them is the typical site's.
    """
    timings = [t for bench in benches for t in bench.learns]
    learned = [t for t in timings if t.error is None]
    if not timings:
        return f"learning: no site of the datasets has {LEARN_PAGES} pages\n"
    return (
        f"learning from {LEARN_PAGES} pages, all {len(benches)} datasets, {len(timings)} sites: wall median "
        f"{_f(_median([t.wall_s for t in timings]), 3)} s, CPU median {_f(_median([t.cpu_s for t in timings]), 3)} s; "
        f"{len(timings) - len(learned)} failed  (target: median under 0.5 s)\n"
    )
