"""forest.region: a wrapper's region on a page, its exclusions cut."""

from __future__ import annotations

from dataclasses import replace

from lxml import html as lxml_html

from forest import region
from forest.wrapper import Wrapper
from patterns.model import Pattern

ARTICLE = "<p>Dock workers returned to the cranes on Monday after a nine day strike over night shift pay.</p>"
SHARE = "<p>Share this story</p>"
WRAPPER = Wrapper("courier.test", (Pattern("//div[@id='post']", 1.0, 1, 3, terms=20),), exclusions=("//div[@class='share']",))


def _text(html: str) -> str:
    _, blocks = region.select(lxml_html.document_fromstring(html), WRAPPER, "//div[@id='post']")
    return region.to_text(blocks)


def test_an_exclusion_is_cut_however_its_markup_is_indented() -> None:
    # The indentation around the share box is no text: counted as text, it outweighed the article,
    # and the box was taken for a wrapper div around the article and kept.
    indent = "\n" + " " * 2000
    html = f'<html><body><div id="post">{ARTICLE}<div class="share">{indent}{SHARE}{indent}</div></div></body></html>'
    assert _text(html) == lxml_html.fromstring(ARTICLE).text_content()


def test_an_exclusion_holding_most_of_the_region_is_kept() -> None:
    # A wrapper div reused around the article on this page: not the site's boilerplate here.
    html = f'<html><body><div id="post"><div class="share">{ARTICLE}</div>{SHARE}</div></body></html>'
    assert "Dock workers" in _text(html)


PARAGRAPHS = Wrapper("courier.test", (Pattern("//div[@id='post']/p", 1.0, 1, 3, terms=20),))


def _paragraphs(html: str) -> str:
    _, blocks = region.select(lxml_html.document_fromstring(html), PARAGRAPHS, "//div[@id='post']/p")
    return region.to_text(blocks)


def test_a_paragraph_pattern_keeps_the_quote_and_list_between_its_paragraphs() -> None:
    quote = "<blockquote>Self-regulation has not yet been proven sufficient to protect consumers.</blockquote>"
    items = "<ul><li>Night shifts paid at time and a half</li></ul>"
    html = f'<html><body><div id="post">{ARTICLE}{quote}<div class="ad">Buy now</div>{items}{ARTICLE}</div></body></html>'
    assert _paragraphs(html).split("\n") == [
        lxml_html.fromstring(ARTICLE).text_content(),
        "Self-regulation has not yet been proven sufficient to protect consumers.",
        "Night shifts paid at time and a half",
        lxml_html.fromstring(ARTICLE).text_content(),
    ]


def test_a_paragraph_pattern_takes_nothing_before_its_first_or_after_its_last_paragraph() -> None:
    quote = "<blockquote>Most read: ten things about cranes</blockquote>"
    html = f'<html><body><div id="post">{quote}{ARTICLE}<p>Second.</p>{quote}</div></body></html>'
    assert "Most read" not in _paragraphs(html)


CARDS = (
    '<html><body><main><h1>Bookcases</h1>'
    '<p>Shelves that fit every room, in white, oak and walnut, made from renewable wood.</p>'
    '<div class="card"><a href="/p/1">BILLY Bookcase, white, 31 1/2x11x79 1/2 $79.00</a></div>'
    '<div class="card"><a href="/p/2">BRIMNES Bookcase, black, 23 5/8x74 3/4 $149.00</a></div>'
    '</main></body></html>'
)


def test_a_region_keeps_its_links_where_the_classifier_contradicted_j_x_u() -> None:
    # A shop's listing: its product cards are links, and its items.
    shop = Wrapper("shop.test", (Pattern("//main", 1.0, 1, 3, terms=40),), classifier_agrees=False)
    news = replace(shop, classifier_agrees=True)
    assert "BILLY Bookcase" in region.to_text(region.select(lxml_html.document_fromstring(CARDS), shop, "//main")[1])
    assert "BILLY Bookcase" not in region.to_text(region.select(lxml_html.document_fromstring(CARDS), news, "//main")[1])


def test_a_box_is_named_by_its_tag_and_its_class_names_without_digits() -> None:
    box = lxml_html.fragment_fromstring('<div class="zn zn-body  zn-has-18-containers post-1234"></div>')
    assert region.part_names(box) == ("div.zn", "div.zn-body")
    assert region.part_names(lxml_html.fragment_fromstring('<div id="x"></div>')) == ()


def test_the_unseen_boxes_are_the_outermost_with_text_that_share_no_name_with_the_sample() -> None:
    page = lxml_html.document_fromstring(
        '<div id="post"><div class="body story">' + ARTICLE + '</div>'
        '<div class="slideshow"><div class="slide"><p>Jane Doe</p></div></div>'
        '<div class="story video-17"><p>Seen by one of its names</p></div>'
        '<div class="empty-box"> </div></div>')
    nodes = region.outermost(page.xpath("//div[@id='post']"))
    unseen = region.unseen_parts(nodes, frozenset({"div.body", "div.story"}))
    assert [box.get("class") for box in unseen] == ["slideshow"]
    assert region.part_keys(nodes) == {"div.body", "div.story", "div.slideshow", "div.slide", "div.empty-box"}
