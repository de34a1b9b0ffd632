"""The part of a page's source a wrapper parses: learned on the sample, never a change of the article."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from lxml import etree

from forest.batch.pages import SPAN_MIN_PAGES, learn_site
from forest.config import Settings
from forest.errors import StoreError
from forest.extraction import extract, extract_parsed, extract_span
from forest.extraction.span import cut, holds
from forest.html import parse_html
from forest.learning import span as span_learning
from forest.learning.induce import Inducer
from forest.learning.span import learn_span
from forest.model import Page
from forest.wrapper import Wrapper
from span_site import STORY, learned, story
from test_induce import ARTICLES, FOOTER, NAV

WHOLE = ("", "")


def _same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (a.text, a.title, a.author, a.date, a.method) == (b.text, b.title, b.author, b.date, b.method)


def test_cut_keeps_the_head_and_the_source_between_the_markers() -> None:
    page = "<html><head><title>t</title></head><body><nav>menu</nav><div id='a'>text</div><div id='z'>foot</div></body></html>"
    part, used = cut(page, ("<div id='a'", "<div id='z'"))  # type: ignore[misc]
    assert part == "<html><head><title>t</title></head><div id='a'>text</div>"
    assert used == ("<div id='a'", "<div id='z'")


@pytest.mark.parametrize(
    "body, used",
    [
        ("<p>menu</p><div id='a'>x</div><div id='z'>y</div>", ("<div id='a'", "<div id='z'")),
        ("<p>menu</p><div id='a'>x</div>", ("<div id='a'", "")),  # no end marker: to the end of the page
        ("<div id='z'>y</div><div id='a'>x</div>", ("<div id='a'", "")),  # the end marker before the start
        ("<div id='a'>x</div><div id='a'>y</div><div id='z'>z</div>", ("", "<div id='z'")),  # twice: from <body>
        ("<p>no markers</p>", None),
    ],
)
def test_cut_uses_a_marker_only_where_the_page_holds_it_once(body: str, used: tuple[str, str] | None) -> None:
    found = cut(f"<html><head></head><body>{body}</body></html>", ("<div id='a'", "<div id='z'"))
    assert (found[1] if found else None) == used


def test_a_page_without_a_body_tag_is_not_cut() -> None:
    assert cut("<div id='a'>x</div><div id='z'>y</div>", ("<div id='a'", "<div id='z'")) is None


def test_learning_bounds_the_article_by_tags_the_template_writes_once() -> None:
    wrapper = learned()
    assert wrapper.span == (STORY[:-1], '<div id="footer"')
    part, _ = cut(story(5), wrapper.span)  # type: ignore[misc]
    assert NAV not in part and FOOTER not in part and ARTICLES[5][0] + " | Courier" in part  # the head is kept
    assert all(sentence in part for sentence in ARTICLES[5][1])


@pytest.mark.parametrize("i", [5, 6])
def test_a_page_is_read_from_its_span_with_the_whole_pages_article(i: int) -> None:
    wrapper = learned()
    from_span = extract_span(wrapper, story(i))
    assert from_span is not None and from_span.method == "wrapper"
    assert _same(from_span, extract(wrapper, story(i)))
    assert _same(from_span, extract(replace(wrapper, span=WHOLE), story(i)))


@pytest.mark.parametrize("i", [5, 6])
def test_learning_checks_the_whole_pages_article_on_the_tree_it_parsed(i: int) -> None:
    # learn_span extracts each sample page from learning's own tree instead of parsing it again.
    whole = replace(learned(), span=WHOLE)
    assert _same(extract_parsed(whole, parse_html(story(i)), story(i)), extract(whole, story(i)))


def test_a_span_the_search_finds_on_the_first_page_is_checked_on_every_page() -> None:
    # The search checks each step on one page; the last sample page's footer sits inside its
    # story, so the end the first page allows would cut that page's article.
    texts = [story(i) for i in range(4)] + [story(4, footer_at=len(ARTICLES[4][1]) - 1)]
    pages = [Page(text, url=f"http://courier.test/{i}") for i, text in enumerate(texts)]
    wrapper = Inducer(Settings(classifier=False)).fit(pages, site="courier.test").wrapper_
    assert wrapper.span == (STORY[:-1], "")
    for text in texts:
        from_span = extract_span(wrapper, text)
        assert from_span is not None and _same(from_span, extract(replace(wrapper, span=WHOLE), text))


def test_a_page_whose_end_marker_sits_inside_its_article_is_read_whole() -> None:
    wrapper = learned()
    page = story(5, footer_at=1)  # the footer's tag, the span's end, now splits the story
    assert cut(page, wrapper.span) is not None
    assert extract_span(wrapper, page) is None
    article = extract(wrapper, page)
    assert article.method == "wrapper" and all(sentence in article.text for sentence in ARTICLES[5][1])
    assert _same(article, extract(replace(wrapper, span=WHOLE), page))


def test_a_region_of_several_nodes_is_not_cut_at_its_end() -> None:
    # A paragraph after the cut would be missed without a trace: only a one-node region is closed visibly.
    root = parse_html("<html><body><div id='a'><p>one</p><p>two</p></div><div>after</div></body></html>")
    paragraphs = root.findall(".//p")
    assert holds(root, paragraphs[:1], ("<div id='a'", "<div id='z'"))
    assert not holds(root, paragraphs, ("<div id='a'", "<div id='z'"))
    assert holds(root, paragraphs, ("<div id='a'", ""))


def test_a_region_outside_the_start_markers_element_does_not_hold() -> None:
    root = parse_html("<html><body><div id='a'><p>one</p></div><p>two</p></body></html>")
    assert not holds(root, root.findall(".//p"), ("<div id='a'", ""))


def test_the_span_is_stored_with_the_wrapper() -> None:
    wrapper = learned()
    stored = Wrapper.from_dict(json.loads(json.dumps(wrapper.to_dict())))
    assert stored.span == wrapper.span
    older = {k: v for k, v in wrapper.to_dict().items() if k != "span"}  # stored before spans were learned
    assert Wrapper.from_dict(older).span == WHOLE
    with pytest.raises(StoreError, match="span"):
        Wrapper.from_dict(wrapper.to_dict() | {"span": ["<div", "<p", "<a"]})


def test_a_page_of_another_template_falls_back_past_the_span() -> None:
    wrapper = learned()
    page = f"<html><head><title>x</title></head><body>{NAV}<table><tr><td>{' '.join(ARTICLES[6][1])}</td></tr></table></body></html>"
    assert extract_span(wrapper, page) is None
    assert extract(wrapper, page).method != "wrapper"


def test_a_learned_date_outside_the_span_is_read_from_the_whole_page() -> None:
    wrapper = replace(learned(), fields={"date": "//span[@class='when']"})
    when = '<span class="when">March 3, 2014</span>'
    inside = story(5).replace(STORY, STORY + when)
    from_span = extract_span(wrapper, inside)
    assert from_span is not None and from_span.date == "2014-03-03"
    above = story(5).replace("<h1>", when + "<h1>")  # before the span's start: not in the part parsed
    assert extract_span(wrapper, above) is None
    assert extract(wrapper, above).date == "2014-03-03"


def test_a_learned_date_place_that_states_no_day_is_read_from_the_span() -> None:
    # A site that prints "5 days ago" there: the place is in the part parsed, so the page is the
    # site's template, and the whole page would give it no date either.
    wrapper = replace(learned(), fields={"date": "//span[@class='when']"})
    page = story(5).replace(STORY, STORY + '<span class="when">5 days ago</span>')
    from_span = extract_span(wrapper, page)
    assert from_span is not None and from_span.date is None
    assert _same(from_span, extract(replace(wrapper, span=WHOLE), page))


@pytest.mark.parametrize(
    ("places", "expected", "read"),
    [
        # One page's date above the story, another's below the footer: no span reads all five pages,
        # the tightest reads three of them and leaves the other two to the whole page's parse.
        (["in", "in", "in", "above", "below"], (STORY[:-1], '<div id="footer"'), [True, True, True, False, False]),
        (["in", "in", "above", "below", "below"], (STORY[:-1], ""), [True, True, False, True, True]),
        # Pages with no date place are read whole by every span: three of five, and no span pays.
        (["in", "in", "none", "none", "none"], WHOLE, [False] * 5),
    ],
)
def test_a_span_that_reads_most_sample_pages_is_kept(places: list[str], expected: tuple[str, str], read: list[bool]) -> None:
    when = '<span class="when">March 3, 2014</span>'
    moved = {"in": (STORY, STORY + when), "above": (NAV, when + NAV), "below": (FOOTER, FOOTER + when), "none": ("", "")}
    texts = [story(i).replace(*moved[place]) for i, place in enumerate(places)]
    wrapper = replace(learned(), fields={"date": "//span[@class='when']"}, span=WHOLE)
    span = learn_span(wrapper, [(text, parse_html(text), True) for text in texts])
    assert span == expected
    learned_span = replace(wrapper, span=span)
    assert [extract_span(learned_span, text) is not None for text in texts] == read
    for text in texts:  # a page the span does not read is read whole: the same article either way
        assert _same(extract(learned_span, text), extract(wrapper, text))


def test_learning_extracts_no_sample_page_the_main_pattern_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    # Such a page cannot give the main pattern's article; its extraction would go cold (the classifier).
    other = f"<html><head><title>x</title></head><body>{NAV}<table><tr><td>{' '.join(ARTICLES[6][1])}</td></tr></table></body></html>"
    texts = [story(i) for i in range(4)] + [other]
    wrapper = learned()  # before the count starts: learning it extracts its own sample
    extracted: list[str] = []

    def counted(wrapper, root, data, *, settings=None):  # type: ignore[no-untyped-def]
        extracted.append(data)
        return extract_parsed(wrapper, root, data, settings=settings)

    monkeypatch.setattr(span_learning, "extract_parsed", counted)
    assert learn_span(wrapper, [(text, parse_html(text), True) for text in texts]) == wrapper.span
    assert extracted == texts[:4]


def test_holds_needs_a_body_with_elements() -> None:
    assert not holds(etree.fromstring("<html><body/></html>"), [], ("<div", ""))


def test_a_batch_learns_the_span_only_of_a_site_with_pages_enough_to_repay_it() -> None:
    samples = [(story(i).encode(), f"http://courier.test/{i}", "utf-8") for i in range(5)]
    alone = Settings(classifier=False)
    assert learn_site("courier.test", samples, alone, None, pages=SPAN_MIN_PAGES - 1).span == WHOLE
    assert learn_site("courier.test", samples, alone, None, pages=SPAN_MIN_PAGES).span == learned().span
    assert learn_site("courier.test", samples, alone, None).span == learned().span  # not a batch: always
