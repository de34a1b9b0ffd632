"""Learning a site from its feed over real HTTP (127.0.0.1), extracting by URL, drift, and the CLI's URL paths."""

from __future__ import annotations

import json
import logging
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from conftest import BAD_ITEMS, BILLION_LAUGHS
from synthetic_site import Article, Server, serve, static

from forest.cli import cli
from forest.config import Settings
from forest.demo import token_f1
from forest.errors import FeedError
from forest.net.feed import parse_feed
from forest.service.feeds import extract_url, learn_feed
from forest.site import site_of
from forest.storage import WrapperStore


@pytest.fixture
def store(db: Path) -> WrapperStore:
    with WrapperStore(db) as opened:
        yield opened  # type: ignore[misc]


def test_learning_uses_the_good_items_and_reports_the_bad_ones(
    gazette: Server, fast: Settings, store: WrapperStore, articles: list[Article]
) -> None:
    started = time.monotonic()
    wrapper, report = learn_feed(gazette.url("/feed.xml"), store=store, settings=fast)
    assert time.monotonic() - started < 10
    # Items 0-7 are good; 6 sits behind a redirect (used at its final URL) and 7 behind one 503 (retried).
    expected = [gazette.url(a.path) for a in articles[:7]] + [gazette.url("/flaky" + articles[7].path)]
    assert sorted(report.used) == sorted(expected)
    assert gazette.hits["/flaky" + articles[7].path] == 2
    reasons = dict(report.skipped)
    assert set(reasons) == {gazette.url(path) for path in BAD_ITEMS}
    for path, word in BAD_ITEMS.items():
        assert word in reasons[gazette.url(path)], reasons[gazette.url(path)]
    assert report.version == 1 and wrapper.site == site_of(gazette.base_url)
    assert wrapper.feed_url == gazette.url("/feed.xml")
    assert set(wrapper.fields) == {"title", "author", "date"}


def test_learning_stops_at_n_pages(gazette: Server, fast: Settings, store: WrapperStore) -> None:
    _, report = learn_feed(gazette.url("/feed.xml"), store=store, settings=replace(fast, n_pages=3))
    assert len(report.used) == 3


def test_learning_from_an_atom_feed(gazette: Server, fast: Settings, store: WrapperStore) -> None:
    _, report = learn_feed(gazette.url("/atom.xml"), store=store, settings=fast)
    assert len(report.used) == 6 and not report.skipped


def test_new_page_by_url_gives_the_article_and_the_feeds_title_author_and_date(
    gazette: Server, fast: Settings, store: WrapperStore, articles: list[Article]
) -> None:
    learn_feed(gazette.url("/feed.xml"), store=store, settings=fast)
    new = articles[8]  # in the Atom feed only: never a sample page
    item = next(i for i in parse_feed(httpx.get(gazette.url("/atom.xml")).content, gazette.url("/atom.xml")).items
                if i.link == gazette.url(new.path))
    article = extract_url(gazette.url(new.path), store=store, settings=fast)
    assert article.method == "wrapper"
    assert token_f1(article.text, new.text) >= 0.95
    assert (article.title, article.author, article.date) == (item.meta.title, item.meta.author, item.meta.published)
    assert store.sites()[0].pages_extracted == 1 and store.sites()[0].misses == 0


def test_extract_url_learns_a_new_site_through_its_feed(
    gazette: Server, fast: Settings, store: WrapperStore, articles: list[Article]
) -> None:
    article = extract_url(gazette.url(articles[9].path), store=store, settings=fast)
    assert article.method == "wrapper" and token_f1(article.text, articles[9].text) >= 0.95
    assert any(f"learned {site_of(gazette.base_url)} from " + gazette.url("/feed.xml") in note for note in article.notes)


def test_extract_url_without_learning_extracts_an_unknown_site_cold(
    gazette: Server, fast: Settings, store: WrapperStore, articles: list[Article]
) -> None:
    article = extract_url(gazette.url(articles[9].path), store=store, settings=fast, learn_if_missing=False)
    assert article.method == "classifier" and article.site == site_of(gazette.base_url) and article.pattern is None
    assert token_f1(article.text, articles[9].text) >= 0.8
    assert store.sites() == []


@pytest.mark.parametrize(
    ("path", "feed"),
    [
        ("/", "/feed.xml"),  # <link rel="alternate">
        ("/news/harbour-0.html", "/feed.xml"),
        ("/feeds/page.html", "/atom.xml"),  # no link: the first common path that is a feed
    ],
    ids=["home", "article", "html-feed"],
)
def test_a_page_url_leads_to_the_sites_feed(
    gazette: Server, fast: Settings, store: WrapperStore, path: str, feed: str
) -> None:
    _, report = learn_feed(gazette.url(path), store=store, settings=replace(fast, n_pages=3))
    assert report.feed_url == gazette.url(feed) and len(report.used) == 3


def test_an_html_page_with_no_feed_anywhere_is_refused(fast: Settings, store: WrapperStore) -> None:
    for server in serve({"/": static(b"<html><body><p>No feed here</p></body></html>")}):
        with pytest.raises(FeedError, match="not a feed, and no feed was found"):
            learn_feed(server.url("/"), store=store, settings=fast)
    assert store.sites() == []


def test_a_malformed_feed_with_entries_is_used_with_a_warning(
    gazette: Server, fast: Settings, store: WrapperStore, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="forest.net.feed"):
        _, report = learn_feed(gazette.url("/feeds/malformed.xml"), store=store, settings=fast)
    assert len(report.used) == 5
    assert any("malformed feed" in r.getMessage() for r in caplog.records)


