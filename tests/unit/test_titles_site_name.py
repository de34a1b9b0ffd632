"""A site's name is not an article's title: the first og:title that names the site, and its suffix on <title> (issue 43)."""

from __future__ import annotations

import pytest

from forest.config import Settings
from forest.extraction import extract
from forest.learning.induce import Inducer
from forest.model import Page
from forest.titles import strip_site_name

TOPICS = ["apples", "brambles", "cedars", "dahlias", "elders", "ferns"]


def _post(n: int, *, site_name: bool = False) -> str:
    topic = TOPICS[n]
    body = " ".join(f"The {topic} along path {k} need care, says the {topic} keeper in note {k}." for k in range(12))
    named = "<meta property='og:site_name' content='unfiltered: Home of Todd Libby'>" if site_name else ""
    return (f"<html><head><title>Caring for {topic} | unfiltered</title>"
            f"<meta property='og:title' content='unfiltered: Home of Todd Libby'>{named}"
            f"<meta property='og:title' content='Caring for {topic}'></head><body><nav><a href='/'>Home</a></nav>"
            f"<article><h1 class='page-title'>Caring for {topic}</h1><div class='entry'><p>{body}</p></div></article>"
            "</body></html>")


@pytest.mark.parametrize("site_name", [False, True], ids=["two-og-titles", "og-site-name-too"])
def test_a_first_og_title_naming_the_site_is_not_the_title(site_name: bool) -> None:
    assert extract(None, _post(0, site_name=site_name)).title == "Caring for apples"


def test_learned_from_files_the_title_is_the_posts() -> None:
    pages = [Page(_post(n), url=f"http://blog.test/{n}.html", site="blog.test") for n in range(6)]
    wrapper = Inducer(Settings()).fit(pages[:5], "blog.test").wrapper_
    assert extract(wrapper, pages[5].html, url=pages[5].url).title == "Caring for ferns"


def test_the_only_og_title_naming_the_site_gives_way_to_the_title_tag() -> None:
    html = ("<html><head><title>Frost warning for orchards - Larkford Courier</title>"
            "<meta property='og:title' content='Larkford Courier'><meta property='og:site_name' content='Larkford Courier'>"
            "</head><body><p>The frost will come early this year, and orchards should be ready.</p></body></html>")
    assert extract(None, html).title == "Frost warning for orchards"


def test_a_suffix_that_is_the_sites_name_is_stripped_though_the_page_never_states_the_headline_alone() -> None:
    html = ("<html><head><title>t</title><meta property='og:title' content='Frost warning for orchards | Larkford Courier'>"
            "<meta property='og:site_name' content='Larkford Courier'></head>"
            "<body><p>The frost will come early this year, and orchards should be ready.</p></body></html>")
    assert extract(None, html).title == "Frost warning for orchards"


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Frost warning | Larkford Courier", "Frost warning"),
        ("LARKFORD COURIER - Frost warning", "Frost warning"),
        ("Larkford Courier", "Larkford Courier"),
        ("Larkford Courier wins an award", "Larkford Courier wins an award"),
    ],
    ids=["suffix", "prefix-any-case", "all-name", "name-in-the-headline"],
)
def test_strip_site_name(title: str, expected: str) -> None:
    assert strip_site_name(title, ["Larkford Courier"]) == expected
