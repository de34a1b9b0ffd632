"""`python -m forest.spark` with local[2] writes the records `forest extract --learn 5` writes for the same WARC."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from warc_pages import write_example_warc

from forest.cli import cli
from forest.demo import ExampleSite

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("pyspark") is None, reason="needs the spark extra: pip install -e '.[spark]'"),
    pytest.mark.skipif(shutil.which("java") is None, reason="pyspark needs a Java runtime (apt-get install default-jre-headless)"),
]


def test_spark_local_writes_the_cli_records(tmp_path: Path, example: ExampleSite) -> None:
    warc = write_example_warc(tmp_path / "example.warc.gz", example)
    out = tmp_path / "spark-out"
    # As a user runs it: /path/to/venv/bin/python with no venv on PATH, so `python3` there has no forest.
    env = {key: value for key, value in os.environ.items() if key not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    env["PATH"] = os.pathsep.join([str(Path(shutil.which("java") or "java").resolve().parent), "/usr/bin", "/bin"])
    job = subprocess.run(
        [sys.executable, "-m", "forest.spark", "--master", "local[2]", "--learn", "5", "--input", str(warc), "--output", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert job.returncode == 0, job.stderr[-3000:]
    spark = [json.loads(line) for part in sorted(out.glob("part-*")) for line in part.read_text(encoding="utf-8").splitlines()]

    result = CliRunner().invoke(cli, ["extract", "--db", str(tmp_path / "cli.db"), "--learn", "5", "--jobs", "1", str(warc)])
    assert result.exit_code == 0, result.output
    cli_records = [json.loads(line) for line in result.stdout.splitlines()]

    def by_url(records: list[dict[str, object]]) -> dict[object, tuple[object, ...]]:
        return {r["url"]: (r["site"], r["method"], r["pattern"], r["title"], r["text"]) for r in records}

    # The job ends with the CLI's summary line (but for the time it took).
    def untimed(line: str) -> str:
        return re.sub(r"in [\d.]+ s \([\d.]+ pages/s\)", "in T", line)

    assert untimed(job.stderr.strip().splitlines()[-1]) == untimed(result.stderr.strip().splitlines()[-1])
    assert len(spark) == len(cli_records) == 8
    assert by_url(spark) == by_url(cli_records)
    assert sorted(spark[0]) == sorted(cli_records[0])
    assert sum(r["method"] == "wrapper" for r in spark) == 7
