"""eval.learnbench: learning a site from files, timed against lxml's parse of them (issue 44's second criterion)."""

from __future__ import annotations

import pytest
from failure_sites import live_blog

from eval.datasets import Sample
from eval.learnbench import LearnTiming, summary, time_site
from eval.protocol import learn_files
from forest.config import Settings


def _samples(n: int = 5) -> list[Sample]:
    site = live_blog()
    return [Sample(id=f"p{i}", dataset="hand", site=site.name, url=None, html=page.html, gold_text=page.gold)
            for i, page in enumerate(site.pages[:n])]


def test_learn_files_learns_a_site_from_its_files_as_the_cli_does() -> None:
    samples = _samples()
    assert learn_files([(s.id, s.html.encode()) for s in samples], samples[0].site, Settings()) is not None


def test_learn_files_says_when_nothing_is_learned() -> None:
    empty = [("a.html", b"<html><body><p>1 2 3</p></body></html>"), ("b.html", b"<html><body></body></html>")]
    assert learn_files(empty, "example.org", Settings()) is None


def test_time_site_times_learning_and_the_parse_of_the_same_pages() -> None:
    samples = _samples()
    timing = time_site("hand", samples[0].site, samples, repeat=1)
    assert timing.learned and timing.pages == 5
    assert timing.learn_ms > timing.parse_ms > 0
    assert timing.ratio == pytest.approx(timing.learn_ms / timing.parse_ms)


def test_summary_gives_the_median_of_the_sites_ratios() -> None:
    timings = [LearnTiming("d", s, 5, learn, 1.0, True) for s, learn in (("a", 10.0), ("b", 30.0), ("c", 20.0))]
    assert "median of ratios 20.00x" in summary("d dev", timings)
    assert summary("d dev", []) == "d dev: no site timed"
