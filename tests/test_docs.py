"""The README and docs/ say what is true: every command has help and is documented, every code
block runs as written (or says why it cannot), every `forest ...` command names real commands
and options, and no prose or code comment carries a commit hash.

Code blocks, by their fence: ```sh, ```bash, ```console and ```python blocks are run, in order,
one file at a time, in a temporary directory where ``forest/`` is the package (so the examples'
``forest/examples/...`` paths work), with the bundled example site served on 127.0.0.1 in place
of the tour's ``127.0.0.1:8765``.  ```text, ```json and unlabelled blocks are output samples.
A block preceded by the line ``<!-- not-run: REASON -->`` is not run (its commands are still
checked against the CLI).
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tokenize
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from forest.cli import cli
from forest.demo import DemoServer, example_site, serve_example

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))
MARKDOWN = [ROOT / "README.md", *DOCS]
COMMANDS = sorted(cli.list_commands(click.Context(cli)))

RUN = {"sh", "bash", "console", "python"}
SAMPLES = {"text", "json", ""}
NOT_RUN = re.compile(r"^<!-- not-run: (?P<reason>\S.*\S) -->$")
TOUR_PORT = "127.0.0.1:8765"


@dataclass(frozen=True, slots=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    language: str
    code: str
    not_run: str | None  # the reason, when marked

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        fence = re.match(r"^(```+)\s*([\w-]*)\s*$", lines[index])
        if not fence:
            index += 1
            continue
        end = next((j for j in range(index + 1, len(lines)) if lines[j].strip() == fence.group(1)), None)
        assert end is not None, f"{path.name}:{index + 1}: a code fence is never closed"
        marker = NOT_RUN.match(lines[index - 1].strip()) if index else None
        found.append(Block(path, index + 1, fence.group(2), "\n".join(lines[index + 1:end]) + "\n",
                           marker.group("reason") if marker else None))
        index = end + 1
    return found


ALL_BLOCKS = [block for path in MARKDOWN for block in blocks(path)]


# --- every command has help, and the README names it ----------------------------------------------


def test_there_are_commands() -> None:
    assert {"learn", "extract", "sites", "show", "forget", "demo", "serve", "eval", "bench", "train"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_command_has_help(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None and command.help and command.help.strip()
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0 and result.stdout.startswith(f"Usage: cli {name}")


@pytest.mark.parametrize("name", COMMANDS)
def test_command_options_have_help(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"{name} {param.opts} has no help"


@pytest.mark.parametrize("name", COMMANDS)
def test_command_is_in_readme_and_in_the_cli_guide(name: str) -> None:
    assert f"forest {name}" in README
    assert f"forest {name}" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def test_no_help_text_cites_a_document_the_repository_lacks() -> None:
    for name in COMMANDS:
        result = CliRunner().invoke(cli, [name, "--help"])
        for cited in re.findall(r"\b([\w./-]+\.md)\b", result.stdout):
            assert (ROOT / cited).exists() or (ROOT / "docs" / cited).exists(), f"forest {name} --help cites {cited}"


# --- the README's promises ------------------------------------------------------------------------


def test_readme_is_short() -> None:
    assert len(README.encode("utf-8")) < 10_000


def test_readme_set_up_commands_are_what_ci_runs() -> None:
    """.ci/run runs the README's two set-up commands as written, in a fresh venv."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    setup = next(b for b in ALL_BLOCKS if b.path.name == "README.md" and "pip install -e . && forest demo" in b.code)
    commands = [line.strip() for line in setup.code.splitlines() if line.strip()]
    assert commands == ["pip install -e . && forest demo", "pip install -e '.[test]' && python -m pytest"]
    for command in commands:
        assert command in ci
    venv = next(b for b in ALL_BLOCKS if b.path.name == "README.md" and "python -m venv" in b.code)
    assert "pip install --upgrade pip" in venv.code and "python -m venv" in ci


def test_readme_links_to_existing_docs() -> None:
    for target in re.findall(r"\]\(((?:docs/)?[\w.-]+\.md)\)", README):
        if target == "docs/evaluation.md":
            continue  # written by `forest eval` (eval/), not by hand
        assert (ROOT / target).exists(), target


