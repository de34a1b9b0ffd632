"""The store under kill -9 and concurrent writers: no wrapper or history row is lost or left half-written."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from store import WrapperStore

WRITER = """
import sys
from store import WrapperStore
path, site, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with WrapperStore(path) as store:
    print("ready", flush=True)
    for i in range(count):
        store.save(site, {"schema_version": 1, "site": site, "n": i, "padding": "x" * 20000})
"""


def writer(path: Path, site: str, count: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[2]),
                                                                   os.environ.get("PYTHONPATH")]))}
    process = subprocess.Popen([sys.executable, "-c", WRITER, str(path), site, str(count)], stdout=subprocess.PIPE, env=env)
    assert process.stdout is not None and process.stdout.readline().strip() == b"ready"
    return process


def consistent(path: Path) -> dict[str, int]:
    """Each site's current version, after checking it is the newest history row and every row decodes."""
    versions: dict[str, int] = {}
    with WrapperStore(path) as store:
        for info in store.sites():
            history = store.history(info.site)
            assert [v for v, _, _ in history] == list(range(1, len(history) + 1))
            assert info.version == history[-1][0]
            assert store.get(info.site)["n"] == history[-1][2]["n"]
            versions[info.site] = info.version
    return versions


@pytest.mark.parametrize("seed", range(6))
def test_kill_9_mid_write_loses_nothing_committed(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "forest.db"
    rng = random.Random(seed)
    before = 0
    for _ in range(2):
        process = writer(path, "killed.test", 10_000)
        time.sleep(rng.uniform(0.05, 0.3))
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        process.stdout.close()  # type: ignore[union-attr]
        versions = consistent(path)
        after = versions.get("killed.test", 0)
        assert after >= before  # committed versions survive the kill
        before = after


def test_concurrent_writers_keep_every_version(tmp_path: Path) -> None:
    path = tmp_path / "forest.db"
    WrapperStore(path).close()
    processes = [writer(path, f"site{i % 2}.test", 15) for i in range(6)]
    for process in processes:
        assert process.wait(120) == 0
        process.stdout.close()  # type: ignore[union-attr]
    assert consistent(path) == {"site0.test": 45, "site1.test": 45}
