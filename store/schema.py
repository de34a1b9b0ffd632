"""The layout of a forest database: its tables, the ordered steps that build each layout version, and the wrapper JSON rows hold."""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from typing import Any

from sqlite_utils import Database

# Highest wrapper schema_version this code can read. A newer one was written by
# a newer forest, and guessing at its meaning could extract garbage silently.
SUPPORTED_SCHEMA = 1

# Columns each table must have for a file to count as a forest database; a
# same-named table of another application lacks some of them.  These two tables
# are in every layout, so they are what recognises a forest file of any version.
REQUIRED_COLUMNS: dict[str, frozenset[str]] = {
    "sites": frozenset(
        {"site", "version", "wrapper", "learned_at", "pages_extracted", "misses", "last_extracted_at"}
    ),
    "wrapper_history": frozenset({"site", "version", "wrapper", "learned_at"}),
}

# Every table of the current layout with the columns the code reads and writes; a
# migrated file is checked against it before its new version is recorded.
LAYOUT_COLUMNS: dict[str, frozenset[str]] = {
    **REQUIRED_COLUMNS,
    "sample_pages": frozenset({"site", "name", "html"}),
    "jobs": frozenset(
        {"id", "kind", "url", "site", "state", "created_at", "started_at", "finished_at", "heartbeat_at",
         "attempts", "worker", "progress", "error", "result", "input_revision"}
    ),
    "page_revisions": frozenset(
        {"id", "job_id", "url", "final_url", "status", "content_type", "fetched_at", "size", "sha256", "body"}
    ),
}


# --- the layout versions -----------------------------------------------------------------
#
# The layout version is kept in PRAGMA user_version, independent of a wrapper's own
# schema_version: the tables can stay the same while the wrapper JSON inside them evolves,
# and the other way round.  MIGRATIONS[n] turns layout n into layout n + 1; a new file runs
# them all, from 0, so a new file and a migrated one have one layout by construction.
# A step never drops or rewrites a row: it adds tables, columns or indexes.
#
# Layout 1 (the first forest) recorded user_version 1 but created two of its tables only
# when first needed: sample_pages at the first save with sample pages, and forest serve's
# jobs and page_revisions when it started.  A layout-1 file may hold any of them, so the
# steps that add them tolerate finding them (IF NOT EXISTS), and the columns are checked
# after the last step.


def _wrappers(db: Database) -> None:
    """Layout 1: each site's current wrapper with its extraction counters, and every version learned."""
    db.execute(
        """
        CREATE TABLE sites (
            site TEXT PRIMARY KEY,
            version INTEGER NOT NULL,
            wrapper TEXT NOT NULL,
            learned_at TEXT NOT NULL,
            pages_extracted INTEGER NOT NULL DEFAULT 0,
            misses INTEGER NOT NULL DEFAULT 0,
            last_extracted_at TEXT
        )
        """
    )
    db.execute(
        """
        CREATE TABLE wrapper_history (
            site TEXT NOT NULL,
            version INTEGER NOT NULL,
            wrapper TEXT NOT NULL,
            learned_at TEXT NOT NULL,
            PRIMARY KEY (site, version)
        )
        """
    )


