"""Tests for store.WrapperStore: versions, counters, errors, concurrency, host lookup."""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils.db import Database, Table

from store import SUPPORTED_SCHEMA, SiteInfo, SiteNotFoundError, StoreError, WrapperStore, default_db_path


def wrapper(n: int = 0, **extra: Any) -> dict[str, Any]:
    return {"schema_version": SUPPORTED_SCHEMA, "title": f"//h1[{n}]", "body": ["//article", "//p"], **extra}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "forest.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[WrapperStore]:
    with WrapperStore(db_path) as opened:
        yield opened


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection that commits and closes, to tamper with rows."""
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        yield conn


def test_round_trip(store: WrapperStore) -> None:
    original = wrapper(1, note="café ✓", nested={"a": [1, 2.5, None, True]})
    store.save("example.com", original)
    assert store.get("example.com") == original


def test_find_unknown_site_is_none(store: WrapperStore) -> None:
    assert store.find("nowhere.org") is None


def test_get_unknown_site_raises(store: WrapperStore) -> None:
    with pytest.raises(SiteNotFoundError) as info:
        store.get("nowhere.org")
    assert info.value.site == "nowhere.org"


def test_versions_increment_and_history_keeps_all(store: WrapperStore) -> None:
    versions = [store.save("example.com", wrapper(n)) for n in range(3)]
    assert versions == [1, 2, 3]
    assert store.get("example.com") == wrapper(2)
    history = store.history("example.com")
    assert [(v, w) for v, _, w in history] == [(1, wrapper(0)), (2, wrapper(1)), (3, wrapper(2))]
    assert all(learned_at.endswith("+00:00") for _, learned_at, _ in history)


def test_versions_are_per_site(store: WrapperStore) -> None:
    store.save("a.com", wrapper(1))
    store.save("a.com", wrapper(2))
    assert store.save("b.com", wrapper(3)) == 1


def test_history_of_unknown_site_raises(store: WrapperStore) -> None:
    with pytest.raises(SiteNotFoundError):
        store.history("nowhere.org")


def test_forget_removes_site_and_history(store: WrapperStore) -> None:
    store.save("example.com", wrapper(1))
    store.save("example.com", wrapper(2))
    assert store.forget("example.com") is True
    assert store.find("example.com") is None
    with pytest.raises(SiteNotFoundError):
        store.history("example.com")
    assert store.save("example.com", wrapper(3)) == 1


def test_forget_unknown_site_is_false(store: WrapperStore) -> None:
    assert store.forget("nowhere.org") is False


def test_sites_lists_sorted_infos(store: WrapperStore) -> None:
    store.save("b.com", wrapper(1))
    store.save("a.com", wrapper(1))
    store.save("b.com", wrapper(2))
    infos = store.sites()
    assert [(i.site, i.version, i.pages_extracted, i.misses, i.last_extracted_at) for i in infos] == [
        ("a.com", 1, 0, 0, None),
        ("b.com", 2, 0, 0, None),
    ]
    assert all(isinstance(i, SiteInfo) for i in infos)


def test_counters_count_pages_and_misses(store: WrapperStore) -> None:
    store.save("example.com", wrapper(1))
    for miss in (False, True, False):
        store.record_extraction("example.com", miss=miss)
    [info] = store.sites()
    assert (info.pages_extracted, info.misses) == (3, 1)
    assert info.last_extracted_at is not None


def test_counters_survive_a_new_version(store: WrapperStore) -> None:
    store.save("example.com", wrapper(1))
    store.record_extraction("example.com", miss=True)
    store.save("example.com", wrapper(2))
    [info] = store.sites()
    assert (info.version, info.pages_extracted, info.misses) == (2, 1, 1)


def test_record_extraction_of_unknown_site_is_noop(store: WrapperStore) -> None:
    store.record_extraction("nowhere.org", miss=False)
    assert store.sites() == []


def test_data_survives_reopening(db_path: Path) -> None:
    with WrapperStore(db_path) as first:
        first.save("example.com", wrapper(1))
    with WrapperStore(db_path) as second:
        assert second.get("example.com") == wrapper(1)


def test_new_path_creates_database_and_directories(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "forest.db"
    with WrapperStore(path) as opened:
        assert opened.sites() == []
    assert path.is_file()


def test_database_uses_wal(db_path: Path) -> None:
    WrapperStore(db_path).close()
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_close_twice_is_harmless(db_path: Path) -> None:
    opened = WrapperStore(db_path)
    opened.close()
    opened.close()


def test_default_path_honours_forest_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "env" / "chosen.db"
    monkeypatch.setenv("FOREST_DB", str(target))
    assert default_db_path() == target
    with WrapperStore() as opened:
        opened.save("example.com", wrapper(1))
    assert target.is_file()


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", {}, ".local/share/forest/forest.db"),
        ("linux", {"XDG_DATA_HOME": "{tmp}/xdg"}, "xdg/forest/forest.db"),
        ("linux", {"XDG_DATA_HOME": "relative/ignored"}, ".local/share/forest/forest.db"),
        ("darwin", {}, "Library/Application Support/forest/forest.db"),
        ("win32", {"APPDATA": "{tmp}/Roaming"}, "Roaming/forest/forest.db"),
    ],
    ids=["xdg-default", "xdg-set", "xdg-relative", "macos", "windows"],
)
def test_default_path_per_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, platform: str, env: dict[str, str], expected: str
) -> None:
    for name in ("FOREST_DB", "XDG_DATA_HOME", "APPDATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value.format(tmp=tmp_path))
    monkeypatch.setattr("sys.platform", platform)
    assert default_db_path() == tmp_path / expected


def test_random_bytes_file_is_store_error(db_path: Path) -> None:
    db_path.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(StoreError) as info:
        WrapperStore(db_path)
    message = str(info.value)
    assert str(db_path) in message and "not a forest database" in message and "--db" in message
    assert "\n" not in message
    assert isinstance(info.value.__cause__, sqlite3.DatabaseError)


def test_directory_path_is_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info:
        WrapperStore(tmp_path)
    assert info.value.path == str(tmp_path)
    assert "directory" in str(info.value)


def test_other_applications_database_is_left_untouched(db_path: Path) -> None:
    with raw(db_path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    with WrapperStore(db_path) as opened:
        assert opened.sites() == []
        assert opened.find("example.com") is None
        assert opened.site_for_host("example.com") is None
        with pytest.raises(StoreError, match="not a forest database"):
            opened.save("example.com", wrapper(1))
    with raw(db_path) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal"


def test_same_named_foreign_table_is_store_error(db_path: Path) -> None:
    with raw(db_path) as conn:
        conn.execute("CREATE TABLE sites (id INTEGER PRIMARY KEY, url TEXT)")
    with pytest.raises(StoreError, match="not a forest database"):
        WrapperStore(db_path)


def test_newer_database_layout_is_store_error(db_path: Path) -> None:
    WrapperStore(db_path).close()
    with raw(db_path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer"):
        WrapperStore(db_path)


def test_newer_wrapper_schema_is_store_error(store: WrapperStore, db_path: Path) -> None:
    store.save("example.com", wrapper(1))
    with raw(db_path) as conn:
        newer = f'{{"schema_version": {SUPPORTED_SCHEMA + 1}}}'
        conn.execute("UPDATE sites SET wrapper = ?", [newer])
        conn.execute("UPDATE wrapper_history SET wrapper = ?", [newer])
    with pytest.raises(StoreError, match="newer than this forest supports"):
        store.get("example.com")
    with pytest.raises(StoreError, match="newer than this forest supports"):
        store.history("example.com")


@pytest.mark.parametrize(
    "text",
    ["{not json", "[1, 2]", '{"title": "x"}', '{"schema_version": true}'],
    ids=["syntax", "list", "no-version", "bool"],
)
def test_corrupt_wrapper_json_is_store_error(store: WrapperStore, db_path: Path, text: str) -> None:
    store.save("example.com", wrapper(1))
    with raw(db_path) as conn:
        conn.execute("UPDATE sites SET wrapper = ?", [text])
    with pytest.raises(StoreError, match="example.com"):
        store.get("example.com")


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        ({"title": "x"}, ValueError),
        ({"schema_version": SUPPORTED_SCHEMA + 1}, ValueError),
        ({"schema_version": SUPPORTED_SCHEMA, "x": float("nan")}, ValueError),
        ({"schema_version": SUPPORTED_SCHEMA, "x": object()}, TypeError),
    ],
    ids=["no-version", "too-new", "nan", "not-json"],
)
def test_save_rejects_unstorable_wrappers(store: WrapperStore, bad: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        store.save("example.com", bad)
    assert store.sites() == []


def test_save_rejects_empty_site(store: WrapperStore) -> None:
    with pytest.raises(ValueError):
        store.save("  ", wrapper(1))


@pytest.mark.parametrize(
    ("failure", "expected"),
    [(RuntimeError("boom"), RuntimeError), (sqlite3.OperationalError("disk I/O error"), StoreError)],
    ids=["python-error", "sqlite-error"],
)
def test_failed_save_leaves_previous_version_intact(
    store: WrapperStore, monkeypatch: pytest.MonkeyPatch, failure: Exception, expected: type[Exception]
) -> None:
    store.save("example.com", wrapper(1))

    # Fails after the history row is inserted, before `sites` points at it.
    def fail(*args: object, **kwargs: object) -> None:
        raise failure

    monkeypatch.setattr(Table, "upsert", fail)
    with pytest.raises(expected):
        store.save("example.com", wrapper(2))
    monkeypatch.undo()

    assert store.get("example.com") == wrapper(1)
    assert [v for v, _, _ in store.history("example.com")] == [1]
    assert store.save("example.com", wrapper(3)) == 2


def test_concurrent_saves_all_land(db_path: Path) -> None:
    # No file yet: the first opens race to create the tables and switch to WAL too.
    saves_each = 10
    barrier = threading.Barrier(2)
    results: dict[str, list[int]] = {}
    errors: list[BaseException] = []

    def learn(name: str) -> None:
        try:
            barrier.wait(timeout=5)
            with WrapperStore(db_path) as mine:
                results[name] = [mine.save("example.com", wrapper(n, by=name)) for n in range(saves_each)]
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=learn, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)

    assert errors == []
    assert sorted(results["a"] + results["b"]) == list(range(1, 2 * saves_each + 1))
    with WrapperStore(db_path) as check:
        assert [v for v, _, _ in check.history("example.com")] == list(range(1, 2 * saves_each + 1))
        assert check.sites()[0].version == 2 * saves_each


def test_open_retries_a_locked_journal_mode_switch(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Another process switching a brand-new file to WAL makes ours fail at once, busy timeout or not.
    real = Database.enable_wal
    calls: list[int] = []

    def locked_once(self: Database) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        real(self)

    monkeypatch.setattr(Database, "enable_wal", locked_once)
    with WrapperStore(db_path) as opened:
        assert opened.save("example.com", wrapper(1)) == 1
    assert len(calls) == 2


def save_several(path: str, name: str, count: int) -> list[int]:
    """Child-process body for the multiprocessing test (module level, so spawn can import it)."""
    with WrapperStore(path) as mine:
        return [mine.save("example.com", wrapper(n, by=name)) for n in range(count)]


def test_concurrent_processes_all_land(db_path: Path) -> None:
    # spawn: forking a process that holds open sqlite connections is unsafe.
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(save_several, [(str(db_path), "a", 5), (str(db_path), "b", 5)], chunksize=1)
    assert sorted(results[0] + results[1]) == list(range(1, 11))
    with WrapperStore(db_path) as check:
        assert [v for v, _, _ in check.history("example.com")] == list(range(1, 11))


@pytest.mark.parametrize(
    ("stored", "host", "expected"),
    [
        (["www.bbc.co.uk", "bbc.co.uk"], "www.bbc.co.uk", "www.bbc.co.uk"),
        (["bbc.co.uk"], "www.bbc.co.uk", "bbc.co.uk"),
        (["example.com"], "news.example.com", "example.com"),
        (["example.com", "news.example.com"], "a.news.example.com", "news.example.com"),
        (["example.com"], "EXAMPLE.com.", "example.com"),
        (["example.com"], "badexample.com", None),
        (["example.com"], "example.org", None),
        (["127.0.0.1:8000"], "127.0.0.1:8000", "127.0.0.1:8000"),
        (["0.0.1"], "127.0.0.1", None),
        ([], "", None),
    ],
    ids=[
        "exact", "strip-www", "parent", "longest-parent", "case-and-dot",
        "not-a-suffix", "other", "ip-port", "ip", "empty",
    ],
)
def test_site_for_host(store: WrapperStore, stored: list[str], host: str, expected: str | None) -> None:
    for site in stored:
        store.save(site, wrapper(1))
    assert store.site_for_host(host) == expected


def test_forest_store_raises_forest_errors(tmp_path: Path) -> None:
    # The store is a leaf with its own errors; forest's subclass raises ForestErrors.
    import forest
    from forest.storage import WrapperStore as ForestStore

    with ForestStore(tmp_path / "f.db") as opened:
        with pytest.raises(forest.UnknownSiteError):
            opened.get("nowhere.example")
    (tmp_path / "bad.db").write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(forest.StoreError):
        ForestStore(tmp_path / "bad.db").sites()


def test_info_is_one_site(store: WrapperStore) -> None:
    store.save("a.example", {"schema_version": 1, "site": "a.example"})
    store.save("b.example", {"schema_version": 1, "site": "b.example"})
    info = store.info("b.example")
    assert info is not None and info.site == "b.example" and info.version == 1
    assert store.info("c.example") is None
