"""The job queue and page revisions of `forest serve`, in the wrapper database, whose tables and opening are the store's."""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, fields
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from forest import StoreError, strip_credentials
from store.database import guard, open_database
from store.schema import SchemaState

# Job kinds and states.  A job is "running" only while a worker holds its lease
# (renewed by heartbeats); a running job whose lease ran out belonged to a worker
# that died, and goes back to "pending" or, after MAX_ATTEMPTS, to "failed".
KINDS = ("learn", "extract_url", "extract_html")
STATES = ("pending", "running", "failed", "finished")
# Two attempts: one retry covers a crash that had nothing to do with the job
# (a restart, a killed process); a job that kills its worker twice is the cause.
MAX_ATTEMPTS = 2
# The longest a job may run.  Learning fetches 10 pages (4 at a time), each within a 60 s
# total timeout and 2 retries: about 8 minutes at worst; a job past 30 is stuck.
MAX_RUN_S = 1800.0


def now() -> str:
    """UTC now, ISO 8601 with milliseconds: fixed width, so the strings sort as the times do."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _ago(seconds: float) -> str:
    return (datetime.now(timezone.utc) - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class Job:
    """One queued piece of work and, once done, its outcome.

    :param kind: ``learn`` (a feed URL), ``extract_url`` or ``extract_html`` (pasted HTML,
        kept as the revision ``input_revision``).
    :param result: the JSON result of a finished job (see forest.webapp.runner).
    """

    id: int
    kind: str
    url: str
    site: str | None
    state: str
    created_at: str
    started_at: str | None
    finished_at: str | None
    heartbeat_at: str | None
    attempts: int
    worker: str | None
    progress: str | None
    error: str | None
    result: dict[str, Any] | None
    input_revision: int | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Job:
        raw = row.get("result")
        return cls(
            id=int(row["id"]),
            kind=row["kind"],
            url=row["url"] or "",
            site=row.get("site"),
            state=row["state"],
            created_at=row["created_at"],
            started_at=row.get("started_at"),
            finished_at=row.get("finished_at"),
            heartbeat_at=row.get("heartbeat_at"),
            attempts=int(row.get("attempts") or 0),
            worker=row.get("worker"),
            progress=row.get("progress"),
            error=row.get("error"),
            result=json.loads(raw) if raw else None,
            input_revision=row.get("input_revision"),
        )

    @property
    def active(self) -> bool:
        return self.state in ("pending", "running")

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "url": self.url,
            "site": self.site,
            "state": self.state,
            "created_at": self.created_at,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "attempts": self.attempts,
            "progress": self.progress,
            "error": self.error,
            "result": self.result,
        }


@dataclass(frozen=True, slots=True)
class Revision:
    """One download of a page (or a pasted page): the bytes as received, content-decoded."""

    id: int
    job_id: int | None
    url: str
    final_url: str
    status: int
    content_type: str
    fetched_at: str
    size: int
    sha256: str
    body: bytes

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Revision:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


class JobStore:
    """Jobs and page revisions in ``path``, next to the wrappers.

    The file is opened as the wrapper store opens it (:func:`store.database.open_database`):
    a new file gets the whole layout, job tables included, and an older one is migrated;
    another application's database is refused, and the job tables are never added to it.
    One connection per JobStore: open one per thread.

    :raises StoreError: when the file cannot be opened or written, or is not a forest database.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        opened = open_database(self.path, error=self._error)
        if opened.state is not SchemaState.FOREST:
            opened.db.close()
            raise self._error("not a forest database (it holds another application's tables); pass --db to use another file")
        self._db = opened.db

    def __enter__(self) -> JobStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _error(self, message: str) -> StoreError:
        return StoreError(message, path=str(self.path))

    def _guard(self) -> contextlib.AbstractContextManager[None]:
        return guard(self._error)

    # --- jobs ------------------------------------------------------------------------

    def add(self, kind: str, url: str = "", *, site: str | None = None, input_revision: int | None = None) -> Job:
        """Queue a job; return it, pending."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        with self._guard(), self._db.conn:
            table = self._db.table("jobs")
            table.insert({"kind": kind, "url": url, "site": site, "state": "pending", "created_at": now(),
                          "attempts": 0, "input_revision": input_revision})
            job_id = int(table.last_pk)  # type: ignore[arg-type]
        job = self.get(job_id)
        if job is None:  # deleted between two statements by another process
            raise StoreError(f"job {job_id} vanished as it was queued", path=str(self.path))
        return job

    def get(self, job_id: int) -> Job | None:
        with self._guard():
            rows = list(self._db.table("jobs").rows_where("id = ?", [job_id]))
        return Job.from_row(rows[0]) if rows else None

    def recent(self, *, offset: int = 0, limit: int = 20, state: str | None = None) -> list[Job]:
        """Jobs newest first."""
        where, args = ("state = ?", [state]) if state else (None, [])
        with self._guard():
            rows = self._db.table("jobs").rows_where(where, args, order_by="id DESC", limit=limit, offset=offset)
            return [Job.from_row(row) for row in rows]

    def count(self, *, state: str | None = None) -> int:
        with self._guard():
            if state:
                return int(self._db.execute("SELECT COUNT(*) FROM jobs WHERE state = ?", [state]).fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM jobs").fetchone()[0])

    def claim(self, worker: str) -> Job | None:
        """Take the oldest pending job for ``worker``: mark it running and count the attempt."""
        with self._guard(), self._db.conn:
            # IMMEDIATE: two workers must not both read the same pending row.
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute("SELECT id FROM jobs WHERE state = 'pending' ORDER BY id LIMIT 1").fetchone()
            if row is None:
                return None
            stamp = now()
            self._db.execute(
                "UPDATE jobs SET state = 'running', started_at = ?, heartbeat_at = ?, worker = ?,"
                " attempts = attempts + 1, progress = NULL, error = NULL WHERE id = ?",
                [stamp, stamp, worker, row[0]],
            )
        return self.get(int(row[0]))

    def heartbeat(self, job_id: int, worker: str, progress: str | None = None) -> bool:
        """Renew ``worker``'s lease on a running job; False if the job is no longer its own."""
        with self._guard(), self._db.conn:
            if progress is None:
                cursor = self._db.execute(
                    "UPDATE jobs SET heartbeat_at = ? WHERE id = ? AND worker = ? AND state = 'running'",
                    [now(), job_id, worker],
                )
            else:
                cursor = self._db.execute(
                    "UPDATE jobs SET heartbeat_at = ?, progress = ? WHERE id = ? AND worker = ? AND state = 'running'",
                    [now(), progress, job_id, worker],
                )
        return cursor.rowcount == 1

    def finish(self, job_id: int, worker: str, result: dict[str, Any], *, site: str | None = None) -> bool:
        """Record a job's result; False (and nothing written) if ``worker`` lost the job meanwhile."""
        text = json.dumps(result, ensure_ascii=False, allow_nan=False)
        return self._end(job_id, worker, "finished", result=text, site=site)

    def fail(self, job_id: int, worker: str, error: str) -> bool:
        """Record why a job failed (one line); False if ``worker`` lost the job meanwhile."""
        return self._end(job_id, worker, "failed", error=" ".join(error.split()) or "failed")

    def _end(self, job_id: int, worker: str, state: str, *, result: str | None = None, error: str | None = None,
             site: str | None = None) -> bool:
        with self._guard(), self._db.conn:
            cursor = self._db.execute(
                "UPDATE jobs SET state = ?, finished_at = ?, result = ?, error = ?, site = COALESCE(?, site)"
                " WHERE id = ? AND worker = ? AND state = 'running'",
                [state, now(), result, error, site, job_id, worker],
            )
        return cursor.rowcount == 1

    def recover(self, lease_seconds: float, max_attempts: int = MAX_ATTEMPTS,
                max_run_seconds: float = MAX_RUN_S) -> list[int]:
        """Requeue or fail the running jobs whose worker stopped renewing its lease (a crash, a kill).

        A job with attempts left goes back to pending; one that used them all fails with
        the reason, and so does one running for over ``max_run_seconds`` even though its
        worker is alive (stuck), so no job stays running forever.  Returns the ids touched.
        """
        cutoff = _ago(lease_seconds)
        with self._guard(), self._db.conn:
            self._db.execute("BEGIN IMMEDIATE")
            stuck = [
                int(r[0])
                for r in self._db.execute(
                    "SELECT id FROM jobs WHERE state = 'running' AND started_at < ? AND heartbeat_at >= ?",
                    [_ago(max_run_seconds), cutoff],
                )
            ]
            for job_id in stuck:
                # Its worker's late result is refused: finish() needs the job still running.
                self._db.execute(
                    "UPDATE jobs SET state = 'failed', finished_at = ?, worker = NULL, error = ? WHERE id = ?",
                    [now(), f"ran for over {max_run_seconds:.0f} s without finishing; given up", job_id],
                )
            stale = [
                (int(r[0]), int(r[1]))
                for r in self._db.execute(
                    "SELECT id, attempts FROM jobs WHERE state = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < ?)",
                    [cutoff],
                )
            ]
            for job_id, attempts in stale:
                if attempts < max_attempts:
                    self._db.execute(
                        "UPDATE jobs SET state = 'pending', worker = NULL, progress = ? WHERE id = ?",
                        [f"retrying: the worker stopped during attempt {attempts}", job_id],
                    )
                else:
                    self._db.execute(
                        "UPDATE jobs SET state = 'failed', finished_at = ?, worker = NULL, error = ? WHERE id = ?",
                        [now(), f"the worker stopped while running this job, {attempts} times; not retried", job_id],
                    )
        return stuck + [job_id for job_id, _ in stale]

    # --- revisions -------------------------------------------------------------------

    def add_revision(
        self, url: str, body: bytes, *, job_id: int | None = None, final_url: str | None = None,
        status: int = 200, content_type: str = "text/html", fetched_at: str | None = None,
    ) -> int:
        """Keep one download of ``url``; return its revision id.

        The URLs are kept without user names and passwords (a feed may list its pages with them).
        """
        url, final_url = strip_credentials(url), strip_credentials(final_url or url)
        record = {
            "job_id": job_id, "url": url, "final_url": final_url, "status": status,
            "content_type": content_type, "fetched_at": fetched_at or now(), "size": len(body),
            "sha256": hashlib.sha256(body).hexdigest(), "body": body,
        }
        with self._guard(), self._db.conn:
            table = self._db.table("page_revisions")
            table.insert(record)
            return int(table.last_pk)  # type: ignore[arg-type]

    def revision(self, revision_id: int) -> Revision | None:
        with self._guard():
            rows = list(self._db.table("page_revisions").rows_where("id = ?", [revision_id]))
        return Revision.from_row(rows[0]) if rows else None

    def revisions(self, *, job_id: int | None = None, url: str | None = None) -> list[Revision]:
        """Revisions of a job's downloads, or of one URL (as asked or as found), oldest first."""
        args: list[object]
        if job_id is not None:
            where, args = "job_id = ?", [job_id]
        elif url is not None:
            where, args = "url = ? OR final_url = ?", [url, url]
        else:
            raise ValueError("give job_id or url")
        with self._guard():
            return [Revision.from_row(r) for r in self._db.table("page_revisions").rows_where(where, args, order_by="id")]

    def revision_counts(self, urls: list[str]) -> dict[str, tuple[int, int]]:
        """For each URL with revisions: (how many, the latest id)."""
        if not urls:
            return {}
        marks = ", ".join("?" * len(urls))
        with self._guard():
            rows = self._db.execute(
                f"SELECT final_url, COUNT(*), MAX(id) FROM page_revisions WHERE final_url IN ({marks})"
                " AND status BETWEEN 200 AND 299 GROUP BY final_url",
                urls,
            ).fetchall()
        return {row[0]: (int(row[1]), int(row[2])) for row in rows}
