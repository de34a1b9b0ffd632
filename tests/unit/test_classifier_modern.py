"""eval.classifier.train's modern pages and eval.classifier.modern's table: which pages may train, how results print."""

from __future__ import annotations

import pytest

from eval.classifier.modern import PageResult, table
from eval.classifier.train import MODERN_EXCLUDED_DATASETS, Exclusions, modern_exclusions, site_key
from eval.datasets import Sample


def sample(site: str, url: str | None = None, dataset: str = "wcxb_dev") -> Sample:
    return Sample(id=f"{dataset}/{site}/{url}", dataset=dataset, site=site, url=url, html="<html></html>", gold_text="x")


@pytest.mark.parametrize(
    ("site", "key"),
    [("cnn.com@2013", "cnn.com"), ("washingtonpost.com_blog1", "washingtonpost.com"), ("www.Example.org", "example.org")],
)
def test_site_key_names_the_domain(site: str, key: str) -> None:
    assert site_key(site) == key


def test_modern_exclusions_leave_out_every_evaluation_site_and_url() -> None:
    loaded: dict[str, list[Sample]] = {name: [] for name in MODERN_EXCLUDED_DATASETS}
    loaded["big9"] = [sample("cnn.com@2013", dataset="big9")]
    loaded["wceb2026"] = [sample("other.org", "https://shared.example/page", dataset="wceb2026")]
    modern = [sample("big.example") for _ in range(5)]
    rule = modern_exclusions(loaded, modern)
    assert rule.excludes(sample("www.cnn.com"))  # a site of big9, whatever its year
    assert rule.excludes(sample("shared.example", "https://shared.example/page"))  # a URL of wceb2026
    assert rule.excludes(sample("big.example"))  # site-level material: 5 pages in the dataset
    assert not rule.excludes(sample("shared.example", "https://shared.example/other"))
    assert not Exclusions(frozenset(), frozenset()).excludes(sample("cnn.com"))


def test_table_prints_each_page_type_and_all_pages() -> None:
    results = {
        "cv": [PageResult("a", "article", 1.0, 0.010), PageResult("b", "forum", 0.5, 0.030)],
        "trafilatura": [PageResult("a", "article", 0.5, 0.020), PageResult("b", "forum", 0.5, 0.040)],
    }
    lines = table(results).splitlines()
    assert lines[0] == "| page type | pages | cv F1 | cv ms | trafilatura F1 | trafilatura ms |"
    assert "| article | 1 | 1.000 | 10.0 | 0.500 | 20.0 |" in lines
    assert lines[-1] == "| all | 2 | 0.750 | 20.0 | 0.500 | 30.0 |"