def _sample_pages(db: Database) -> None:
    """Layout 2: the sample pages of each site's current wrapper, which relearning compares the old and new wrapper on."""
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS sample_pages (
            site TEXT NOT NULL,
            name TEXT NOT NULL,
            html BLOB NOT NULL,
            PRIMARY KEY (site, name)
        )
        """
    )


def _job_tables(db: Database) -> None:
    """Layout 3: forest serve's job queue and the page downloads it keeps (revisions).

    The same tables and index names as sqlite-utils made them when forest serve created
    them itself, so a layout-1 file that has them and one migrated here are alike.
    """
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS jobs (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            url TEXT,
            site TEXT,
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT,
            heartbeat_at TEXT,
            attempts INTEGER,
            worker TEXT,
            progress TEXT,
            error TEXT,
            result TEXT,
            input_revision INTEGER
        )
        """
    )
    # The worker claims the oldest pending job: state, then id.
    db.execute("CREATE INDEX IF NOT EXISTS idx_jobs_state_id ON jobs (state, id)")
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS page_revisions (
            id INTEGER PRIMARY KEY,
            job_id INTEGER,
            url TEXT,
            final_url TEXT,
            status INTEGER,
            content_type TEXT,
            fetched_at TEXT,
            size INTEGER,
            sha256 TEXT,
            body BLOB
        )
        """
    )
    db.execute("CREATE INDEX IF NOT EXISTS idx_page_revisions_url_id ON page_revisions (url, id)")
    db.execute("CREATE INDEX IF NOT EXISTS idx_page_revisions_job_id ON page_revisions (job_id)")


MIGRATIONS: tuple[Callable[[Database], None], ...] = (_wrappers, _sample_pages, _job_tables)

# The layout this code writes: a file at an older one is migrated when opened read-write,
# and a newer one (written by a newer forest) is refused.
DB_SCHEMA = len(MIGRATIONS)

# The first layout with sample_pages: a store opened read-only on an older file has none to read.
SAMPLE_PAGES_LAYOUT = 2


class SchemaState(enum.Enum):
    """What a database holds, as far as forest is concerned."""

    EMPTY = "empty"  # no tables at all: a new file, safe to take over
    FOREST = "forest"  # both forest tables, with their columns
    ABSENT = "absent"  # another application's tables, none of ours
    FOREIGN = "foreign"  # a table named like ours but shaped differently


def _missing(db: Database, columns: dict[str, frozenset[str]], names: set[str]) -> str:
    """Why the tables ``names`` of ``db`` lack what ``columns`` asks, or "" when they do not."""
    for name in sorted(columns):
        if name not in names:
            return f"table {name} is missing"
        missing = columns[name] - set(db.table(name).columns_dict)
        if missing:
            return f"table {name} lacks column(s) {', '.join(sorted(missing))}"
    return ""


def inspect_schema(db: Database) -> tuple[SchemaState, str]:
    """Classify ``db`` and give a short reason when it is not usable as is.

    :raises sqlite3.DatabaseError: if the file is not a SQLite database.
    """
    names = set(db.table_names())
    if not names:
        return SchemaState.EMPTY, ""
    if not names & REQUIRED_COLUMNS.keys():
        return SchemaState.ABSENT, "no forest tables"
    reason = _missing(db, REQUIRED_COLUMNS, names)
    return (SchemaState.FOREIGN, reason) if reason else (SchemaState.FOREST, "")


def user_version(db: Database) -> int:
    """Return the layout version recorded in the file (0 if never set)."""
    row = db.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def layout_of(db: Database, state: SchemaState) -> int:
    """The layout version of a file in ``state``: 0 for an empty one.

    A forest file whose user_version is 0 (lost by a copy that keeps the tables only)
    holds layout 1's tables at least, which its recognition checked.
    """
    return max(user_version(db), 1) if state is SchemaState.FOREST else 0


def migrate(db: Database, layout: int) -> None:
    """Run the steps from ``layout`` to :data:`DB_SCHEMA`, check the result, and record it.

    The caller holds the write transaction: on any failure it rolls back, and the file
    keeps its old layout and rows.

    :raises sqlite3.DatabaseError: if a step fails.
    :raises ValueError: if a table the steps would add is there already and lacks columns (its reason).
    """
    # Checked before the steps, whose IF NOT EXISTS would keep a same-named table of another
    # shape (another application's `jobs`) and whose indexes would then fail on its columns.
    names = set(db.table_names())
    reason = _missing(db, {name: columns for name, columns in LAYOUT_COLUMNS.items() if name in names}, names)
    if reason:
        raise ValueError(reason)
    for step in MIGRATIONS[layout:]:
        step(db)
    db.execute(f"PRAGMA user_version = {DB_SCHEMA}")


def schema_version(wrapper: object) -> int | None:
    """Return a wrapper dict's integer schema_version, or None if it has none."""
    value = wrapper.get("schema_version") if isinstance(wrapper, dict) else None
    # bool is an int subclass, and True must not pass for version 1.
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def encode_wrapper(wrapper: dict[str, Any]) -> str:
    """Serialise a wrapper dict to JSON for a row.

    :raises TypeError: if it is not a dict of JSON values.
    :raises ValueError: if its schema_version is missing or newer than SUPPORTED_SCHEMA.
    """
    if not isinstance(wrapper, dict):
        raise TypeError(f"wrapper must be a dict, not {type(wrapper).__name__}")
    version = schema_version(wrapper)
    if version is None:
        raise ValueError("wrapper must carry an integer 'schema_version'")
    if version > SUPPORTED_SCHEMA:
        raise ValueError(f"wrapper schema_version {version} is newer than this store supports ({SUPPORTED_SCHEMA})")
    # allow_nan=False: NaN is not JSON, and other readers of the file would choke on it.
    return json.dumps(wrapper, ensure_ascii=False, allow_nan=False)


# A wrapper nests 3 deep; anything past this is a hand-edited or corrupt row, and
# code walking it recursively would hit Python's recursion limit near 1,000.
MAX_DEPTH = 32


def _depth(value: Any) -> int:
    """How deep ``value`` nests, without recursion (store depends on sqlite-utils alone)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def decode_wrapper(text: str) -> dict[str, Any]:
    """Parse a row's wrapper JSON, checking only that it is an object with an integer schema_version.

    :raises ValueError: if it is not.
    """
    try:
        wrapper = json.loads(text)
    except TypeError as exc:  # a non-text value in the column; JSONDecodeError is already a ValueError
        raise ValueError(str(exc)) from exc
    except RecursionError as exc:  # a hand-edited row nested thousands deep
        raise ValueError("JSON nested too deep to read") from exc
    if _depth(wrapper) > MAX_DEPTH:
        raise ValueError(f"JSON nested over {MAX_DEPTH} deep; a wrapper nests 3")
    if not isinstance(wrapper, dict):
        raise ValueError(f"a JSON {type(wrapper).__name__}, not an object")
    if schema_version(wrapper) is None:
        raise ValueError("no integer schema_version")
    return wrapper
