"""Throughput and F1 of `forest extract --learn K --jobs N` over a WARC of a gold dataset, against trafilatura on as many processes.

Run ``python -m eval.batchbench`` (dragnet, N = 1 and 2, K = 5).  It writes the dataset as a
WARC (eval.warc), then per N runs, each as its own command from start to exit, with an
empty wrapper database:

- ``python -m forest extract --learn K --jobs N -o OUT WARC`` (learning included), and
- trafilatura on a pool of N processes over the same WARC records (read with the same
  FastWARC reader, decoded with the same charset rules, in order), writing JSON lines.

It prints pages/s (pages over the command's wall time, start-up included), mean token F1
against the gold text (a failed page scores 0) over the pages of sites the shipped classifier
never saw (every page is extracted and timed; the pages of its training sites are not scored,
eval.seen), and the peak memory of the command's
processes summed (sampled from /proc every 50 ms).  ``--spark`` also runs
``python -m forest.spark --master local[N] --learn K`` and counts the records whose text
equals the CLI's.  ``--same-as DIR`` checks that forest's records equal, page by page, those
of a run kept with ``--keep DIR`` (before a change that must change no output: the WARC's
directory in ``source`` aside).  The machine's other load counts: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval.datasets import Sample, load
from eval.seen import Seen, classifier_training_sites, describe
from eval.warc import WarcPage, dataset_pages, write_warc
from forest.score import score

__all__ = ["Run", "differing_records", "main", "mean_f1", "read_records", "scored_gold", "timed"]

ROOT = Path(__file__).resolve().parent.parent
# How often the memory sampler reads /proc: short enough to see a worker's peak.
SAMPLE_S = 0.05


@dataclass(frozen=True, slots=True)
class Run:
    """One timed command: its wall time and the peak of its processes' summed resident memory."""

    seconds: float
    peak_mb: float
    returncode: int
    stderr: str


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, in KB (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        total += rss.get(current, 0)
        stack.extend(children.get(current, []))
    return total


def timed(command: Sequence[str], env: Mapping[str, str] | None = None) -> Run:
    """Run ``command`` from the repository root; its wall time and peak summed memory of its process tree."""
    start = time.perf_counter()
    process = subprocess.Popen(list(command), cwd=ROOT, env=dict(env) if env else None, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(process.pid))
            done.wait(SAMPLE_S)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = process.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return Run(seconds, peak / 1024, process.returncode, stderr)


def read_records(paths: Sequence[Path]) -> list[dict[str, Any]]:
    # Lines end at \n only: a text may hold U+2028, which str.splitlines() would split at.
    return [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def differing_records(records: Sequence[Mapping[str, Any]], kept: Sequence[Mapping[str, Any]]) -> list[int]:
    """The positions where two runs' records over the same WARC differ (every position past the shorter's
    end too), ``source`` compared without the WARC's directory (``DIR/name.warc.gz#offset``)."""

    def same_form(record: Mapping[str, Any]) -> dict[str, Any]:
        return {**record, "source": Path(str(record.get("source"))).name}

    longer = max(len(records), len(kept))
    return [i for i in range(longer)
            if i >= len(records) or i >= len(kept) or same_form(records[i]) != same_form(kept[i])]


def mean_f1(records: Sequence[Mapping[str, Any]], gold: Mapping[str, str]) -> tuple[float, int]:
    """Mean token F1 over every gold page (a page with no record or an error record scores 0), and the pages scored."""
    texts = {r.get("url"): r.get("text") or "" for r in records if "error" not in r}
    scores = [score(texts[url], text).f1 if url in texts else 0.0 for url, text in gold.items()]
    return (sum(scores) / len(scores) if scores else 0.0), len(scores)


def scored_gold(pairs: Sequence[tuple[WarcPage, Sample]], seen: Seen) -> tuple[dict[str, str], list[str]]:
    """The gold text by URL of the pages scored (those of sites the classifier never saw), and the seen sites left out.

    forest extracts a page of an unlearned site with the classifier: a page of a site the classifier
    trained on would score its training, not its extraction.
    """
    gold = {page.url: sample.gold_text for page, sample in pairs if sample.site not in seen.sites}
    return gold, sorted({sample.site for _, sample in pairs if sample.site in seen.sites})


# --- trafilatura over a WARC, on N processes -----------------------------------------------


def _trafilatura_page(task: tuple[str, str | None, bytes, str | None]) -> str:
    source, url, data, charset = task
    from eval.peers import Trafilatura
    from forest.errors import ForestError
    from forest.html import decode
    from forest.model import Page

    try:
        text = Trafilatura().extract(Page(decode(data, charset), url=url))
    except (ForestError, Exception) as exc:  # the peer's failure on one page is that page's error
        return json.dumps({"source": source, "url": url, "error": " ".join(str(exc).split())})
    return json.dumps({"source": source, "url": url, "text": text}, ensure_ascii=False)


def _warc_tasks(path: str) -> Iterator[tuple[str, str | None, bytes, str | None]]:
    from forest.batch.warc import read_warc

    for item in read_warc(path):
        if item.kind == "bytes" and item.data is not None:
            yield item.source, item.url, item.data, item.charset


def run_trafilatura(warc: str, jobs: int, out: Path) -> None:
    """Extract every page of ``warc`` with trafilatura on ``jobs`` processes, in order, into JSON lines at ``out``."""
    with open(out, "w", encoding="utf-8") as file:
        if jobs <= 1:
            lines: Iterator[str] = map(_trafilatura_page, _warc_tasks(warc))
            for line in lines:
                file.write(line + "\n")
            return
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for line in pool.imap(_trafilatura_page, _warc_tasks(warc), chunksize=16):
                file.write(line + "\n")


# --- the benchmark -------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.batchbench", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default="dragnet", help="gold dataset to write as a WARC (default: dragnet)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="process counts to compare (default: 1 2)")
    parser.add_argument("--learn", type=int, default=5, help="forest's --learn K (default: 5)")
    parser.add_argument("--limit", type=int, help="only the dataset's first pages")
    parser.add_argument("--copies", type=int, default=1, help="write the dataset this many times into the WARC (memory must not grow with it)")
    parser.add_argument("--systems", default="forest,trafilatura", help="comma-separated: forest, trafilatura (default: both)")
    parser.add_argument("--spark", action="store_true", help="also run forest.spark (local[N]) and compare its texts with the CLI's")
    parser.add_argument("--keep", type=Path, help="keep the WARC and outputs in this directory")
    parser.add_argument("--same-as", type=Path, metavar="DIR",
                        help="check that forest's records equal those of a run kept with --keep DIR (exit 1 if not)")
    parser.add_argument("--trafilatura-worker", nargs=3, metavar=("WARC", "JOBS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.trafilatura_worker:
        warc, jobs, out = args.trafilatura_worker
        run_trafilatura(warc, int(jobs), Path(out))
        return 0
    with tempfile.TemporaryDirectory(prefix="forest-batchbench-") as scratch:
        work = args.keep or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        samples = load(args.dataset)[: args.limit] if args.limit else load(args.dataset)
        pairs = list(dataset_pages(samples))
        seen = classifier_training_sites()
        gold, dropped = scored_gold(pairs, seen)
        warc = work / f"{args.dataset}.warc.gz"
        with open(warc, "wb") as out:
            # Copies repeat the pages (and their URLs): a site has that many times its pages.
            write_warc((page for _ in range(args.copies) for page, _ in pairs), out, name=warc.name)
        print(f"{args.dataset}: {len(pairs) * args.copies} pages ({args.copies} x {len(pairs)}), "
              f"{len({s.site for s in samples})} sites, WARC {warc.stat().st_size / 1e6:.1f} MB")
        left_out = describe(dropped, len(pairs) - len(gold), seen)
        print(f"F1 over the {len(gold)} pages of sites the classifier never saw"
              + (f"; {left_out}, extracted and timed but not scored" if left_out else ""))
        systems = set(args.systems.split(","))
        env = {k: v for k, v in os.environ.items() if k != "FOREST_DB"}
        rows = []
        changed = False
        for jobs in args.jobs:
            forest_out, traf_out, db = work / f"forest-{jobs}.jsonl", work / f"trafilatura-{jobs}.jsonl", work / f"forest-{jobs}.db"
            for stale in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
                stale.unlink(missing_ok=True)
            runs = {}
            if "forest" in systems:
                runs["forest"] = (timed([sys.executable, "-m", "forest", "extract", "--db", str(db), "--learn", str(args.learn),
                                         "--jobs", str(jobs), "-o", str(forest_out), str(warc)], env), forest_out)
            if "trafilatura" in systems:
                runs["trafilatura"] = (timed([sys.executable, "-m", "eval.batchbench", "--trafilatura-worker", str(warc), str(jobs),
                                              str(traf_out)], env), traf_out)
            for name, (run, out_path) in runs.items():
                if run.returncode != 0:
                    print(f"{name} --jobs {jobs} failed: {run.stderr.strip()[-500:]}", file=sys.stderr)
                    return 1
                f1, _ = mean_f1(read_records([out_path]), gold)
                rows.append((name, jobs, len(pairs) * args.copies, run.seconds, len(pairs) * args.copies / run.seconds, f1, run.peak_mb))
            if "forest" in runs:
                print(f"  forest summary (--jobs {jobs}): {runs['forest'][0].stderr.strip().splitlines()[-1]}")
                if args.same_as is not None:
                    records, kept = read_records([forest_out]), read_records([args.same_as / forest_out.name])
                    differing = differing_records(records, kept)
                    print(f"  forest --jobs {jobs}: {len(records) - len(differing)} of {len(records)} records the same as "
                          f"{args.same_as / forest_out.name}'s ({len(kept)} records)"
                          + (f"; the first differing: record {differing[0] + 1}" if differing else ""))
                    changed = changed or bool(differing)
        print()
        print("| system | jobs | pages | seconds | pages/s | mean F1 | peak memory (MB) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, jobs, pages, seconds, rate, f1, peak in rows:
            print(f"| {name} | {jobs} | {pages} | {seconds:.1f} | {rate:.1f} | {f1:.4f} | {peak:.0f} |")
        for jobs in args.jobs if systems >= {"forest", "trafilatura"} else ():
            forest_rate = next(r[4] for r in rows if r[0] == "forest" and r[1] == jobs)
            traf_rate = next(r[4] for r in rows if r[0] == "trafilatura" and r[1] == jobs)
            print(f"jobs {jobs}: forest / trafilatura throughput = {forest_rate / traf_rate:.2f}x")
        if args.spark:
            _compare_spark(warc, work, args.learn, max(args.jobs), env)
    return 1 if changed else 0


def _compare_spark(warc: Path, work: Path, learn: int, jobs: int, env: Mapping[str, str]) -> None:
    out = work / "spark"
    cli_records = read_records([work / f"forest-{jobs}.jsonl"])
    spark_env = {**env, "PYSPARK_PYTHON": sys.executable, "PYTHONPATH": str(ROOT)}
    run = timed([sys.executable, "-m", "forest.spark", "--master", f"local[{jobs}]", "--learn", str(learn),
                 "--input", str(warc), "--output", str(out)], spark_env)
    if run.returncode != 0:
        print(f"forest.spark failed: {run.stderr.strip()[-500:]}", file=sys.stderr)
        return
    spark_records = read_records(sorted(out.glob("part-*")))
    cli_texts = {r["url"]: (r.get("text"), r.get("error")) for r in cli_records}
    spark_texts = {r["url"]: (r.get("text"), r.get("error")) for r in spark_records}
    same = sum(1 for url, text in cli_texts.items() if spark_texts.get(url) == text)
    print(f"forest.spark local[{jobs}] --learn {learn}: {len(spark_records)} records in {run.seconds:.1f} s, "
          f"{same} of {len(cli_texts)} texts equal to the CLI's")


if __name__ == "__main__":
    sys.exit(main())
