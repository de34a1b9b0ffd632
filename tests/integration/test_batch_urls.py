"""`forest extract -i LIST` with URLs: each is fetched, a dead one is an error record, the batch goes on."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from synthetic_site import Article, Server

from forest.cli import cli


def test_a_list_of_urls_gives_a_record_each_in_order(gazette: Server, runner: CliRunner, articles: list[Article], tmp_path: Path) -> None:
    urls = [gazette.url(articles[9].path), gazette.url("/news/missing.html"), gazette.url(articles[8].path)]
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join(urls) + "\n")
    result = runner.invoke(cli, ["extract", "--allow-private", "--no-learn", "--jobs", "1", "-i", str(listing)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.split("\n") if line]
    assert [r["source"] for r in records] == urls
    assert [r.get("method") for r in records] == ["classifier", None, "classifier"]
    assert "404" in records[1]["error"]
    assert str(records[0]["title"]).startswith(articles[9].title)
    assert "3 pages in" in result.stderr and "1 failed" in result.stderr
