"""Render protocol Results as a terminal table, a JSON-ready dict, or Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from eval.datasets import TEST_SPLIT_BYTE
from eval.forest_systems import COLD, PAGE_ALONE, SINGLE_PAGE, VARIANTS
from eval.metrics import spearman
from eval.peers import peer_names
from eval.protocol import Results, Row, Summary
from eval.suite import DatasetResult, Suite
from eval.classifier.report import TABLE_CAPTION, table_rows

__all__ = [
    "Verdict",
    "confidence_spearman",
    "site_mean_spearman",
    "markdown",
    "suite_dict",
    "suite_markdown",
    "suite_text",
    "text",
    "to_dict",
    "verdict",
]

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


def _caption(results: Results, run: DatasetResult | None = None) -> str:
    mode = f"site-level, k={results.k} training pages per site" if results.k is not None else "page-level"
    sites = len({row.site for row in results.rows})
    line = f"{mode}, seed {results.seed}, "
    if run is not None and run.mode == "site-level":
        line += f"{run.split} split: {run.split_sites} of {_plural(run.total_sites, 'site')} with enough pages"
        if run.seen_sites:
            line += f", {len(run.seen_sites)} left out (classifier training sites)"
        line += f", {sites} scored"
    else:
        line += _plural(sites, "site")
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


def text(results: Results, *, per_site: bool = False, run: DatasetResult | None = None) -> str:
    """A plain-text table for the terminal, best page-mean F1 first; ``per_site`` adds a site x system F1 table.

    ``run`` (the dataset's run) puts its split into the caption.
    """
    lines = [_caption(results, run), "", *_align(_HEADERS, _table(results))]
    if per_site:
        header, body = _site_table(results)
        lines += ["", *_align(header, body)]
    return "\n".join(lines) + "\n"


def _markdown_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    align = ["---", *("---:" for _ in header[1:])]
    return [line(header), "|" + "|".join(align) + "|", *(line(row) for row in body)]


def markdown(results: Results, *, per_site: bool = False, run: DatasetResult | None = None) -> str:
    """The same tables as :func:`text`, in Markdown."""
    lines = [f"_{_caption(results, run)}_", "", *_markdown_table(_HEADERS, _table(results))]
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
    known = {v.name: v.legend for v in (*VARIANTS, COLD, SINGLE_PAGE, PAGE_ALONE)} | _LEGEND_BASELINES
    order = [v.name for v in (*VARIANTS, COLD, SINGLE_PAGE, PAGE_ALONE)] + list(_LEGEND_BASELINES)
    return [(name, known[name]) for name in order if name in present]


@dataclass(frozen=True, slots=True)
class Verdict:
    """forest against its cold path and the best peer on the same pages of one run (None: not in the run)."""

    dataset: str
    seed: int
    split: str
    pages: int
    forest: Summary
    cold: Summary | None
    peer: Summary | None

    def line(self) -> str:
        """The summary line: ``forest 0.950 vs cold 0.940 (+0.010) vs best peer trafilatura 0.930 (+0.020)``."""
        f = self.forest
        parts = [f"{f.system} {f.f1:.3f}"]
        if self.cold is not None:
            parts.append(f"vs cold {self.cold.f1:.3f} ({f.f1 - self.cold.f1:+.3f})")
        if self.peer is not None:
            parts.append(f"vs best peer {self.peer.system} {self.peer.f1:.3f} ({f.f1 - self.peer.f1:+.3f})")
        where = f"{self.split} split, seed {self.seed}" if self.split != "all" else f"all sites, seed {self.seed}"
        if self.cold is None and self.forest.system == SINGLE_PAGE.name:
            where = "page-level, no learning"
        return " ".join(parts) + f": F1 mean over {self.pages} pages, {where}"


def verdict(run: DatasetResult) -> Verdict | None:
    """forest against its cold path and the best peer of the run, on the same pages (None without forest)."""
    summaries = {s.system: s for s in run.results.summaries()}
    ours = summaries.get("forest") or summaries.get(SINGLE_PAGE.name)
    if ours is None:
        return None
    others = [s for name, s in summaries.items() if name in peer_names()]
    best = max(others, key=lambda s: s.f1) if others else None
    return Verdict(run.name, run.results.seed, run.split, ours.pages, ours, summaries.get(COLD.name), best)


def _verdict(run: DatasetResult) -> str | None:
    found = verdict(run)
    if found is None:
        return None
    line = found.line()
    summaries = {s.system: s for s in run.results.summaries()}
    fast = summaries.get("trafilatura")
    ours = found.forest
    if fast and fast.ms_median and ours.ms_median:
        line += f"; median ms/page {_ms(ours.ms_median)} vs trafilatura {_ms(fast.ms_median)} ({fast.ms_median / ours.ms_median:.1f}x)"
    return line


def confidence_spearman(rows: Sequence[Row]) -> tuple[float | None, int]:
    """Spearman's correlation between each record's confidence and its page F1, and the pages it is over
    (issue 38: a confidence that means something ranks the pages as their F1 does)."""
    pairs = [(row.confidence, row.f1) for row in rows if row.confidence is not None and row.error is None]
    return spearman([c for c, _ in pairs], [f for _, f in pairs]), len(pairs)


def _confidence_systems(runs: Sequence[DatasetResult]) -> list[str]:
    # forest's records, and the cold path's: a classifier record's confidence is its kept words' probability.
    ours = ("forest", SINGLE_PAGE.name, COLD.name)
    present = {row.system for run in runs for row in run.results.rows if row.confidence is not None}
    return [name for name in ours if name in present]


def site_mean_spearman(runs: Sequence[Sequence[Row]]) -> tuple[float | None, int]:
    """Spearman's correlation between each page's F1 and its site's mean F1 over the site's other pages
    of the same run, and the pages it is over: what a confidence that knew how well a system does on each
    site, and nothing of the page, would reach.  The pages of a site with one page are left out.

    It is the reference beside forest's confidence line: a confidence that ranks pages better reads
    something of the page, not only of its site."""
    pairs = []
    for rows in runs:
        sites: dict[tuple[str, str], list[float]] = {}
        scored = [row for row in rows if row.error is None]
        for row in scored:
            sites.setdefault((row.dataset, row.site), []).append(row.f1)
        for row in scored:
            f1s = sites[(row.dataset, row.site)]
            if len(f1s) > 1:
                # Rounded: two sites of the same mean tie, whatever order the float sums ran in.
                pairs.append((round((sum(f1s) - row.f1) / (len(f1s) - 1), 9), row.f1))
    return spearman([m for m, _ in pairs], [f for _, f in pairs]), len(pairs)


def _confidence_line(runs: Sequence[DatasetResult], label: str) -> str | None:
    cells = []
    for system in _confidence_systems(runs):
        rho, n = confidence_spearman([row for run in runs for row in run.results.rows_of(system)])
        cells.append(f"{system} {_number(rho, 2)} over {n} pages")
    if not cells:
        return None
    line = f"confidence vs page F1 (Spearman), {label}: " + "; ".join(cells)
    if "forest" in _confidence_systems(runs) and all(run.mode == "site-level" for run in runs):
        reference, _ = site_mean_spearman([run.results.rows_of("forest") for run in runs])
        line += f" (forest's page F1 vs its site's mean F1 over the site's other pages: {_number(reference, 2)})"
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


def _groups(suite: Suite) -> list[list[DatasetResult]]:
    """The runs of one dataset and mode together (a site-level dataset has one run per seed), in run order."""
    groups: dict[tuple[str, str], list[DatasetResult]] = {}
    for run in suite.runs:
        groups.setdefault((run.name, run.mode), []).append(run)
    return list(groups.values())


def _pooled(runs: Sequence[DatasetResult]) -> Results:
    """The runs of one dataset at several seeds as one result: every seed's test pages, each scored once per seed."""
    first = runs[0].results
    if len(runs) == 1:
        return first
    return Results(
        first.systems,
        tuple(row for run in runs for row in run.results.rows),
        tuple(fit for run in runs for fit in run.results.fits),
        tuple(row for run in runs for row in run.results.floor),
        first.k,
        first.seed,
        (),
        first.skipped_sites,
    )


def _seeds(runs: Sequence[DatasetResult]) -> str:
    seeds = [str(run.results.seed) for run in runs]
    return f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {', '.join(seeds)} pooled"


def _pooled_caption(runs: Sequence[DatasetResult]) -> str:
    run = runs[0]
    results = run.results
    if run.mode != "site-level":
        line = f"page-level, {_plural(len({row.site for row in results.rows}), 'site')}"
    else:
        line = (
            f"site-level, k={results.k} training pages per site, {_seeds(runs)}; {run.split} split: "
            f"{run.split_sites} of {_plural(run.total_sites, 'site')} with enough pages"
        )
        line += f", {len(run.seen_sites)} of them left out as classifier training sites"
        line += f", {len({row.site for row in results.rows})} scored"
    if results.skipped_sites:
        line += f", {_plural(len(results.skipped_sites), 'site')} skipped (too few pages)"
    return line


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def _summary_table(suite: Suite) -> tuple[list[str], list[list[str]]]:
    """Per site-level dataset: forest, cold and the best peer, mean over seeds, and the worst seed's margins."""
    header = [
        "dataset", "sites scored", "test pages per seed", "forest", "cold", "forest - cold (worst seed)", "best peer",
        "forest - best peer (worst seed)", "confidence Spearman",
    ]
    body = []
    for runs in _groups(suite):
        if runs[0].mode != "site-level":
            continue
        verdicts = [v for v in (verdict(run) for run in runs) if v is not None]
        scored = len({row.site for row in runs[0].results.rows})
        pages = "/".join(sorted({str(v.pages) for v in verdicts})) or "0"
        if not verdicts:
            body.append([runs[0].name, str(scored), pages, "-", "-", "-", "-", "-", "-"])
            continue
        forest = _mean([v.forest.f1 for v in verdicts])
        colds = [v.cold for v in verdicts if v.cold is not None]
        peers = [v.peer for v in verdicts if v.peer is not None]
        cold = _mean([c.f1 for c in colds])
        over_cold = [v.forest.f1 - v.cold.f1 for v in verdicts if v.cold is not None]
        over_peer = [v.forest.f1 - v.peer.f1 for v in verdicts if v.peer is not None]
        names = sorted({p.system for p in peers})
        peer = f"{'/'.join(names)} {_number(_mean([p.f1 for p in peers]))}" if peers else "-"
        rho, _ = confidence_spearman([row for run in runs for row in run.results.rows_of(verdicts[0].forest.system)])
        body.append([
            runs[0].name, str(scored), pages, _number(forest), _number(cold),
            f"{_signed(_mean(over_cold))} ({_signed(min(over_cold) if over_cold else None)})", peer,
            f"{_signed(_mean(over_peer))} ({_signed(min(over_peer) if over_peer else None)})", _number(rho, 2),
        ])  # fmt: skip
    return header, body


def _page_level_table(suite: Suite) -> tuple[list[str], list[list[str]]]:
    header = ["dataset", "pages scored", "sites left out (classifier training)", "forest (no wrapper)", "best peer", "difference"]
    body = []
    for runs in _groups(suite):
        run = runs[0]
        if run.mode != "page-level":
            continue
        found = verdict(run)
        pages = str(len(run.results.rows_of(run.results.systems[0]))) if run.results.systems else "0"
        left = f"{len(run.seen_sites)}"
        if found is None:
            body.append([run.name, pages, left, "-", "-", "-"])
            continue
        peer = f"{found.peer.system} {found.peer.f1:.3f}" if found.peer else "-"
        body.append([
            run.name, pages, left, _number(found.forest.f1), peer,
            _signed(found.forest.f1 - found.peer.f1) if found.peer else "-",
        ])  # fmt: skip
    return header, body


def _dataset_title(run: DatasetResult) -> str:
    return f"{run.name} ({run.mode}, {run.pages} pages in the file, sha256 {run.sha256[:12] or '-'})"


def suite_text(suite: Suite, *, per_site: bool = False) -> str:
    """The terminal report of a whole run: one block per dataset and seed, then the run's notes."""
    lines: list[str] = []
    for run in suite.runs:
        lines += [f"== {_dataset_title(run)}", text(run.results, per_site=per_site, run=run).rstrip("\n")]
        if run.methods:
            lines += ["", *_align(*_methods_table(run))]
        if run.curve:
            lines += ["", "learning curve: F1 mean over pages (mean over sites)", *_align(*_curve_table(run))]
        found = _verdict(run)
        rho = _confidence_line([run], f"{run.name}, seed {run.results.seed}")
        lines += [""] + [line for line in (found, rho) if line] + [f"note: {note}" for note in run.notes] + [""]
    site_runs = [run for run in suite.runs if run.mode == "site-level"]
    if len({run.name for run in site_runs}) > 1 or len(site_runs) > 1:
        pooled = _confidence_line(site_runs, f"pooled over {_plural(len(site_runs), 'site-level run')}")
        if pooled:
            lines += [pooled, ""]
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


def _protocol(suite: Suite) -> list[str]:
    site_runs = [run for run in suite.runs if run.mode == "site-level"]
    seeds = sorted({run.results.seed for run in site_runs})
    ks = sorted({run.results.k for run in site_runs if run.results.k is not None})
    lines = ["## Protocol", ""]
    if site_runs:
        lines += [
            f"- **Site-level datasets** ({', '.join(dict.fromkeys(run.name for run in site_runs))}): per site, forest learns "
            f"a wrapper from k = {', '.join(map(str, ks))} sample pages and every system extracts the site's other pages; "
            f"which pages are the sample depends on the seed (seeds {', '.join(map(str, seeds))}). The figures below "
            "pool the seeds (each test page counts once per seed); the margins in parentheses are the worst seed's.",
            f"- **Split by site, once**: a site is in the test split when the first byte of "
            f"`sha256(\"{{dataset}}/{{site}}\")` is below {TEST_SPLIT_BYTE} (about a third of the sites); the rest is "
            f"dev. Constants are tuned and failures investigated only on dev sites. This page reports the "
            f"**{suite.split}** split (`forest eval --split dev` shows the other).",
            "- **Cold baseline**: `cold` is forest as shipped with no wrapper (the per-block classifier) on the same "
            "test pages. Learning a site is worth it only where forest beats `cold`.",
        ]
    lines += [
        "- **Excluded**: no page of a site the shipped classifier was trained on is scored, in a site-level or a "
        "page-level figure: those sites are read from the training page ids in the model file's header. Each "
        "dataset's notes say which sites were left out. Site-level runs also leave out sites with too few pages "
        "to learn from and test on.",
        "- **Metric**: bag-of-words token P / R / F1 (lower-cased `\\w+`) per page against the gold text; F1 is the "
        "mean over pages, F1 sites the mean over sites of each site's mean page F1; 95% CI is a bootstrap interval "
        "of the page mean; ms is wall time per page in this process; fail counts pages where the system raised.",
        "- **Confidence**: Spearman's rank correlation between each forest record's `confidence` and its page F1 "
        "(confidence is calibrated on dev sites: `forest eval --split dev` prints it there).",
        "",
    ]
    return lines


def suite_markdown(suite: Suite, *, per_site: bool = False) -> str:
    """The evaluation page: the command that made it, the protocol, the summary, then each dataset."""
    env = suite.environment
    minutes = _plural(max(1, round(suite.seconds / 60)), "minute")
    lines = [
        "# forest: evaluation",
        "",
        f"Generated on {env.get('date')} by this command, from the repository root (do not edit by hand; rerun it):",
        "",
        f"<!-- not-run: scores every dataset with every system, about {minutes} on the machine that made this page -->",
        "```sh",
        suite.command,
        "```",
        "",
        f"Python {env.get('python')}, {env.get('machine')}; run time {suite.seconds:.0f} s; peak memory "
        f"{suite.peak_memory_mb or 0:.0f} MB (max RSS of the process).",
        "",
        *_protocol(suite),
    ]
    summary = _summary_table(suite)
    if summary[1]:
        lines += ["## Summary: learned sites", "", *_markdown_table(*summary), ""]
        pooled = _confidence_line([run for run in suite.runs if run.mode == "site-level"], "all site-level runs pooled")
        if pooled:
            lines += [pooled[0].upper() + pooled[1:] + ".", ""]
    page_level = _page_level_table(suite)
    if page_level[1]:
        lines += ["## Summary: cold extraction, page by page", "", *_markdown_table(*page_level), ""]
    lines += [
        "Datasets (SHA-256 prefix of the file read):",
        "",
        *_markdown_table(
            ["dataset", "mode", "pages in file", "sha256"],
            # "sha256:" on the line: a checksum prefix, which the docs' commit-hash check lets stand.
            [[runs[0].name, runs[0].mode, str(runs[0].pages), f"`sha256:{runs[0].sha256[:16]}`"] for runs in _groups(suite)],
        ),
        "",
        "Systems:",
        "",
        *(f"- **{name}**: {legend}" for name, legend in _legend(suite)),
        "",
    ]
    for runs in _groups(suite):
        run = runs[0]
        pooled_results = _pooled(runs)
        lines += [f"## {run.name} ({run.mode})", "", f"_{_pooled_caption(runs)}_", ""]
        if pooled_results.rows:
            lines += [*_markdown_table(_HEADERS, _table(pooled_results)), ""]
        if per_site:
            lines += [*_markdown_table(*_site_table(pooled_results)), ""]
        methods: dict[str, dict[str, int]] = {}
        for each in runs:
            for name, counts in each.methods.items():
                for kind, n in counts.items():
                    methods.setdefault(name, {})[kind] = methods.get(name, {}).get(kind, 0) + n
        if methods:
            lines += [*_markdown_table(*_methods_table(replace(run, methods=methods))), ""]
        if run.curve:
            lines += ["Learning curve: F1 mean over pages (mean over sites in parentheses).", ""]
            lines += [*_markdown_table(*_curve_table(run)), ""]
        notes = list(dict.fromkeys(note for each in runs for note in each.notes))
        lines += [f"- {note}" for note in notes] + ([""] if notes else [])
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
        "split": suite.split,
        "environment": suite.environment,
        "seconds": suite.seconds,
        "peak_memory_mb": suite.peak_memory_mb,
        "notes": list(suite.notes),
        "block_table": [asdict(cell) for cell in suite.block_table],
        "datasets": [
            {
                "name": run.name,
                "mode": run.mode,
                "split": run.split,
                "split_sites": run.split_sites,
                "total_sites": run.total_sites,
                "seen_sites": list(run.seen_sites),
                "confidence_spearman": {
                    system: confidence_spearman(run.results.rows_of(system))[0] for system in _confidence_systems([run])
                },
                "site_mean_spearman": (
                    site_mean_spearman([run.results.rows_of("forest")])[0] if run.mode == "site-level" else None
                ),
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
