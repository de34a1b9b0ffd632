"""The bundled example site (forest/examples/): its sample pages, its held-out page, and a token F1 to check the result."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"

# The page the demo extracts: it is not in the sample the wrapper learns from,
# and expected.txt holds its article text (title, then one paragraph per line).
HELD_OUT = "library-maps.html"

_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class ExampleSite:
    """A bundled example site: files on disk, one held out of the learning sample.

    :param site: the site key its pages' canonical URLs give (``example.test``).
    :param directory: where its files are.
    :param sample: the pages to learn from.
    :param held_out: a page of the same site to extract, not in ``sample``.
    :param expected: the held-out page's article text.
    :param feed: its RSS feed, whose links point at ``http://example.test/...``.
    """

    site: str
    directory: Path
    sample: tuple[Path, ...]
    held_out: Path
    expected: Path
    feed: Path


def example_site(site: str = "example.test") -> ExampleSite:
    """The bundled example site ``site`` (a directory under forest/examples/).

    :raises ValueError: if there is no such example.
    """
    directory = EXAMPLES_DIR / site
    if not directory.is_dir():
        raise ValueError(f"no bundled example site {site!r} in {EXAMPLES_DIR}")
    held_out = directory / HELD_OUT
    sample = tuple(sorted(p for p in directory.glob("*.html") if p != held_out))
    return ExampleSite(site, directory, sample, held_out, directory / "expected.txt", directory / "rss.xml")


def token_f1(predicted: str, gold: str) -> float:
    """Bag-of-words F1 of lower-cased ``\\w+`` tokens (the measure of eval.metrics, kept here so forest need not import eval)."""
    pred, want = Counter(_TOKEN.findall(predicted.lower())), Counter(_TOKEN.findall(gold.lower()))
    overlap = (pred & want).total()
    if not overlap:
        return 1.0 if not pred and not want else 0.0
    precision, recall = overlap / pred.total(), overlap / want.total()
    return 2 * precision * recall / (precision + recall)
