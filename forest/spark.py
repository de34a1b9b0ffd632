"""forest on Spark: learn every site of a crawl from K of its pages and extract all its pages, past one machine.

Run ``python -m forest.spark --input PATH... --output DIR [--learn K] [--master URL]``, or
hand this file to ``spark-submit`` with the same arguments.  It reads WARC files (local
paths, directories, globs, or any Hadoop-filesystem URI: ``hdfs://``, ``s3a://``...) with
``binaryFiles``, so each task holds one WARC file in memory (Common Crawl's are about
1 GB: size the executors for it); parses them with FastWARC; repartitions the pages by
site (the registered domain of the record's target URI) and sorts each partition by
site, file and offset; then walks each site's pages keeping at most K + 1 in memory:
a site with more than K pages is learned from its first K (in file and offset order) and
all its pages are extracted with that wrapper, the others cold, exactly as
``forest extract --learn K`` does with an empty store.  Each page gives one JSON line with
the CLI's record fields (``source`` is ``FILE#OFFSET``) in ``part-*`` files under DIR.

pyspark is the optional extra ``[spark]`` and needs Java 17 or newer.  forest (and FastWARC)
must be importable on the executors: install the package on every node, or ship a zipped
environment with ``--archives``.  The Python workers run the interpreter that started the
job (so a venv's forest is found without the venv on PATH), unless ``PYSPARK_PYTHON`` names
another.  At the end the job prints the CLI's summary line on stderr.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from forest.batch.item import Item
from forest.batch.pages import SPAN_MIN_PAGES, Result, extract_item, failure, learn_site
from forest.batch.run import Summary
from forest.batch.warc import warc_items
from forest.config import Settings
from forest.errors import ForestError
from forest.page import ParsedPage
from forest.service.pages import page_site
from forest.wrapper import Wrapper

__all__ = ["main", "pages_of_warc", "run", "site_records"]

# Sort key of a page: its site, then where it is (file, offset), so that a site's pages
# are consecutive in a partition and in crawl order.
Key = tuple[str, str, int]


def pages_of_warc(path: str, data: bytes, skipped: Any = None) -> Iterator[tuple[Key, Item]]:
    """The pages of one WARC file's bytes, keyed by (site, file, offset); records that are not pages are left out.

    :param skipped: a Spark accumulator counting the records left out, or None.
    """
    for item in warc_items(io.BytesIO(data), path):
        if item.kind == "skip":
            if skipped is not None:
                skipped.add(1)
            continue
        offset = int(item.source.rsplit("#", 1)[1]) if "#" in item.source else 0
        # The site the batch reads a WARC record as (no store: its URL's registered domain).
        site = page_site(ParsedPage(item.data or b"", url=item.url), store=None, canonical=False).site
        yield (site or "", path, offset), item


def site_records(pages: Iterable[tuple[Key, Item]], learn: int | None, settings: Settings,
                 learned: Any = None) -> Iterator[dict[str, Any]]:
    """The records of a partition's pages, sorted by key: each site with more than ``learn`` pages is learned from its first ``learn``.

    :param learned: Spark accumulators ``(learned, could not be learned)`` counting the sites, or None.
    """
    for site, group in itertools.groupby(pages, key=lambda pair: pair[0][0]):
        items = (item for _, item in group)
        # Read ahead far enough to know whether the site has pages enough to learn, and to learn its span.
        head = list(itertools.islice(items, max(learn + 1, SPAN_MIN_PAGES) if learn else 1))
        wrapper: Wrapper | None = None
        if learn and site and len(head) > learn:
            samples = [(item.data, item.url, item.charset) for item in head[:learn] if item.data is not None]
            try:
                wrapper = learn_site(site, samples, settings, None, pages=len(head))
            except ForestError:
                wrapper = None
            if learned is not None:
                learned[wrapper is None].add(1)
        for item in itertools.chain(head, items):
            yield _extract(item, site or None, wrapper, settings).record()


def _extract(item: Item, site: str | None, wrapper: Wrapper | None, settings: Settings) -> Result:
    if item.kind == "error" or item.data is None:
        return Result(item.source, error=item.error or "not a page")
    try:
        page = ParsedPage(item.data, url=item.url, charset=item.charset, max_bytes=settings.max_page_bytes)
        return extract_item(page, source=item.source, site=site, store=None, wrapper_of=lambda _: wrapper, settings=settings)
    except Exception as exc:  # one page must not fail the job; the record says why
        return failure(item.source, exc)


def run(inputs: Sequence[str], output: str, *, learn: int | None = None, master: str | None = None,
        partitions: int | None = None, html: bool = False) -> None:
    """Extract every page of the WARC files ``inputs`` into JSON lines under ``output`` (see the module's docstring).

    :param html: records also carry the article's clean HTML (``html``), as the CLI's ``--html``.
    """
    from pyspark.rdd import portable_hash
    from pyspark.sql import SparkSession

    # Spark starts its Python workers with $PYSPARK_PYTHON, else whatever `python3` is on PATH:
    # without the venv on PATH that is the system's, which has no forest.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("forest extract")
    if master:
        builder = builder.master(master)
    # Spark's stage bar on a terminal only: piped, the summary line alone.
    builder = builder.config("spark.ui.showConsoleProgress", str(sys.stderr.isatty()).lower())
    spark = builder.getOrCreate()
    started = time.perf_counter()
    try:
        context = spark.sparkContext
        context.setLogLevel("ERROR")
        settings = Settings(html=html)
        count = partitions or context.defaultParallelism
        # Counted as the tasks run; a task Spark retries counts its sites and records again.
        skipped, learned = context.accumulator(0), (context.accumulator(0), context.accumulator(0))
        pages = context.binaryFiles(",".join(inputs)).flatMap(lambda pair: pages_of_warc(pair[0], pair[1], skipped))
        by_site = pages.repartitionAndSortWithinPartitions(count, partitionFunc=lambda key: portable_hash(key[0]))
        records = by_site.mapPartitions(lambda partition: site_records(partition, learn, settings, learned))
        records.map(lambda record: json.dumps(record, ensure_ascii=False)).saveAsTextFile(output)
        # The outcomes, read back from what was written (exact, whatever Spark retried).
        outcomes = context.textFile(output).map(lambda line: json.loads(line).get("method") or "").countByValue()
        summary = Summary(skipped=skipped.value, learned=learned[0].value, learn_failed=learned[1].value,
                          seconds=time.perf_counter() - started)
        for method, n in outcomes.items():
            summary.pages += n
            if method:
                summary.methods[method] += n
            else:
                summary.failed += n
        print(f"forest: {summary.line()}", file=sys.stderr)
    finally:
        spark.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m forest.spark", description=__doc__.split("\n")[0])
    parser.add_argument("--input", nargs="+", required=True, metavar="PATH",
                        help="WARC files, directories or globs: local paths or Hadoop-filesystem URIs")
    parser.add_argument("--output", required=True, metavar="DIR", help="directory to write the JSON lines to (must not exist)")
    parser.add_argument("--learn", type=int, metavar="K", help="learn each site with more than K pages from K of them")
    parser.add_argument("--master", help="Spark master URL, e.g. local[2] (default: spark-submit's, else Spark's)")
    parser.add_argument("--partitions", type=int, help="partitions to group sites into (default: Spark's default parallelism)")
    parser.add_argument("--html", action="store_true", help="records also carry the article's clean HTML (html), as the CLI's --html")
    args = parser.parse_args(argv)
    if args.learn is not None and args.learn < 1:
        parser.error("--learn must be at least 1")
    try:
        import pyspark  # noqa: F401
    except ImportError:
        print("error: forest.spark needs pyspark: pip install 'forest-extract[spark]'", file=sys.stderr)
        return 1
    run(args.input, args.output, learn=args.learn, master=args.master, partitions=args.partitions, html=args.html)
    return 0


if __name__ == "__main__":
    sys.exit(main())
