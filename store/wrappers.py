"""WrapperStore: versioned per-site wrappers in one SQLite file, safe for concurrent learners."""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import os
import sqlite3
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

from store.errors import SiteNotFoundError, StoreError
from store.schema import DB_SCHEMA, SAMPLES_DDL, SUPPORTED_SCHEMA, SchemaState, create_schema, decode_wrapper, encode_wrapper
from store.schema import inspect_schema, user_version

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


@dataclasses.dataclass(frozen=True, slots=True)
class SiteInfo:
    """One stored site: its current wrapper version and extraction counters."""

    site: str
    version: int
    learned_at: str
    pages_extracted: int
    misses: int
    last_extracted_at: str | None


def default_db_path() -> Path:
    """Return ``$FOREST_DB`` if set, else ``forest/forest.db`` in the user's data directory."""
    override = os.environ.get("FOREST_DB")
    if override:
        return Path(override).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else home / "AppData" / "Roaming"
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        # The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / "forest" / "forest.db"


def _describe(exc: sqlite3.Error) -> str:
    detail = " ".join(str(exc).split()) or type(exc).__name__
    lowered = detail.lower()
    for fragment, what, hint in _HINTS:
        if fragment in lowered:
            return f"{what} ({detail}); {hint}"
    return f"database error ({detail}); pass --db to use another file"


def _may_write(path: Path) -> bool:
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


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _check_site(site: str) -> None:
    if not isinstance(site, str) or not site.strip():
        raise ValueError(f"site must be a non-empty string, not {site!r}")


def _host_candidates(host: str) -> list[str]:
    """Site keys that may hold ``host``'s wrapper, best first."""
    host = host.strip().lower().rstrip(".")
    if not host:
        return []
    bare = host.split(":", 1)[0] if host.count(":") == 1 else host
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(bare.strip("[]"))
        return [host]  # an IP address has no parent domain to fall back to
    candidates = [host]
    labels = host.split(".")
    # Parents longest first; for "www.x.com" the first parent is "x.com" itself.
    candidates.extend(".".join(labels[i:]) for i in range(1, len(labels)))
    return candidates


_Store = TypeVar("_Store", bound="WrapperStore")


