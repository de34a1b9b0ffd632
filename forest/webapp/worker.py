"""The background workers of `forest serve`: run queued jobs side by side, survive crashes and restarts."""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import forest
from forest.webapp.jobs import MAX_ATTEMPTS, Job, JobStore
from forest.webapp.runner import Progress, run_job

LOGGER = logging.getLogger(__name__)

# A worker renews its lease on the running job this often; a job whose lease is
# older than the lease length belonged to a worker that died (see JobStore.recover).
HEARTBEAT_S = 1.0
# Long enough that a worker busy in a slow fetch (60 s total timeout, but it
# heartbeats from its own thread) never loses its job; short enough that a job
# left by a crash is retried soon after the server restarts.
LEASE_S = 30.0

# Jobs run at once.  A job mostly waits on the network, and each fetch ends by its
# deadline (FetchSettings.total_timeout, FetchSettings.learn_timeout a learn), so a
# slow server holds one thread for that long while the others go on with the queue.
THREADS = 4

Runner = Callable[..., "tuple[dict[str, Any], str | None]"]


class Worker:
    """Runs the jobs of one database in background threads, each taking the oldest pending job.

    :param threads: how many jobs run at once (see THREADS).
    :param lease_seconds: see LEASE_S.
    :param poll_seconds: how often an idle worker looks for jobs queued by another process
        (jobs queued through :meth:`wake` start at once).
    :param run: what runs a job (tests inject one that crashes).
    """

    def __init__(
        self,
        db_path: Path,
        *,
        settings: forest.Settings,
        threads: int = THREADS,
        lease_seconds: float = LEASE_S,
        max_attempts: int = MAX_ATTEMPTS,
        poll_seconds: float = 1.0,
        run: Runner = run_job,
    ) -> None:
        if threads < 1:
            raise ValueError(f"a worker needs at least one thread, not {threads}")
        self.db_path = db_path
        self.settings = settings
        self.threads = threads
        self.lease_seconds = lease_seconds
        self.max_attempts = max_attempts
        self.poll_seconds = poll_seconds
        self.run = run
        # Unique per process and start: a job is only finished by the worker holding it.
        self.id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._stop = threading.Event()
        self._wake = threading.Condition()
        self._woken = 0  # wake() calls not yet seen by a thread
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        if not self._threads:
            self._stop.clear()
            self._threads = [threading.Thread(target=self._loop, args=(f"{self.id}/{n}",), name=f"forest-serve-worker-{n}",
                                              daemon=True) for n in range(self.threads)]
            for thread in self._threads:
                thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop taking jobs; a job still running is left to be recovered on the next start."""
        self._stop.set()
        with self._wake:
            self._wake.notify_all()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []

    def wake(self) -> None:
        """Look for work now (a job was just queued)."""
        with self._wake:
            self._woken += 1
            self._wake.notify()

    def _loop(self, worker_id: str) -> None:
        with JobStore(self.db_path) as jobs:
            while not self._stop.is_set():
                try:
                    ran = self.run_once(jobs, worker_id)
                except forest.ForestError as exc:  # the database itself failing: wait, then try again
                    LOGGER.error("job queue: %s", exc)
                    ran = False
                except Exception:  # a bug outside any job: the worker must not die quietly with it
                    LOGGER.exception("job queue")
                    ran = False
                if not ran:
                    with self._wake:
                        if not self._woken and not self._stop.is_set():
                            self._wake.wait(self.poll_seconds)
                        self._woken = max(0, self._woken - 1)

    def run_once(self, jobs: JobStore, worker_id: str | None = None) -> bool:
        """Recover abandoned jobs, then run the oldest pending one; return whether one ran.

        :param worker_id: who holds the job (one id per thread; default: this worker's).
        """
        for job_id in jobs.recover(self.lease_seconds, self.max_attempts):
            LOGGER.warning("job %d: its worker stopped while running it; requeued or failed", job_id)
        holder = worker_id or self.id
        job = jobs.claim(holder)
        if job is None:
            return False
        self._execute(job, jobs, holder)
        return True

    def _execute(self, job: Job, jobs: JobStore, holder: str) -> None:
        beat = _Heartbeat(self.db_path, job.id, holder)
        beat.start()
        try:
            try:
                result, site = self.run(job, db_path=self.db_path, jobs=jobs, settings=self.settings,
                                        progress=beat.progress)
            finally:
                beat.stop()  # also on BaseException: an abandoned job's lease must run out
        except forest.ForestError as exc:
            # A redirect's Location may name a user and password: stored errors name no credentials.
            jobs.fail(job.id, holder, forest.without_credentials(str(exc)))
        except Exception as exc:  # a bug, not bad input: the job fails with it, the worker goes on
            LOGGER.exception("job %d failed", job.id)
            jobs.fail(job.id, holder, forest.without_credentials(f"internal error: {type(exc).__name__}: {exc}"))
        else:
            if not jobs.finish(job.id, holder, result, site=site):
                LOGGER.warning("job %d was taken over by another worker; its result is dropped", job.id)
        # BaseException (the process being stopped) escapes: the job stays running
        # until its lease runs out, and is then retried or failed (JobStore.recover).


class _Heartbeat:
    """Renews a worker's lease on a job from its own thread, with the job's latest progress."""

    def __init__(self, db_path: Path, job_id: int, worker: str) -> None:
        self._db_path = db_path
        self._job_id = job_id
        self._worker = worker
        self._latest: str | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"forest-serve-heartbeat-{job_id}", daemon=True)

    def progress(self, line: str) -> None:
        self._latest = line

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join(HEARTBEAT_S * 5)

    def _loop(self) -> None:
        with JobStore(self._db_path) as jobs:
            while not self._done.wait(HEARTBEAT_S):
                try:
                    jobs.heartbeat(self._job_id, self._worker, self._latest)
                except forest.ForestError as exc:
                    LOGGER.warning("job %d: heartbeat failed: %s", self._job_id, exc)


__all__ = ["HEARTBEAT_S", "LEASE_S", "THREADS", "Progress", "Worker"]
