"""Render protocol Results as a terminal table, a JSON-ready dict, or Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from eval.forest_systems import PAGE_ALONE, SINGLE_PAGE, VARIANTS
from eval.peers import peer_names
from eval.protocol import Results, Summary
from eval.suite import DatasetResult, Suite
from eval.classifier.report import TABLE_CAPTION, table_rows

__all__ = ["markdown", "suite_dict", "suite_markdown", "suite_text", "text", "to_dict"]

_HEADERS = ("system", "P", "R", "F1", "F1 sites", "F1 95% CI", "pages", "fail", "ms med", "ms p95", "learn ms")
FLOOR_NAME = "lxml parse (floor)"


def _number(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ms(value: float | None) -> str:
    # Peers run at 1-100 ms per page, lxml's parse well under 1 ms: keep two decimals below 10.
    if value is None:
        return "-"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _summary_cells(s: Summary) -> list[str]:
    return [
        s.system,
        _number(s.p),
        _number(s.r),
        _number(s.f1),
        _number(s.f1_sites),
        f"{s.ci[0]:.3f}-{s.ci[1]:.3f}",
        str(s.pages),
        str(s.failures),
        _ms(s.ms_median),
        _ms(s.ms_p95),
        # Median per site; only site-level systems learn.
        _ms(s.fit_ms_median),
    ]


def _table(results: Results) -> list[list[str]]:
    rows = [_summary_cells(s) for s in sorted(results.summaries(), key=lambda s: -s.f1)]
    median, p95 = results.floor_ms()
    if median is not None:
        rows.append([FLOOR_NAME, "", "", "", "", "", str(len(results.floor)), "", _ms(median), _ms(p95), "-"])
    return rows


def _site_table(results: Results) -> tuple[list[str], list[list[str]]]:
    systems = [s.system for s in results.summaries()]
    per_system = {name: results.per_site(name) for name in systems}
    sites = sorted({site for scores in per_system.values() for site in scores})
    counts: dict[str, int] = {}
    for row in results.rows_of(systems[0]) if systems else ():
        counts[row.site] = counts.get(row.site, 0) + 1
    body = [
        [site, str(counts.get(site, 0)), *(_number(per_system[n][site].f1) if site in per_system[n] else "-" for n in systems)]
        for site in sites
    ]
    return ["site (F1)", "pages", *systems], body


def _caption(results: Results) -> str:
    mode = f"site-level, k={results.k} training pages per site" if results.k is not None else "page-level"
    sites = len({row.site for row in results.rows})
    line = f"{mode}, seed {results.seed}, {_plural(sites, 'site')}"
    if results.skipped_sites:
        line += f", {_plural(len(results.skipped_sites), 'site')} skipped (too few pages)"
    return line


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _align(header: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(cell) for cell in column) for column in zip(header, *body)]

    def line(cells: Sequence[str]) -> str:
        first, *rest = cells
        return "  ".join([first.ljust(widths[0]), *(c.rjust(w) for c, w in zip(rest, widths[1:]))]).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(row) for row in body)]


def text(results: Results, *, per_site: bool = False) -> str:
    """A plain-text table for the terminal, best page-mean F1 first; ``per_site`` adds a site x system F1 table."""
    lines = [_caption(results), "", *_align(_HEADERS, _table(results))]
    if per_site:
        header, body = _site_table(results)
        lines += ["", *_align(header, body)]
    return "\n".join(lines) + "\n"


def _markdown_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    align = ["---", *("---:" for _ in header[1:])]
    return [line(header), "|" + "|".join(align) + "|", *(line(row) for row in body)]


def markdown(results: Results, *, per_site: bool = False) -> str:
    """The same tables as :func:`text`, in Markdown."""
    lines = [f"_{_caption(results)}_", "", *_markdown_table(_HEADERS, _table(results))]
    if per_site:
        header, body = _site_table(results)
        lines += ["", *_markdown_table(header, body)]
    return "\n".join(lines) + "\n"


def to_dict(results: Results, *, rows: bool = False) -> dict[str, Any]:
    """Everything as JSON-ready values; ``rows=True`` adds one entry per system and page."""
    summaries = results.summaries()
    median, p95 = results.floor_ms()
    data: dict[str, Any] = {
        "k": results.k,
        "seed": results.seed,
        "systems": [asdict(s) | {"ci": list(s.ci)} for s in summaries],
        "floor_ms": {"median": median, "p95": p95, "pages": len(results.floor)},
        "per_site": {
            s.system: {site: asdict(score) for site, score in results.per_site(s.system).items()} for s in summaries
        },
        "fit_ms": {s.system: results.fit_ms(s.system) for s in summaries if results.fit_ms(s.system)},
        "failures": [
            {"system": row.system, "page": row.page, "error": row.error} for row in results.rows if row.error is not None
        ],
        "splits": {site: list(train) for site, train in results.splits},
        "skipped_sites": list(results.skipped_sites),
    }
    if rows:
        data["rows"] = [asdict(row) for row in results.rows]
    return data


# --- a whole run over several datasets (eval.suite.Suite) ------------------------------

_LEGEND_BASELINES = {
    "fulltext": "all visible text of the page body (the recall ceiling)",
    "description": "the feed item's summary, else the page's og:description / meta description (the paper's DESCRIPTION)",
    "cetr": "CETR-KM, tag ratios per line, smoothing and k-means (Weninger et al. 2010), reimplemented",
    "classifier": "forest's per-block classifier alone (the shipped default model), no wrapper",
    "web2text": "Web2Text's joint labelling (Vogels et al. 2018): the classifier's probabilities as unary potentials, "
    "a pairwise same-label model, Viterbi with the paper's lambda = 0.1; no wrapper",
    "visual": "the visual-feature extractor: a random forest over each block's rendered box and style "
    "(headless Chromium, scripts off) and the paper's DOM counts; no wrapper",
    "trafilatura": "trafilatura.extract, defaults, tables kept, comments dropped",
    "readability": "readability-lxml Document.summary()",
    "boilerpipe": "boilerpy3 ArticleExtractor (the paper's Boilerpipe)",
    "justext": "jusText non-boilerplate paragraphs, stoplist of the page's declared language",
    "resiliparse": "Resiliparse extract_plain_text(main_content=True)",
    "goose3": "goose3 cleaned_text",
    "newspaper": "newspaper4k Article.text",
}


def _legend(suite: Suite) -> list[tuple[str, str]]:
    present = {name for run in suite.runs for name in run.results.systems}
    known = {v.name: v.legend for v in (*VARIANTS, SINGLE_PAGE, PAGE_ALONE)} | _LEGEND_BASELINES
    order = [v.name for v in (*VARIANTS, SINGLE_PAGE, PAGE_ALONE)] + list(_LEGEND_BASELINES)
    return [(name, known[name]) for name in order if name in present]


def _verdict(run: DatasetResult) -> str | None:
    """forest against the best peer of the run, on the same pages."""
    summaries = {s.system: s for s in run.results.summaries()}
    ours = summaries.get("forest") or summaries.get(SINGLE_PAGE.name)
    others = [s for name, s in summaries.items() if name in peer_names()]
    if ours is None or not others:
        return None
    best = max(others, key=lambda s: s.f1)
    line = (
        f"{ours.system} vs the best peer ({best.system}): F1 {ours.f1:.3f} vs {best.f1:.3f} "
        f"({ours.f1 - best.f1:+.3f}) over pages, {ours.f1_sites:.3f} vs {best.f1_sites:.3f} "
        f"({ours.f1_sites - best.f1_sites:+.3f}) over sites"
    )
    fast = summaries.get("trafilatura")
    if fast and fast.ms_median and ours.ms_median:
        line += f"; median ms/page {_ms(ours.ms_median)} vs trafilatura {_ms(fast.ms_median)} ({fast.ms_median / ours.ms_median:.1f}x)"
    return line


def _methods_table(run: DatasetResult) -> tuple[list[str], list[list[str]]]:
    kinds = ("wrapper", "classifier", "page", "none")
    body = [[name, *(str(counts.get(kind, 0)) for kind in kinds)] for name, counts in run.methods.items()]
    return ["forest pages by method", *kinds], body


def _curve_table(run: DatasetResult) -> tuple[list[str], list[list[str]]]:
    ks = sorted({p.k for p in run.curve})
    systems = list(dict.fromkeys(p.system for p in run.curve))
    at = {(p.k, p.system): p for p in run.curve}
    first = {p.k: p for p in reversed(run.curve)}
    body = [["sites / test pages", *(f"{first[k].sites} / {first[k].pages}" for k in ks)]]
    for name in systems:
        body.append([name, *(f"{at[k, name].f1:.3f} ({at[k, name].f1_sites:.3f})" if (k, name) in at else "-" for k in ks)])
    return ["k (training pages per site)", *map(str, ks)], body


def _overview(suite: Suite) -> tuple[list[str], list[list[str]]]:
    columns = [(run.name if run.mode == "site-level" else f"{run.name} (page-level)", run) for run in suite.runs]
    systems = list(dict.fromkeys(name for run in suite.runs for name in run.results.systems))
    f1 = {(run.name, run.mode, s.system): s.f1 for run in suite.runs for s in run.results.summaries()}
    body = [[name, *(_number(f1.get((run.name, run.mode, name))) for _, run in columns)] for name in systems]
    return ["F1 (mean over pages)", *(title for title, _ in columns)], body


def _dataset_title(run: DatasetResult) -> str:
    return f"{run.name} ({run.mode}, {run.pages} pages in the file, sha256 {run.sha256[:12] or '-'})"


def suite_text(suite: Suite, *, per_site: bool = False) -> str:
    """The terminal report of a whole run: one block per dataset, then the run's notes."""
    lines: list[str] = []
    for run in suite.runs:
        lines += [f"== {_dataset_title(run)}", text(run.results, per_site=per_site).rstrip("\n")]
        if run.methods:
            lines += ["", *_align(*_methods_table(run))]
        if run.curve:
            lines += ["", "learning curve: F1 mean over pages (mean over sites)", *_align(*_curve_table(run))]
        verdict = _verdict(run)
        lines += [""] + ([verdict] if verdict else []) + [f"note: {note}" for note in run.notes] + [""]
    if suite.block_table:
        lines += ["== block classifier: models x feature sets (Table 3.4)", *_align(*table_rows(suite.block_table)), ""]
    lines += [f"note: {note}" for note in suite.notes]
    lines.append(_footer(suite))
    return "\n".join(lines) + "\n"


