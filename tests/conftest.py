"""Shared fixtures: a wrapper database path, a CLI runner, the bundled example site."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from forest.demo import ExampleSite, example_site


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh wrapper database path (the file does not exist yet)."""
    return tmp_path / "forest.db"


@pytest.fixture
def runner(db: Path) -> CliRunner:
    """A click test runner whose $FOREST_DB is ``db``, so no test touches the user's database."""
    return CliRunner(env={"FOREST_DB": str(db)})


@pytest.fixture
def example() -> ExampleSite:
    """The bundled example site (forest/examples/example.test)."""
    return example_site()


@pytest.fixture
def example_pages(example: ExampleSite) -> list[Path]:
    """The example site's sample pages (all but the held-out one)."""
    return list(example.sample)
