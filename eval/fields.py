"""Titles, dates and authors against the gold: `python -m eval.fields` scores forest's and trafilatura's metadata.

Pages are given as saved files are, without their URL (``forest extract FILE``; trafilatura
gets none either, so neither reads a date from the URL).  Systems:

* ``cold``: forest with no wrapper (``forest extract FILE`` of an unknown site);
* ``learned`` (site-level datasets): per site with more than ``k`` pages in the split, forest
  learns from ``k`` of them as ``forest learn --site S FILES`` does (forest.service.pages:
  files grouped by their canonical link, learned without a feed) and extracts the others
  as ``forest extract --site S FILE`` does;
* ``trafilatura``: ``trafilatura.extract_metadata`` of each page alone (the peers extra).

Every system is scored on the same pages: a site-level dataset's test pages of the learned
sites (the pages left after the ``k`` training ones, eval.protocol.split), a page-level
dataset's pages.  Scores:

* title: equal to the gold title, whitespace-normalized and case-folded;
* date found / right: some date / the gold's calendar day (the date as the page states it,
  before any conversion to UTC);
* author found / right: some author / sharing words with the gold's author, a token F1 over
  lower-cased ``\\w+`` of at least 0.5 ("Dylan Bailey" is right for "Dylan Bailey, MS, RD").

"found" counts every scored page (big9 has no gold metadata: only what is found is reported
there); "right" counts the pages with a gold value; "found, no gold" the dates and authors given
on pages whose gold has none (wcxb_dev states both for every page: a product page has neither).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from eval import datasets
from eval.protocol import learn_files, split
from forest.config import Settings
from forest.errors import ForestError
from forest.extraction import extract
from forest.wrapper import Wrapper

DATASETS = ("wcxb_dev", "big9", "l3s_gn1")
SYSTEMS = ("cold", "learned", "trafilatura")
# An author is right when its words and the gold's overlap at least this much (token F1).
AUTHOR_F1 = 0.5
_WORD = re.compile(r"\w+")
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True, slots=True)
class Fields:
    """What one system says of one page."""

    title: str | None = None
    author: str | None = None
    date: str | None = None


@dataclass(frozen=True, slots=True)
class Gold:
    title: str | None
    author: str | None
    date: str | None
    known: bool = False  # the dataset states authors and dates (None: the page has none)


@dataclass(slots=True)
class Tally:
    """Counts of one system on one dataset's scored pages."""

    pages: int = 0
    with_title: int = 0
    title_right: int = 0
    with_date: int = 0
    date_found: int = 0
    date_right: int = 0
    with_author: int = 0
    author_found: int = 0
    author_right: int = 0
    # Found on a page whose gold says it has none (datasets with gold metadata only).
    date_spurious: int = 0
    author_spurious: int = 0

    def add(self, found: Fields, gold: Gold) -> None:
        self.pages += 1
        if gold.title:
            self.with_title += 1
            self.title_right += same_title(found.title, gold.title)
        self.date_found += bool(found.date)
        self.date_spurious += bool(found.date) and gold.known and not gold.date
        self.author_spurious += bool(found.author) and gold.known and not gold.author
        if gold.date:
            self.with_date += 1
            self.date_right += same_day(found.date, gold.date)
        self.author_found += bool(found.author)
        if gold.author:
            self.with_author += 1
            self.author_right += same_author(found.author, gold.author)


