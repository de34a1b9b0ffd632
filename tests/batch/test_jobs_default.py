"""With no --jobs, a small batch runs in the CLI's own process and a large one on a pool of every core."""

from __future__ import annotations

import pytest

from forest.batch import Options
from forest.batch import run as batch_run
from forest.batch.item import Item


def _errors(n: int) -> list[list[Item]]:
    """``n`` pages in chunks, each an input that could not be expanded: no store or parse needed to process it."""
    items = [Item(f"page{i}", "error", error="unreadable") for i in range(n)]
    return list(batch_run._chunks(items, batch_run.CHUNK))


def _run(options: Options, chunks: list[list[Item]]) -> tuple[list[str], int | None, bool]:
    runner = batch_run._Runner(options)
    try:
        results = runner.map(batch_run._extract_chunk, lambda worker, chunk: [worker.process(i) for i in chunk], chunks, len)
        sources = [r.source for chunk in results for r in chunk]
        return sources, runner.jobs, runner._pool is not None
    finally:
        runner.close()


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_run, "default_jobs", lambda: 2)


@pytest.mark.usefixtures("two_cores")
def test_a_small_input_stays_in_this_process(tmp_path) -> None:
    n = batch_run.POOL_AFTER_PAGES - 1
    sources, jobs, pooled = _run(Options(db=tmp_path / "f.db", jobs=None), _errors(n))
    assert (jobs, pooled) == (1, False)
    assert sources == [f"page{i}" for i in range(n)]


@pytest.mark.usefixtures("two_cores")
def test_a_large_input_goes_to_every_core_in_input_order(tmp_path) -> None:
    n = batch_run.POOL_AFTER_PAGES + batch_run.CHUNK * 3
    sources, jobs, pooled = _run(Options(db=tmp_path / "f.db", jobs=None), _errors(n))
    assert (jobs, pooled) == (2, True)
    assert sources == [f"page{i}" for i in range(n)]


@pytest.mark.usefixtures("two_cores")
def test_jobs_given_is_kept_whatever_the_size(tmp_path) -> None:
    assert _run(Options(db=tmp_path / "f.db", jobs=2), _errors(3))[1:] == (2, True)
    assert _run(Options(db=tmp_path / "g.db", jobs=1), _errors(200))[1:] == (1, False)


def test_learning_decides_on_the_whole_input_counted(tmp_path) -> None:
    runner = batch_run._Runner(Options(db=tmp_path / "f.db", jobs=None))
    runner.decide(batch_run.POOL_AFTER_PAGES)
    runner.decide(1)  # decided once: the extraction pass keeps learning's choice
    assert runner.jobs == batch_run.default_jobs()
