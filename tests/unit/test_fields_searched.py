"""Fields extraction searches each page for where a wrapper learned no place for them, and the dates cold extraction
reads where pages print or state them outside the usual places (issue 43: dates found as often as trafilatura finds
them, and right)."""

from __future__ import annotations

import json

import pytest

from forest.config import Settings
from forest.extraction import extract
from forest.fields import extract_fields
from forest.html import parse_html
from forest.learning.induce import Inducer
from forest.model import Page
from forest.wrapper import Wrapper
from patterns.model import Pattern

TOPICS = ["apples", "brambles", "cedars", "dahlias", "elders", "ferns", "gorse"]


def _story(n: int, day: int, *, dated: bool = True) -> Page:
    # A wire story: its date opens the first paragraph ("March 3, 2014 -- ..."), no element holds it alone,
    # and nothing a machine reads states it: learning finds no place for it, but the pages print it.
    topic = TOPICS[n]
    body = " ".join(f"The {topic} along path {k} need care, says the {topic} keeper in note {k}." for k in range(12))
    lead = f"March {day}, 2014 -- " if dated else ""
    html = (f"<html><head><title>Caring for {topic} | Larkford Courier</title></head><body><nav><a href='/'>Home</a> "
            f"<a href='/about'>About</a></nav><div id='story'><h1>Caring for {topic}</h1>"
            f"<div class='text'><p>{lead}{body}</p><p>{body}</p></div></div>"
            "<footer>Larkford Courier, all rights reserved</footer></body></html>")
    return Page(html, url=f"http://courier.test/story-{n}.html", site="courier.test")


def test_a_date_its_pages_print_in_no_one_place_is_searched_for_on_each_page() -> None:
    pages = [_story(n, n + 1) for n in range(6)]
    wrapper = Inducer(Settings()).fit(pages[:5], "courier.test").wrapper_
    assert "date" not in wrapper.fields
    stored = Wrapper.from_dict(json.loads(json.dumps(wrapper.to_dict())))
    article = extract(stored, pages[5].html, url=pages[5].url)
    assert (article.method, article.date) == ("wrapper", "2014-03-06")


def test_a_byline_no_sample_page_printed_is_found_on_the_page_that_prints_one() -> None:
    # bbc.co.uk in 2005 printed a byline on one story in five: a sample of five may show none, and
    # the learned wrapper must find it all the same, as extraction without one does.
    pages = [_story(n, n + 1, dated=False) for n in range(6)]
    wrapper = Inducer(Settings()).fit(pages[:5], "courier.test").wrapper_
    assert "author" not in wrapper.fields
    bylined = pages[5].html.replace("<div class='text'>", "<div class='text'><p class='by'>By Ana Lima</p>")
    assert extract(None, bylined).author == "Ana Lima"
    assert (extract(wrapper, bylined).method, extract(wrapper, bylined).author) == ("wrapper", "Ana Lima")
    assert extract(wrapper, pages[5].html).author is None


def test_extract_fields_searches_what_the_page_prints_with_or_without_statements() -> None:
    html = _story(0, 3).html.replace("<div class='text'><p>", "<div class='text'><p class='by'>By Ana Lima</p><p>")
    root = parse_html(html)
    for statements in (True, False):
        found = extract_fields(root, {}, html=html, statements=statements)
        assert (found["date"], found["author"]) == ("2014-03-03", "Ana Lima")
    # The head alone (what learning compares a page's body with) prints nothing.
    assert extract_fields(root, {}, html=html, body=False)["author"] is None


def test_a_wrapper_stored_with_searched_fields_still_reads() -> None:
    # Wrappers learned before every page was searched named the fields to search: the key is ignored now.
    wrapper = Wrapper(site="courier.test", patterns=(Pattern("//div[@class='text']", score=3.0, support=5, level=4.0),),
                      fields={"author": "//p[@class='by']"})
    record = wrapper.to_dict() | {"searched_fields": ["date"]}
    assert Wrapper.from_dict(record) == Wrapper.from_dict(wrapper.to_dict())


# --- cold: dates pages state or print outside the places read before ------------------------------------


ARTICLE = "<p>" + " ".join(["The orchard path was cleared by volunteers over the weekend."] * 6) + "</p>"


def _page(middle: str, *, head: str = "", after: str = "") -> str:
    return (f"<html lang='en'><head><title>Volunteers clear the orchard path | Larkford Courier</title>{head}</head><body>"
            "<header><p>Today: Friday 27 November 2026</p><nav><a href='/'>Home</a></nav></header>"
            f"<article><h1>Volunteers clear the orchard path</h1>{middle}{ARTICLE}</article>{after}"
            "<footer><p>&copy; 2009-2026 Larkford Courier</p></footer></body></html>")


