"""WrapperStore: versioned per-site wrappers in one SQLite file, safe for concurrent learners."""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import os
import sqlite3
import sys
import zlib
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from sqlite_utils.db import NotFoundError

from store.database import guard, may_write, open_database
from store.errors import SiteNotFoundError, StoreError
from store.schema import SAMPLE_PAGES_LAYOUT, SUPPORTED_SCHEMA, SchemaState, decode_wrapper, encode_wrapper

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
        file (and its directories) is created; a file of an older layout is migrated
        (see :mod:`store.schema`).
    :param readonly: open for reading only (``forest sites``, ``forest show``): a missing
        file reads as empty and nothing is created, written, migrated or switched to WAL;
        an older layout is read as it is.
    :raises StoreError: if the file cannot be opened or migrated, is not a forest database,
        or has a layout newer than this code.
    """

    def __init__(self, path: str | Path | None = None, *, readonly: bool = False) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        self.readonly = readonly
        opened = open_database(self.path, readonly=readonly, error=self._error)
        self._db, self._state, self._layout = opened.db, opened.state, opened.layout

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

    def _guard(self) -> contextlib.AbstractContextManager[None]:
        """Turn sqlite3 failures into this store's StoreError, so callers handle one kind of error."""
        return guard(self._error)

    @classmethod
    def for_extraction(cls: type[_Store], path: str | Path | None = None) -> _Store:
        """The store opened read-write when its file and directory may be written, else read-only.

        Extracting only reads wrappers: a database that cannot be written (mode 0444, a
        read-only directory or file system) serves it, and counts no pages (see
        :meth:`record_extractions`).  So does an older layout that cannot be migrated there:
        every layout holds the wrappers in the same tables, and is read as it is.
        """
        target = Path(path).expanduser() if path is not None else default_db_path()
        if may_write(target):
            try:
                return cls(path)
            except StoreError:
                pass  # a write the permissions allowed failed (a read-only mount): read it as it is
        return cls(path, readonly=True)

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
                self._db.execute("DELETE FROM sample_pages WHERE site = ?", [site])
                # Level 1: a third of level 6's time for 16% more bytes (big9's pages); a batch
                # stores every learned site's sample pages, and the time was 4% of its run.
                rows = {name: zlib.compress(html.encode("utf-8", "surrogatepass"), 1) for name, html in samples}
                self._db.table("sample_pages").insert_all(
                    [{"site": site, "name": name, "html": blob} for name, blob in rows.items()]
                )
        return version

    def samples(self, site: str) -> list[tuple[str, str]]:
        """The ``(name, html)`` sample pages of ``site``'s current wrapper (none for wrappers saved without)."""
        # Opened read-only on a file older than the sample pages, there are none to read; only
        # relearning reads them, and it writes, so its store is migrated.
        if self._state is not SchemaState.FOREST or self._layout < SAMPLE_PAGES_LAYOUT:
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
