"""A digest of every wrapper learning makes on the site-level datasets: the check that a change to learning changes no output.

Run ``python -m eval.wrappers`` before and after a change that should only make learning faster
or clearer: per dataset and k, it learns each site from the training split ``forest eval`` uses
(sites with more than k pages, seed 0) and prints one SHA-256 over the learned wrappers (their
stored form, without the learning time) and the refusals' messages.  Equal digests mean equal
wrappers.  ``--sites`` also prints each site's own digest, to find the one that moved.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from eval.datasets import by_site, load
from eval.protocol import split
from eval.suite import SITE_DATASETS
from forest.errors import LearnError
from forest.learning.induce import Inducer

__all__ = ["Digest", "digest", "main"]


@dataclass(frozen=True, slots=True)
class Digest:
    dataset: str
    k: int
    seed: int
    sites: dict[str, str]  # site -> the SHA-256 of its wrapper (or of its LearnError's message)
    refused: int  # sites learning refused
    seconds: float

    @property
    def sha256(self) -> str:
        return hashlib.sha256("\n".join(f"{site} {sha}" for site, sha in sorted(self.sites.items())).encode()).hexdigest()


def digest(dataset: str, k: int, seed: int = 0) -> Digest:
    """Learn every site of ``dataset`` with more than ``k`` pages from its training split and digest the wrappers."""
    start = time.perf_counter()
    sites: dict[str, str] = {}
    refused = 0
    for site, samples in by_site(load(dataset), min_pages=k + 1).items():
        train, _ = split(samples, k, seed=seed, site=site)
        try:
            stored = Inducer().fit([s.page for s in train], site).wrapper_.to_dict()
            stored.pop("learned_at")
            learned = json.dumps(stored, sort_keys=True, ensure_ascii=False)
        except LearnError as exc:
            learned, refused = f"LearnError: {exc}", refused + 1
        sites[site] = hashlib.sha256(learned.encode()).hexdigest()
    return Digest(dataset, k, seed, sites, refused, time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.wrappers", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", action="append", help=f"dataset (repeatable; default: {', '.join(SITE_DATASETS)})")
    parser.add_argument("--k", type=int, action="append", help="training pages per site (repeatable; default: 5 and 10)")
    parser.add_argument("--seed", type=int, default=0, help="the training split's seed (default 0)")
    parser.add_argument("--sites", action="store_true", help="also print each site's digest")
    args = parser.parse_args(argv)
    for name in args.dataset or SITE_DATASETS:
        for k in args.k or (5, 10):
            d = digest(name, k, args.seed)
            print(f"{d.dataset} k={d.k} seed={d.seed}: {len(d.sites)} sites, {d.refused} refused, "
                  f"wrappers {d.sha256[:16]}  ({d.seconds:.1f} s)", flush=True)
            if args.sites:
                for site, sha in sorted(d.sites.items()):
                    print(f"  {site} {sha[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