def _date(html: str) -> str | None:
    return extract_fields(parse_html(html), {}, html=html)["date"]


def test_a_date_stated_in_a_data_published_attribute() -> None:
    # New York Magazine: an empty <li> whose text a script writes, the date in its attribute alone.
    html = _page("<ul><li class='timestamp' data-published='Thu Nov 21 12:25:05 EST 2013'></li></ul>")
    assert _date(html) is not None and _date(html).startswith("2013-11-21")  # type: ignore[union-attr]
    assert _date(_page("<ul><li class='timestamp'></li></ul>")) is None


def test_a_site_learns_the_place_of_its_data_published_attribute() -> None:
    def page(n: int) -> Page:
        html = _story(n, 1, dated=False).html.replace(
            "<div class='text'>", f"<ul><li id='timestamp' data-published='Wed Dec 0{n + 1} 08:50:14 EST 2013'></li></ul><div class='text'>")
        return Page(html, url=f"http://courier.test/story-{n}.html", site="courier.test")

    pages = [page(n) for n in range(6)]
    wrapper = Inducer(Settings()).fit(pages[:5], "courier.test").wrapper_
    assert wrapper.fields.get("date") == "//li[@id='timestamp']"
    assert (extract(wrapper, pages[5].html).date or "").startswith("2013-12-06")


def test_a_malformed_time_datetime_gives_way_to_the_next() -> None:
    # A theme's <time datetime="02-12-2025"> (no ISO date) before the post's own, far below the headline.
    times = "<p class='info'><time datetime='02-12-2025'>02-12-2025</time></p><p><time datetime='2025-12-02'>December 02, 2025</time></p>"
    assert _date(_page(ARTICLE * 6, after=times)) == "2025-12-02"


@pytest.mark.parametrize(
    ("head", "day"),
    [
        ("<meta name='w-published-date' content='2025-05-27T06:03:43.274Z'>", "2025-05-27"),
        ("<meta name='published-time' content='2026-03-09T08:45:32Z'><meta name='published-date' content='2021-02-16'>",
         "2021-02-16"),
    ],
    ids=["site-prefixed-name", "a-date-before-a-build-time"],
)
def test_a_meta_name_ending_as_a_publication_dates_states_it(head: str, day: str) -> None:
    assert (_date(_page("", head=head)) or "")[:10] == day


def test_a_date_printed_beside_a_byline_far_below_the_headline() -> None:
    # A long standfirst and hero between the headline and "Written by ... April 8, 2024": no machine-readable date.
    byline = "<div class='who'><p>Written by <a href='/people/ana'>Ana Lima</a></p><p>April 8, 2024</p></div>"
    assert _date(_page(ARTICLE * 6 + byline)) == "2024-04-08"


def test_a_customer_reviews_date_does_not_date_the_page() -> None:
    review = ("<div class='customer-review'><span class='review-author'>Bo Chen</span> <span>09.08.2024</span>"
              "<p>Sturdy and well made.</p></div>")
    assert _date(_page(ARTICLE * 6 + review)) is None


def test_a_page_without_its_learned_date_place_is_searched_as_a_page_of_an_unlearned_site() -> None:
    # Another template of the site: the learned place is missing, the date is stated in a <time> element.
    html = _story(0, 3, dated=False).html.replace("<h1>", "<p class='meta'>Filed <time datetime='2014-03-03'>Monday</time></p><h1>")
    root = parse_html(html)
    assert extract_fields(root, {"date": "//span[@class='when']"}, html=html, statements=False)["date"] == "2014-03-03"
    # A wrapper that learned no place for the date reads no <time> element (its sample pages had none).
    assert extract_fields(root, {}, html=html, statements=False)["date"] is None


@pytest.mark.parametrize(("first", "author"), [
    ("By Ana Lima", "Ana Lima"),
    # A wire story's dateline paragraph where a sample page printed its byline: no one is named.
    ("WELLINGTON (Reuters) - The apples along the northern path need care this winter, the orchard keeper said "
     "on Monday in a note to the town's growers.", None),
])
def test_a_learned_author_place_that_holds_a_paragraph_names_no_one(first: str, author: str | None) -> None:
    html = _story(0, 3, dated=False).html.replace("<div class='text'><p>", f"<div class='text'><p>{first}</p><p>")
    root = parse_html(html)
    assert extract_fields(root, {"author": "//div[@class='text']/p[1]"}, html=html, statements=False)["author"] == author
