"""A batch shows its progress on a terminal's stderr, and nothing but its summary when stderr is piped."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from forest.demo import ExampleSite


def _batch(tmp_path: Path, example: ExampleSite, *, terminal: bool, copies: int = 20) -> tuple[bytes, bytes]:
    """Run ``forest extract`` over ``copies`` copies of the example's pages; its stdout and stderr."""
    pages = tmp_path / "pages"
    pages.mkdir()
    for k in range(copies):
        for page in example.sample:
            (pages / f"{k}-{page.name}").write_bytes(page.read_bytes())
    command = [sys.executable, "-m", "forest", "extract", "--db", str(tmp_path / "f.db"), "--jobs", "1", str(pages)]
    if not terminal:
        done = subprocess.run(command, capture_output=True, timeout=300)
        return done.stdout, done.stderr
    controller, terminal_end = pty.openpty()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=terminal_end) as process:
        os.close(terminal_end)
        stdout = process.stdout.read() if process.stdout else b""
        shown = b""
        while True:
            try:
                piece = os.read(controller, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not piece:
                break
            shown += piece
        process.wait(timeout=300)
    os.close(controller)
    return stdout, shown


def test_a_batch_on_a_terminal_shows_pages_done_rate_and_failures(tmp_path: Path, example: ExampleSite) -> None:
    stdout, shown = _batch(tmp_path, example, terminal=True)
    assert b"\rforest: " in shown and b" pages/s, 0 failed" in shown
    assert shown.rstrip().splitlines()[-1].lstrip(b"\r\x1b[K").startswith(b"forest: ")  # the summary ends it
    assert stdout.count(b"\n") == 20 * len(example.sample) and b"\r" not in stdout


def test_a_batch_piped_prints_only_its_summary(tmp_path: Path, example: ExampleSite) -> None:
    _, stderr = _batch(tmp_path, example, terminal=False, copies=2)
    assert b"\r" not in stderr and stderr.decode().splitlines()[-1].startswith("forest: ")