def test_a_billion_laughs_feed_is_refused_quickly_in_little_memory(
    gazette: Server, fast: Settings, store: WrapperStore
) -> None:
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(FeedError, match="entities"):
            learn_feed(gazette.url("/feeds/bomb.xml"), store=store, settings=fast)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 5 and peak < 20_000_000
    assert len(BILLION_LAUGHS) < 2000


def test_repeated_misses_relearn_the_site_from_its_feed(
    gazette: Server, fast: Settings, store: WrapperStore, articles: list[Article]
) -> None:
    settings = replace(fast, relearn_after_misses=2)
    learn_feed(gazette.url("/feed.xml"), store=store, settings=replace(settings, n_pages=4))
    redesigned = b"<html><head><title>New look</title></head><body><section id='x'>" + b"".join(
        f"<span>{p}</span>".encode() for p in articles[9].paragraphs) + b"</section></body></html>"
    for server in serve({"/news/new-look.html": static(redesigned)}):
        # The redesigned page is served on another port, so another site: named, the stored wrapper applies.
        site = site_of(gazette.base_url)
        first = extract_url(server.url("/news/new-look.html"), store=store, settings=settings, site=site)
        second = extract_url(server.url("/news/new-look.html"), store=store, settings=settings, site=site)
    assert first.method != "wrapper" and not any("relearned" in n for n in first.notes)
    assert any("relearned it from " + gazette.url("/feed.xml") in n for n in second.notes)
    assert [version for version, _, _ in store.history(site)] == [1, 2]


def test_misses_counted_from_files_relearn_at_the_next_url(
    gazette: Server, fast: Settings, store: WrapperStore, articles: list[Article]
) -> None:
    settings = replace(fast, relearn_after_misses=5)
    learn_feed(gazette.url("/feed.xml"), store=store, settings=replace(settings, n_pages=4))
    site = site_of(gazette.base_url)
    store.record_extractions(site, pages=6, misses=6)  # a batch of saved pages missed six times: no feed fetched
    redesigned = b"<html><head><title>New look</title></head><body><section id='x'>" + b"".join(
        f"<span>{p}</span>".encode() for p in articles[9].paragraphs) + b"</section></body></html>"
    for server in serve({"/news/new-look.html": static(redesigned)}):
        article = extract_url(server.url("/news/new-look.html"), store=store, settings=settings, site=site)
    assert any("7 pages missed since" in n and "relearned it from" in n for n in article.notes), article.notes
    assert [version for version, _, _ in store.history(site)] == [1, 2]


def test_learning_a_site_from_another_feed_says_so(gazette: Server, fast: Settings, store: WrapperStore) -> None:
    first = learn_feed(gazette.url("/feed.xml"), store=store, settings=replace(fast, n_pages=4))[1]
    again = learn_feed(gazette.url("/feed.xml"), store=store, settings=replace(fast, n_pages=4))[1]
    other = learn_feed(gazette.url("/atom.xml"), store=store, settings=replace(fast, n_pages=4))[1]
    assert not any("stored wrapper was learned from" in n for n in (*first.notes, *again.notes))
    assert any(f"stored wrapper was learned from the feed {gazette.url('/feed.xml')}; this one is from "
               f"{gazette.url('/atom.xml')}" in n for n in other.notes), other.notes


# --- the CLI -----------------------------------------------------------------------


def test_cli_learn_feed_url_prints_what_it_learned(gazette: Server, runner: CliRunner) -> None:
    result = runner.invoke(cli, ["learn", "--allow-private", "--pages", "3", gazette.url("/atom.xml")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"learned {site_of(gazette.base_url)} (version 1) from 3 of 3 pages" in result.stdout
    assert "fields:" in result.stdout and "main pattern:" in result.stdout


def test_cli_extract_url_of_an_unknown_site_says_it_learns_it_first(gazette: Server, runner: CliRunner,
                                                                    articles: list[Article]) -> None:
    # stderr is no terminal here (piped): no bar, but one line says what the seconds of fetching are for.
    result = runner.invoke(cli, ["extract", "--allow-private", "--format", "json", gazette.url(articles[9].path)],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stderr.count("forest: learning the site from its feed: ") == 1, result.stderr
    assert json.loads(result.stdout)["method"] == "wrapper"


def test_cli_learn_feed_url_lists_skipped_pages(gazette: Server, runner: CliRunner) -> None:
    result = runner.invoke(cli, ["learn", "--allow-private", "--pages", "2", gazette.url("/feed.xml")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"{gazette.url('/news/missing.html')}: HTTP 404" in result.stdout


def test_cli_extract_url_then_sites_shows_health(gazette: Server, runner: CliRunner, articles: list[Article]) -> None:
    assert runner.invoke(cli, ["learn", "--allow-private", "--pages", "3", gazette.url("/atom.xml")]).exit_code == 0
    result = runner.invoke(cli, ["extract", "--allow-private", "--format", "json", gazette.url(articles[9].path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert (record["title"], record["author"]) == (articles[9].title, articles[9].author)
    sites = runner.invoke(cli, ["sites"]).stdout
    assert f"{site_of(gazette.base_url)}: ok; feed {gazette.url('/atom.xml')}" in sites


def test_cli_extract_no_learn_extracts_cold(gazette: Server, runner: CliRunner, articles: list[Article]) -> None:
    result = runner.invoke(cli, ["extract", "--allow-private", "--no-learn", "--format", "json", gazette.url(articles[9].path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["method"] == "classifier"


def test_cli_learn_refuses_a_url_mixed_with_files(runner: CliRunner, example_pages: list[Path]) -> None:
    result = runner.invoke(cli, ["learn", "http://127.0.0.1:9/feed.xml", str(example_pages[0])])
    assert result.exit_code == 2
