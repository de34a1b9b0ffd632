"""`forest extract` on many pages: directories, lists, WARC files, failed pages, --jobs and --learn."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from warc_pages import CP1252_URL, example_pages, page_url, write_example_warc

from forest.cli import cli
from forest.demo import ExampleSite


def invoke(runner: CliRunner, *args: object, input: bytes | None = None) -> Result:
    return runner.invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def records(result: Result) -> list[dict[str, object]]:
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture
def example_warc(tmp_path: Path, example: ExampleSite) -> Path:
    """The example site's pages as a .warc.gz, plus a cp1252 page, a 404 and a PDF (which are not pages)."""
    return write_example_warc(tmp_path / "example.warc.gz", example)


@pytest.fixture
def tree(tmp_path: Path, example: ExampleSite) -> Path:
    """The example pages in a directory tree, with files that are not HTML pages beside them."""
    root = tmp_path / "pages"
    for index, path in enumerate(example_pages(example)):
        target = root / ("a" if index < 4 else "b/c") / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    (root / "notes.txt").write_text("not a page")
    (root / "a" / "feed.xml").write_text("<rss/>")
    return root


def test_a_directory_is_read_recursively_html_files_only_in_sorted_order(runner: CliRunner, db: Path, tree: Path) -> None:
    result = invoke(runner, "extract", "--db", db, "--jobs", 1, tree)
    assert result.exit_code == 0, result.output
    sources = [r["source"] for r in records(result)]
    assert sources == sorted(str(p) for p in tree.rglob("*.html"))
    assert len(sources) == 7
    assert result.stderr.startswith("forest: 7 pages in ")


