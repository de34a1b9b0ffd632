"""The date's search over a sample page (forest.fields._Body.stated_days, which reads the elements the native
forest.learning._inline.day_candidates keeps) against its reference, _Body.day of every element of the body:
the same elements with the same days, in document order.  Over hand-made pages (timestamps in attributes, a
date in a comment's tail, a digit in a child's tail, digits of another script, a long text) and a fixed sample
of every shared dataset's pages (``-m bench``: all of them).
"""

from __future__ import annotations


import pytest
from lxml import etree

from dataset_pages import dataset_pages, roots
from forest.fields import _DAY_STAMPS, _DAY_TAGGED_STAMPS, _Body
from forest.html import parse_html
from forest.learning._inline import day_candidates



def check(root: etree._Element) -> int:
    body, reference = _Body.of(root), _Body.of(root)
    want = [(element, day) for element in body.elements if (day := reference.day(element)) is not None]
    got = list(body.stated_days())
    assert [day for _, day in got] == [day for _, day in want]
    assert all(a is b for (a, _), (b, _) in zip(got, want, strict=True))
    return len(body.elements)


@pytest.mark.parametrize(
    "page",
    [
        "<html><body></body></html>",
        "<html><body><time datetime='2024-04-16T09:00:00Z'>yesterday</time><meta content='2024-04-15'>"
        "<abbr class='published' title='2024-04-14'>then</abbr><span data-pubdate=' 2024-04-13 '>x</span>"
        "<span data-published=''>12 April 2024</span><time datetime=''>11 April 2024</time></body></html>",
        "<html><body><p><b>Posted:</b> 10 April 2024</p><p>On <!-- 9 April 2024 -->9 April<!-- c --> 2024</p>"
        "<div>Posted<?pi 1?> 8 April 2024</div><p>" + "a long text " * 20 + "7 April 2024</p></body></html>",
        "<html><body><ul><li>3</li><li>4 May 2023<span>x</span>, and</li></ul><p>May 2, 2023 at 11:47 AM</p></body></html>",
        "<html><body><p>\u0661\u0662 April 2024</p><p>\uff11\uff12 April 2024</p><p>Posted <b>on</b> 12<!-- x --></p>"
        "<p><!-- 12 April 2024 --></p><span xml:lang='en' title='2024-04-12'>t</span><abbr title='2024-04-11'>a</abbr></body></html>",
    ],
    ids=["empty", "attributes", "tails-comments-long", "lists", "scripts-and-titles"],
)
def test_the_days_stated_equal_the_reference(page: str) -> None:
    check(parse_html(page))


def test_a_title_or_a_content_is_a_stamp_on_its_own_tag_only() -> None:
    # _Body.day reads a title on an <abbr> and a content on a <meta> alone: a link's title, a span's content,
    # make no candidate of an element whose own text holds no digit (and the days are the reference's).
    root = parse_html("<html><body><a title='12 April 2024'>x</a><span content='2024-04-12'>y</span>"
                      "<abbr title='2024-04-11'>a</abbr><meta content='2024-04-10'><a title='t'>9 April 2024</a>"
                      "<p data-pubdate='2024-04-08'>z</p><time datetime='2024-04-07'>w</time></body></html>")
    body = root.find("body")
    assert [e.tag for e in day_candidates(body, _DAY_STAMPS, _DAY_TAGGED_STAMPS)] == ["abbr", "meta", "a", "p", "time"]
    assert [(e.tag, d.day) for e, d in _Body.of(root).stated_days()] == [("abbr", 11), ("meta", 10), ("a", 9), ("p", 8), ("time", 7)]
    check(root)


def test_a_page_without_a_dated_element_states_none() -> None:
    assert list(_Body.of(parse_html("<html><body><p>no date</p></body></html>")).stated_days()) == []


def test_the_hand_made_pages_state_days() -> None:
    root = parse_html("<html><body><time datetime='2024-04-16'>x</time><p><b>Posted:</b> 10 April 2024</p></body></html>")
    assert [(e.tag, d.isoformat()) for e, d in _Body.of(root).stated_days()] == [("time", "2024-04-16"), ("p", "2024-04-10")]


def _dataset_roots(every: bool) -> list[etree._Element]:
    return roots(page for pages in dataset_pages(every).values() for page in pages)


@pytest.mark.datasets
def test_a_sample_of_every_dataset_equals_the_reference() -> None:
    assert sum(check(root) for root in _dataset_roots(every=False)) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_equals_the_reference() -> None:
    for root in _dataset_roots(every=True):
        check(root)
