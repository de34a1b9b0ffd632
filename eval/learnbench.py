"""Learning's speed against lxml's parse of the sample pages: issue 44's second criterion.

Run ``python -m eval.learnbench`` (dragnet and big9, dev sites; ``--split test`` for the report).
Per site with more than ``k`` pages in the split, the ``k`` training pages of eval.protocol.split
(seed 0) are learned from as ``forest learn --site S FILES`` does (forest.service.pages: the
files' bytes grouped by site, then learned without a store), and the same pages are parsed by
``lxml.html.document_fromstring``.  In one process, the two are timed in turn, ``--repeat``
times each, interleaved; a site's time is its fastest run.  Times are the process's CPU time, as
in eval.coldbench: on a shared machine other processes preempt the long learning more often than
the short parses, and wall time would inflate the ratio with the machine's load.  It prints per
dataset the sites, both medians and the median of the per-site ratios, then that median over
every site of the datasets.  Only ratios compare across machines.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from lxml import html as lxml_html

from eval import datasets
from eval.protocol import learn_files, split
from forest.config import Settings
from forest.html import without_xml_declaration

__all__ = ["LearnTiming", "main", "time_dataset", "time_site"]

DATASETS = ("dragnet", "big9")


@dataclass(frozen=True, slots=True)
class LearnTiming:
    """One site's fastest CPU times, in ms: learning from its sample pages and lxml's parse of them."""

    dataset: str
    site: str
    pages: int
    learn_ms: float
    parse_ms: float
    learned: bool  # False: learning refused the site (a ForestError), timed all the same

    @property
    def ratio(self) -> float:
        return self.learn_ms / max(self.parse_ms, 1e-9)


def _parse(text: str) -> None:
    try:
        lxml_html.document_fromstring(text)
    except Exception:  # a page lxml refuses still took this long to refuse
        pass


def time_site(dataset: str, site: str, train: Sequence[datasets.Sample], *, repeat: int = 3,
              settings: Settings | None = None) -> LearnTiming:
    """Time learning ``site`` from ``train`` and parsing its pages, interleaved, fastest of ``repeat`` each."""
    settings = settings or Settings()
    sources = [(sample.id, sample.html.encode("utf-8")) for sample in train]
    texts = [without_xml_declaration(sample.html) for sample in train]
    clock = time.process_time
    learned = learn_files(sources, site, settings) is not None  # warm-up: the classifier's model loads once
    best_learn = best_parse = float("inf")
    for _ in range(repeat):
        start = clock()
        for text in texts:
            _parse(text)
        best_parse = min(best_parse, clock() - start)
        start = clock()
        learn_files(sources, site, settings)
        best_learn = min(best_learn, clock() - start)
    return LearnTiming(dataset, site, len(train), best_learn * 1000, best_parse * 1000, learned)


def sites_of(name: str, split_name: datasets.Split, *, k: int, seed: int) -> list[tuple[str, list[datasets.Sample]]]:
    """``(site, training pages)`` of every site of ``name`` in the split with more than ``k`` pages."""
    samples = [s for s in datasets.load(name) if datasets.in_split(name, s.site, split_name)]
    return [(site, split(pages, k, seed=seed, site=site)[0]) for site, pages in datasets.by_site(samples, min_pages=k + 1).items()]


def time_dataset(name: str, split_name: datasets.Split = "dev", *, k: int = 5, seed: int = 0, repeat: int = 3,
                 limit: int = 0) -> list[LearnTiming]:
    """Every site's timing (``limit``: that many sites, spread evenly; 0: all)."""
    sites = sites_of(name, split_name, k=k, seed=seed)
    if 0 < limit < len(sites):
        picks = sorted(set(np.linspace(0, len(sites) - 1, limit).round().astype(int).tolist()))
        sites = [sites[i] for i in picks]
    return [time_site(name, site, train, repeat=repeat) for site, train in sites]


def summary(label: str, timings: Sequence[LearnTiming]) -> str:
    if not timings:
        return f"{label}: no site timed"
    learn, parse = float(np.median([t.learn_ms for t in timings])), float(np.median([t.parse_ms for t in timings]))
    refused = sum(not t.learned for t in timings)
    return (f"{label}: {len(timings)} sites ({refused} refused); median learning {learn:.1f} ms, parse of its pages "
            f"{parse:.2f} ms; median of ratios {float(np.median([t.ratio for t in timings])):.2f}x")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.learnbench", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("datasets", nargs="*", default=list(DATASETS), help="dataset names (default: %(default)s)")
    parser.add_argument("--split", choices=("dev", "test"), default="dev", help="the datasets' sites (default: %(default)s)")
    parser.add_argument("--k", type=int, default=5, help="sample pages per site (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the split (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each site, fastest kept (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=0, help="sites per dataset, spread evenly (default: all)")
    parser.add_argument("--sites", action="store_true", help="also print each site's times")
    args = parser.parse_args(argv)
    every: list[LearnTiming] = []
    for name in args.datasets:
        timings = time_dataset(name, args.split, k=args.k, seed=args.seed, repeat=args.repeat, limit=args.limit)
        if args.sites:
            for t in timings:
                print(f"  {t.site}: learning {t.learn_ms:.1f} ms, parse {t.parse_ms:.2f} ms, {t.ratio:.1f}x"
                      f"{'' if t.learned else ' (refused)'}", flush=True)
        print(summary(f"{name} {args.split}", timings), flush=True)
        every.extend(timings)
    if len(args.datasets) > 1:
        print(summary(f"all {args.split}", every), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
