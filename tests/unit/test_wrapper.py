"""Wrapper serialisation: dict, JSON and SQLite round trips, and refusing newer schemas."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from forest.errors import StoreError
from forest.wrapper import SCHEMA_VERSION, Wrapper
from patterns.model import Pattern
from forest.storage import WrapperStore


@pytest.fixture
def wrapper() -> Wrapper:
    return Wrapper(
        site="example.test",
        patterns=(
            Pattern("//div[@class='story-body']", score=12.375, support=5, level=6.2, terms=310),
            Pattern("//article[@id='main']", score=0.1 + 0.2, support=1, level=4.0),
        ),
        template_blocks=frozenset({"Share this story", "Related stories"}),
        exclusions=("//div[@class='share']",),
        variant={"keywords": "tfidf", "scoring": "jxu", "candidates": "ancestors", "ranking": "forest"},
        sample=("http://example.test/a.html", "http://example.test/b.html"),
        notes=("skipped page 3: empty page", "café ✓"),
        learned_at="2024-04-16T09:15:00+00:00",
    )


def test_dict_round_trip(wrapper: Wrapper) -> None:
    assert Wrapper.from_dict(wrapper.to_dict()) == wrapper


def test_json_round_trip(wrapper: Wrapper) -> None:
    assert Wrapper.from_dict(json.loads(json.dumps(wrapper.to_dict()))) == wrapper


def test_to_dict_is_deterministic(wrapper: Wrapper) -> None:
    assert json.dumps(wrapper.to_dict()) == json.dumps(Wrapper.from_dict(wrapper.to_dict()).to_dict())


def test_sqlite_round_trip(wrapper: Wrapper, tmp_path: Path) -> None:
    with WrapperStore(tmp_path / "forest.db") as store:
        store.save(wrapper.site, wrapper.to_dict())
    with WrapperStore(tmp_path / "forest.db") as store:
        assert Wrapper.from_dict(store.get("example.test")) == wrapper


def test_main_is_the_first_pattern(wrapper: Wrapper) -> None:
    assert wrapper.main is wrapper.patterns[0]


def test_newer_schema_version_is_refused(wrapper: Wrapper) -> None:
    record = {**wrapper.to_dict(), "schema_version": SCHEMA_VERSION + 1}
    with pytest.raises(StoreError, match="schema version"):
        Wrapper.from_dict(record)


def test_newer_schema_version_in_the_database_is_refused(wrapper: Wrapper, tmp_path: Path) -> None:
    path = tmp_path / "forest.db"
    with WrapperStore(path) as store:
        store.save(wrapper.site, wrapper.to_dict())
    newer = json.dumps({**wrapper.to_dict(), "schema_version": SCHEMA_VERSION + 1})
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE sites SET wrapper = ?", [newer])
    conn.close()
    with WrapperStore(path) as store, pytest.raises(StoreError, match="schema_version"):
        store.get("example.test")


@pytest.mark.parametrize(
    "record",
    [
        {"schema_version": 1},
        {"schema_version": 1, "site": "x", "patterns": [{"xpath": "//p"}]},
        {"schema_version": 1, "site": "x", "patterns": None},
        {"schema_version": "1", "site": "x", "patterns": []},
    ],
    ids=["no site", "pattern without score", "patterns not a list", "version a string"],
)
def test_malformed_record_is_a_store_error(record: dict[str, object]) -> None:
    with pytest.raises(StoreError):
        Wrapper.from_dict(record)


def test_the_seen_parts_round_trip_and_an_older_record_has_none(wrapper: Wrapper) -> None:
    learned = replace(wrapper, parts=frozenset({"div.slide", "figure.wp-caption"}))
    assert Wrapper.from_dict(json.loads(json.dumps(learned.to_dict()))) == learned
    older = {key: value for key, value in learned.to_dict().items() if key != "parts"}
    assert Wrapper.from_dict(older).parts is None


def test_parts_that_are_not_strings_are_a_store_error(wrapper: Wrapper) -> None:
    with pytest.raises(StoreError, match="'parts' must be a list of strings"):
        Wrapper.from_dict(wrapper.to_dict() | {"parts": "div.slide"})


def test_a_record_with_the_retired_prune_flag_still_reads(wrapper: Wrapper) -> None:
    # Wrappers stored while the classifier pruned at extraction carry a "prune" key.
    record = wrapper.to_dict() | {"prune": False}
    assert Wrapper.from_dict(record) == wrapper


@pytest.mark.parametrize("choice", [{"keywords": "tf-idf"}, {"scoring": "JxU"}, {"candidates": "leaf"}, {"ranking": "best"}])
def test_settings_check_their_choices_once(choice: dict[str, str]) -> None:
    from forest.config import Settings

    with pytest.raises(ValueError, match="must be one of"):
        Settings(**choice)  # type: ignore[arg-type]
