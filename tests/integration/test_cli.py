"""The `forest` command end to end on the bundled example site, through click's CliRunner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from forest.cli import cli
from forest.demo import ExampleSite, token_f1
from forest.errors import UnknownSiteError

REQUIRED_KEYS = {"source", "site", "title", "text", "method", "pattern", "url", "confidence", "notes"}


def invoke(runner: CliRunner, *args: object, input: bytes | None = None) -> Result:
    return runner.invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


@pytest.fixture
def learned(runner: CliRunner, db: Path, example_pages: list[Path]) -> Path:
    """``db`` with the example site learned from its sample pages."""
    result = invoke(runner, "learn", "--db", db, *example_pages)
    assert result.exit_code == 0, result.output
    return db


def test_learn_then_extract_finds_the_held_out_article(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", learned, "--format", "json", example.held_out)
    assert result.exit_code == 0, result.output
    article = json.loads(result.stdout)
    assert article["method"] == "wrapper"
    assert token_f1(article["text"], example.expected.read_text(encoding="utf-8")) >= 0.9


def test_learn_prints_what_it_learned(runner: CliRunner, db: Path, example_pages: list[Path]) -> None:
    result = invoke(runner, "learn", "--db", db, *example_pages)
    assert result.exit_code == 0
    assert f"learned example.test (version 1) from {len(example_pages)} of {len(example_pages)} pages" in result.stdout
    for label in ("main pattern:", "alternates:", "exclusions:", "template blocks:", "parses:", "pages used:", "pages skipped:"):
        assert label in result.stdout


def test_learn_site_option_names_the_site(runner: CliRunner, db: Path, example_pages: list[Path]) -> None:
    assert invoke(runner, "learn", "--db", db, "--site", "courier", *example_pages).exit_code == 0
    assert invoke(runner, "show", "--db", db, "courier").exit_code == 0


def test_learn_pages_option_limits_the_sample(runner: CliRunner, db: Path, example_pages: list[Path]) -> None:
    result = invoke(runner, "learn", "--db", db, "--pages", "3", *example_pages)
    assert "from 3 of 3 pages" in result.stdout


def test_learn_meta_keywords(runner: CliRunner, db: Path, example_pages: list[Path]) -> None:
    result = invoke(runner, "learn", "--db", db, "--keywords", "meta", *example_pages)
    assert result.exit_code == 0
    assert json.loads(invoke(runner, "show", "--db", db, "example.test").stdout)["variant"]["keywords"] == "meta"


def test_learn_lists_skipped_files(runner: CliRunner, db: Path, example_pages: list[Path], tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    result = invoke(runner, "learn", "--db", db, *example_pages, empty)
    assert result.exit_code == 0
    assert f"skipped {empty}: empty page" in result.stdout


def test_relearning_makes_a_new_version(runner: CliRunner, learned: Path, example_pages: list[Path]) -> None:
    result = invoke(runner, "learn", "--db", learned, *example_pages)
    assert "(version 2)" in result.stdout


def test_extract_without_site_uses_the_canonical_link(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", learned, "--format", "json", example.held_out)
    article = json.loads(result.stdout)
    assert (article["site"], article["url"]) == ("example.test", "http://example.test/2024/04/library-maps.html")


@pytest.mark.parametrize("output_format", ["text", "json", "jsonl", "markdown", "html"])
def test_each_format_is_well_formed(
    runner: CliRunner, learned: Path, example: ExampleSite, output_format: str
) -> None:
    result = invoke(runner, "extract", "--db", learned, "--site", "example.test", "--format", output_format, example.held_out)
    assert result.exit_code == 0
    out = result.stdout
    first_paragraph = example.expected.read_text(encoding="utf-8").splitlines()[1]
    if output_format in ("json", "jsonl"):
        assert REQUIRED_KEYS <= json.loads(out).keys()
    elif output_format == "html":
        assert out.lstrip().startswith("<") and "</p>" in out
    elif output_format == "markdown":
        assert out.startswith("# Restored estate maps")
        assert f"\n\n{first_paragraph}\n" in out
    else:
        assert out.startswith("Restored estate maps") and f"\n{first_paragraph}\n" in out


def test_jsonl_gives_one_object_per_page(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    pages = [example.held_out, *example.sample[:2]]
    result = invoke(runner, "extract", "--db", learned, "--format", "jsonl", *pages)
    lines = result.stdout.splitlines()
    assert len(lines) == len(pages)
    records = [json.loads(line) for line in lines]
    assert all(REQUIRED_KEYS <= r.keys() for r in records)
    assert [r["source"] for r in records] == [str(p) for p in pages]


def test_json_gives_an_array_for_several_pages(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", learned, "--format", "json", example.held_out, example.sample[0])
    assert [r["method"] for r in json.loads(result.stdout)] == ["wrapper", "wrapper"]


def test_text_separates_pages_with_a_blank_line_and_a_header(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", learned, "--format", "text", example.held_out, example.sample[0])
    title = json.loads(invoke(runner, "extract", "--db", learned, "--format", "json", example.sample[0]).stdout)["title"]
    assert f"\n\n==> {example.sample[0]} <==\n{title}\n" in result.stdout
    assert result.stdout.startswith(f"==> {example.held_out} <==\n")


def test_several_pages_default_to_jsonl(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", learned, example.held_out, example.sample[0])
    assert [json.loads(line)["source"] for line in result.stdout.splitlines()] == [str(example.held_out), str(example.sample[0])]


def test_extract_reads_stdin(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", learned, "--format", "jsonl", "-", input=example.held_out.read_bytes())
    record = json.loads(result.stdout)
    assert (record["source"], record["method"]) == ("-", "wrapper")


def test_sites_lists_counts(runner: CliRunner, learned: Path, example: ExampleSite) -> None:
    invoke(runner, "extract", "--db", learned, example.held_out)
    lines = invoke(runner, "sites", "--db", learned).stdout.splitlines()
    assert lines[0].split() == ["site", "version", "learned_at", "pages", "extracted", "misses"]
    site, version, _, extracted, misses = lines[1].split()
    assert (site, version, extracted, misses) == ("example.test", "1", "1", "0")


def test_sites_on_an_empty_database(runner: CliRunner, db: Path) -> None:
    result = invoke(runner, "sites", "--db", db)
    assert result.exit_code == 0 and result.stdout == "" and "no sites stored" in result.stderr


def test_show_prints_the_wrapper_json(runner: CliRunner, learned: Path) -> None:
    wrapper = json.loads(invoke(runner, "show", "--db", learned, "example.test").stdout)
    assert wrapper["site"] == "example.test" and wrapper["patterns"] and wrapper["schema_version"] == 1


def test_forget_removes_the_site(runner: CliRunner, learned: Path) -> None:
    assert invoke(runner, "forget", "--db", learned, "example.test").stdout == "forgot example.test\n"
    assert invoke(runner, "sites", "--db", learned).stdout == ""
    again = invoke(runner, "forget", "--db", learned, "example.test")
    assert again.exit_code == 1 and again.stderr.startswith("error: no wrapper stored for site 'example.test'")


def test_db_option_before_the_command(runner: CliRunner, learned: Path) -> None:
    assert "example.test" in invoke(runner, "--db", learned, "sites").stdout


def test_db_from_the_environment(learned: Path) -> None:
    result = CliRunner(env={"FOREST_DB": str(learned)}).invoke(cli, ["sites"])
    assert "example.test" in result.stdout


def test_debug_lets_the_exception_through(runner: CliRunner, db: Path) -> None:
    result = runner.invoke(cli, ["--debug", "show", "--db", str(db), "nowhere.test"])
    assert isinstance(result.exception, UnknownSiteError)
    result = runner.invoke(cli, ["show", "--debug", "--db", str(db), "nowhere.test"])
    assert isinstance(result.exception, UnknownSiteError)


def test_usage_error_exits_2(runner: CliRunner, db: Path) -> None:
    assert invoke(runner, "extract", "--db", db, "--format", "pdf", "x.html").exit_code == 2
    assert invoke(runner, "learn", "--db", db).exit_code == 2


def test_demo_learns_and_extracts(runner: CliRunner, db: Path) -> None:
    result = invoke(runner, "demo", "--db", db)
    assert result.exit_code == 0, result.output
    assert "learned example.test" in result.stdout and "method: wrapper" in result.stdout
    assert "example.test" in invoke(runner, "sites", "--db", db).stdout


def test_demo_without_db_leaves_no_database(tmp_path: Path) -> None:
    env = {"FOREST_DB": None, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = CliRunner(env=env).invoke(cli, ["demo"], catch_exceptions=False)
    assert result.exit_code == 0
    assert list(tmp_path.iterdir()) == []


def test_python_m_forest_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "forest", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: forest") and "extract" in result.stdout
