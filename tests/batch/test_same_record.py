"""One page, one record (issue 41): the CLI's single page, the batch (files, and a WARC with --learn),
Spark's per-partition function and the web app's record agree on every field but ``source``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from warc_pages import example_pages, write_example_warc

from forest.cli import cli
from forest.config import Settings
from forest.demo import ExampleSite
from forest.service.pages import extract_page
from forest.spark import pages_of_warc, site_records
from forest.storage import WrapperStore

# The web app's road needs its extra; without it the whole comparison waits for the run that has it.
pytest.importorskip("starlette", reason="the web app's record needs the web extra: pip install -e '.[web]'")
from forest.webapp.runner import record, shown  # noqa: E402

K = 5


def by_url(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each page's record without its source (which names the input: a path, or a WARC file and offset)."""
    return {r["url"]: {k: v for k, v in r.items() if k != "source"} for r in records if r.get("url", "").startswith("http://example.test/")}


def test_every_road_gives_a_page_the_same_record(tmp_path: Path, example: ExampleSite) -> None:
    runner = CliRunner()
    db = tmp_path / "forest.db"
    warc = write_example_warc(tmp_path / "example.warc.gz", example)
    pages = example_pages(example)

    # The batch learns the site from its first K pages of the WARC, stores it, and extracts them all.
    learned = runner.invoke(cli, ["extract", "--db", str(db), "--learn", str(K), "--jobs", "1", str(warc)])
    assert learned.exit_code == 0, learned.output
    batch_warc = by_url([json.loads(line) for line in learned.stdout.splitlines()])
    assert len(batch_warc) == len(pages) and {r["method"] for r in batch_warc.values()} == {"wrapper"}

    # Spark: the function its job maps over each partition, on the WARC's pages sorted as the job sorts them.
    keyed = sorted(pages_of_warc(str(warc), warc.read_bytes()), key=lambda pair: pair[0])
    spark = by_url(list(site_records(keyed, K, Settings())))

    # The files, with the stored wrapper: one at a time, and as one batch.
    single = by_url([json.loads(runner.invoke(cli, ["extract", "--db", str(db), "--format", "json", str(p)]).stdout)
                     for p in pages])
    files = runner.invoke(cli, ["extract", "--db", str(db), "--format", "jsonl", "--jobs", "1", *map(str, pages)])
    assert files.exit_code == 0, files.output
    batch_files = by_url([json.loads(line) for line in files.stdout.splitlines()])

    # The web app: the extraction its extract_html job makes (with the structure, for its panel), and its record.
    with WrapperStore(db) as store:
        webapp = by_url([record(extract_page(p.read_bytes(), store=store, settings=shown(Settings())), str(p)) for p in pages])

    assert batch_warc == spark == single == batch_files == webapp
