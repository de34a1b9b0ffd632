"""The `forest eval` and `forest bench` commands: score systems side by side on gold datasets, and time forest."""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

# Only click at import time: forest/cli.py loads this module when `forest eval` runs, and
# the evaluation stack (numpy, peers, datasets) is imported inside the commands.

__all__ = ["bench_command", "eval_command"]

BENCH_DATASETS = ("cleanportaleval", "dragnet", "l3s_gn1")


class EvalError(click.ClickException):
    """Bad input to an evaluation command: one line on stderr, exit status 1."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {' '.join(self.format_message().split())}", err=True)


def _status(message: str) -> None:
    # Progress is for a person watching: none when stderr is a file or a pipe.
    if sys.stderr.isatty():
        click.echo(message, err=True)


def _resolve(names: Sequence[str]) -> list[tuple[str, Path]]:
    from eval import datasets

    resolved = []
    for name in names:
        try:
            resolved.append((name, datasets.resolve(name)))
        except FileNotFoundError as exc:
            raise EvalError(str(exc)) from exc
    return resolved


def _load(name: str, path: Path) -> list[Any]:
    from eval import datasets

    _status(f"loading {name} ...")
    try:
        return datasets.load(str(path))
    except (OSError, ValueError) as exc:
        raise EvalError(f"cannot read dataset {name!r}: {exc}") from exc


def _display_name(name: str) -> str:
    # A dataset given by path is shown by its name: dragnet, not /long/path/dragnet.jsonl.gz.
    base = Path(name).name
    return base[: -len(".jsonl.gz")] if base.endswith(".jsonl.gz") else base.removesuffix(".jsonl")


def _command_line(params: dict[str, Any]) -> str:
    """The canonical command for these options: what the results page says to rerun."""
    parts = ["forest", "eval"]
    for name in params["dataset"]:
        parts += ["--dataset", name]
    if params["page_level"]:
        parts.append("--page-level")
    for name in params["page_level_dataset"]:
        parts += ["--page-level-dataset", name]
    for option, default in (("systems", None), ("split", "test"), ("k", 5), ("min_pages", 6), ("min_coverage", None)):
        if params[option] != default:
            parts += [f"--{option.replace('_', '-')}", str(params[option])]
    if tuple(params["seed"]) != (0,):
        for seed in params["seed"]:
            parts += ["--seed", str(seed)]
    for flag in ("curve", "per_site", "block_table"):
        if params[flag]:
            parts.append(f"--{flag.replace('_', '-')}")
    if params["markdown"] is not None:
        parts += ["--markdown", str(params["markdown"])]
    return " ".join(shlex.quote(part) for part in parts)


@click.command("eval")
@click.option(
    "--dataset", "dataset", multiple=True,
    help="A dataset name in ../shared/datasets (or $FOREST_DATASETS), a .jsonl.gz file or a RED-like directory; "
    "repeatable (default: cleanportaleval, dragnet, l3s_gn1, wceb2026, big9).",
)
@click.option(
    "--page-level", is_flag=True,
    help="Score the --dataset datasets page by page, with no learning (default datasets: scrapinghub, cleaneval).",
)
@click.option(
    "--page-level-dataset", multiple=True,
    help="Also score this dataset page by page, with no learning; repeatable.",
)
@click.option(
    "--systems", help="Comma-separated systems or groups (all, variants, baselines, peers); default: all installed.",
)
@click.option("--k", type=click.IntRange(min=1), default=5, show_default=True, help="Training pages per site.")
@click.option("--curve", is_flag=True, help="Also learn from k = 1, 2, 3, 5, 10 pages per site (the learning curve).")
@click.option(
    "--seed", type=int, multiple=True, default=(0,), show_default=True,
    help="Seed of which pages of a site are the training sample; repeatable (--seed 0 --seed 1 --seed 2).",
)
@click.option(
    "--split", type=click.Choice(["test", "dev", "all"]), default="test", show_default=True,
    help="Which sites of a site-level dataset are scored: the test split (about a third of the sites, fixed by "
    "sha256 of dataset/site), the dev split (tune and investigate only here), or all.",
)
@click.option(
    "--min-pages", type=click.IntRange(min=2), default=6, show_default=True,
    help="Sites with fewer pages are left out of site-level runs.",
)
@click.option(
    "--min-coverage", type=click.FloatRange(0, 1),
    help="Leave out pages whose gold covers less than this share of tokens found in the HTML (e.g. 0.8).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object instead of tables.")
@click.option("--markdown", type=click.Path(dir_okay=False, path_type=Path), help="Also write a Markdown results page here.")
@click.option("--per-site", is_flag=True, help="Add a site x system F1 table per dataset.")
@click.option(
    "--block-table", is_flag=True,
    help="Also cross-validate the block classifier's models x feature sets on cleaneval and dragnet, "
    "text blocks and all tags (the thesis's Table 3.4; about an hour on one core).",
)
def eval_command(**params: Any) -> None:
    """Score forest, the FOREST paper's variants, baselines and peer extractors side by side on gold datasets.

    Site-level datasets: per site of the chosen split (the test split unless --split says
    otherwise), each learning system learns from k pages and every system, forest's cold
    path included, is scored on the site's other pages.  Page-level datasets: every page,
    no learning.  No site the shipped classifier trained on is scored.  Prints a table per
    dataset and seed (P, R, F1 over pages and sites, ms/page, learning ms) with progress on
    stderr when it is a terminal.
    """
    from eval import report, seen, suite

    started = time.perf_counter()
    try:
        selection = suite.select_systems(params["systems"])
    except ValueError as exc:
        raise EvalError(str(exc)) from exc
    site_names: list[str] = list(params["dataset"])
    page_names: list[str] = list(params["page_level_dataset"])
    if params["page_level"]:
        page_names = (site_names or list(suite.PAGE_DATASETS)) + page_names
        site_names = []
    elif not site_names:
        site_names = list(suite.SITE_DATASETS)
    # Check every name before minutes of work on the first.
    site_sets, page_sets = _resolve(site_names), _resolve(page_names)
    seeds: list[int] = list(dict.fromkeys(params["seed"]))
    _status("reading the classifier's training sites ...")
    try:
        training_sites = seen.classifier_training_sites()
    except (OSError, ValueError) as exc:
        raise EvalError(f"cannot read the classifier's training pages: {exc}") from exc
    runs = []
    for mode, resolved in (("site-level", site_sets), ("page-level", page_sets)):
        for name, path in resolved:
            samples = _load(name, path)
            sha = suite.fingerprint(path)
            _status(f"{name}: {mode}, {len(samples)} pages")
            if mode == "site-level":
                # Page-level systems (cold, the peers) give a page the same row at every seed.
                cache: dict[tuple[str, str], Any] = {}
                for seed in seeds:
                    runs.append(suite.evaluate_sites(
                        _display_name(name), samples, selection, k=params["k"], seed=seed, min_pages=params["min_pages"],
                        min_coverage=params["min_coverage"], curve=params["curve"], sha256=sha, split=params["split"],
                        training_sites=training_sites, cache=cache,
                    ))  # fmt: skip
            else:
                runs.append(suite.evaluate_pages(
                    _display_name(name), samples, selection, seed=seeds[0], min_coverage=params["min_coverage"], sha256=sha,
                    training_sites=training_sites,
                ))  # fmt: skip
            del samples  # the next dataset need not share memory with this one
    block_table: tuple[Any, ...] = ()
    if params["block_table"]:
        from eval.classifier.report import table

        _status("block classifier: models x feature sets ...")
        block_table = tuple(table(progress=_status))
    notes = list(selection.notes)
    result_suite = suite.Suite(
        command=_command_line(params),
        environment=suite.environment(),
        runs=tuple(runs),
        notes=tuple(notes),
        seconds=time.perf_counter() - started,
        split=params["split"],
        peak_memory_mb=suite.peak_memory_mb(),
        block_table=block_table,
    )
    if params["as_json"]:
        click.echo(json.dumps(report.suite_dict(result_suite), ensure_ascii=False, indent=2))
    else:
        click.echo(report.suite_text(result_suite, per_site=params["per_site"]), nl=False)
    if params["markdown"] is not None:
        target: Path = params["markdown"]
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(report.suite_markdown(result_suite, per_site=params["per_site"]), encoding="utf-8")
        except OSError as exc:
            raise EvalError(f"cannot write {target}: {exc.strerror or exc}") from exc
        click.echo(f"wrote {target}", err=True)


@click.command("bench")
@click.option(
    "--dataset", "dataset", multiple=True,
    help="A dataset name, .jsonl.gz file or RED-like directory; repeatable (default: cleanportaleval, dragnet, l3s_gn1).",
)
@click.option("--k", type=click.IntRange(min=1), default=5, show_default=True, help="Training pages per site for the extraction timing.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of which pages of a site are the training sample.")
@click.option(
    "--repeat", type=click.IntRange(min=1), default=3, show_default=True,
    help="Timed runs per page (the fastest counts), after one warm-up.",
)
@click.option(
    "--peer", "peer_names", multiple=True, default=("resiliparse", "trafilatura"), show_default=True,
    help="Peer extractor timed on the same pages; repeatable ('' for none).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summaries (and every timing) as JSON.")
def bench_command(dataset: tuple[str, ...], k: int, seed: int, repeat: int, peer_names: tuple[str, ...], as_json: bool) -> None:
    """Time forest: extraction with a stored wrapper against lxml's bare parse of the same page, and learning
    a site from 10 pages (targets: extraction within 1.5x of the parse, learning under 0.5 s)."""
    from eval import bench, datasets, peers

    resolved = _resolve(list(dataset) or list(BENCH_DATASETS))
    try:
        peer_systems = [peers.peer(name) for name in peer_names if name]
    except (ValueError, ImportError) as exc:
        raise EvalError(str(exc)) from exc
    out = []
    results = []
    for name, path in resolved:
        samples = _load(name, path)
        sites = datasets.by_site(samples, min_pages=2)
        result = bench.run_bench(_display_name(name), sites, k=k, seed=seed, repeat=repeat, peers=peer_systems, progress=_status)
        results.append(result)
        if as_json:
            out.append(bench.to_dict(result))
        else:
            click.echo(bench.text(result))
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    elif len(results) > 1:
        click.echo(bench.pooled_learning(results))
