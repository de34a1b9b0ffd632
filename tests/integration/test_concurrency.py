"""Two `forest learn` processes on one database at once both finish, and the history keeps both versions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from forest.storage import WrapperStore


def test_two_concurrent_learners_both_succeed(db: Path, example_pages: list[Path]) -> None:
    command = [sys.executable, "-m", "forest", "learn", "--db", str(db), *map(str, example_pages)]
    # Started together on a database file that does not exist yet: both race to create it too.
    learners = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [learner.communicate(timeout=60) for learner in learners]
    for learner, (out, err) in zip(learners, outputs):
        assert learner.returncode == 0, err
        assert "learned example.test (version " in out
    versions = sorted(out.split("(version ", 1)[1].split(")", 1)[0] for out, _ in outputs)
    assert versions == ["1", "2"]
    with WrapperStore(db) as store:
        history = store.history("example.test")
        assert [version for version, _, _ in history] == [1, 2]
        assert store.sites()[0].version == 2
        assert all(wrapper["patterns"] for _, _, wrapper in history)
