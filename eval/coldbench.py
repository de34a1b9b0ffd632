"""Cold extraction's speed against lxml's parse of the same page: issue 44's first criterion.

Run ``python -m eval.coldbench`` (scrapinghub, cleaneval and wcxb_dev).  For every page, in one
process, the parse (``lxml.html.document_fromstring``) and forest's cold extraction
(``forest.extraction.extract`` with no wrapper: the classifier) are timed in turn, ``--repeat``
times each, interleaved; a page's time is its fastest run.  Times are the process's CPU time: on a
shared machine other processes preempt the long extraction more often than the short parse, and
wall time would inflate the ratio with the machine's load.  It prints per dataset the pages, both
medians and two ratios: the ratio of the medians and the median of the per-page ratios.  Only
ratios compare across machines.

Pages of the sites the shipped classifier was trained on are left out (eval.seen), as in every
cold figure; ``--limit`` takes that many pages spread evenly over a dataset (0: all).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from lxml import html as lxml_html

from eval.datasets import Sample, load
from eval.seen import classifier_training_sites, drop_seen
from forest.config import Settings
from forest.errors import ForestError
from forest.extraction import extract
from forest.html import without_xml_declaration

__all__ = ["ColdTiming", "main", "time_dataset"]

DATASETS = ("scrapinghub", "cleaneval", "wcxb_dev")


@dataclass(frozen=True, slots=True)
class ColdTiming:
    """One dataset's per-page fastest CPU times, in ms: cold extraction and lxml's parse, page by page."""

    dataset: str
    extract_ms: tuple[float, ...]
    parse_ms: tuple[float, ...]
    refused: int  # pages forest refused (a ForestError): not timed

    def summary(self) -> str:
        if not self.extract_ms:
            return f"{self.dataset}: no page timed"
        extract_med, parse_med = float(np.median(self.extract_ms)), float(np.median(self.parse_ms))
        ratios = np.asarray(self.extract_ms) / np.maximum(np.asarray(self.parse_ms), 1e-9)
        return (
            f"{self.dataset}: {len(self.extract_ms)} pages ({self.refused} refused); median cold extraction "
            f"{extract_med:.2f} ms, parse {parse_med:.2f} ms; ratio of medians {extract_med / parse_med:.2f}x, "
            f"median of ratios {float(np.median(ratios)):.2f}x"
        )


def _parse(text: str) -> None:
    try:
        lxml_html.document_fromstring(text)
    except Exception:  # a page lxml refuses still took this long to refuse
        pass


def _spread(samples: Sequence[Sample], limit: int) -> list[Sample]:
    if limit <= 0 or len(samples) <= limit:
        return list(samples)
    picks = np.linspace(0, len(samples) - 1, limit).round().astype(int)
    return [samples[i] for i in sorted(set(picks.tolist()))]


def time_dataset(name: str, samples: Sequence[Sample], *, repeat: int = 3, settings: Settings | None = None) -> ColdTiming:
    """Time cold extraction and the parse of every page of ``samples``, interleaved, fastest of ``repeat`` each."""
    settings = settings or Settings()
    extract_ms: list[float] = []
    parse_ms: list[float] = []
    refused = 0
    clock = time.process_time
    for sample in samples:
        html, url = sample.html, sample.url
        text = without_xml_declaration(html)
        try:
            extract(None, html, url=url, settings=settings)  # warm-up, and refusal check
        except ForestError:
            refused += 1
            continue
        _parse(text)
        best_extract = best_parse = float("inf")
        for _ in range(repeat):
            start = clock()
            _parse(text)
            best_parse = min(best_parse, clock() - start)
            start = clock()
            extract(None, html, url=url, settings=settings)
            best_extract = min(best_extract, clock() - start)
        extract_ms.append(best_extract * 1000)
        parse_ms.append(best_parse * 1000)
    return ColdTiming(name, tuple(extract_ms), tuple(parse_ms), refused)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.coldbench", description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", default=list(DATASETS), help="dataset names (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each page, fastest kept (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=0, help="pages per dataset, spread evenly (default: all)")
    args = parser.parse_args(argv)
    seen = classifier_training_sites()
    for name in args.datasets:
        samples, _ = drop_seen(load(name), seen)
        print(time_dataset(name, _spread(samples, args.limit), repeat=args.repeat).summary(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
