"""Opening a forest database: one connection code, busy timeout and migration for every table in the file.

The wrapper store (:class:`store.WrapperStore`) and forest serve's job queue
(``forest.webapp.jobs.JobStore``) share one file, and open it here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from sqlite_utils import Database

from store.errors import StoreError
from store.schema import DB_SCHEMA, SchemaState, inspect_schema, layout_of, migrate

# A write holds the lock for milliseconds, but a concurrent learner may be in
# the middle of a WAL checkpoint on a slow disk; 30 s rides that out while
# still failing, rather than hanging, when a process is stuck holding the lock.
BUSY_TIMEOUT_S = 30.0

# sqlite3 messages (lower-cased fragments) -> what went wrong, what to do next.
_HINTS: tuple[tuple[str, str, str], ...] = (
    ("file is not a database", "not a forest database", "pass --db to use another file or move it away"),
    ("malformed", "the database is corrupt", "restore it from a backup, or move it away and learn the sites again"),
    ("unable to open", "cannot open the database", "check that it is a file you may read and write, or pass --db"),
    ("readonly", "the database is read-only", "check the permissions of the file and its directory, or pass --db"),
    ("locked", "the database stayed locked by another process", "retry once the other forest command has finished"),
    ("is full", "the disk is full", "free some space, then retry"),
    ("disk i/o", "reading or writing the disk failed", "check the disk and its free space, then retry"),
)

# Makes the error a caller raises from a one-line message (forest raises its own subclass).
ErrorFactory = Callable[[str], StoreError]


@dataclasses.dataclass(frozen=True, slots=True)
class Connection:
    """An opened database.

    :param state: ``FOREST``, or ``ABSENT`` for another application's file (read-only: or no file),
        which reads as holding nothing and is never written.
    :param layout: the file's layout version: :data:`store.schema.DB_SCHEMA` when opened
        read-write; opened read-only, an older file keeps its own (0 when ``ABSENT``).
    """

    db: Database
    state: SchemaState
    layout: int


def describe(exc: sqlite3.Error) -> str:
    """A sqlite3 failure in one line: what went wrong and what to do next."""
    detail = " ".join(str(exc).split()) or type(exc).__name__
    lowered = detail.lower()
    for fragment, what, hint in _HINTS:
        if fragment in lowered:
            return f"{what} ({detail}); {hint}"
    return f"database error ({detail}); pass --db to use another file"


@contextlib.contextmanager
def guard(error: ErrorFactory) -> Iterator[None]:
    """Turn sqlite3 failures into ``error``\\ s, so callers handle one kind of error."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise error(describe(exc)) from exc
    except UnicodeEncodeError as exc:
        # A site name from a command line in another encoding (surrogate-escaped bytes).
        raise error(f"a site name is not valid UTF-8 ({exc.object[exc.start:exc.end]!r}); "
                    "give the site name in UTF-8") from exc


def may_write(path: Path) -> bool:
    """Whether we may write the database file at ``path`` and create files beside it
    (SQLite's -wal, -shm and journal files), or create it and its directories."""
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing is None:
        return False
    if existing != path:
        return os.access(existing, os.W_OK | os.X_OK)
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _cannot_open(exc: sqlite3.OperationalError) -> bool:
    """Whether ``exc`` says the file cannot be opened (or written) as asked, rather than that it is no database."""
    return any(fragment in str(exc).lower() for fragment in ("unable to open", "readonly", "read-only"))


def open_database(path: Path, *, readonly: bool = False, error: ErrorFactory) -> Connection:
    """Open the forest database at ``path``.

    Read-write, a missing file (and its directories) is created with the current layout and
    an older forest file is migrated to it, in one write transaction (see :func:`store.schema.migrate`).
    Read-only, nothing is created, migrated or switched to WAL: an older file is read as it is.

    :param error: makes the error raised, from a one-line message.
    :raises StoreError: (made by ``error``) if the file cannot be opened, is not a forest
        database, has a layout newer than this code, or cannot be migrated (it is then unchanged).
    """
    if path.is_dir():
        raise error("is a directory, not a database file; pass --db with a file path")
    return _open_readonly(path, error) if readonly else _open(path, error)


