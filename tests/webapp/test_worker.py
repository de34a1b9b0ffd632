"""The job worker: a crash mid-job leaves the job retried or failed, never running forever; restarts lose nothing."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import FAST, wait_for_job
from starlette.testclient import TestClient

from forest.demo import DemoServer
from forest.webapp.jobs import JobStore
from forest.webapp.worker import Worker

# A worker process that dies (os._exit: no cleanup, no exception handler runs) in the
# middle of the first job it takes, as a killed or crashed server would.
CRASHING_WORKER = """
import os, sys
from pathlib import Path
from forest import Settings
from forest.webapp.jobs import JobStore
from forest.webapp.worker import Worker

def crash(job, **kwargs):
    kwargs["progress"]("half way")
    os._exit(3)

worker = Worker(Path(sys.argv[1]), settings=Settings(), lease_seconds=float(sys.argv[2]), run=crash)
with JobStore(Path(sys.argv[1])) as jobs:
    worker.run_once(jobs)
sys.exit("the worker did not crash: no pending job?")
"""


def crash_a_worker(db: Path, lease_seconds: float = 30.0) -> None:
    result = subprocess.run([sys.executable, "-c", CRASHING_WORKER, str(db), str(lease_seconds)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 3, result.stderr


@pytest.fixture
def db(make_client: Callable[..., TestClient], tmp_path: Path) -> Path:
    """A database prepared by the app (wrapper and job tables), with no worker running."""
    make_client(run_worker=False)
    return tmp_path / "forest.db"


def test_a_job_left_running_by_a_crash_is_retried_after_restart(
    db: Path, site: DemoServer, make_client: Callable[..., TestClient]
) -> None:
    with JobStore(db) as jobs:
        job_id = jobs.add("learn", site.feed_url, site="example.test").id
    crash_a_worker(db)
    with JobStore(db) as jobs:
        left = jobs.get(job_id)
    assert left is not None and left.state == "running" and left.attempts == 1

    # The restarted server's worker finds the job's lease expired and runs it again.
    client = make_client(lease_seconds=0.2)
    job = wait_for_job(client, job_id)
    assert job["state"] == "finished", job
    assert job["attempts"] == 2 and job["result"]["site"] == "example.test"


def test_a_job_that_crashes_its_worker_every_time_ends_failed(db: Path, make_client: Callable[..., TestClient]) -> None:
    with JobStore(db) as jobs:
        job_id = jobs.add("extract_url", "http://example.com/a.html").id
    crash_a_worker(db)
    time.sleep(0.05)
    crash_a_worker(db, lease_seconds=0.01)  # recovers the first attempt, then dies in the second

    client = make_client(lease_seconds=0.01)
    job = wait_for_job(client, job_id)
    assert job["state"] == "failed" and job["attempts"] == 2
    assert job["error"] == "the worker stopped while running this job, 2 times; not retried"


def test_a_running_job_with_a_live_lease_is_not_taken_over(db: Path) -> None:
    with JobStore(db) as jobs:
        job_id = jobs.add("extract_url", "http://example.com/a.html").id
        claimed = jobs.claim("worker-a")
        assert claimed is not None and claimed.id == job_id
        assert jobs.recover(lease_seconds=30.0) == []
        assert jobs.claim("worker-b") is None
        # The job's lease runs out: it is requeued, and the first worker can no longer finish it.
        time.sleep(0.01)  # the times have millisecond resolution
        assert jobs.recover(lease_seconds=0.0) == [job_id]
        assert jobs.finish(job_id, "worker-a", {"late": True}) is False
        again = jobs.claim("worker-b")
        assert again is not None and again.id == job_id and again.attempts == 2
        assert jobs.finish(job_id, "worker-b", {"ok": True}) is True
        done = jobs.get(job_id)
    assert done is not None and done.state == "finished" and done.result == {"ok": True}


def test_a_bug_in_a_job_fails_it_and_the_worker_goes_on(db: Path) -> None:
    ran: list[int] = []

    def buggy_then_fine(job: Any, **kwargs: Any) -> tuple[dict[str, Any], str | None]:
        ran.append(job.id)
        if len(ran) == 1:
            raise KeyError("oops")
        return {"kind": "extract_url"}, None

    worker = Worker(db, settings=FAST, run=buggy_then_fine)
    with JobStore(db) as jobs:
        first = jobs.add("extract_url", "http://example.com/a.html").id
        second = jobs.add("extract_url", "http://example.com/b.html").id
        assert worker.run_once(jobs) and worker.run_once(jobs) and not worker.run_once(jobs)
        failed, finished = jobs.get(first), jobs.get(second)
    assert failed is not None and failed.state == "failed" and failed.error == "internal error: KeyError: 'oops'"
    assert finished is not None and finished.state == "finished"


def test_jobs_queued_before_a_restart_run_after_it(db: Path, site: DemoServer,
                                                   make_client: Callable[..., TestClient]) -> None:
    with JobStore(db) as jobs:
        job_id = jobs.add("learn", site.feed_url, site="example.test").id
    client = make_client()
    assert wait_for_job(client, job_id)["state"] == "finished"


def test_a_job_stuck_with_a_live_worker_is_failed_after_the_longest_run(db: Path) -> None:
    with JobStore(db) as jobs:
        job_id = jobs.add("extract_url", "http://example.com/a.html").id
        assert jobs.claim("worker-a") is not None
        time.sleep(0.02)
        assert jobs.heartbeat(job_id, "worker-a")  # alive, but running too long
        assert jobs.recover(lease_seconds=30.0, max_run_seconds=0.01) == [job_id]
        job = jobs.get(job_id)
        assert job is not None and job.state == "failed" and job.error is not None and "given up" in job.error
        assert jobs.finish(job_id, "worker-a", {"late": True}) is False
