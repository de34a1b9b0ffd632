"""The ``python -m eval.fuzz`` command: run the kinds asked for and print one report per kind (eval.fuzz)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from eval.fuzz.harness import Report, run_cases
from eval.fuzz.pages import census, replay, run

KINDS = ("pages", "feeds", "warc", "api")


def run_kind(kind: str, count: int, *, seed: int, timeout: float, progress: Callable[[int], None] | None = None) -> Report:
    """Fuzz ``count`` cases of ``kind`` (feeds, warc or api; pages go through eval.fuzz.pages.run)."""
    from eval.fuzz import api, feeds, warcs

    modules = {"feeds": feeds, "warc": warcs, "api": api}
    if kind not in modules:
        raise ValueError(f"kind must be one of {', '.join(modules)}, not {kind!r}")
    module = modules[kind]
    return run_cases(kind, module.cases(count, seed=seed), module.setup, timeout=timeout, progress=progress)


def replay_input(kind: str, number: int, *, seed: int, directory: Path) -> Path:
    """Write the input of case ``number`` of ``kind`` (feeds, warc or api) to a file in ``directory``, to debug it."""
    from eval.fuzz import api, feeds, warcs

    modules = {"feeds": feeds, "warc": warcs, "api": api}
    for index, (label, case_kind, payload) in enumerate(modules[kind].cases(number, seed=seed), 1):
        if index == number:
            # feeds: (kind, body, headers); warc: (bytes, suffix, expectations); api: (path, content type, body)
            data, suffix = {"feeds": (payload[1], ".xml"), "warc": (payload[0], payload[1]), "api": (payload[2], ".json")}[kind]
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / f"{kind}-case{number}{suffix}"
            path.write_bytes(data)
            detail = {"feeds": "", "warc": f"; records (offset, expected, defects): {payload[2]}", "api": f"; posted to {payload[0]}"}
            print(f"{kind} case {number} ({case_kind}, {label}): {path}{detail[kind]}")
            return path
    raise SystemExit(f"no {kind} case {number}")


def markdown(reports: Sequence[Report], timeout: float) -> list[str]:
    """The reports as one Markdown table, a row per kind."""
    rows = [f"| kind | cases | outcomes | tracebacks | over {timeout:g} s | records lost | stored data changed "
            "| median / max s | peak MB | run s |", "|---|---|---|---|---|---|---|---|---|---|"]
    for report in reports:
        seconds = sorted(report.seconds) or [0.0]
        outcomes = ", ".join(f"{status} {count}" for status, count in report.statuses.most_common())
        rows.append(f"| {report.kind} | {sum(report.cases.values())} | {outcomes} | {len(report.tracebacks)} "
                    f"| {len(report.slow)} | {report.lost_records} | {len(report.changed)} "
                    f"| {seconds[len(seconds) // 2]:.3f} / {seconds[-1]:.1f} | {report.peak_mb:.0f} | {report.wall_seconds:.0f} |")
    return rows


def _progress(kind: str) -> Callable[[int], None]:
    started = time.monotonic()

    def progress(done: int) -> None:
        if done % 100 == 0:
            print(f"  {kind}: {done} cases, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)

    return progress


def main(argv: Sequence[str] | None = None) -> int:
    from eval import datasets as store_of_datasets
    from eval import fuzz

    parser = argparse.ArgumentParser(prog="python -m eval.fuzz", description=(fuzz.__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--kind", action="append", choices=KINDS,
                        help="what to fuzz (repeatable; default pages): pages, feeds, warc files or API bodies")
    parser.add_argument("--pages", type=int, default=5000, help="pages: mutated cases to run (default 5000)")
    parser.add_argument("--cases", type=int, default=500, help="feeds, warc, api: cases of each kind (default 500)")
    parser.add_argument("--dataset", action="append", help="pages: dataset name (repeatable; default: every available one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds one case may take (default 10)")
    parser.add_argument("--memory", type=float, default=1024.0, help="peak MB the worker may reach (default 1024)")
    parser.add_argument("--markdown", action="store_true", help="also print the reports as one Markdown table")
    parser.add_argument("--census", action="store_true", help="pages: print the datasets' largest pages instead")
    parser.add_argument("--replay", type=int, metavar="N", help="write case N's input (of the first --kind) to --out instead of running")
    parser.add_argument("--out", type=Path, default=Path("fuzz-cases"), help="directory for --replay (default fuzz-cases)")
    args = parser.parse_args(argv)
    kinds = args.kind or ["pages"]
    names = (args.dataset or store_of_datasets.available()) if kinds[0] == "pages" or args.census else []
    if args.census:
        census(names)
        return 0
    if args.replay is not None and kinds[0] != "pages":
        replay_input(kinds[0], args.replay, seed=args.seed, directory=args.out)
        return 0
    if args.replay is not None:
        replay(args.replay, datasets=names, seed=args.seed, pages=args.pages, directory=args.out)
        return 0
    reports = []
    for kind in kinds:
        progress = _progress(kind)
        if kind == "pages":
            report = run(args.pages, datasets=names, seed=args.seed, timeout=args.timeout, progress=progress)
            print(f"pages: {report.pages} mutated pages, datasets {', '.join(names)}, seed {args.seed}")
        else:
            report = run_kind(kind, args.cases, seed=args.seed, timeout=args.timeout, progress=progress)
        reports.append(report)
        print("\n".join(report.lines(timeout=args.timeout, budget_mb=args.memory)), flush=True)
    if args.markdown:
        print("\n".join(markdown(reports, args.timeout)))
    return 1 if any(report.failed(args.memory) for report in reports) else 0
