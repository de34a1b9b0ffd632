"""Titles against the gold: `python -m eval.titles` scores forest's title and trafilatura's metadata title.

Site-level, as `forest eval`: per site with enough pages, forest learns from k pages
(eval.protocol.split, the same split) and extracts the others; every test page with a
gold title counts.  A title is right when it equals the gold title after whitespace
normalization.  trafilatura (the peers extra) reads each test page alone
(``trafilatura.extract_metadata``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from eval import datasets
from eval.protocol import split
from forest.config import Settings
from forest.errors import ForestError
from forest.extraction import extract
from forest.learning.induce import Inducer
from forest.wrapper import Wrapper

DATASETS = ("l3s_gn1", "cleanportaleval")


@dataclass(frozen=True, slots=True)
class TitleScore:
    """How many test pages with a gold title each system got exactly right."""

    dataset: str
    pages: int
    forest: int
    trafilatura: int | None  # None: trafilatura is not installed

    def share(self, right: int | None) -> str:
        if right is None:
            return "n/a"
        return f"{right / self.pages:.3f}" if self.pages else "n/a"


def normalized(text: str | None) -> str:
    return " ".join((text or "").split())


def score_titles(samples: Sequence[datasets.Sample], *, k: int = 5, seed: int = 0, min_pages: int = 6,
                 dataset: str = "") -> TitleScore:
    """Learn each site from ``k`` pages and score the titles of its other pages with a gold title."""
    peer = _trafilatura_title()
    pages = forest_right = peer_right = 0
    for site, site_samples in datasets.by_site(samples, min_pages=max(min_pages, k + 1)).items():
        train, test = split(site_samples, k, seed=seed, site=site)
        test = [s for s in test if normalized(s.gold_title)]
        if not test:
            continue
        wrapper: Wrapper | None
        try:
            wrapper = Inducer(Settings()).fit([s.page for s in train], site).wrapper_
        except ForestError:
            wrapper = None
        for sample in test:
            pages += 1
            gold = normalized(sample.gold_title)
            try:
                title = extract(wrapper, sample.html, url=sample.url).title
            except ForestError:
                title = ""
            forest_right += normalized(title) == gold
            if peer is not None:
                peer_right += normalized(peer(sample.html, sample.url)) == gold
    return TitleScore(dataset, pages, forest_right, peer_right if peer is not None else None)


def _trafilatura_title() -> Callable[[str, str | None], str] | None:
    try:
        from trafilatura import extract_metadata
    except ImportError:
        return None

    def title(html: str, url: str | None) -> str:
        try:
            meta = extract_metadata(html, default_url=url)
        except Exception:  # a peer that fails on a page gets no title for it
            return ""
        return (meta.title or "") if meta is not None else ""

    return title


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.titles", description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", action="append", help=f"dataset name or file; repeatable (default: {', '.join(DATASETS)})")
    parser.add_argument("--k", type=int, default=5, help="training pages per site (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the split (default 0)")
    parser.add_argument("--min-pages", type=int, default=6, help="sites with fewer pages are left out (default 6, as forest eval)")
    args = parser.parse_args(argv)
    print("dataset          test pages with gold title  forest  trafilatura")
    for name in args.dataset or DATASETS:
        result = score_titles(datasets.load(name), k=args.k, seed=args.seed, min_pages=args.min_pages, dataset=name)
        print(f"{name:<16} {result.pages:>27}  {result.share(result.forest):>6}  {result.share(result.trafilatura):>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
