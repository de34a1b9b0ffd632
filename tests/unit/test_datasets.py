"""Loading the shared JSON Lines datasets, grouping by site, and RED-like directories."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from eval import datasets
from eval.datasets import Sample, available, by_site, load, load_directory

DATA = Path(__file__).resolve().parent.parent / "data"


def _record(i: int, site: str, coverage: float | None = 1.0) -> dict[str, object]:
    meta: dict[str, object] = {"decoding": "utf-8"}
    if coverage is not None:
        meta["gold_token_coverage"] = coverage
    return {
        "id": f"tiny/{site}_{i}",
        "dataset": "tiny",
        "site": site,
        "url": f"http://{site}/{i}",
        "html": f"<html><body><p>page {i}</p></body></html>",
        "gold_text": f"page {i}",
        "gold_title": None,
        "feed": {"title": "T", "summary": "S", "tags": ["x"]} if i == 0 else None,
        "meta": meta,
    }


@pytest.fixture
def tiny_dir(tmp_path: Path) -> Path:
    records = [
        _record(0, "b.example"),
        _record(1, "a.example"),
        _record(2, "b.example", coverage=0.5),
        _record(3, "b.example", coverage=None),
        _record(4, "a.example"),
    ]
    with gzip.open(tmp_path / "tiny.jsonl.gz", "wt", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record) + "\n")
    return tmp_path


def test_load_by_name_from_a_root(tiny_dir: Path) -> None:
    samples = load("tiny", root=tiny_dir)
    assert [s.id for s in samples] == ["tiny/b.example_0", "tiny/a.example_1", "tiny/b.example_2", "tiny/b.example_3", "tiny/a.example_4"]
    first = samples[0]
    assert first.meta["gold_token_coverage"] == 1.0
    assert first.page.meta is not None and first.page.meta.summary == "S"
    assert first.page.site == "b.example" and "gold" not in repr(first.page)
    assert samples[1].page.meta is None


def test_load_by_path_and_by_environment(tiny_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(load(str(tiny_dir / "tiny.jsonl.gz"))) == 5
    monkeypatch.setenv("FOREST_DATASETS", str(tiny_dir))
    assert available() == ["tiny"]
    assert len(load("tiny")) == 5


def test_missing_dataset_names_the_available_ones(tiny_dir: Path) -> None:
    with pytest.raises(FileNotFoundError, match="available: tiny"):
        load("nope", root=tiny_dir)


def test_default_directory_is_beside_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FOREST_DATASETS", raising=False)
    assert datasets.datasets_dir() == datasets.repo_root().parent / "shared" / "datasets"
    assert (datasets.repo_root() / "eval" / "datasets.py").is_file()


def test_bad_line_is_reported_with_its_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(_record(0, "a")) + "\n{\"id\": 1}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        load(str(path))


def test_by_site_sorts_sites_keeps_page_order_and_filters(tiny_dir: Path) -> None:
    samples = load("tiny", root=tiny_dir)
    groups = by_site(samples)
    assert list(groups) == ["a.example", "b.example"]
    assert [s.id for s in groups["b.example"]] == ["tiny/b.example_0", "tiny/b.example_2", "tiny/b.example_3"]
    filtered = by_site(samples, min_coverage=0.8)
    # Low coverage is dropped; a page with no coverage field is kept.
    assert [s.id for s in filtered["b.example"]] == ["tiny/b.example_0", "tiny/b.example_3"]
    assert list(by_site(samples, min_pages=3)) == ["b.example"]
    assert by_site(samples, min_pages=3, min_coverage=0.8) == {}


def test_samples_are_frozen_and_hashable(tiny_dir: Path) -> None:
    sample = load("tiny", root=tiny_dir)[0]
    with pytest.raises(AttributeError):
        sample.site = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        sample.meta["x"] = 1  # type: ignore[index]
    assert hash(sample) == hash(sample)


def test_red_like_directory() -> None:
    samples = load_directory(DATA / "red_like")
    assert [s.id for s in samples] == [
        "red_like/blog.example/first",
        "red_like/blog.example/second",
        "red_like/news.example/bridge",
        "red_like/news.example/market",
    ]
    first, _, bridge, market = samples
    assert isinstance(first, Sample) and first.site == "blog.example" and first.url == "http://blog.example/first"
    # Gold whitespace is normalized as in the shared datasets; cp1252 gold is decoded.
    assert bridge.gold_text == "Harbour bridge reopens\nThe harbour bridge reopened on Monday after repairs."
    assert market.gold_text == "Market day\nCafé owners welcomed the crowds."
    # The feed item is matched to its page by the link's file name.
    assert bridge.feed is not None and bridge.feed["title"] == "Harbour bridge reopens"
    assert bridge.page.meta is not None and bridge.page.meta.tags == ("city",)
    assert market.feed is None
    assert load(str(DATA / "red_like")) == samples


def test_red_like_directory_missing() -> None:
    with pytest.raises(FileNotFoundError):
        load_directory(DATA / "no_such_dir")


@pytest.mark.datasets
def test_cleanportaleval_loads() -> None:
    if "cleanportaleval" not in available():
        pytest.skip("../shared/datasets is not here")
    samples = load("cleanportaleval")
    assert len(samples) == 71
    groups = by_site(samples, min_pages=5)
    assert len(groups) == 4
    assert all(s.html for s in samples)
    assert sum(not s.gold_text for s in samples) <= 1  # bbc.co.uk_news_05 has empty gold
