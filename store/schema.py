"""The layout of a forest database: its tables, how to recognise them, and the wrapper JSON rows hold."""

from __future__ import annotations

import enum
import json
from typing import Any

from sqlite_utils import Database

# Layout version of the database itself, kept in PRAGMA user_version. It is
# independent of a wrapper's own schema_version: the tables can stay the same
# while the wrapper JSON inside them evolves, and the other way round.
DB_SCHEMA = 1

# Highest wrapper schema_version this code can read. A newer one was written by
# a newer forest, and guessing at its meaning could extract garbage silently.
SUPPORTED_SCHEMA = 1

# Columns each table must have for a file to count as a forest database; a
# same-named table of another application lacks some of them.
REQUIRED_COLUMNS: dict[str, frozenset[str]] = {
    "sites": frozenset(
        {"site", "version", "wrapper", "learned_at", "pages_extracted", "misses", "last_extracted_at"}
    ),
    "wrapper_history": frozenset({"site", "version", "wrapper", "learned_at"}),
}

# IF NOT EXISTS because two processes may both find a fresh file empty and
# race to create the tables; the loser's statements then do nothing.
DDL = (
    """
    CREATE TABLE IF NOT EXISTS sites (
        site TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        wrapper TEXT NOT NULL,
        learned_at TEXT NOT NULL,
        pages_extracted INTEGER NOT NULL DEFAULT 0,
        misses INTEGER NOT NULL DEFAULT 0,
        last_extracted_at TEXT
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS wrapper_history (
        site TEXT NOT NULL,
        version INTEGER NOT NULL,
        wrapper TEXT NOT NULL,
        learned_at TEXT NOT NULL,
        PRIMARY KEY (site, version)
    )
    """,
)


# The sample pages of each site's current wrapper, kept so that relearning can compare the
# old wrapper and the new on the pages of both samples.  Optional: created at the first save
# that has pages, so a database written before it still counts as a forest database.
SAMPLES_DDL = """
    CREATE TABLE IF NOT EXISTS sample_pages (
        site TEXT NOT NULL,
        name TEXT NOT NULL,
        html BLOB NOT NULL,
        PRIMARY KEY (site, name)
    )
"""


class SchemaState(enum.Enum):
    """What a database holds, as far as forest is concerned."""

    EMPTY = "empty"  # no tables at all: a new file, safe to take over
    FOREST = "forest"  # both forest tables, with their columns
    ABSENT = "absent"  # another application's tables, none of ours
    FOREIGN = "foreign"  # a table named like ours but shaped differently


def inspect_schema(db: Database) -> tuple[SchemaState, str]:
    """Classify ``db`` and give a short reason when it is not usable as is.

    :raises sqlite3.DatabaseError: if the file is not a SQLite database.
    """
    names = set(db.table_names())
    if not names:
        return SchemaState.EMPTY, ""
    ours = names & REQUIRED_COLUMNS.keys()
    if not ours:
        return SchemaState.ABSENT, "no forest tables"
    for name in sorted(REQUIRED_COLUMNS):
        if name not in names:
            return SchemaState.FOREIGN, f"table {name} is missing"
        missing = REQUIRED_COLUMNS[name] - set(db.table(name).columns_dict)
        if missing:
            return SchemaState.FOREIGN, f"table {name} lacks column(s) {', '.join(sorted(missing))}"
    return SchemaState.FOREST, ""


def user_version(db: Database) -> int:
    """Return the layout version recorded in the file (0 if never set)."""
    row = db.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def create_schema(db: Database) -> None:
    """Create the forest tables in an empty file; the caller holds the write transaction."""
    for statement in DDL:
        db.execute(statement)
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