def _footer(suite: Suite) -> str:
    memory = f"{suite.peak_memory_mb:.0f} MB" if suite.peak_memory_mb is not None else "unknown"
    env = suite.environment
    return (
        f"run: {suite.seconds:.0f} s, peak memory {memory} (max RSS), commit {env.get('commit')}, "
        f"{env.get('date')}, Python {env.get('python')}, {env.get('machine')}"
    )


def suite_markdown(suite: Suite, *, per_site: bool = False) -> str:
    """The results page: the command that made it, the environment, an overview, then each dataset."""
    env = suite.environment
    lines = [
        "# forest: evaluation results",
        "",
        "Generated by this command, from the repository root (do not edit by hand; rerun it):",
        "",
        "```sh",
        suite.command,
        "```",
        "",
        f"- date: {env.get('date')}; commit: `{env.get('commit')}`; Python {env.get('python')}, {env.get('machine')}",
        f"- run time {suite.seconds:.0f} s; peak memory {suite.peak_memory_mb or 0:.0f} MB (max RSS of the process)",
        "- metric: bag-of-words token P / R / F1 (lower-cased `\\w+`), per page; F1 sites = mean over sites of each "
        "site's mean page F1; 95% CI = bootstrap interval of the page mean; ms = wall time per page in this process "
        "(median and 95th percentile); learn ms = median time to learn one site; fail = pages where the system raised",
        "",
        "Datasets (SHA-256 prefix of the file read):",
        "",
        *_markdown_table(
            ["dataset", "mode", "pages in file", "sha256"],
            [[run.name, run.mode, str(run.pages), f"`{run.sha256[:16]}`"] for run in suite.runs],
        ),
        "",
        "Systems:",
        "",
        *(f"- **{name}**: {legend}" for name, legend in _legend(suite)),
        "",
        "## Overview",
        "",
        *_markdown_table(*_overview(suite)),
        "",
    ]
    for run in suite.runs:
        lines += [f"## {run.name} ({run.mode})", "", f"File sha256 `{run.sha256[:16]}`, {run.pages} pages.", ""]
        lines += [markdown(run.results, per_site=per_site).rstrip("\n"), ""]
        verdict = _verdict(run)
        if verdict:
            lines += [verdict + ".", ""]
        if run.methods:
            lines += [*_markdown_table(*_methods_table(run)), ""]
        if run.curve:
            lines += ["Learning curve: F1 mean over pages (mean over sites in parentheses).", ""]
            lines += [*_markdown_table(*_curve_table(run)), ""]
        lines += [f"- {note}" for note in run.notes] + ([""] if run.notes else [])
    if suite.block_table:
        lines += ["## Block classifier: models x feature sets (the thesis's Table 3.4)", "", TABLE_CAPTION, ""]
        lines += [*_markdown_table(*table_rows(suite.block_table)), ""]
    if suite.notes:
        lines += ["## Notes", "", *(f"- {note}" for note in suite.notes), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def suite_dict(suite: Suite) -> dict[str, Any]:
    """The whole run as JSON-ready values (no per-page rows)."""
    return {
        "command": suite.command,
        "environment": suite.environment,
        "seconds": suite.seconds,
        "peak_memory_mb": suite.peak_memory_mb,
        "notes": list(suite.notes),
        "block_table": [asdict(cell) for cell in suite.block_table],
        "datasets": [
            {
                "name": run.name,
                "mode": run.mode,
                "sha256": run.sha256,
                "pages": run.pages,
                "results": to_dict(run.results),
                "methods": run.methods,
                "curve": [asdict(p) for p in run.curve],
                "notes": list(run.notes),
                "learn_errors": run.learn_errors,
            }
            for run in suite.runs
        ],
    }