def normalized(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def same_title(found: str | None, gold: str) -> bool:
    return bool(found) and normalized(found) == normalized(gold)


def day_of(value: str | None) -> str | None:
    """The calendar day an ISO date or timestamp starts with ('2014-03-03T23:00:00-05:00' is 2014-03-03)."""
    match = _DAY.match((value or "").strip())
    return match.group(0) if match else None


def same_day(found: str | None, gold: str) -> bool:
    day = day_of(found)
    return day is not None and day == day_of(gold)


def same_author(found: str | None, gold: str) -> bool:
    got, want = _WORD.findall((found or "").casefold()), _WORD.findall(gold.casefold())
    if not got or not want:
        return False
    common = sum(min(got.count(w), want.count(w)) for w in set(want))
    if not common:
        return False
    precision, recall = common / len(got), common / len(want)
    return 2 * precision * recall / (precision + recall) >= AUTHOR_F1


def gold_of(sample: datasets.Sample) -> Gold:
    meta = sample.meta
    return Gold(
        title=sample.gold_title or None,
        author=str(meta["author"]) if meta.get("author") else None,
        date=str(meta["date"]) if meta.get("date") else None,
        known="author" in meta and "date" in meta,
    )


def forest_fields(wrapper: Wrapper | None, html: str) -> Fields:
    """What ``forest extract [--site S] FILE`` prints of the page: the bytes of a file, no URL."""
    try:
        article = extract(wrapper, html.encode("utf-8"), settings=Settings())
    except ForestError:
        return Fields()
    return Fields(article.title or None, article.author or None, article.date or None)


def trafilatura_reader() -> Callable[[str], Fields] | None:
    try:
        from trafilatura import extract_metadata
    except ImportError:
        return None

    def read(html: str) -> Fields:
        try:
            meta = extract_metadata(html)
        except Exception:  # a peer that fails on a page finds nothing on it
            return Fields()
        if meta is None:
            return Fields()
        return Fields(meta.title or None, meta.author or None, meta.date or None)

    return read


def scored_pages(samples: Sequence[datasets.Sample], split_name: datasets.Split, *, k: int, seed: int,
                 site_level: bool) -> Iterable[tuple[str, list[datasets.Sample], list[datasets.Sample]]]:
    """``(site, train, test)``: a site-level dataset's sites with more than ``k`` pages in the split; else one group of all pages."""
    dataset = samples[0].dataset if samples else ""
    chosen = [s for s in samples if datasets.in_split(dataset, s.site, split_name)]
    if not site_level:
        yield "", [], chosen
        return
    for site, pages in datasets.by_site(chosen, min_pages=k + 1).items():
        train, test = split(pages, k, seed=seed, site=site)
        yield site, train, test


def score(samples: Sequence[datasets.Sample], split_name: datasets.Split, *, k: int = 5, seed: int = 0,
          systems: Sequence[str] = SYSTEMS, verbose: bool = False) -> dict[str, Tally]:
    """Each system's tally on the dataset's scored pages."""
    dataset = samples[0].dataset if samples else ""
    site_level = dataset in datasets.SITE_LEVEL_DATASETS
    peer = trafilatura_reader() if "trafilatura" in systems else None
    readers: dict[str, Callable[[str], Fields]] = {}
    if "cold" in systems:
        readers["cold"] = lambda html: forest_fields(None, html)
    if peer is not None:
        readers["trafilatura"] = peer
    tallies = {name: Tally() for name in systems if name in readers or (name == "learned" and site_level)}
    for site, train, test in scored_pages(samples, split_name, k=k, seed=seed, site_level=site_level):
        if "learned" in tallies:
            wrapper = learn_files([(s.id, s.html.encode("utf-8")) for s in train], site, Settings())
            readers["learned"] = lambda html, wrapper=wrapper: forest_fields(wrapper, html)  # type: ignore[misc]
        for sample in test:
            gold = gold_of(sample)
            for name, tally in tallies.items():
                found = readers[name](sample.html)
                tally.add(found, gold)
                if verbose:
                    print(f"{name}\t{sample.id}\t{found.title!r}\t{found.date!r}\t{found.author!r}\t|\t{gold.title!r}\t"
                          f"{gold.date!r}\t{gold.author!r}", file=sys.stderr)
    return tallies


def _share(right: int, total: int) -> str:
    return f"{right / total:.3f} ({right}/{total})" if total else "n/a"


def _spurious(t: Tally) -> str:
    without_date, without_author = t.pages - t.with_date, t.pages - t.with_author
    return f"{t.date_spurious}/{without_date} {t.author_spurious}/{without_author}" if t.date_spurious or t.author_spurious else "-"


def table(dataset: str, split_name: str, tallies: dict[str, Tally]) -> list[str]:
    lines = []
    for name, t in tallies.items():
        lines.append(
            f"{dataset:<9} {split_name:<5} {name:<11} {t.pages:>5}  "
            f"{_share(t.title_right, t.with_title):>20}  {_share(t.date_found, t.pages):>20}  "
            f"{_share(t.date_right, t.with_date):>20}  {_share(t.author_found, t.pages):>20}  "
            f"{_share(t.author_right, t.with_author):>20}  {_spurious(t):>13}"
        )
    return lines


HEADER = (f"{'dataset':<9} {'split':<5} {'system':<11} {'pages':>5}  {'title right':>20}  {'date found':>20}  "
          f"{'date right':>20}  {'author found':>20}  {'author right':>20}  {'found, no gold':>13}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.fields", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--dataset", action="append", help=f"dataset name or file; repeatable (default: {', '.join(DATASETS)})")
    parser.add_argument("--split", choices=datasets.SPLITS, default="test",
                        help="site-level datasets' split (default test; page-level datasets are scored whole)")
    parser.add_argument("--k", type=int, default=5, help="training pages per site (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the split (default 0)")
    parser.add_argument("--system", action="append", choices=SYSTEMS, help="repeatable (default: all)")
    parser.add_argument("--verbose", action="store_true", help="each page's fields and gold on stderr")
    args = parser.parse_args(argv)
    print(HEADER)
    for name in args.dataset or DATASETS:
        samples = datasets.load(name)
        dataset = samples[0].dataset if samples else name
        split_name: datasets.Split = args.split if dataset in datasets.SITE_LEVEL_DATASETS else "all"
        tallies = score(samples, split_name, k=args.k, seed=args.seed, systems=args.system or SYSTEMS, verbose=args.verbose)
        for line in table(dataset, split_name, tallies):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