def _table_after(text: str, heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first markdown table after ``heading``, header and rule left out."""
    lines = text[text.index(heading):].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[first + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_readme_results_are_docs_evaluation_figures_and_date() -> None:
    """The README quotes docs/evaluation.md's summary: a regenerated page makes this fail until the README follows."""
    evaluation = (ROOT / "docs" / "evaluation.md").read_text(encoding="utf-8")
    generated = re.search(r"Generated on (\d{4}-\d{2}-\d{2})", evaluation)
    assert generated and f"generated on {generated.group(1)}" in " ".join(README.split()), \
        "the README's results table must carry docs/evaluation.md's date"
    learned = {row[0]: row for row in _table_after(evaluation, "## Summary: learned sites")}
    cold = {row[0]: row for row in _table_after(evaluation, "## Summary: cold extraction")}
    quoted = _table_after(README, "<!-- evaluation-summary:")
    assert quoted
    for dataset, forest, cold_f1, peer in quoted:
        if dataset in learned:  # dataset, sites, pages, forest, cold, delta, best peer, ...
            assert [forest, cold_f1, peer] == [learned[dataset][3], learned[dataset][4], learned[dataset][6]], dataset
        else:  # dataset, pages, sites left out, forest (no wrapper), best peer, difference
            assert dataset in cold, f"{dataset} is in no summary of docs/evaluation.md"
            assert [forest, cold_f1, peer] == ["-", cold[dataset][3], cold[dataset][4]], dataset
    scored = {name for name, row in learned.items() if row[1] != "0"} | set(cold)
    assert {row[0] for row in quoted} == scored, "the README quotes every dataset the summary scores"


# --- code blocks: labelled, and their commands are the CLI's ----------------------------------------


def test_every_code_block_is_run_or_a_sample_or_says_why_not() -> None:
    for block in ALL_BLOCKS:
        assert block.language in RUN | SAMPLES, f"{block.where}: unknown fence language {block.language!r}"
    marked = [b for b in ALL_BLOCKS if b.not_run]
    assert all(b.language in RUN for b in marked), "a not-run marker on an output sample says nothing"


def _segments(code: str) -> Iterator[list[str]]:
    """The simple commands of a shell snippet, as words: split at newlines, ;, |, && and ||."""
    code = code.replace("\\\n", " ")
    for line in code.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";|&<>()")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        segment: list[str] = []
        try:
            words = list(lexer)
        except ValueError:  # an unbalanced quote in a sample: not a command line
            continue
        skip_next = False
        for word in words:
            if skip_next:
                skip_next = False
                continue
            if word and set(word) <= set(";|&()"):
                yield segment
                segment = []
            elif word and set(word) <= set("<>"):
                skip_next = True  # a redirection's file
            else:
                segment.append(word)
        yield segment


def _forest_commands(block: Block) -> Iterator[list[str]]:
    """The ``forest ...`` command lines of a shell block (and of a synopsis in a text block)."""
    if block.language in {"sh", "bash", "console"}:
        for words in _segments(block.code):
            if words and words[0] == "$":
                words = words[1:]
            if words[:1] == ["forest"]:
                yield words[1:]
            elif words[:3] == ["python", "-m", "forest"]:
                yield words[3:]
    elif block.language == "text":  # a synopsis: `forest learn [--pages N] FILE...`, continued on indented lines
        text = re.sub(r"\n\s+(?=\S)", " ", block.code)
        for line in text.splitlines():
            if line.startswith("forest "):
                yield [w.strip("[]") for w in re.split(r"[\s|]+", line)[1:] if w.strip("[]")]


def _check_command(words: list[str], where: str) -> None:
    group_options = {o for p in cli.params for o in p.opts}
    while words and words[0] in group_options:
        words = words[2:] if words[0] == "--db" else words[1:]
    assert words, f"{where}: `forest` with no command"
    name = words[0]
    command = cli.get_command(click.Context(cli), name)
    assert command is not None, f"{where}: `forest {name}` is no command (commands: {', '.join(COMMANDS)})"
    options = {o for p in command.params for o in (*p.opts, *p.secondary_opts)} | {"--help"}
    for word in words[1:]:
        if re.match(r"--?[a-zA-Z]", word):
            option = word.split("=", 1)[0]
            assert option in options, f"{where}: `forest {name}` has no option {option}"


@pytest.mark.parametrize("block", [b for b in ALL_BLOCKS if list(_forest_commands(b))], ids=lambda b: b.where)
def test_forest_commands_in_blocks_name_real_commands_and_options(block: Block) -> None:
    for words in _forest_commands(block):
        _check_command(words, block.where)