def _open(path: Path, error: ErrorFactory) -> Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error(f"cannot create directory {path.parent} ({exc.strerror or exc}); pass --db to use another file") from exc
    conn: sqlite3.Connection | None = None
    try:
        with guard(error):
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
            db = Database(conn, execute_plugins=False)
            state = _prepare(db, error)
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    return Connection(db, state, DB_SCHEMA if state is SchemaState.FOREST else 0)


def _open_readonly(path: Path, error: ErrorFactory) -> Connection:
    if not path.exists():
        # Nothing stored yet; an in-memory database answers "no sites" without a file.
        return Connection(Database(sqlite3.connect(":memory:"), execute_plugins=False), SchemaState.ABSENT, 0)
    uri = path.resolve().as_uri()
    # mode=rw plus query_only, rather than mode=ro: a read-only connection cannot remove
    # the -wal and -shm files of a WAL database when it closes, so `forest sites` would
    # leave two files behind; a read-write one that is the last to close removes them.
    # A file only we may not write falls back to mode=ro.  In a directory we may not
    # write, a WAL database without its -shm file opens only as immutable: nobody can
    # write it there either (a writer would need to create the -wal file).
    attempts = (f"{uri}?mode=rw", f"{uri}?mode=ro", f"{uri}?immutable=1")
    with guard(error):
        for attempt, target in enumerate(attempts, 1):
            conn: sqlite3.Connection | None = None
            try:
                conn = sqlite3.connect(target, uri=True, timeout=BUSY_TIMEOUT_S)
                if attempt == 1:
                    conn.execute("PRAGMA query_only = ON")
                db = Database(conn, execute_plugins=False)
                state, layout = _inspect(db, error)
                if state is not SchemaState.FOREST:
                    return Connection(db, SchemaState.ABSENT, 0)
                return Connection(db, state, layout)
            except BaseException as exc:
                if conn is not None:
                    conn.close()
                if attempt == len(attempts) or not isinstance(exc, sqlite3.OperationalError) or not _cannot_open(exc):
                    raise
    raise AssertionError("unreachable: the last attempt returns or raises")


def _inspect(db: Database, error: ErrorFactory) -> tuple[SchemaState, int]:
    """What ``db`` holds and its layout, refusing another application's look-alike tables and a newer layout."""
    state, reason = inspect_schema(db)
    if state is SchemaState.FOREIGN:
        raise error(f"not a forest database ({reason}); pass --db to use another file or move it away")
    layout = layout_of(db, state)
    if layout > DB_SCHEMA:
        raise error(f"database layout {layout} is newer than this forest supports ({DB_SCHEMA}); upgrade forest")
    return state, layout


def _prepare(db: Database, error: ErrorFactory) -> SchemaState:
    state, layout = _inspect(db, error)
    if state is SchemaState.ABSENT:
        # Another application's database: reads see no sites, and nothing is
        # written, not even the journal mode, which would persist in its file.
        return state
    _enable_wal(db)
    if state is SchemaState.FOREST and layout == DB_SCHEMA:
        return state
    with db.conn:
        # IMMEDIATE takes the write lock before looking again: another process may have
        # created or migrated the file since, and its work must be neither redone nor undone.
        db.execute("BEGIN IMMEDIATE")
        state, layout = _inspect(db, error)
        if state is SchemaState.ABSENT:
            raise error("not a forest database (another application wrote its tables into it as it was opened); "
                        "pass --db to use another file")
        if layout < DB_SCHEMA:
            _migrate(db, layout, error)
    return SchemaState.FOREST


def _migrate(db: Database, layout: int, error: ErrorFactory) -> None:
    """Bring ``db`` from ``layout`` to the current one; the caller's transaction rolls back on failure."""
    what = "create the tables" if layout == 0 else f"migrate the database from layout {layout} to {DB_SCHEMA}"
    try:
        migrate(db, layout)
    except ValueError as exc:
        raise error(f"not a forest database ({exc}); pass --db to use another file or move it away") from exc
    except sqlite3.DatabaseError as exc:
        raise error(f"cannot {what}, and the file is left as it was: {describe(exc)}") from exc


def _enable_wal(db: Database) -> None:
    """Switch to WAL, which persists in the file and lets readers go on while one learner writes."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as exc:
            # SQLite does not call the busy handler for a journal-mode switch, so
            # two processes opening a brand-new file together see "locked" at once.
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
