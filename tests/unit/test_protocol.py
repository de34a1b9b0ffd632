"""The site-level protocol (splits, no leakage, failures, timing), the baselines it runs, peers and reports."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence

import pytest

from eval import peers, protocol, report
from eval.datasets import Sample
from eval.protocol import run, run_pages, split
from eval.systems import Description, FullText, System
from forest.model import Page
from keywords.model import Metadata


def _sample(site: str, i: int, gold: str | None = None) -> Sample:
    words = f"story {i} of {site}"
    return Sample(
        id=f"t/{site}/{i}",
        dataset="t",
        site=site,
        url=f"http://{site}/{i}",
        html=f"<html><body><div>menu</div><p>{words}</p></body></html>",
        gold_text=gold if gold is not None else words,
    )


def _sites(sizes: dict[str, int]) -> dict[str, list[Sample]]:
    return {site: [_sample(site, i) for i in range(n)] for site, n in sizes.items()}


class Recorder:
    """A site-level system that remembers what it learned from and flags any training page it is asked to extract."""

    name = "recorder"
    site_level = True

    def __init__(self) -> None:
        self.fitted: set[str | None] = set()
        self.fit_calls: list[list[str | None]] = []
        self.extracted: list[str | None] = []
        self.leaks: list[str | None] = []

    def fit(self, pages: Sequence[Page]) -> None:
        self.fitted = {page.url for page in pages}
        self.fit_calls.append([page.url for page in pages])

    def extract(self, page: Page) -> str:
        self.extracted.append(page.url)
        if page.url in self.fitted:
            self.leaks.append(page.url)
        return FullText().extract(page)


class Failing:
    """Raises in extract on pages whose URL ends in /1, and in fit when told to."""

    site_level = True

    def __init__(self, name: str = "failing", fail_fit_on: str | None = None) -> None:
        self.name = name
        self.fail_fit_on = fail_fit_on

    def fit(self, pages: Sequence[Page]) -> None:
        if pages and pages[0].site == self.fail_fit_on:
            raise RuntimeError("cannot learn")

    def extract(self, page: Page) -> str:
        if page.url and page.url.endswith("/1"):
            raise ValueError("boom")
        return "story"


class NoFit:
    """A page-level system whose fit must never run."""

    name = "nofit"
    site_level = False

    def fit(self, pages: Sequence[Page]) -> None:
        raise AssertionError("fit called on a page-level system")

    def extract(self, page: Page) -> str:
        return FullText().extract(page)


def test_the_fake_systems_satisfy_the_protocol() -> None:
    for system in (Recorder(), Failing(), NoFit(), FullText(), Description()):
        assert isinstance(system, System)


def test_training_pages_are_never_extracted_or_scored() -> None:
    sites = _sites({"a.example": 7, "b.example": 4, "c.example": 2})
    recorder = Recorder()
    results = run([recorder], sites, k=3, seed=1)
    assert recorder.leaks == []
    assert results.skipped_sites == ("c.example",)
    assert [len(call) for call in recorder.fit_calls] == [3, 3]
    train = {page_id for _, ids in results.splits for page_id in ids}
    scored = {row.page for row in results.rows}
    assert train.isdisjoint(scored)
    assert len(scored) == (7 - 3) + (4 - 3)
    assert scored | train == {s.id for site in ("a.example", "b.example") for s in sites[site]}
    assert len(recorder.extracted) == len(scored)


def test_the_leak_check_would_catch_a_leaking_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sanity check of the test above: if the protocol also scored training pages, the recorder would say so.
    def leaky(samples: Sequence[Sample], k: int, *, seed: int, site: str) -> tuple[list[Sample], list[Sample]]:
        return list(samples[:k]), list(samples)

    monkeypatch.setattr(protocol, "split", leaky)
    recorder = Recorder()
    run([recorder], _sites({"a.example": 5}), k=2)
    assert len(recorder.leaks) == 2


def test_a_site_split_does_not_depend_on_other_sites_or_runs() -> None:
    pages = _sites({"a.example": 20})["a.example"]
    first, _ = split(pages, 5, seed=0, site="a.example")
    again, _ = split(list(pages), 5, seed=0, site="a.example")
    assert [s.id for s in first] == [s.id for s in again]
    alone = run([FullText()], _sites({"a.example": 20}), k=5).splits
    together = run([FullText()], _sites({"a.example": 20, "b.example": 9}), k=5).splits
    assert dict(together)["a.example"] == dict(alone)["a.example"]
    assert dict(alone) != dict(run([FullText()], _sites({"a.example": 20}), k=5, seed=1).splits)


def test_all_systems_are_scored_on_the_same_pages() -> None:
    results = run([FullText(), Recorder(), Description()], _sites({"a.example": 6}), k=2)
    pages = [{row.page for row in results.rows_of(name)} for name in results.systems]
    assert pages[0] == pages[1] == pages[2] and len(pages[0]) == 4


def test_an_adapter_that_raises_is_a_failure_not_a_crash() -> None:
    results = run([Failing(), FullText()], _sites({"a.example": 4, "b.example": 4}), k=1, seed=0)
    failed = [row for row in results.rows if row.error is not None]
    tested = {row.page for row in results.rows}
    expected = {p for p in tested if p.endswith("/1")}
    assert {row.page for row in failed} == expected
    assert all(row.system == "failing" and row.error == "ValueError: boom" for row in failed)
    assert all((row.p, row.r, row.f1) == (0.0, 0.0, 0.0) for row in failed)
    assert results.summary("failing").failures == len(expected)
    assert results.summary("fulltext").failures == 0


def test_a_fit_that_raises_fails_that_sites_pages_only() -> None:
    results = run([Failing(fail_fit_on="a.example")], _sites({"a.example": 3, "b.example": 3}), k=1)
    a_rows = [row for row in results.rows if row.site == "a.example"]
    assert a_rows and all(row.error == "fit: RuntimeError: cannot learn" and row.ms is None for row in a_rows)
    assert any(row.error is None for row in results.rows if row.site == "b.example")
    assert results.fit_ms("failing").keys() == {"a.example", "b.example"}


def test_page_level_systems_are_not_fit() -> None:
    results = run([NoFit()], _sites({"a.example": 3}), k=1)
    assert results.summary("nofit").failures == 0
    assert results.fits == ()


def test_timings_and_the_parse_floor_are_recorded() -> None:
    results = run([FullText()], _sites({"a.example": 5, "b.example": 4}), k=2)
    assert all(row.ms is not None and row.ms >= 0 for row in results.rows)
    assert len(results.floor) == len(results.rows) == 5
    summary = results.summary("fulltext")
    assert summary.ms_median is not None and summary.ms_p95 is not None and summary.ms_median <= summary.ms_p95
    assert summary.r == pytest.approx(1.0) and summary.p < 1.0  # full text also has "menu"
    assert results.floor_ms()[0] is not None


def test_run_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="k must be"):
        run([FullText()], _sites({"a.example": 3}), k=0)
    with pytest.raises(ValueError, match="unique"):
        run([FullText(), FullText()], _sites({"a.example": 3}), k=1)
    with pytest.raises(ValueError, match="no results"):
        run([FullText()], _sites({"a.example": 3}), k=1).summary("other")


def test_run_pages_scores_every_page_without_fitting() -> None:
    samples = [s for pages in _sites({"a.example": 2, "b.example": 1}).values() for s in pages]
    recorder = Recorder()
    results = run_pages([recorder, FullText()], samples)
    assert recorder.fit_calls == [] and results.k is None
    assert len(results.rows) == 6 and len(results.floor) == 3


def test_progress_goes_to_stderr_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    run([FullText()], _sites({"a.example": 3}), k=1, progress=True)
    assert "2/2 pages" in capsys.readouterr().err
    run([FullText()], _sites({"a.example": 3}), k=1)  # captured stderr is not a terminal
    assert capsys.readouterr().err == ""


def test_progress_meter_is_quiet_on_a_pipe() -> None:
    stream = io.StringIO()
    meter = protocol._Progress(3, None, stream)
    meter.step("x")
    meter.close()
    assert stream.getvalue() == ""


def test_reports_render_every_system() -> None:
    results = run([FullText(), Failing(), Description()], _sites({"a.example": 4, "b.example": 3, "c": 1}), k=2)
    table = report.text(results, per_site=True)
    assert "fulltext" in table and "failing" in table and "lxml parse (floor)" in table and "b.example" in table
    assert "k=2" in table and "1 site skipped" in table
    md = report.markdown(results, per_site=True)
    assert md.startswith("_site-level, k=2") and "| fulltext | 0.833 | 1.000 |" in md and "|---|---:|" in md
    data = report.to_dict(results, rows=True)
    json.dumps(data)
    assert [s["system"] for s in data["systems"]] == ["fulltext", "failing", "description"]
    assert data["failures"] and len(data["rows"]) == len(results.rows)


# The baselines.

ARTICLE = """<html><head><title>T</title>
<meta property="og:description" content="Teaser  of the story.">
<meta name="Description" content="Other teaser."></head>
<body><div>Menu</div><script>var x = 1;</script><p>First <b>bold</b> paragraph.</p><ul><li>One</li><li>Two</li></ul>
Tail text</body></html>"""


def test_fulltext_is_all_visible_body_text_one_block_per_line() -> None:
    assert FullText().extract(Page(html=ARTICLE)) == "Menu\nFirst bold paragraph.\nOne\nTwo\nTail text"


@pytest.mark.parametrize(
    ("html", "meta", "expected"),
    [
        (ARTICLE, None, "Teaser of the story."),
        (ARTICLE.replace('property="og:description"', 'property="og:title"'), None, "Other teaser."),
        (ARTICLE, Metadata(summary="<p>Feed <i>summary</i></p>"), "Feed summary"),
        (ARTICLE, Metadata(summary="   "), "Teaser of the story."),
        ("<html><body><p>No description</p></body></html>", None, ""),
    ],
    ids=["og-description", "meta-description-any-case", "feed-summary-wins", "blank-summary-ignored", "none"],
)
def test_description(html: str, meta: Metadata | None, expected: str) -> None:
    assert Description().extract(Page(html=html, meta=meta)) == expected


# Peers.


def test_peers_are_partitioned_into_available_and_missing() -> None:
    available = [p.name for p in peers.available_peers()]
    assert sorted(available + peers.missing_peers()) == sorted(peers.peer_names())
    with pytest.raises(ValueError, match="known: trafilatura"):
        peers.peer("nope")


@pytest.mark.parametrize("name", ["trafilatura", "readability", "boilerpipe", "justext"])
def test_installed_peer_extracts_an_article(name: str) -> None:
    if name in peers.missing_peers():
        pytest.skip(f"{name} is not installed")
    sentence = "The harbour council approved the budget for the bridge repairs after a long debate. "
    html = (
        '<html lang="en"><head><title>Budget</title></head><body><nav><a href="/">Home</a></nav>'
        + "".join(f"<p>{sentence * 3}</p>" for _ in range(5))
        + "<footer>Contact us</footer></body></html>"
    )
    text = peers.peer(name).extract(Page(html=html, url="http://news.example/a"))
    assert "harbour council" in text


def test_language_detection() -> None:
    assert peers.detect_language('<html lang="de-DE"><body></body></html>') == "de"
    assert peers.detect_language('<meta http-equiv="content-language" content="fr">') == "fr"
    assert peers.detect_language("<html><body></body></html>") is None


def test_a_bare_wrapped_error_reports_its_cause() -> None:
    class Wrapping(Failing):
        def extract(self, page: Page) -> str:
            try:
                raise KeyError("missing node")
            except KeyError as exc:
                raise RuntimeError() from exc

    results = run([Wrapping()], _sites({"a.example": 2}), k=1)
    assert results.rows[0].error == "RuntimeError (from KeyError: 'missing node')"
