"""Render protocol Results as a terminal table, a JSON-ready dict, or Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from eval.protocol import Results, Summary

__all__ = ["markdown", "text", "to_dict"]

_HEADERS = ("system", "P", "R", "F1", "F1 sites", "F1 95% CI", "pages", "fail", "ms med", "ms p95")
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
    ]


def _table(results: Results) -> list[list[str]]:
    rows = [_summary_cells(s) for s in sorted(results.summaries(), key=lambda s: -s.f1)]
    median, p95 = results.floor_ms()
    if median is not None:
        rows.append([FLOOR_NAME, "", "", "", "", "", str(len(results.floor)), "", _ms(median), _ms(p95)])
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