class WrapperStore:
    """Per-site wrappers (plain JSON-able dicts) with full version history, in one SQLite file.

    :param path: database file; ``None`` means :func:`default_db_path`. A missing
        file (and its directories) is created.
    :param readonly: open for reading only (``forest sites``, ``forest show``): a missing
        file reads as empty and nothing is created, written or switched to WAL.
    :raises StoreError: if the file cannot be opened or is not a forest database.
    """

    def __init__(self, path: str | Path | None = None, *, readonly: bool = False) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        self.readonly = readonly
        self._db, self._state = self._open_readonly() if readonly else self._open()

    def __repr__(self) -> str:
        return f"WrapperStore({str(self.path)!r})"

    def __enter__(self: _Store) -> _Store:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the database connection; calling it twice is harmless."""
        self._db.close()

    # The two kinds of failure, made by methods so that a subclass raises its own
    # (forest.storage.WrapperStore raises forest's errors: the store imports nothing of forest).
    def _error(self, message: str) -> StoreError:
        return StoreError(message, path=str(self.path))

    def _unknown(self, site: str) -> LookupError:
        return SiteNotFoundError(site)

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn sqlite3 failures into StoreError, so callers handle one kind of error."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise self._error(_describe(exc)) from exc
        except UnicodeEncodeError as exc:
            # A site name from a command line in another encoding (surrogate-escaped bytes).
            raise self._error(f"a site name is not valid UTF-8 ({exc.object[exc.start:exc.end]!r}); "
                              "give the site name in UTF-8") from exc

    def _open(self) -> tuple[Database, SchemaState]:
        if self.path.is_dir():
            raise self._error("is a directory, not a database file; pass --db with a file path")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._error(
                f"cannot create directory {self.path.parent} ({exc.strerror or exc}); pass --db to use another file"
            ) from exc
        conn: sqlite3.Connection | None = None
        try:
            with self._guard():
                conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
                db = Database(conn, execute_plugins=False)
                state = self._prepare(db)
        except BaseException:
            if conn is not None:
                conn.close()
            raise
        return db, state

    @classmethod
    def for_extraction(cls: type[_Store], path: str | Path | None = None) -> _Store:
        """The store opened read-write when its file and directory may be written, else read-only.

        Extracting only reads wrappers: a database that cannot be written (mode 0444, a
        read-only directory or file system) serves it, and counts no pages (see
        :meth:`record_extractions`).
        """
        target = Path(path).expanduser() if path is not None else default_db_path()
        if _may_write(target):
            try:
                return cls(path)
            except StoreError:
                pass  # a write the permissions allowed failed (a read-only mount): read it as it is
        return cls(path, readonly=True)

    def _open_readonly(self) -> tuple[Database, SchemaState]:
        if self.path.is_dir():
            raise self._error("is a directory, not a database file; pass --db with a file path")
        if not self.path.exists():
            # Nothing stored yet; an in-memory database answers "no sites" without a file.
            return Database(sqlite3.connect(":memory:"), execute_plugins=False), SchemaState.ABSENT
        uri = self.path.resolve().as_uri()
        # mode=rw plus query_only, rather than mode=ro: a read-only connection cannot remove
        # the -wal and -shm files of a WAL database when it closes, so `forest sites` would
        # leave two files behind; a read-write one that is the last to close removes them.
        # A file only we may not write falls back to mode=ro.  In a directory we may not
        # write, a WAL database without its -shm file opens only as immutable: nobody can
        # write it there either (a writer would need to create the -wal file).
        attempts = (f"{uri}?mode=rw", f"{uri}?mode=ro", f"{uri}?immutable=1")
        with self._guard():
            for attempt, target in enumerate(attempts, 1):
                conn: sqlite3.Connection | None = None
                try:
                    conn = sqlite3.connect(target, uri=True, timeout=BUSY_TIMEOUT_S)
                    if attempt == 1:
                        conn.execute("PRAGMA query_only = ON")
                    db = Database(conn, execute_plugins=False)
                    state = self._inspect(db)
                    return db, (SchemaState.FOREST if state is SchemaState.FOREST else SchemaState.ABSENT)
                except BaseException as exc:
                    if conn is not None:
                        conn.close()
                    if attempt == len(attempts) or not isinstance(exc, sqlite3.OperationalError) or not _cannot_open(exc):
                        raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _inspect(self, db: Database) -> SchemaState:
        """What ``db`` holds, refusing another application's look-alike tables and a newer layout."""
        state, reason = inspect_schema(db)
        if state is SchemaState.FOREIGN:
            raise self._error(f"not a forest database ({reason}); pass --db to use another file or move it away")
        if state is SchemaState.FOREST and user_version(db) > DB_SCHEMA:
            raise self._error(
                f"database layout {user_version(db)} is newer than this forest supports ({DB_SCHEMA}); upgrade forest"
            )
        return state

    def _prepare(self, db: Database) -> SchemaState:
        state = self._inspect(db)
        if state is SchemaState.ABSENT:
            # Another application's database: reads see no sites, and nothing is
            # written, not even the journal mode, which would persist in its file.
            return state
        self._enable_wal(db)
        if state is SchemaState.EMPTY:
            with db.conn:
                db.execute("BEGIN IMMEDIATE")
                create_schema(db)
        return SchemaState.FOREST

    @staticmethod
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

    def _begin_write(self) -> None:
        if self._state is not SchemaState.FOREST:
            raise self._error("not a forest database (it holds other tables); pass --db to use another file")
        # IMMEDIATE takes the write lock before reading the version number, so two
        # learners cannot both read version N and both try to insert N + 1.
        self._db.execute("BEGIN IMMEDIATE")

    def _decode(self, site: str, version: int, text: str) -> dict[str, Any]:
        try:
            wrapper = decode_wrapper(text)
        except ValueError as exc:
            raise self._error(
                f"wrapper for {site!r} v{version} is corrupt ({exc}); "
                f"run `forest forget {site}` and learn the site again"
            ) from exc
        if wrapper["schema_version"] > SUPPORTED_SCHEMA:
            raise self._error(
                f"wrapper for {site!r} has schema_version {wrapper['schema_version']}, newer than this forest "
                f"supports ({SUPPORTED_SCHEMA}); upgrade forest or pass --db to use another database"
            )
        return wrapper

    def save(self, site: str, wrapper: dict[str, Any], samples: Sequence[tuple[str, str]] = ()) -> int:
        """Store ``wrapper`` as the new current version for ``site``; return that version.

        The history row and the pointer in ``sites`` are written in one
        transaction: on any failure the previous wrapper stays current.

        :param samples: ``(name, html)`` of the pages it was learned from; they replace the
            site's stored sample pages (see :meth:`samples`).

        :raises ValueError: if ``site`` is empty or ``wrapper`` lacks a usable schema_version.
        :raises StoreError: if the database cannot be written.
        """
        _check_site(site)
        text = encode_wrapper(wrapper)
        learned_at = _now()
        with self._guard(), self._db.conn:
            self._begin_write()
            row = self._db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM wrapper_history WHERE site = ?", [site]
            ).fetchone()
            version = int(row[0]) + 1
            self._db.table("wrapper_history").insert(
                {"site": site, "version": version, "wrapper": text, "learned_at": learned_at}
            )
            # upsert only sets the columns given, so the extraction counters survive.
            self._db.table("sites").upsert(
                {"site": site, "version": version, "wrapper": text, "learned_at": learned_at}, pk="site"
            )
            if samples:
                self._db.execute(SAMPLES_DDL)
                self._db.execute("DELETE FROM sample_pages WHERE site = ?", [site])
                rows = {name: zlib.compress(html.encode("utf-8", "surrogatepass"), 6) for name, html in samples}
                self._db.table("sample_pages").insert_all(
                    [{"site": site, "name": name, "html": blob} for name, blob in rows.items()]
                )
        return version

    def samples(self, site: str) -> list[tuple[str, str]]:
        """The ``(name, html)`` sample pages of ``site``'s current wrapper (none for wrappers saved without)."""
        if self._state is not SchemaState.FOREST or "sample_pages" not in self._db.table_names():
            return []
        with self._guard():
            rows = self._db.execute("SELECT name, html FROM sample_pages WHERE site = ? ORDER BY name", [site]).fetchall()
        pages = []
        for name, blob in rows:
            try:
                pages.append((str(name), zlib.decompress(blob).decode("utf-8", "surrogatepass")))
            except (zlib.error, TypeError, UnicodeDecodeError) as exc:
                raise self._error(f"stored sample page {name!r} of {site!r} is corrupt ({exc})") from exc
        return pages

    def find(self, site: str) -> dict[str, Any] | None:
        """Return the current wrapper for ``site``, or ``None`` if none is stored.

        :raises StoreError: if the stored wrapper is corrupt or too new.
        """
        if self._state is not SchemaState.FOREST:
            return None
        with self._guard():
            try:
                row = self._db.table("sites").get(site)
            except NotFoundError:
                return None
        return self._decode(site, int(row["version"]), row["wrapper"])

    def get(self, site: str) -> dict[str, Any]:
        """Return the current wrapper for ``site``.

        :raises SiteNotFoundError: if no wrapper is stored for ``site``.
        :raises StoreError: if the stored wrapper is corrupt or too new.
        """
        wrapper = self.find(site)
        if wrapper is None:
            raise self._unknown(site)
        return wrapper

    def sites(self) -> list[SiteInfo]:
        """Return every stored site, sorted by name."""
        if self._state is not SchemaState.FOREST:
            return []
        # Select the SiteInfo fields only: listing need not load every wrapper's JSON.
        fields = ", ".join(field.name for field in dataclasses.fields(SiteInfo))
        with self._guard():
            return [SiteInfo(**row) for row in self._db.table("sites").rows_where(select=fields, order_by="site")]

    def info(self, site: str) -> SiteInfo | None:
        """The stored site's version and counters, or None when nothing is stored for it."""
        if self._state is not SchemaState.FOREST:
            return None
        fields = ", ".join(field.name for field in dataclasses.fields(SiteInfo))
        with self._guard():
            rows = list(self._db.table("sites").rows_where("site = ?", [site], select=fields))
        return SiteInfo(**rows[0]) if rows else None

    def history(self, site: str) -> list[tuple[int, str, dict[str, Any]]]:
        """Return ``(version, learned_at, wrapper)`` for every version of ``site``, oldest first.

        :raises SiteNotFoundError: if no wrapper is stored for ``site``.
        :raises StoreError: if a stored wrapper is corrupt or too new.
        """
        rows: list[dict[str, Any]] = []
        if self._state is SchemaState.FOREST:
            with self._guard():
                rows = list(self._db.table("wrapper_history").rows_where("site = ?", [site], order_by="version"))
        if not rows:
            raise self._unknown(site)
        return [
            (int(row["version"]), row["learned_at"], self._decode(site, int(row["version"]), row["wrapper"]))
            for row in rows
        ]

    def forget(self, site: str) -> bool:
        """Delete ``site`` and its whole history; return whether anything was stored."""
        if self._state is not SchemaState.FOREST:
            return False
        with self._guard(), self._db.conn:
            self._begin_write()
            current = self._db.execute("DELETE FROM sites WHERE site = ?", [site]).rowcount
            past = self._db.execute("DELETE FROM wrapper_history WHERE site = ?", [site]).rowcount
            if "sample_pages" in self._db.table_names():
                self._db.execute("DELETE FROM sample_pages WHERE site = ?", [site])
        return current + past > 0

    def record_extraction(self, site: str, *, miss: bool) -> None:
        """Count one page extracted with ``site``'s wrapper (and a miss if it found no article).

        ``pages_extracted`` counts every page, misses included. An unknown site is ignored.
        """
        self.record_extractions(site, pages=1, misses=int(miss))

    def record_extractions(self, site: str, *, pages: int, misses: int) -> None:
        """Count ``pages`` pages extracted with ``site``'s wrapper, ``misses`` of them misses, in one write.

        A batch counts its pages in memory and writes each site's counts once: a write
        per page would cost a commit (and an fsync) per page.  A store opened read-only,
        or whose file turns out read-only, counts nothing: the counters are statistics,
        and an extraction, which needs no write, must not fail for them.
        """
        if self._state is not SchemaState.FOREST or pages <= 0 or self.readonly:
            return
        try:
            with self._guard(), self._db.conn:
                # One UPDATE is atomic on its own: counters never lose a concurrent increment.
                self._db.execute(
                    "UPDATE sites SET pages_extracted = pages_extracted + ?, misses = misses + ?,"
                    " last_extracted_at = ? WHERE site = ?",
                    [pages, misses, _now(), site],
                )
        except StoreError as exc:
            if not isinstance(exc.__cause__, sqlite3.OperationalError) or "readonly" not in str(exc.__cause__):
                raise

    def site_for_host(self, host: str) -> str | None:
        """Return the stored site key for ``host``: the host itself, else its nearest stored parent domain.

        ``"www.bbc.co.uk"`` finds ``"www.bbc.co.uk"``, else ``"bbc.co.uk"``;
        ``"news.example.com"`` finds ``"example.com"``.
        """
        candidates = _host_candidates(host)
        if not candidates or self._state is not SchemaState.FOREST:
            return None
        marks = ", ".join("?" * len(candidates))
        with self._guard():
            stored = {row[0] for row in self._db.execute(f"SELECT site FROM sites WHERE site IN ({marks})", candidates)}
        return next((candidate for candidate in candidates if candidate in stored), None)