def test_a_cold_page_from_the_cli_is_extracted_by_the_classifier(runner: CliRunner, db: Path, example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", db, "--format", "json", example.held_out)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["method"] == "classifier" and record["site"] == "example.test"
    assert "estate maps" in record["text"]


def test_a_list_of_paths_from_a_file_and_from_stdin(runner: CliRunner, db: Path, tmp_path: Path, example: ExampleSite) -> None:
    pages = example_pages(example)[:3]
    listing = tmp_path / "list.txt"
    listing.write_text("# pages\n\n" + "\n".join(str(p) for p in pages[:2]) + "\n")
    result = invoke(runner, "extract", "--db", db, "-i", listing, "-i", "-", input=f"{pages[2]}\n".encode())
    assert result.exit_code == 0, result.output
    assert [r["source"] for r in records(result)] == [str(p) for p in pages]


def test_warc_records_give_their_url_and_charset_and_non_pages_are_skipped(runner: CliRunner, db: Path, example_warc: Path,
                                                                           example: ExampleSite) -> None:
    result = invoke(runner, "extract", "--db", db, "--jobs", 1, example_warc)
    assert result.exit_code == 0, result.output
    found = records(result)
    urls = [page_url(p) for p in example_pages(example)]
    assert [r["url"] for r in found] == [*urls[:2], CP1252_URL, *urls[2:]]
    assert all(str(r["source"]).startswith(f"{example_warc}#") for r in found)
    cafe = found[2]
    assert "caf\u00e9 cr\u00e8me" in str(cafe["text"]) and "\u201cpas plus\u201d" in str(cafe["text"])
    assert "2 records skipped" in result.stderr


def test_a_batch_with_unreadable_binary_and_empty_pages_completes_with_error_records(
    runner: CliRunner, db: Path, tmp_path: Path, example: ExampleSite
) -> None:
    empty, binary, missing = tmp_path / "empty.html", tmp_path / "image.html", tmp_path / "missing.html"
    empty.write_bytes(b"")
    binary.write_bytes(bytes(range(256)) * 20)
    result = invoke(runner, "extract", "--db", db, empty, example.held_out, binary, missing, "--format", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert [r["source"] for r in found] == [str(empty), str(example.held_out), str(binary), str(missing)]
    errors = [r.get("error") for r in found]
    assert errors[1] is None and found[1]["method"] == "classifier"
    assert "empty page" in str(errors[0]) and "binary" in str(errors[2]) and "No such file" in str(errors[3])
    assert all("\n" not in str(e) for e in errors)
    assert set(found[0]) == {"source", "error"}
    assert result.stderr.splitlines() == [result.stderr.splitlines()[0]]
    assert "4 pages in" in result.stderr and "3 failed" in result.stderr


def test_nothing_readable_exits_1(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    result = runner.invoke(cli, ["extract", "--db", str(db), str(empty), str(tmp_path / "missing.html")])
    assert result.exit_code == 1
    assert len(records(result)) == 2
    assert result.stderr.splitlines()[-1] == "error: no page could be read"


def test_jobs_2_output_equals_jobs_1(runner: CliRunner, db: Path, tmp_path: Path, tree: Path, example_warc: Path) -> None:
    outputs = []
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}.jsonl"
        result = invoke(runner, "extract", "--db", tmp_path / f"{jobs}.db", "--learn", 5, "--jobs", jobs, "-o", out, example_warc, tree)
        assert result.exit_code == 0, result.output
        assert result.stdout == ""
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]
    methods = [r["method"] for r in map(json.loads, outputs[0].splitlines())]
    assert len(methods) == 15 and methods.count("wrapper") >= 12


def test_learn_k_learns_sites_with_more_than_k_pages_and_stores_them(runner: CliRunner, db: Path, example_warc: Path) -> None:
    result = invoke(runner, "extract", "--db", db, "--jobs", 1, "--learn", 5, example_warc)
    assert result.exit_code == 0, result.output
    by_site = {(r["site"], r["method"]) for r in records(result)}
    assert ("example.test", "wrapper") in by_site
    assert ("cafe.test", "wrapper") not in by_site  # one page: cold
    assert "learned 1 site" in result.stderr
    sites = invoke(runner, "sites", "--db", db).stdout.splitlines()
    assert sites[1].split()[0] == "example.test" and sites[1].split()[3] == "7"
    # Learned already: a second run uses the stored wrapper and learns nothing.
    again = invoke(runner, "extract", "--db", db, "--jobs", 1, "--learn", 5, example_warc)
    assert again.stdout == result.stdout and "learned" not in again.stderr


def test_text_formats_put_a_header_line_before_each_page(runner: CliRunner, db: Path, example: ExampleSite, tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    result = invoke(runner, "extract", "--db", db, "--format", "markdown", example.held_out, empty)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"==> {example.held_out} <==\n# ")
    assert f"\n\n==> {empty} <==\nerror: " in result.stdout


def test_warc_without_fastwarc_is_a_one_line_error(runner: CliRunner, db: Path, example_warc: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fastwarc.warc", None)
    result = runner.invoke(cli, ["extract", "--db", str(db), "--jobs", "1", str(example_warc)])
    assert result.exit_code == 1
    assert result.stderr == "error: reading WARC files needs FastWARC: pip install 'forest-extract[warc]'\n"


def test_a_file_that_is_not_a_warc_is_an_error_record(runner: CliRunner, db: Path, tmp_path: Path, example: ExampleSite) -> None:
    bad = tmp_path / "bad.warc.gz"
    bad.write_bytes(b"hello, not a WARC file\n")
    result = invoke(runner, "extract", "--db", db, "--jobs", 1, bad, example.held_out)
    assert result.exit_code == 0, result.output
    failed, extracted = records(result)
    assert failed["source"] == f"{bad}#0" and "not a readable WARC file" in str(failed["error"])
    assert extracted["method"] == "classifier"


def test_stdin_cannot_be_both_a_page_and_a_list(runner: CliRunner, db: Path) -> None:
    result = runner.invoke(cli, ["extract", "--db", str(db), "-", "-i", "-"], input=b"x")
    assert result.exit_code == 2 and "not both" in result.stderr