def test_the_command_checker_catches_a_wrong_option() -> None:
    """The check above can fail: a block with a misspelt option or command is caught."""
    bad = Block(ROOT / "README.md", 1, "sh", "forest extract --fromat json page.html\n", None)
    with pytest.raises(AssertionError, match="no option --fromat"):
        for words in _forest_commands(bad):
            _check_command(words, bad.where)
    with pytest.raises(AssertionError, match="is no command"):
        _check_command(["extrakt", "page.html"], "here")


# `python -m` commands of the docs whose --help is argparse's: their options are checked against it.
# (forest.webapp.screenshot takes its one argument as the output file, --help included: not run.)
ARGPARSE_MODULES = {"forest.demo", "forest.spark", "eval.fuzz", "eval.warc"}


def _module_commands() -> dict[str, list[tuple[str, str]]]:
    """For each `python -m MODULE` of a shell block: its options, with where they are written."""
    found: dict[str, list[tuple[str, str]]] = {}
    for block in ALL_BLOCKS:
        if block.language in {"sh", "bash", "console"}:
            for words in _segments(block.code):
                if words[:2] == ["python", "-m"] and len(words) > 2 and words[2] in ARGPARSE_MODULES:
                    options = [w.split("=", 1)[0] for w in words[3:] if re.match(r"--[a-zA-Z]", w)]
                    found.setdefault(words[2], []).extend((o, block.where) for o in options)
    return found


@pytest.mark.parametrize("module", sorted(_module_commands()))
def test_python_m_commands_in_blocks_use_real_options(module: str) -> None:
    result = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60)
    if result.returncode != 0 and "No module named" in result.stderr:
        pytest.skip(f"{module} needs an optional extra: {result.stderr.strip().splitlines()[-1]}")
    assert result.returncode == 0 and result.stdout.startswith("usage:"), result.stderr
    for option, where in _module_commands()[module]:
        assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", result.stdout), f"{where}: python -m {module} has no option {option}"


# --- code blocks run as written ------------------------------------------------------------------


@pytest.fixture(scope="module")
def served() -> Iterator[DemoServer]:
    with serve_example(example_site()) as server:
        yield server


def _workdir(tmp_path: Path) -> Path:
    """A directory where ``forest/examples/...`` resolves, as in the repository's root, and files written stay."""
    (tmp_path / "forest").symlink_to(ROOT / "forest", target_is_directory=True)
    return tmp_path


def _environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["FOREST_DB"] = str(tmp_path / "forest.db")
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env.pop("PYTHONPATH", None)
    return env


def _run(block: Block, cwd: Path, env: dict[str, str], served: DemoServer) -> subprocess.CompletedProcess[str]:
    code = block.code.replace(TOUR_PORT, served.base_url.removeprefix("http://"))
    if block.language == "python":
        argv = [sys.executable, "-c", code]
    else:
        code = "\n".join(line.removeprefix("$ ") for line in code.splitlines())
        argv = ["bash", "-e", "-o", "pipefail", "-c", code]
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{block.where} failed ({result.returncode}):\n{code}\n{result.stdout}\n{result.stderr}"
    return result


def _needs_missing_extra(block: Block) -> str | None:
    if ".warc" in block.code and importlib.util.find_spec("fastwarc") is None:
        return "FastWARC is not installed (pip install -e '.[warc]')"
    return None


# The README is run by the tour test below, which checks what its blocks print too.
RUNNABLE = [p for p in DOCS if any(b.language in RUN and not b.not_run for b in blocks(p))]


@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_blocks_run_as_written(path: Path, tmp_path: Path, served: DemoServer) -> None:
    cwd, env = _workdir(tmp_path), _environment(tmp_path)
    skipped = []
    for block in blocks(path):
        if block.language not in RUN or block.not_run:
            continue
        reason = _needs_missing_extra(block)
        if reason:
            skipped.append(f"{block.where}: {reason}")
            continue
        _run(block, cwd, env, served)
    if skipped:
        pytest.skip("; ".join(skipped))


