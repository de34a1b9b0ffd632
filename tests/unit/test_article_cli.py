"""`forest extract` prints the structure site's articles with --format markdown, --links, --images and --comments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from structure_site import SITE, page

from forest.cli import cli

HELD_OUT = 5


@pytest.fixture
def files(tmp_path: Path, runner: CliRunner, db: Path) -> list[Path]:
    paths = []
    for i in range(HELD_OUT + 1):
        path = tmp_path / f"{i}.html"
        path.write_text(page(i)[0], encoding="utf-8")
        paths.append(path)
    result = runner.invoke(cli, ["learn", "--db", str(db), "--site", SITE, *map(str, paths[:HELD_OUT])], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return paths


def _extract(runner: CliRunner, db: Path, *args: object) -> str:
    result = runner.invoke(cli, ["extract", "--db", str(db), "--site", SITE, *map(str, args)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_markdown_with_links_and_images(runner: CliRunner, db: Path, files: list[Path]) -> None:
    out = _extract(runner, db, "--format", "markdown", "--links", "--images", files[HELD_OUT])
    assert out.startswith(f"# {page(HELD_OUT)[1]}\n")
    assert "[the theatre report](/theatre/more.html)" in out and "![The theatre](/img/theatre.jpg)" in out
    assert "## What the audience said" in out and "| --- | --- |" in out


def test_comments_flag_adds_a_comments_field(runner: CliRunner, db: Path, files: list[Path]) -> None:
    plain = json.loads(_extract(runner, db, "--format", "json", files[HELD_OUT]))
    assert "comments" not in plain and "I walked past" not in plain["text"]
    with_comments = json.loads(_extract(runner, db, "--format", "json", "--comments", files[HELD_OUT]))
    assert "I walked past the theatre" in with_comments["comments"]
    assert with_comments["text"] == plain["text"]


def test_several_pages_get_a_header_each_in_markdown(runner: CliRunner, db: Path, files: list[Path]) -> None:
    out = _extract(runner, db, "--format", "markdown", files[HELD_OUT], files[0])
    assert out.startswith(f"==> {files[HELD_OUT]} <==\n# ")
    assert f"\n\n==> {files[0]} <==\n# {page(0)[1]}\n" in out


def test_records_carry_the_html_only_when_asked(runner: CliRunner, db: Path, files: list[Path]) -> None:
    # A batch of records for a corpus is text: the structure's walk and the HTML are asked for.
    plain = [json.loads(line) for line in _extract(runner, db, files[HELD_OUT], files[0]).splitlines()]
    assert [set(record) & {"html"} for record in plain] == [set(), set()]
    asked = [json.loads(line) for line in _extract(runner, db, "--html", files[HELD_OUT], files[0]).splitlines()]
    assert "<h2>What the audience said</h2>" in asked[0]["html"]
    assert [record["text"] for record in asked] == [record["text"] for record in plain]
    single = json.loads(_extract(runner, db, "--format", "json", "--html", files[HELD_OUT]))
    assert single["html"] == asked[0]["html"]


def test_text_keeps_a_code_blocks_lines(runner: CliRunner, db: Path, files: list[Path]) -> None:
    out = _extract(runner, db, "--format", "text", files[HELD_OUT])
    assert '\ncount = survey("theatre")\nprint(count * 2)\n' in out


def test_text_of_a_page_no_wrapper_knows_keeps_a_code_blocks_lines(runner: CliRunner, tmp_path: Path) -> None:
    cold = tmp_path / "cold.html"
    cold.write_text(page(3)[0], encoding="utf-8")
    result = runner.invoke(cli, ["extract", "--db", str(tmp_path / "empty.db"), "--format", "text", str(cold)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert '\ncount = survey("railway")\nprint(count * 2)\n' in result.stdout


def test_a_table_header_every_page_repeats_stays(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    paths = []
    for i in range(HELD_OUT + 1):
        path = tmp_path / f"same-{i}.html"
        path.write_text(page(i, header=("Name", "Value"))[0], encoding="utf-8")
        paths.append(path)
    learned = runner.invoke(cli, ["learn", "--db", str(db), "--site", SITE, *map(str, paths[:HELD_OUT])], catch_exceptions=False)
    assert learned.exit_code == 0, learned.output
    out = _extract(runner, db, "--format", "markdown", paths[HELD_OUT])
    assert "| Name | Value |\n| --- | --- |\n| 2005 | 15 |" in out
    record = json.loads(_extract(runner, db, "--format", "json", paths[HELD_OUT]))
    assert "Name\nValue\n2005" in record["text"]
