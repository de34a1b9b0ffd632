"""The honest protocol of `forest eval`: the dev/test split by site, the cold baseline in the summary,
the confidence's rank correlation, and no page of a classifier training site in a cold figure."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from eval import batchbench, report, seen, suite
from eval.datasets import Sample, TEST_SPLIT_BYTE, in_split, split_of
from eval.metrics import spearman
from eval.protocol import Results, Row, run
from eval.warc import dataset_pages
from forest.model import Page


# First bytes worked out with `printf '%s' NAME | sha256sum`, not with the code under test.
@pytest.mark.parametrize(
    ("dataset", "site", "first_byte"),
    [
        ("dragnet", "cnn.com", 0x30),
        ("big9", "bbc.co.uk@2017", 0x21),
        ("big9", "bbc.co.uk@2005", 0xA7),
        ("cleanportaleval", "bbc.co.uk_news", 0x85),
        ("tiny", "site89.example", 0x55),  # 85: the last byte of the test split
        ("tiny", "site1003.example", 0x56),  # 86: the first of dev
    ],
)
def test_a_site_is_test_when_the_first_hash_byte_is_below_86(dataset: str, site: str, first_byte: int) -> None:
    assert split_of(dataset, site) == ("test" if first_byte < 86 else "dev")
    assert in_split(dataset, site, "all")
    assert in_split(dataset, site, split_of(dataset, site)) and not in_split(dataset, site, "dev" if first_byte < 86 else "test")


def test_about_a_third_of_the_sites_are_test_sites() -> None:
    share = sum(split_of("any", f"site{i}.example") == "test" for i in range(3000)) / 3000
    assert TEST_SPLIT_BYTE == 86 and abs(share - 86 / 256) < 0.03


def _sample(site: str, i: int) -> Sample:
    html = f"<html><body><div class='post'><p>The {site} story number {i} about the harbour and the council.</p></div></body></html>"
    return Sample(f"tiny/{site}/{i}", "tiny", site, f"http://{site}/{i}", html, f"The {site} story number {i} about the harbour and the council.")


def _samples(sites: Sequence[str], pages: int = 4) -> list[Sample]:
    return [_sample(site, i) for site in sites for i in range(pages)]


def test_page_level_runs_leave_out_the_classifiers_training_sites() -> None:
    trained = seen.Seen(frozenset({"b.example"}), ("cleaneval",))
    selection = suite.select_systems("fulltext")
    result = suite.evaluate_pages("tiny", _samples(["a.example", "b.example"]), selection, seed=0, min_coverage=None,
                                  training_sites=trained)  # fmt: skip
    assert {row.site for row in result.results.rows} == {"a.example"} and len(result.results.rows) == 4
    assert result.seen_sites == ("b.example",)
    assert any("1 sites (4 pages) left out" in note and "b.example" in note for note in result.notes)
    everything = suite.evaluate_pages("tiny", _samples(["a.example", "b.example"]), selection, seed=0, min_coverage=None)
    assert len(everything.results.rows) == 8  # the leak the exclusion closes


def test_site_level_runs_score_the_split_and_never_a_training_site() -> None:
    sites = ["c.example", "f.example", "g.example", "a.example"]  # c, f and g are test sites of "tiny"; a is dev
    trained = seen.Seen(frozenset({"f.example"}), ("dragnet",))
    selection = suite.select_systems("fulltext")
    result = suite.evaluate_sites("tiny", _samples(sites), selection, k=2, seed=0, min_pages=3, min_coverage=None,
                                  split="test", training_sites=trained)  # fmt: skip
    assert {row.site for row in result.results.rows} == {"c.example", "g.example"}
    assert (result.split, result.split_sites, result.total_sites, result.seen_sites) == ("test", 3, 4, ("f.example",))
    dev = suite.evaluate_sites("tiny", _samples(sites), selection, k=2, seed=0, min_pages=3, min_coverage=None, split="dev")
    assert {row.site for row in dev.results.rows} == {"a.example"}
    # The cold path is in every site-level run, on the same pages as the rest.
    assert dev.results.systems == ("cold", "fulltext")
    assert [r.page for r in dev.results.rows_of("cold")] == [r.page for r in dev.results.rows_of("fulltext")]


def _model_file(path: Path, header: dict[str, object]) -> Path:
    buffer = io.BytesIO()
    np.savez(buffer, **{"header.json": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)})
    path.write_bytes(b"FOREST-CLASSIFIER 1 sha256=0\n" + buffer.getvalue())
    return path


def test_training_sites_come_from_the_page_ids_in_the_model_header(tmp_path: Path) -> None:
    with gzip.open(tmp_path / "trainset.jsonl.gz", "wt", encoding="utf-8") as out:
        for sample in _samples(["a.example", "b.example"], pages=2):
            out.write(json.dumps({"id": sample.id, "dataset": "trainset", "site": sample.site, "url": sample.url,
                                  "html": sample.html, "gold_text": sample.gold_text}) + "\n")  # fmt: skip
    header = {"training": {"datasets": ["trainset", "gone"], "page_ids": ["tiny/b.example/1"]}}
    found = seen.classifier_training_sites(_model_file(tmp_path / "m.fcm", header), tmp_path)
    assert found.sites == {"b.example"} and found.datasets == ("trainset",) and found.missing == ("gone",)
    assert "gone are not here" in (seen.describe([], 0, found) or "")
    unknown = seen.classifier_training_sites(_model_file(tmp_path / "n.fcm", {"training": {}}), tmp_path)
    assert not unknown.known and "lists no training pages" in (seen.describe([], 0, unknown) or "")


def test_the_shipped_models_say_which_pages_trained_them() -> None:
    folder = Path(seen.__file__).parent.parent / "forest" / "classifier"
    article, modern = (seen._header(folder / name)["training"] for name in ("default_model.fcm", "modern_model.fcm"))
    assert len(article["page_ids"]) > 100 and article["datasets"]
    assert set(article["page_ids"]) < set(modern["page_ids"]) and "wcxb_dev" in modern["datasets"]


def test_no_page_of_a_site_either_shipped_model_trained_on_is_scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import forest.classifier

    with gzip.open(tmp_path / "trainset.jsonl.gz", "wt", encoding="utf-8") as out:
        for sample in _samples(["a.example", "b.example", "c.example"], pages=1):
            out.write(json.dumps({"id": sample.id, "dataset": "trainset", "site": sample.site, "url": sample.url,
                                  "html": sample.html, "gold_text": sample.gold_text}) + "\n")  # fmt: skip
    article = _model_file(tmp_path / "a.fcm", {"training": {"datasets": ["trainset"], "page_ids": ["tiny/a.example/0"]}})
    modern = _model_file(tmp_path / "m.fcm", {"training": {"datasets": ["trainset"], "page_ids": ["tiny/b.example/0"]}})
    monkeypatch.setattr(forest.classifier, "DEFAULT_MODEL", article)
    monkeypatch.setattr(forest.classifier, "MODERN_MODEL", modern)
    found = seen.classifier_training_sites(None, tmp_path)
    assert found.sites == {"a.example", "b.example"} and found.datasets == ("trainset",)
    # One model whose header lists no training pages: nothing can be checked, and the report says so.
    monkeypatch.setattr(forest.classifier, "MODERN_MODEL", _model_file(tmp_path / "n.fcm", {"training": {}}))
    seen.classifier_training_sites.cache_clear()  # its key names no model: the shipped ones are read
    assert not seen.classifier_training_sites(None, tmp_path).known
    seen.classifier_training_sites.cache_clear()


def test_batchbench_scores_only_pages_of_sites_the_classifier_never_saw() -> None:
    pairs = list(dataset_pages(_samples(["a.example", "b.example"], pages=2)))
    gold, dropped = batchbench.scored_gold(pairs, seen.Seen(frozenset({"a.example"}), ("dragnet",)))
    assert dropped == ["a.example"] and sorted(gold) == ["http://b.example/0", "http://b.example/1"]


def test_spearman_ranks_with_ties() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # Ranks (1.5, 1.5, 3, 4) and (1, 2, 3, 4): Pearson of the ranks is 0.9487 (by hand: 4.5 / sqrt(4.5 * 5)).
    assert spearman([0.3, 0.3, 0.5, 0.9], [0.1, 0.2, 0.6, 0.7]) == pytest.approx(4.5 / (4.5 * 5) ** 0.5)
    assert spearman([0.5, 0.5, 0.5], [0.1, 0.2, 0.3]) is None and spearman([1, 2], [1, 2]) is None


def _rows(system: str, f1s: Sequence[float], confidences: Sequence[float | None] | None = None) -> list[Row]:
    confidences = confidences or [None] * len(f1s)
    return [Row(system, "tiny", f"s{i % 2}", f"p{i}", f1, f1, f1, 1.0, confidence=c) for i, (f1, c) in enumerate(zip(f1s, confidences))]


def _run_of(rows: list[Row], seed: int = 0) -> suite.DatasetResult:
    systems = tuple(dict.fromkeys(row.system for row in rows))
    results = Results(systems, tuple(rows), (), (), 5, seed)
    return suite.DatasetResult("tiny", "site-level", "", 8, results, split="test", split_sites=2, total_sites=6)


def test_the_summary_line_compares_forest_with_cold_and_the_best_peer() -> None:
    rows = (
        _rows("forest", [0.9, 1.0, 0.95, 0.95], [0.2, 0.9, 0.5, 0.6])
        + _rows("cold", [0.9, 0.9, 0.9, 0.9])
        + _rows("trafilatura", [0.8, 0.9, 0.9, 0.9])
        + _rows("readability", [0.7, 0.7, 0.7, 0.7])
    )
    found = report.verdict(_run_of(rows))
    assert found is not None and found.cold is not None and found.peer is not None and found.peer.system == "trafilatura"
    assert found.line() == (
        "forest 0.950 vs cold 0.900 (+0.050) vs best peer trafilatura 0.875 (+0.075): F1 mean over 4 pages, test split, seed 0"
    )
    rho, pages = report.confidence_spearman(rows[:4])
    assert pages == 4 and rho == pytest.approx(spearman([0.2, 0.9, 0.5, 0.6], [0.9, 1.0, 0.95, 0.95]))


def test_the_evaluation_page_has_the_cold_column_and_the_worst_seed() -> None:
    runs = (
        _run_of(_rows("forest", [0.9, 1.0]) + _rows("cold", [0.9, 0.9]) + _rows("trafilatura", [0.8, 0.8]), seed=0),
        _run_of(_rows("forest", [0.8, 0.8]) + _rows("cold", [0.9, 0.9]) + _rows("trafilatura", [0.8, 0.9]), seed=1),
    )
    page = report.suite_markdown(suite.Suite("forest eval --seed 0 --seed 1", {"date": "today"}, runs))
    header, body = report._summary_table(suite.Suite("", {}, runs))
    assert header[3:6] == ["forest", "cold", "forest - cold (worst seed)"]
    # forest 0.95 and 0.80, cold 0.90 at both seeds: mean margin -0.025, the worst seed's -0.100.
    assert body == [["tiny", "2", "2", "0.875", "0.900", "-0.025 (-0.100)", "trafilatura 0.825", "+0.050 (-0.050)", "-"]]
    assert "| tiny | 2 | 2 | 0.875 | 0.900 | -0.025 (-0.100) |" in page and "seeds 0, 1 pooled" in page


def test_page_level_systems_are_extracted_once_across_seeds() -> None:
    class Counting:
        name, site_level, calls = "counting", False, 0

        def fit(self, pages: Sequence[Page]) -> None:
            pass

        def extract(self, page: Page) -> str:
            Counting.calls += 1
            return "the harbour"

    sites = {"a.example": _samples(["a.example"], pages=6)}
    cache: dict[tuple[str, str], Row] = {}
    first, second = run([Counting()], sites, k=2, seed=0, cache=cache), run([Counting()], sites, k=2, seed=1, cache=cache)
    tested = {r.page for r in first.rows} | {r.page for r in second.rows}
    assert Counting.calls == len(tested) < len(first.rows) + len(second.rows)
    assert {r.page for r in second.rows} == {s.id for s in sites["a.example"]} - set(dict(second.splits)["a.example"])


def test_the_site_mean_reference_ranks_each_page_by_its_sites_other_pages() -> None:
    # Site s0 holds pages p0, p2, p4 (F1 0.9, 0.5, 0.7); s1 holds p1, p3 (1.0, 0.8).  Each page's reference
    # is the mean of its site's other pages: p0 0.6, p2 0.8, p4 0.7, p1 0.8, p3 1.0.
    rows = _rows("forest", [0.9, 1.0, 0.5, 0.8, 0.7])
    rho, pages = report.site_mean_spearman([rows])
    assert pages == 5 and rho == pytest.approx(spearman([0.6, 0.8, 0.8, 1.0, 0.7], [0.9, 1.0, 0.5, 0.8, 0.7]))
    # Two runs are pooled page by page, each page against its own run's site means; a lone page has no reference.
    lone = [Row("forest", "tiny", "alone", "q0", 0.4, 0.4, 0.4, 1.0)]
    assert report.site_mean_spearman([rows, lone])[1] == 5
    line = report._confidence_line([_run_of(_rows("forest", [0.9, 1.0, 0.5, 0.8, 0.7], [0.1, 0.2, 0.3, 0.4, 0.5]))], "tiny")
    assert line is not None and line.endswith(f"site's other pages: {rho:.2f})")