def test_readme_tour_does_what_it_says(tmp_path: Path, served: DemoServer) -> None:
    """The tour for real: the feed is learned, the URL, file, directory and WARC come out with the
    wrapper, and the Python API prints the held-out article."""
    pytest.importorskip("fastwarc", reason="the tour's WARC step needs FastWARC (pip install -e '.[warc]')")
    cwd, env = _workdir(tmp_path), _environment(tmp_path)
    outputs = []
    for block in blocks(ROOT / "README.md"):
        if block.language in RUN and not block.not_run:
            outputs.append(_run(block, cwd, env, served).stdout)
    title = "Restored estate maps go on show at Larkford library after a century in storage"
    learned = next(o for o in outputs if o.startswith("learned "))
    assert "from 6 of 6 pages" in learned
    assert sum(o.startswith(title) for o in outputs) >= 2  # the URL and the file, as text
    records = [json.loads(line) for line in (cwd / "articles.jsonl").read_text().splitlines()]
    assert len(records) == 7 and {r["method"] for r in records} == {"wrapper"}
    warc = [json.loads(line) for line in (cwd / "warc.jsonl").read_text().splitlines()]
    assert len(warc) == 7 and all(r["source"].startswith("example.warc.gz#") for r in warc)
    assert any(title in r["title"] for r in warc)
    api = outputs[-1].splitlines()
    assert api[0] == title and api[1] == "wrapper 6 pages learned from"


def test_python_m_forest_demo_serves_the_example_until_stopped() -> None:
    process = subprocess.Popen([sys.executable, "-m", "forest.demo", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        feed = re.search(r"its feed: (http://127\.0\.0\.1:\d+/rss\.xml)", line)
        assert feed, line
        with urllib.request.urlopen(feed.group(1), timeout=10) as response:  # 127.0.0.1 only
            assert b"<rss" in response.read()
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def test_python_m_forest_demo_on_a_taken_port_is_a_one_line_error() -> None:
    with serve_example(example_site()) as server:
        port = server.base_url.rsplit(":", 1)[1]
        result = subprocess.run([sys.executable, "-m", "forest.demo", "--port", port], capture_output=True, text=True,
                                timeout=30)
    assert result.returncode == 1
    assert result.stderr.startswith("error: cannot serve on 127.0.0.1:") and result.stderr.count("\n") == 1


# --- no commit hashes in the README, docs' prose or forest's comments ----------------------------

# 7 to 40 hex digits with a digit and a letter among them, standing alone: how a commit is cited.
HASH = re.compile(r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w-])")
# What may stay, and why.
ALLOWED_FILES: set[str] = set()  # none: a generated page lists digests in a table that says so
ALLOWED_LINES = [
    re.compile(r"sha-?256", re.IGNORECASE),  # a checksum of a file is no commit
]


def hashes(text: str) -> list[str]:
    """The commit-like hex strings of ``text``, but on a line that says they are SHA-256 digests,
    and in the markdown table right after (or under) such a line."""
    found: list[str] = []
    digests = False  # in a table of digests
    for line in text.splitlines():
        if any(a.search(line) for a in ALLOWED_LINES):
            digests = True
            continue
        digests = digests and (not line.strip() or line.lstrip().startswith("|"))
        if not digests:
            found += [m.group(0) for m in HASH.finditer(line)]
    return found


def _comments_and_docstrings(path: Path) -> str:
    source = path.read_text(encoding="utf-8")
    parts = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            parts.append(ast.get_docstring(node) or "")
    return "\n".join(parts)


def test_the_hash_pattern_finds_commits_and_not_words_or_numbers() -> None:
    assert hashes("measured at 94bd5fa, then at 5db8e44 (see abbe8610)") == ["94bd5fa", "5db8e44", "abbe8610"]
    assert hashes("a facade decade 2026-11-27 1234567 the ebay.com item e88a1cc-like") == []
    assert hashes("sha256 f5664f79a9432ec6") == []
    table = "Datasets (SHA-256 prefix of the file read):\n\n| dataset | sha256 |\n|---|---|\n| dragnet | `cf86dba5cc9bc51b` |\n"
    assert hashes(table) == []
    assert hashes(table + "\nMeasured at 94bd5fa.\n") == ["94bd5fa"]


@pytest.mark.parametrize("path", [p for p in MARKDOWN if str(p.relative_to(ROOT)) not in ALLOWED_FILES],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_commit_hash_in_the_readme_or_docs(path: Path) -> None:
    assert hashes(path.read_text(encoding="utf-8")) == [], f"{path.relative_to(ROOT)} cites commits: history goes in CHANGELOG.md"


def test_no_commit_hash_in_forest_comments() -> None:
    found = {str(p.relative_to(ROOT)): hashes(_comments_and_docstrings(p)) for p in sorted((ROOT / "forest").rglob("*.py"))}
    assert {path: h for path, h in found.items() if h} == {}
