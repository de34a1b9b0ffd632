"""The store's layout versions: each earlier layout, written as the code of its time wrote it, opens and migrates.

Every forest file recorded ``PRAGMA user_version = 1``, but the code of that layout created
three of its tables only when first needed: ``sample_pages`` at the first save with sample
pages, ``jobs`` and ``page_revisions`` when ``forest serve`` started.  So layout 1 comes in
the four shapes below.  No column was ever added to a table after it was first created.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlite_utils import Database
from sqlite_utils.db import Table

from forest.cli import cli
from forest.demo import ExampleSite
from store import StoreError, WrapperStore, schema
from store.schema import DB_SCHEMA

# --- the earlier layouts, as the code of their time wrote them -------------------------

# store/schema.py's first DDL, with user_version 1 (the first store commit).
WRAPPER_TABLES = (
    """CREATE TABLE IF NOT EXISTS sites (
        site TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        wrapper TEXT NOT NULL,
        learned_at TEXT NOT NULL,
        pages_extracted INTEGER NOT NULL DEFAULT 0,
        misses INTEGER NOT NULL DEFAULT 0,
        last_extracted_at TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS wrapper_history (
        site TEXT NOT NULL,
        version INTEGER NOT NULL,
        wrapper TEXT NOT NULL,
        learned_at TEXT NOT NULL,
        PRIMARY KEY (site, version)
    )""",
)
# SAMPLES_DDL, run by save() when it had sample pages (since relearning compared samples).
SAMPLE_PAGES = (
    """CREATE TABLE IF NOT EXISTS sample_pages (
        site TEXT NOT NULL,
        name TEXT NOT NULL,
        html BLOB NOT NULL,
        PRIMARY KEY (site, name)
    )""",
)
# What forest.webapp.jobs.JobStore._create had sqlite-utils write when forest serve started.
JOB_TABLES = (
    """CREATE TABLE "jobs" (
       "id" INTEGER PRIMARY KEY, "kind" TEXT NOT NULL, "url" TEXT, "site" TEXT, "state" TEXT NOT NULL,
       "created_at" TEXT NOT NULL, "started_at" TEXT, "finished_at" TEXT, "heartbeat_at" TEXT, "attempts" INTEGER,
       "worker" TEXT, "progress" TEXT, "error" TEXT, "result" TEXT, "input_revision" INTEGER
    )""",
    'CREATE INDEX "idx_jobs_state_id" ON "jobs" ("state", "id")',
    """CREATE TABLE "page_revisions" (
       "id" INTEGER PRIMARY KEY, "job_id" INTEGER, "url" TEXT, "final_url" TEXT, "status" INTEGER,
       "content_type" TEXT, "fetched_at" TEXT, "size" INTEGER, "sha256" TEXT, "body" BLOB
    )""",
    'CREATE INDEX "idx_page_revisions_url_id" ON "page_revisions" ("url", "id")',
    'CREATE INDEX "idx_page_revisions_job_id" ON "page_revisions" ("job_id")',
)

LAYOUTS = {
    "wrappers only": WRAPPER_TABLES,
    "with sample pages": WRAPPER_TABLES + SAMPLE_PAGES,
    "served, no sample pages": WRAPPER_TABLES + JOB_TABLES,
    "served, with sample pages": WRAPPER_TABLES + SAMPLE_PAGES + JOB_TABLES,
}

SITE = "example.com"
OLD = {"schema_version": 1, "title": "//h1", "body": ["//article"]}
CURRENT = {"schema_version": 1, "title": "//h1[1]", "body": ["//article", "//p"]}
PAGE = "<html><body><article><h1>Hi</h1><p>Text.</p></article></body></html>"
BODY = b"<html><body>downloaded</body></html>"


def write_old(path: Path, ddl: tuple[str, ...], *, user_version: int = 1) -> None:
    """A file of an earlier layout holding one site with two wrapper versions, and a sample page and
    a finished job with its download where the layout has their tables; in WAL, as forest left it."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA journal_mode = wal")
        with conn:
            for statement in ddl:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {user_version}")
            conn.executemany(
                "INSERT INTO wrapper_history VALUES (?, ?, ?, ?)",
                [(SITE, 1, json.dumps(OLD), "2026-11-21T10:00:00+00:00"), (SITE, 2, json.dumps(CURRENT), "2026-11-22T10:00:00+00:00")],
            )
            conn.execute("INSERT INTO sites VALUES (?, 2, ?, '2026-11-22T10:00:00+00:00', 7, 2, '2026-11-23T10:00:00+00:00')",
                         [SITE, json.dumps(CURRENT)])
            if SAMPLE_PAGES[0] in ddl:
                conn.execute("INSERT INTO sample_pages VALUES (?, ?, ?)", [SITE, "https://example.com/a", zlib.compress(PAGE.encode())])
            if JOB_TABLES[0] in ddl:
                conn.execute(
                    "INSERT INTO jobs (kind, url, site, state, created_at, finished_at, attempts, worker, result)"
                    " VALUES ('learn', 'https://example.com/feed', ?, 'finished', '2026-11-22T09:59:00.000+00:00',"
                    " '2026-11-22T10:00:00.000+00:00', 1, 'w1', '{\"site\": \"example.com\"}')",
                    [SITE],
                )
                conn.execute(
                    "INSERT INTO page_revisions (job_id, url, final_url, status, content_type, fetched_at, size, sha256, body)"
                    " VALUES (1, 'https://example.com/a', 'https://example.com/a', 200, 'text/html',"
                    " '2026-11-22T09:59:30.000+00:00', ?, 'x', ?)",
                    [len(BODY), BODY],
                )


def rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in rowid order."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {name: conn.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall() for name in names}


def snapshot(path: Path) -> tuple[int, list[tuple[Any, ...]], dict[str, list[tuple[Any, ...]]]]:
    """The file's layout version, schema text and rows: what a failed migration must leave as they were."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        master = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").fetchall()
    return version, master, rows(path)


def layout(path: Path) -> tuple[int, dict[str, Any]]:
    """The layout version and shape (each table's columns, each index's columns), whatever the DDL's spelling."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        db = Database(conn)
        shape: dict[str, Any] = {}
        for name in db.table_names():
            columns = [(c.name, c.type.upper(), c.notnull, c.default_value, c.is_pk) for c in db.table(name).columns]
            indexes = sorted((i.name, tuple(i.columns)) for i in db.table(name).indexes)
            shape[name] = (columns, indexes)
        return int(conn.execute("PRAGMA user_version").fetchone()[0]), shape


@pytest.fixture
def current_layout(tmp_path: Path) -> tuple[int, dict[str, Any]]:
    """What today's code makes of a new file."""
    WrapperStore(tmp_path / "new.db").close()
    return layout(tmp_path / "new.db")


# --- each earlier layout migrates ----------------------------------------------------------


@pytest.mark.parametrize("ddl", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_an_earlier_layout_migrates_keeping_every_row(tmp_path: Path, ddl: tuple[str, ...],
                                                      current_layout: tuple[int, dict[str, Any]]) -> None:
    path = tmp_path / "old.db"
    write_old(path, ddl)
    before = rows(path)
    with WrapperStore(path) as store:
        assert store.get(SITE) == CURRENT
        assert [(v, w) for v, _, w in store.history(SITE)] == [(1, OLD), (2, CURRENT)]
        info = store.info(SITE)
        assert info is not None and (info.version, info.pages_extracted, info.misses) == (2, 7, 2)
        has_samples = SAMPLE_PAGES[0] in ddl
        assert store.samples(SITE) == ([("https://example.com/a", PAGE)] if has_samples else [])
    after = rows(path)
    assert {name: after[name] for name in before} == before
    assert layout(path) == current_layout
    assert current_layout[0] == DB_SCHEMA
    assert set(current_layout[1]) == {"sites", "wrapper_history", "sample_pages", "jobs", "page_revisions"}


@pytest.mark.parametrize("ddl", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_a_migrated_file_takes_new_versions_samples_and_jobs(tmp_path: Path, ddl: tuple[str, ...]) -> None:
    path = tmp_path / "old.db"
    write_old(path, ddl)
    with WrapperStore(path) as store:
        assert store.save(SITE, OLD, samples=[("https://example.com/b", PAGE)]) == 3
        assert store.samples(SITE) == [("https://example.com/b", PAGE)]
    pytest.importorskip("starlette", reason="forest serve's job store comes with the web extra")
    from forest.webapp.jobs import JobStore

    with JobStore(path) as jobs:
        job = jobs.add("learn", "https://example.com/feed")
        assert [j.id for j in jobs.recent()] == ([job.id, 1] if JOB_TABLES[0] in ddl else [job.id])
        revision = jobs.add_revision("https://example.com/b", BODY, job_id=job.id)
        assert jobs.revision(revision) is not None


def test_a_file_whose_user_version_was_lost_is_read_as_layout_1(tmp_path: Path,
                                                                 current_layout: tuple[int, dict[str, Any]]) -> None:
    # A copy that keeps the tables but not the header (an SQL dump replayed) reads user_version 0.
    path = tmp_path / "copied.db"
    write_old(path, LAYOUTS["served, with sample pages"], user_version=0)
    with WrapperStore(path) as store:
        assert store.get(SITE) == CURRENT
    assert layout(path) == current_layout


def test_a_new_file_gets_the_latest_layout(tmp_path: Path) -> None:
    version, shape = layout_of_new(tmp_path / "sub" / "new.db")
    assert version == DB_SCHEMA == len(schema.MIGRATIONS)
    assert set(shape) == set(schema.LAYOUT_COLUMNS)
    for name, columns in schema.LAYOUT_COLUMNS.items():
        assert {c[0] for c in shape[name][0]} == columns


def layout_of_new(path: Path) -> tuple[int, dict[str, Any]]:
    WrapperStore(path).close()
    return layout(path)


def test_concurrent_openers_migrate_once(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    write_old(path, LAYOUTS["wrappers only"])
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def open_and_read() -> None:
        try:
            start.wait()
            with WrapperStore(path) as store:
                assert store.get(SITE) == CURRENT
        except BaseException as exc:  # reported below: a thread's exception would be lost
            errors.append(exc)

    threads = [threading.Thread(target=open_and_read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert layout(path)[0] == DB_SCHEMA


# --- what is refused, and a failure ---------------------------------------------------------


def test_a_migration_failing_midway_leaves_the_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.db"
    write_old(path, LAYOUTS["wrappers only"])
    before = snapshot(path)
    *earlier, last = schema.MIGRATIONS

    def fails_after_its_work(db: Database) -> None:
        last(db)  # the tables of the last step exist, sample_pages too, when the disk gives out
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(schema, "MIGRATIONS", (*earlier, fails_after_its_work))
    with pytest.raises(StoreError) as info:
        WrapperStore(path)
    message = str(info.value)
    assert "\n" not in message
    assert f"from layout 1 to {DB_SCHEMA}" in message and "left as it was" in message and "disk" in message
    assert snapshot(path) == before
    monkeypatch.undo()
    with WrapperStore(path) as store:
        assert store.get(SITE) == CURRENT
    assert layout(path)[0] == DB_SCHEMA


def test_a_table_of_another_shape_stops_the_migration(tmp_path: Path) -> None:
    # A layout-1 file with someone's own `jobs` table: forest serve never made it.
    path = tmp_path / "old.db"
    write_old(path, WRAPPER_TABLES + ("CREATE TABLE jobs (id INTEGER PRIMARY KEY, name TEXT)",))
    before = snapshot(path)
    with pytest.raises(StoreError, match="not a forest database .table jobs lacks column") as info:
        WrapperStore(path)
    assert "\n" not in str(info.value)
    assert snapshot(path) == before


@pytest.mark.parametrize("readonly", [False, True], ids=["read-write", "read-only"])
def test_a_newer_layout_is_refused_in_one_line(tmp_path: Path, readonly: bool) -> None:
    path = tmp_path / "newer.db"
    write_old(path, LAYOUTS["served, with sample pages"], user_version=DB_SCHEMA + 1)
    before = snapshot(path)
    with pytest.raises(StoreError) as info:
        WrapperStore(path, readonly=readonly)
    message = str(info.value)
    assert f"layout {DB_SCHEMA + 1} is newer than this forest supports ({DB_SCHEMA}); upgrade forest" in message
    assert "\n" not in message
    assert snapshot(path) == before


def test_after_opening_the_store_never_asks_which_tables_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.db"
    write_old(path, LAYOUTS["wrappers only"])
    table_names, exists = Database.table_names, Table.exists

    def asked_by_store() -> None:
        # sqlite-utils' own insert and rows_where look before they write or read: not ours to change.
        caller = sys._getframe(2).f_globals.get("__name__", "")
        assert not caller.startswith("store"), f"{caller} asked which tables exist; the layout is known once open"

    def checked_table_names(self: Database, fts4: bool = False, fts5: bool = False) -> list[str]:
        asked_by_store()
        return table_names(self, fts4=fts4, fts5=fts5)

    def checked_exists(self: Table) -> bool:
        asked_by_store()
        return exists(self)

    with WrapperStore(path) as store:
        monkeypatch.setattr(Database, "table_names", checked_table_names)
        monkeypatch.setattr(Table, "exists", checked_exists)
        store.save(SITE, CURRENT, samples=[("https://example.com/b", PAGE)])
        assert store.samples(SITE) == [("https://example.com/b", PAGE)]
        assert store.forget(SITE)
        assert store.find(SITE) is None and store.sites() == []


# --- read-only: an old layout is read as it is ---------------------------------------------


def test_opened_read_only_an_old_layout_is_read_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    write_old(path, LAYOUTS["with sample pages"])
    before = snapshot(path)
    with WrapperStore(path, readonly=True) as store:
        assert store.get(SITE) == CURRENT and [s.site for s in store.sites()] == [SITE]
        # No sample pages read from a layout older than theirs: only relearning reads them, and it writes.
        assert store.samples(SITE) == []
    assert snapshot(path) == before


@contextlib.contextmanager
def read_only(directory: Path) -> Iterator[None]:
    """``directory`` made read-only: by its mode, or for root, who ignores modes, immutable."""
    if os.geteuid() != 0:
        mode = directory.stat().st_mode
        directory.chmod(0o555)
        try:
            yield
        finally:
            directory.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(directory)], capture_output=True).returncode != 0:
        pytest.skip("running as root, which ignores file modes, and chattr +i is not available here")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(directory)], check=True)


def test_an_old_layout_in_a_read_only_directory_serves_extraction(tmp_path: Path, example: ExampleSite) -> None:
    # A wrapper learned by today's code, in a file taken back to the first layout (layout 1, wrappers only).
    db = tmp_path / "store" / "forest.db"
    db.parent.mkdir()
    learned = CliRunner().invoke(cli, ["learn", "--db", str(db), *map(str, example.sample)])
    assert learned.exit_code == 0, learned.output
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        for table in ("sample_pages", "jobs", "page_revisions"):
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute("PRAGMA user_version = 1")
    before = snapshot(db)
    with read_only(db.parent):
        result = CliRunner().invoke(cli, ["extract", "--db", str(db), "--format", "json", str(example.held_out)])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["method"] == "wrapper"
        with WrapperStore.for_extraction(db) as store:
            assert store.readonly
    assert snapshot(db) == before
    # Writable again, extraction migrates it and counts the page.
    result = CliRunner().invoke(cli, ["extract", "--db", str(db), "--format", "json", str(example.held_out)])
    assert result.exit_code == 0, result.output
    assert layout(db)[0] == DB_SCHEMA
    assert rows(db)["sites"][0][4] == before[2]["sites"][0][4] + 1
