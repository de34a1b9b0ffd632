"""Shared fixtures: a wrapper database path, a CLI runner, the bundled example site, a count of lxml's parses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import lxml.html
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


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The text of every lxml parse made in this process while the test runs: every parse forest
    makes of a page goes through ``lxml.html.document_fromstring``."""
    seen: list[str] = []
    parse = lxml.html.document_fromstring

    def counting(html: str | bytes, *args: object, **kwargs: object) -> lxml.html.HtmlElement:
        seen.append(html if isinstance(html, str) else html.decode("utf-8", "replace"))
        return parse(html, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lxml.html, "document_fromstring", counting)
    yield seen
