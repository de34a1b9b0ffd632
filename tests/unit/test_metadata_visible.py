"""Dates a page prints beside its headline and states nowhere a machine reads (forest.metadata.visible_date)."""

from __future__ import annotations

import pytest

from forest.config import Settings
from forest.extraction import extract
from forest.fields import extract_fields
from forest.html import parse_html
from forest.learning.induce import Inducer
from forest.metadata import parse_date, visible_date, written_dates
from forest.model import Page

ARTICLE = "<p>" + " ".join(["The orchard path was cleared by volunteers over the weekend."] * 6) + "</p>"


def _page(headline: str, byline: str, *, before: str = "", after: str = "", title: str | None = None) -> str:
    return (f"<html lang='en'><head><title>{title or headline} | Larkford Courier</title></head><body>"
            f"<header><p>Today: Friday 27 November 2026</p><nav><a href='/'>Home</a></nav></header>{before}"
            f"<article><h1>{headline}</h1><p class='meta'>{byline}</p>{ARTICLE}</article>{after}"
            "<footer><p>&copy; 2009-2026 Larkford Courier</p></footer></body></html>")


@pytest.mark.parametrize(
    ("byline", "day"),
    [
        ("Sat 11 February 2017", "2017-02-11"),
        ("Posted on March 3, 2014 by Ana Lima", "2014-03-03"),
        ("Publié le 3 mars 2014", "2014-03-03"),
        ("2014-03-03 09:15", "2014-03-03"),
        ("Veröffentlicht am 3. März 2014", "2014-03-03"),
        ("8:43 AM, April 19, 2013", "2013-04-19"),
        ("12/28/2005 3:33:49 PM, by Anders Bylund", "2005-12-28"),
    ],
    ids=["pelican", "posted-on", "french", "iso", "german", "time-first", "us-slashes"],
)
def test_the_date_printed_by_the_headline_is_found(byline: str, day: str) -> None:
    html = _page("Volunteers clear the orchard path", byline)
    assert extract_fields(parse_html(html), {}, html=html)["date"] == day


def test_not_the_first_date_on_the_page_but_the_one_by_the_headline() -> None:
    # The masthead prints today's date first, a related story its own, the footer a copyright year.
    related = "<aside><h2>Related</h2><ul><li><a href='/x'>Council meets</a> <span>June 2, 2019</span></li></ul></aside>"
    html = _page("Volunteers clear the orchard path", "By Ana Lima | 11 February 2017", after=related)
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2017-02-11"


def test_a_page_with_only_misleading_dates_has_none() -> None:
    # No date beside the headline: the masthead's, a related story's far below and the copyright are not the article's.
    related = "<aside><ul>" + "".join(f"<li>Story {i} <span>June {i}, 2019</span></li>" for i in range(1, 4)) + "</ul></aside>"
    html = _page("Volunteers clear the orchard path", "By Ana Lima", after=ARTICLE * 3 + related)
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_an_updated_date_gives_way_to_the_published_one() -> None:
    html = _page("Volunteers clear the orchard path", "Updated 5 March 2017 <span>Published 11 February 2017</span>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2017-02-11"


def test_a_date_in_a_paragraph_is_not_the_byline() -> None:
    html = _page("Volunteers clear the orchard path", "By Ana Lima",
                 after="").replace("<p>The orchard", "<p>On March 3, 2014 the council first asked for help. The orchard", 1)
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_the_headline_is_found_from_a_part_of_the_title() -> None:
    html = _page("Volunteers clear the orchard path", "Sat 11 February 2017", title="Garnix Blog: Volunteers clear the orchard path")
    root = parse_html(html)
    assert visible_date(root, ["Garnix Blog: Volunteers clear the orchard path"]) == "2017-02-11"
    # No text states the title: the page's only <h1> is its headline; of several, none is.
    assert visible_date(root, ["A title no element states"]) == "2017-02-11"
    two = parse_html(html.replace("<footer>", "<h1>Newsletter</h1><footer>"))
    assert visible_date(two, ["A title no element states"]) is None


@pytest.mark.parametrize(
    ("text", "lang", "day"),
    [("03/04/2014", "en-US", "2014-03-04"), ("03/04/2014", "en-GB", "2014-04-03"), ("03/04/2014", "fr", "2014-04-03"),
     ("28/12/2005", "en", "2005-12-28"), ("won 5 out 2017 matches", "en", None), ("31 February 2017", "en", None)],
)
def test_written_dates(text: str, lang: str, day: str | None) -> None:
    found = written_dates(text, lang)
    assert (found[0][0].isoformat() if found else None) == day


def test_a_short_text_with_two_different_dates_is_not_a_date() -> None:
    assert parse_date("From 3 March 2014 to 5 March 2014") is None


def _blog(n: int, day: int) -> Page:
    # A Pelican or Hugo theme: the date printed under the headline, no <time datetime>, no meta, no JSON-LD.
    topic = ["apples", "brambles", "cedars", "dahlias", "elders", "ferns"][n]
    body = " ".join(f"The {topic} along path {k} need care, says the {topic} keeper in note {k}." for k in range(12))
    html = (f"<html><head><title>Caring for {topic} | Todd's notes</title></head><body><nav><a href='/'>Home</a> "
            f"<a href='/about'>About</a></nav><article><h1 class='entry-title'>Caring for {topic}</h1>"
            f"<footer class='post-info'><span class='published'>Sat {day:02d} February 2017</span></footer>"
            f"<div class='entry-content'><p>{body}</p></div></article><footer>Powered by Pelican</footer></body></html>")
    return Page(html, url=f"http://blog.test/post-{n}.html", site="blog.test")


def test_a_site_learned_from_files_finds_the_printed_date() -> None:
    # Issue 43: learned from files (no feed), such a blog's date was None; learned from its feed it was found.
    pages = [_blog(n, n + 1) for n in range(6)]
    wrapper = Inducer(Settings()).fit(pages[:5], "blog.test").wrapper_
    assert "date" in wrapper.fields
    article = extract(wrapper, pages[5].html, url=pages[5].url)
    assert article.method == "wrapper"
    assert article.date == "2017-02-06"
