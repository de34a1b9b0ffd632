"""Bad input never crashes the CLI: exit 1, one `error: ...` line, no traceback, stored wrappers unchanged."""

from __future__ import annotations

import json

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from forest.cli import cli
from forest.demo import ExampleSite

# Each case makes, in tmp_path, the arguments of one forest command that must fail.
Case = Callable[[Path, ExampleSite], list[str]]


def _file(name: str, data: bytes) -> Callable[[Path], str]:
    def make(tmp_path: Path) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)

    return make


def _binary(tmp_path: Path) -> str:
    path = tmp_path / "binary.html"
    path.write_bytes(random.Random(7).randbytes(4096) + b"\x00" * 64)
    return str(path)


def _huge(tmp_path: Path) -> str:
    # 20 MB, over Settings.max_page_bytes (10 MB): refused before parsing.
    path = tmp_path / "huge.html"
    paragraph = b"<p>" + b"word " * 200 + b"</p>\n"
    with path.open("wb") as file:
        file.write(b"<html><head><title>huge</title></head><body>")
        for _ in range(20_000_000 // len(paragraph) + 1):
            file.write(paragraph)
        file.write(b"</body></html>")
    return str(path)


PAGES: dict[str, Callable[[Path], str]] = {
    "empty file": _file("empty.html", b""),
    "whitespace file": _file("blank.html", b" \n\t\n"),
    "binary file": _binary,
    "20 MB page": _huge,
    "page without body": _file("nobody.html", b"<html><head><title>x</title></head></html>"),
    "missing file": lambda tmp_path: str(tmp_path / "missing.html"),
    "directory as file": lambda tmp_path: str(tmp_path),
}


def _extract(make: Callable[[Path], str]) -> Case:
    return lambda tmp_path, example: ["extract", "--site", "example.test", make(tmp_path)]


def _learn(make: Callable[[Path], str]) -> Case:
    return lambda tmp_path, example: ["learn", "--site", "example.test", make(tmp_path)]


def _corrupt_db(tmp_path: Path) -> str:
    path = tmp_path / "corrupt.db"
    path.write_bytes(random.Random(3).randbytes(8192))
    return str(path)


CASES: dict[str, Case] = {
    **{f"extract {name}": _extract(make) for name, make in PAGES.items()},
    **{f"learn {name}": _learn(make) for name, make in PAGES.items()},
    "show unknown site": lambda tmp_path, example: ["show", "nowhere.test"],
    "forget unknown site": lambda tmp_path, example: ["forget", "nowhere.test"],
    "directory as db (sites)": lambda tmp_path, example: ["sites", "--db", str(tmp_path)],
    "directory as db (learn)": lambda tmp_path, example: ["learn", "--db", str(tmp_path), *map(str, example.sample)],
    "corrupt db (sites)": lambda tmp_path, example: ["sites", "--db", _corrupt_db(tmp_path)],
    "corrupt db (extract)": lambda tmp_path, example: ["extract", "--db", _corrupt_db(tmp_path), str(example.held_out)],
    "corrupt db (learn)": lambda tmp_path, example: ["learn", "--db", _corrupt_db(tmp_path), *map(str, example.sample)],
}


@pytest.fixture
def learned(runner: CliRunner, db: Path, example: ExampleSite) -> str:
    """Learn the example site into ``db``; return its `forest show` output."""
    assert runner.invoke(cli, ["learn", "--db", str(db), *map(str, example.sample)]).exit_code == 0
    return runner.invoke(cli, ["show", "--db", str(db), "example.test"]).stdout


def _run(runner: CliRunner, db: Path, args: list[str]) -> Result:
    # The case's own --db (after the command) wins over this one.
    return runner.invoke(cli, ["--db", str(db), *args])


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_bad_input_fails_cleanly(
    runner: CliRunner, db: Path, tmp_path: Path, example: ExampleSite, learned: str, case: Case
) -> None:
    workdir = tmp_path / "case"
    workdir.mkdir()
    result = _run(runner, db, case(workdir, example))
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1
    assert runner.invoke(cli, ["show", "--db", str(db), "example.test"]).stdout == learned


def test_cp1252_page_is_decoded_not_refused(runner: CliRunner, db: Path, tmp_path: Path, learned: str) -> None:
    page = tmp_path / "cafe.html"
    page.write_bytes(
        b"<html><head><title>Le caf\xe9</title></head><body><div><p>Un caf\xe9 cr\xe8me co\xfbte "
        b"deux euros au comptoir du caf\xe9 de la gare, \x93pas plus\x94.</p></div></body></html>"
    )
    result = _run(runner, db, ["extract", "--site", "example.test", "--format", "text", str(page)])
    assert result.exit_code == 0, result.output
    assert "café" in result.stdout and "“pas plus”" in result.stdout
    assert runner.invoke(cli, ["show", "--db", str(db), "example.test"]).stdout == learned


def test_several_pages_one_bad_reports_it_and_goes_on(
    runner: CliRunner, db: Path, tmp_path: Path, example: ExampleSite, learned: str
) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    result = _run(runner, db, ["extract", "--format", "jsonl", str(empty), str(example.held_out)])
    # The batch ran: exit 0, the failed page is a record, the summary counts it.
    assert result.exit_code == 0
    failed, extracted = map(json.loads, result.stdout.splitlines())
    assert failed == {"source": str(empty), "error": "empty page"}
    assert extracted["method"] == "wrapper"
    assert result.stderr.startswith("forest: 2 pages in ") and "1 wrapper, 1 failed" in result.stderr


def test_unreadable_file(runner: CliRunner, db: Path, tmp_path: Path, learned: str) -> None:
    if os.name != "posix" or os.geteuid() == 0:
        pytest.skip("needs POSIX permissions and a non-root user")
    page = tmp_path / "secret.html"
    page.write_bytes(b"<html><body><p>x</p></body></html>")
    page.chmod(0)
    result = _run(runner, db, ["extract", "--site", "example.test", str(page)])
    assert result.exit_code == 1 and result.stderr.startswith(f"error: cannot read {page}: Permission denied")


@pytest.mark.parametrize(
    "args",
    [
        lambda tmp_path, example: ["extract", "--site", "nowhere.test", str(example.held_out)],
        lambda tmp_path, example: ["extract", _file("other.html", b'<html><head><link rel="canonical" href="http://other.test/a">'
                                                   b"</head><body><p>Some text here.</p></body></html>")(tmp_path)],
        lambda tmp_path, example: ["extract", _file("anon.html", b"<html><body><p>Some text here.</p></body></html>")(tmp_path)],
    ],
    ids=["named unknown site", "page of an unknown host", "page naming no site"],
)
def test_a_page_of_a_site_with_no_wrapper_is_extracted_cold(
    runner: CliRunner, db: Path, tmp_path: Path, example: ExampleSite, args: Case
) -> None:
    result = _run(runner, db, [*args(tmp_path, example), "--format", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["method"] in ("classifier", "page", "none") and record["pattern"] is None
