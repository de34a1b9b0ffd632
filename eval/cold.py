"""Cold extraction from the command line: `forest extract --format jsonl` with an empty database on every page of a dataset, against trafilatura.

Run ``python -m eval.cold`` (scrapinghub and cleaneval).  Each page is written to a file
as it would be saved (encoded in the charset its ``<meta charset>`` or XML declaration
names, else UTF-8), then one command, ``python -m forest extract --format jsonl --db EMPTY
--jobs N -o OUT DIR``, extracts them all; its records are scored against the gold text
(token F1, forest.score; a failed page scores 0).  Pages of sites the shipped classifier was
trained on are left out (eval.seen): a cold figure on them would score the classifier's training.
trafilatura (eval.peers) runs on the same pages, as ``forest eval`` runs it.  It prints per dataset the pages, forest's failed
pages and methods, and both mean F1s; and forest's F1 without the headline line its text
starts with (as dragnet's gold does, and scrapinghub's article bodies do not).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from eval.batchbench import read_records, timed
from eval.datasets import Sample, load
from eval.peers import Trafilatura
from eval.seen import classifier_training_sites, describe, drop_seen
from forest.charsets import text_codec
from forest.score import score

__all__ = ["main", "page_bytes", "without_headline"]

_DECLARED = re.compile(
    r"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)|^\s*<\?xml[^>]+encoding\s*=\s*["']([a-zA-Z0-9_.\-]+)""",
    re.IGNORECASE,
)


def page_bytes(html: str) -> bytes:
    """``html`` as a saved page's bytes: in the charset it declares (characters it lacks as references), else UTF-8."""
    match = _DECLARED.search(html[:4096])
    codec = text_codec(match.group(1) or match.group(2)) if match else None
    if codec and not codec.startswith(("utf-16", "utf-32")):
        return html.encode(codec, errors="xmlcharrefreplace")
    return html.encode("utf-8")


def without_headline(text: str, title: str | None) -> str:
    """``text`` without its first line when that line is ``title`` (whitespace aside)."""
    first, _, rest = text.partition("\n")
    return rest if title and " ".join(first.split()) == " ".join(title.split()) else text


@dataclass(frozen=True, slots=True)
class ColdResult:
    """One dataset's figures: pages, forest's failed pages (and their first distinct errors) and methods, both mean F1s."""

    dataset: str
    pages: int
    records: int
    failed: int
    errors: list[str]
    methods: dict[str, int]
    forest_f1: float
    forest_f1_headless: float  # forest's text without its headline line
    trafilatura_f1: float
    seconds: float
    exit: int


def _run(name: str, samples: Sequence[Sample], work: Path, jobs: int) -> ColdResult:
    pages = work / name
    pages.mkdir()
    sources = {}
    for index, sample in enumerate(samples):
        path = pages / f"{index:05d}.html"
        path.write_bytes(page_bytes(sample.html))
        sources[str(path)] = sample
    out = work / f"{name}.jsonl"
    run = timed([sys.executable, "-m", "forest", "extract", "--format", "jsonl", "--db", str(work / f"{name}.db"),
                 "--jobs", str(jobs), "-o", str(out), str(pages)])
    records = {r["source"]: r for r in read_records([out])} if out.exists() else {}
    failed = [r for r in records.values() if "error" in r]
    methods = Counter(str(r.get("method")) for r in records.values() if "error" not in r)
    texts = {s: str(r.get("text") or "") for s, r in records.items()}
    forest_f1 = [score(texts[s], sample.gold_text).f1 if s in texts else 0.0 for s, sample in sources.items()]
    headless = [score(without_headline(texts[s], records[s].get("title")), sample.gold_text).f1 if s in texts else 0.0
                for s, sample in sources.items()]
    trafilatura = Trafilatura()
    traf_f1 = []
    for sample in samples:
        try:
            traf_f1.append(score(trafilatura.extract(sample.page), sample.gold_text).f1)
        except Exception:  # a peer's failure on a page scores 0 for it
            traf_f1.append(0.0)
    return ColdResult(
        name, len(samples), len(records), len(failed), sorted({str(r["error"]) for r in failed})[:5], dict(methods),
        sum(forest_f1) / len(forest_f1), sum(headless) / len(headless), sum(traf_f1) / len(traf_f1), run.seconds, run.returncode,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.cold", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", action="append", help="dataset (repeatable; default: scrapinghub and cleaneval)")
    parser.add_argument("--jobs", type=int, default=1, help="forest's --jobs (default 1)")
    parser.add_argument("--limit", type=int, help="only each dataset's first pages")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory(prefix="forest-cold-") as scratch:
        seen = classifier_training_sites()
        for name in args.dataset or ["scrapinghub", "cleaneval"]:
            loaded = load(name)[: args.limit] if args.limit else load(name)
            samples, dropped = drop_seen(loaded, seen)
            note = describe(dropped, len(loaded) - len(samples), seen)
            if note:
                print(f"{name}: {note}", file=sys.stderr)
            if not samples:
                print(f"{name}: no page left to score", file=sys.stderr)
                continue
            results.append(_run(name, samples, Path(scratch), args.jobs))
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=2))
        return 0
    print("| dataset | pages | failed pages | methods | forest F1 | forest F1, no headline | trafilatura F1 | forest command (s) |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    for r in results:
        methods = ", ".join(f"{n} {m}" for m, n in sorted(r.methods.items()))
        f1s = f"{r.forest_f1:.3f} | {r.forest_f1_headless:.3f} | {r.trafilatura_f1:.3f}"
        print(f"| {r.dataset} | {r.pages} | {r.failed} | {methods} | {f1s} | {r.seconds:.1f} |")
        for error in r.errors:
            print(f"  failed: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
