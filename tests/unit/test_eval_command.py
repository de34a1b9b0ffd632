"""`forest eval` and `forest bench` end to end on a tiny dataset written in the test, plus the suite's pieces."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from eval import bench, datasets, suite, wrappers
from forest.cli import cli

SYSTEMS = "forest,FOREST_info,fulltext,description"
TOPICS = [
    ("harbour", "council", "bridge", "budget"),
    ("orchard", "farmers", "apples", "harvest"),
    ("library", "archive", "manuscripts", "readers"),
    ("stadium", "league", "striker", "season"),
]


def _record(site: str, i: int) -> dict[str, object]:
    a, b, c, d = TOPICS[i % len(TOPICS)]
    title = f"The {a} {b} report {i}"
    body = [
        f"The {a} {b} met on Monday to discuss the {c} and the {d} for next year.",
        f"Officials said the {c} work would take months and the {d} plan passed easily.",
    ]
    html = (
        f"<html><head><title>{title}</title></head><body><ul id='menu'><li><a href='/'>Home</a></li>"
        f"<li><a href='/world'>World</a></li></ul><div class='post'><h2>{title}</h2>"
        + "".join(f"<p>{p}</p>" for p in body)
        + f"</div><p class='legal'>{site} terms of use and privacy policy</p></body></html>"
    )
    return {
        "id": f"tiny/{site}/{i}", "dataset": "tiny", "site": site, "url": f"http://{site}/{i}", "html": html,
        "gold_text": "\n".join([title, *body]), "gold_title": title, "feed": None, "meta": {"gold_token_coverage": 1.0},
    }


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """Two sites of four pages, one template each."""
    path = tmp_path / "tiny.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for site in ("a.example", "b.example"):
            for i in range(4):
                out.write(json.dumps(_record(site, i)) + "\n")
    return path


def invoke(*args: object) -> Result:
    return CliRunner().invoke(cli, ["eval", *map(str, args)])


def test_eval_prints_json_for_machines(tiny: Path) -> None:
    result = invoke("--dataset", tiny, "--min-pages", 3, "--k", 2, "--systems", SYSTEMS, "--split", "all", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (run,) = data["datasets"]
    assert run["name"] == "tiny" and run["mode"] == "site-level" and len(run["sha256"]) == 64
    assert data["split"] == run["split"] == "all" and run["split_sites"] == run["total_sites"] == 2
    systems = {s["system"]: s for s in run["results"]["systems"]}
    # forest's cold path runs beside the learners, on the same pages, whichever systems were chosen.
    assert list(systems) == ["forest", "FOREST_info", "cold", "fulltext", "description"]
    assert systems["cold"]["pages"] == systems["forest"]["pages"] and systems["cold"]["fit_ms_median"] is None
    assert systems["forest"]["pages"] == 4 and systems["forest"]["fit_ms_median"] is not None
    assert systems["forest"]["f1"] > systems["fulltext"]["f1"]
    assert run["methods"]["forest"] == {"wrapper": 4}
    assert run["results"]["floor_ms"]["pages"] == 4
    assert data["peak_memory_mb"] > 0 and data["environment"]["commit"]


def test_eval_prints_a_table_and_writes_markdown(tiny: Path, tmp_path: Path) -> None:
    page = tmp_path / "out" / "results.md"
    result = invoke(
        "--dataset", tiny, "--min-pages", 3, "--k", 2, "--systems", SYSTEMS, "--split", "all", "--curve", "--markdown", page
    )
    assert result.exit_code == 0, result.output
    assert "lxml parse (floor)" in result.stdout and "learn ms" in result.stdout and "peak memory" in result.stdout
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# forest: evaluation\n")
    command = text.split("```sh\n", 1)[1].split("\n", 1)[0]
    assert command == f"forest eval --dataset {tiny} --systems {SYSTEMS} --split all --k 2 --min-pages 3 --curve --markdown {page}"
    # The docs' runner skips the block: it says why, on the line before it.
    assert text.split("```sh\n", 1)[0].rstrip().splitlines()[-1].startswith("<!-- not-run: ")
    assert "Learning curve" in text and "| forest | " in text and "| cold | " in text and "sha256" in text
    assert "## Protocol" in text and "below 86" in text and "**all** split" in text
    assert f"wrote {page}" in result.stderr


def test_curve_covers_every_k_a_site_allows(tiny: Path) -> None:
    result = invoke("--dataset", tiny, "--min-pages", 3, "--k", 2, "--systems", "forest,fulltext", "--split", "all", "--curve", "--json")
    curve = json.loads(result.stdout)["datasets"][0]["curve"]
    assert sorted({p["k"] for p in curve}) == [1, 2, 3]  # 4 pages per site: k=5 and k=10 leave nothing to test
    assert {p["system"] for p in curve} == {"forest"}


def test_page_level_runs_forest_without_a_wrapper(tiny: Path) -> None:
    result = invoke("--page-level", "--dataset", tiny, "--systems", "forest,ABSPATHS,fulltext", "--json")
    assert result.exit_code == 0, result.output
    run = json.loads(result.stdout)["datasets"][0]
    assert run["mode"] == "page-level"
    assert {s["system"] for s in run["results"]["systems"]} == {"forest (no wrapper)", "FOREST (page alone)", "fulltext"}
    # As shipped, a page of an unlearned site goes to the classifier; FOREST alone reads the page by J x U.
    assert set(run["methods"]["forest (no wrapper)"]) <= {"classifier", "page", "none"}
    assert set(run["methods"]["FOREST (page alone)"]) <= {"page", "none"}
    assert any("single-page fallback" in note for note in run["notes"])


def test_unknown_dataset_is_a_one_line_error(tmp_path: Path) -> None:
    result = invoke("--dataset", tmp_path / "missing.jsonl.gz")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no dataset") and result.stderr.count("\n") == 1


def test_unknown_system_is_a_one_line_error(tiny: Path) -> None:
    result = invoke("--dataset", tiny, "--systems", "forest,nope")
    assert result.exit_code == 1 and result.stderr.startswith("error: unknown system 'nope'")


def test_systems_accept_groups_and_any_case() -> None:
    chosen = suite.select_systems("FOREST,baselines")
    assert chosen.variants == ("forest",) and chosen.baselines == ("fulltext", "description", "cetr", "classifier", "web2text")
    assert chosen.peers == () and chosen.notes == ()
    everything = suite.select_systems(None)
    assert len(everything.variants) == 8 and set(everything.peers) <= set(suite.peers.peer_names())


def test_eval_help_comes_from_the_real_command() -> None:
    result = CliRunner().invoke(cli, ["eval", "--help"])
    assert result.exit_code == 0 and "--page-level-dataset" in result.stdout and "--curve" in result.stdout


def test_bench_times_extraction_against_the_parse(tiny: Path) -> None:
    result = CliRunner().invoke(cli, ["bench", "--dataset", str(tiny), "--k", "2", "--repeat", "1", "--peer", "", "--json"])
    assert result.exit_code == 0, result.output
    (data,) = json.loads(result.stdout)
    assert data["all_pages"]["pages"] == 4 and data["all_pages"]["ratio_of_medians"] > 0
    assert data["methods"] == {"wrapper": 4} and data["learn_sites"] == 0


def test_bench_learns_sites_with_ten_pages() -> None:
    samples = [
        datasets.Sample(id=str(r["id"]), dataset="tiny", site=str(r["site"]), url=str(r["url"]), html=str(r["html"]), gold_text="")
        for r in (_record("a.example", i) for i in range(10))
    ]
    result = bench.run_bench("tiny", {"a.example": samples}, k=5, repeat=1)
    summary = bench.summary(result)
    assert summary["learn_sites"] == 1 and summary["learn_failures"] == 0
    assert 0 < summary["learn_wall_s_median"] < 5 and "learning from 10 pages" in bench.text(result)


def test_bench_pools_learning_over_every_dataset() -> None:
    def timed(name: str, *walls: float) -> bench.Bench:
        learns = tuple(bench.LearnTiming(f"{name}{i}", 10, wall, wall / 2, None) for i, wall in enumerate(walls))
        return bench.Bench(name, 5, 1, (), (), learns, ())

    # Medians 0.9 and 0.35 per dataset; over the five sites, 0.4 (CPU: half of each).
    line = bench.pooled_learning([timed("a", 0.2, 0.9, 1.0), timed("b", 0.3, 0.4)])
    assert "all 2 datasets, 5 sites: wall median 0.400 s, CPU median 0.200 s; 0 failed" in line
    assert "no site" in bench.pooled_learning([timed("c")])


def test_wrapper_digest_moves_with_the_wrappers_alone(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, again = wrappers.digest(str(tiny), 2), wrappers.digest(str(tiny), 2)
    assert sorted(first.sites) == ["a.example", "b.example"] and first.refused == 0
    assert first.sha256 == again.sha256  # the learning time is not in it
    other = wrappers.digest(str(tiny), 3)  # other training pages: other samples in the wrappers
    assert other.sites["a.example"] != first.sites["a.example"] and other.sha256 != first.sha256
    assert wrappers.main(["--dataset", str(tiny), "--k", "2", "--sites"]) == 0
    out = capsys.readouterr().out
    assert f"wrappers {first.sha256[:16]}" in out and f"a.example {first.sites['a.example'][:16]}" in out


@pytest.mark.datasets
def test_eval_runs_on_a_shared_dataset() -> None:
    if "cleanportaleval" not in datasets.available():
        pytest.skip("../shared/datasets is not here")
    # cleanportaleval's four sites with enough pages are all dev sites.
    result = invoke("--dataset", "cleanportaleval", "--systems", "forest,fulltext", "--split", "dev", "--json")
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.stdout)["datasets"]
    assert run["split"] == "dev" and run["split_sites"] == 4 and run["seen_sites"] == []
    systems = {s["system"]: s for s in run["results"]["systems"]}
    assert systems["forest"]["pages"] == systems["fulltext"]["pages"] > 40
    assert systems["forest"]["f1"] > systems["fulltext"]["f1"]


def test_block_table_joins_the_results_page(tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The real grid cross-validates 240 models (about an hour); its layout is what is checked here.
    from eval.classifier import report as classifier_report

    cells = [
        classifier_report.Cell("cleaneval", unit, model, features, f1, None, 0.1)
        for unit, model, features, f1 in [
            ("blocks", "logreg", "node", 0.5), ("blocks", "gbt", "node", 0.75), ("blocks", "gbt", "tokens", 0.875),
            ("tags", "gbt", "node", 0.25),
        ]
    ]
    calls = []
    monkeypatch.setattr(classifier_report, "table", lambda **kwargs: calls.append(kwargs) or cells)
    page = tmp_path / "results.md"
    result = invoke(
        "--dataset", tiny, "--min-pages", 3, "--k", 2, "--systems", "fulltext", "--split", "all", "--block-table", "--markdown", page
    )
    assert result.exit_code == 0, result.output
    assert len(calls) == 1
    text = page.read_text(encoding="utf-8")
    assert "--block-table" in text.split("```sh\n", 1)[1].split("\n", 1)[0]
    section = text.split("## Block classifier", 1)[1]
    assert "| cleaneval (blocks) | node | 50.0 |  | 75.0 |  |" in section
    assert "| cleaneval (blocks) | +class/id tokens |  |  | 87.5 |  |" in section
    assert "| cleaneval (tags) | node |  |  | 25.0 |  |" in section
    assert "block classifier: models x feature sets" in result.stdout


@pytest.fixture
def split_tiny(tmp_path: Path) -> Path:
    """Three sites of four pages: c.example is a test site of "tiny", a.example and b.example are dev sites."""
    path = tmp_path / "tiny.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for site in ("a.example", "b.example", "c.example"):
            for i in range(4):
                out.write(json.dumps(_record(site, i)) + "\n")
    return path


def test_eval_scores_the_test_split_by_default_and_dev_on_request(split_tiny: Path) -> None:
    common = ("--dataset", split_tiny, "--min-pages", 3, "--k", 2, "--systems", "forest", "--json")
    default = json.loads(invoke(*common).stdout)["datasets"][0]
    assert default["split"] == "test" and set(default["results"]["per_site"]["forest"]) == {"c.example"}
    dev = json.loads(invoke(*common, "--split", "dev").stdout)["datasets"][0]
    assert dev["split"] == "dev" and set(dev["results"]["per_site"]["forest"]) == {"a.example", "b.example"}


def test_eval_runs_every_seed_and_says_the_split_on_every_figure(split_tiny: Path) -> None:
    result = invoke("--dataset", split_tiny, "--min-pages", 3, "--k", 2, "--systems", "forest", "--seed", 0, "--seed", 2)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("test split: 1 of 3 sites with enough pages, 1 scored") == 2
    assert "seed 0, test split" in result.stdout and "seed 2, test split" in result.stdout
    # The summary line compares forest with its cold path; no peer was chosen.
    assert re.search(r"forest \d\.\d{3} vs cold \d\.\d{3} \([+-]\d\.\d{3}\): F1 mean over 2 pages, test split, seed 2", result.stdout)
    assert "confidence vs page F1 (Spearman), tiny, seed 0: forest" in result.stdout


def test_eval_names_the_best_peer_in_the_summary_line(split_tiny: Path) -> None:
    pytest.importorskip("trafilatura")
    result = invoke("--dataset", split_tiny, "--min-pages", 3, "--k", 2, "--systems", "forest,trafilatura", "--split", "all")
    assert result.exit_code == 0, result.output
    assert re.search(r"forest \d\.\d{3} vs cold \d\.\d{3} \([+-]\d\.\d{3}\) vs best peer trafilatura \d\.\d{3}", result.stdout)
