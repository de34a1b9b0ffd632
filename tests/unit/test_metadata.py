"""Author and date from what a page states without a feed: JSON-LD, meta tags, microdata, <time> (forest.metadata)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest import metadata
from forest.fields import extract_fields
from forest.html import parse_html
from forest.metadata import json_ld_fields, microdata_fields, normalize_date


def _page(head: str = "", body: str = "<p>text</p>") -> str:
    return f"<html><head><title>t</title>{head}</head><body>{body}</body></html>"


def _ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


@pytest.mark.parametrize(
    ("head", "body"),
    [
        ('<meta property="article:published_time" content="2024-04-16T11:15:00+02:00">', "<p>x</p>"),
        ('<meta itemprop="datePublished" content="2024-04-16T11:15:00+02:00">', "<p>x</p>"),
        ("", '<p>Posted <time datetime="2024-04-16T11:15:00+02:00">16 April</time></p>'),
        ("", '<p><span itemprop="datePublished">2024-04-16T11:15:00+02:00</span></p>'),
        (_ld({"@type": "NewsArticle", "datePublished": "2024-04-16T11:15:00+02:00"}), "<p>x</p>"),
        (_ld({"@type": "BlogPosting", "datePublished": "Tue, 16 Apr 2024 09:15:00 GMT"}), "<p>x</p>"),
        ('<meta name="date" content="2024-04-16 05:15:00 EDT">', "<p>x</p>"),
    ],
    ids=["article-meta", "itemprop-meta", "time-element", "itemprop-element", "json-ld", "rfc-2822", "zone-name"],
)
def test_the_date_in_each_source_form_is_one_instant(head: str, body: str) -> None:
    html = _page(head, body)
    found = extract_fields(parse_html(html), {}, html=html)["date"]
    assert found is not None and datetime.fromisoformat(found) == datetime(2024, 4, 16, 9, 15, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-04-16T09:15:00-05:00", "2024-04-16T09:15:00-05:00"),
        ("2024-04-16T09:15:00.5+0530", "2024-04-16T09:15:00.500000+05:30"),
        ("2024-04-16 09:15 PST", "2024-04-16T09:15:00-08:00"),
        ("2025-12-18T19:30:00-05:00", "2025-12-18T19:30:00-05:00"),
        ("2024-04-16T09:15:00Z", "2024-04-16T09:15:00+00:00"),
        ("2024-04-16", "2024-04-16"),
        ("2024-04-16T09:15:00", "2024-04-16T09:15:00"),
    ],
    ids=["minus-five", "plus-0530-no-colon", "pst", "evening-stays-on-its-day", "z", "date-only", "no-zone-stays-naive"],
)
def test_time_zones_keep_the_pages_offset_and_day(value: str, expected: str) -> None:
    # In UTC the evening of the 18th in New York is the 19th: a user would read a day the page never printed.
    assert normalize_date(value) == expected


def test_json_ld_graph_prefers_the_article_over_the_page_and_site() -> None:
    html = _page(_ld({"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "The Gazette", "datePublished": "2001-01-01"},
        {"@type": "WebPage", "name": "Page name", "headline": "Page headline"},
        {"@type": ["NewsArticle"], "headline": "The real headline", "datePublished": "2024-04-16",
         "author": [{"@type": "Person", "name": "Ana Lima"}, {"@type": "Person", "name": "Bo Chen"}]},
    ]}))
    assert json_ld_fields(html) == {"title": "The real headline", "author": "Ana Lima, Bo Chen", "date": "2024-04-16"}


def test_json_ld_top_level_list_and_several_scripts() -> None:
    html = _page(_ld([{"@type": "Organization", "name": "Org"}]) + _ld([
        {"@type": "BreadcrumbList", "name": "Crumbs"},
        {"@type": "BlogPosting", "headline": "Listed post", "author": "Cy Diaz", "datePublished": "2024-04-16T09:15:00Z"},
    ]))
    assert json_ld_fields(html) == {"title": "Listed post", "author": "Cy Diaz", "date": "2024-04-16T09:15:00+00:00"}


@pytest.mark.parametrize(
    "body",
    [
        '<p>By <span itemprop="author" itemscope><span itemprop="name">Ana Lima</span></span></p>',
        '<p>By <a rel="author" href="/ana">Ana Lima</a></p>',
    ],
    ids=["itemprop-author", "rel-author"],
)
def test_author_from_microdata(body: str) -> None:
    html = _page(body=body)
    assert extract_fields(parse_html(html), {}, html=html)["author"] == "Ana Lima"


def test_meta_beats_time_elements() -> None:
    html = _page('<meta property="article:published_time" content="2024-04-16">',
                 '<p><time datetime="2023-01-01">old</time></p>')
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2024-04-16"


def test_a_time_element_that_is_not_a_date_is_not_the_date() -> None:
    html = _page(body='<p><time datetime="soon">soon</time></p>')
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_each_place_is_trusted_in_its_order_not_the_pages() -> None:
    # A comment's <time> comes first in the page; the article's datePublished wins all the same.
    # A place whose first element says nothing gives way to the next place.
    body = ('<p><time datetime="2023-01-01">a comment</time></p><p><a rel="author" href="/bo">Bo Chen</a></p>'
            '<p><span itemprop="author">https://example.test/staff</span></p>'
            '<p><span itemprop="datePublished">2024-04-16</span></p>')
    assert microdata_fields(parse_html(_page(body=body))) == {"date": "2024-04-16", "author": "Bo Chen"}
    # rel=author in the head (a <link> to the site's humans.txt) is no byline.
    assert microdata_fields(parse_html(_page('<link rel="author" href="/humans.txt">'))) == {}


# The source's pre-check of attributed_date: one regular expression for the three words' substring tests.
_SOURCE_PIECES = st.sampled_from(["data-", "date-", "publish", "pubdate", "data-date-", "pub", "Data-", "x", " ", "é"])


@settings(max_examples=300)
@given(st.lists(_SOURCE_PIECES, max_size=8).map("".join))
def test_the_date_attribute_precheck_is_the_words_substring_test(text: str) -> None:
    words = [w.decode() for w in metadata._DATE_ATTRIBUTE_WORDS]
    assert (metadata._DATE_ATTRIBUTE_TEXT.search(text) is not None) == any(w in text for w in words)
    data = text.encode("utf-8")
    assert (metadata._DATE_ATTRIBUTE_SOURCE.search(data) is not None) == any(w in data for w in metadata._DATE_ATTRIBUTE_WORDS)


def _reference_scripts(html: str) -> list[str]:
    # The JSON-LD scripts' texts as _json_ld_nodes read a str page before: the whole page encoded, the bytes' pattern.
    data = html.encode("utf-8", errors="replace")
    return [m.group(1).strip().decode("utf-8", errors="replace") for m in metadata._JSON_LD.finditer(data)]


_LD_PIECES = st.sampled_from([
    '<script type="application/ld+json">', "<SCRIPT TYPE='APPLICATION/LD+JSON' id=x>", "<script\ntype = application/ld+json>",
    "<ſcript type=application/ld+json>", "</script>", "</SCRIPT >", "</script\n>", '{"a": 1}', " ", "\x1c", "\xa0", "\u2003",
    "\n", "\ud800", "é", "K", "<", ">", "x",
])


@settings(max_examples=400)
@given(st.lists(_LD_PIECES, max_size=10).map("".join))
def test_json_ld_scripts_of_a_str_page_are_those_of_its_bytes(html: str) -> None:
    scripts = [m.group(1).strip(metadata._ASCII_SPACE).encode("utf-8", errors="replace").decode("utf-8", errors="replace")
               for m in metadata._JSON_LD_TEXT.finditer(html)]
    assert scripts == _reference_scripts(html)


def test_json_ld_of_a_str_page_is_read_as_of_its_bytes() -> None:
    article = json.dumps({"@type": "NewsArticle", "headline": "H\u00e9"})
    page = _page(head=f"<script type='application/ld+json'>\n {article} \n</script>")
    assert metadata._json_ld_nodes(page) == metadata._json_ld_nodes(page.encode("utf-8")) == [{"@type": "NewsArticle", "headline": "H\u00e9"}]
    # A no-break space is not ASCII whitespace: it is left in the script's text, which is then no JSON, read as bytes or not.
    page = _page(head=f"<script type='application/ld+json'>\xa0{article}</script>")
    assert metadata._json_ld_nodes(page) == metadata._json_ld_nodes(page.encode("utf-8")) == []


# Pieces of a page's source around its JSON-LD scripts: tags in any case, stray "<" and ">", "ld+json" outside a script.
_SOURCE_PIECES = st.lists(st.sampled_from([
    "<script", "<SCRIPT", "<Script", " type=", ' type="', "application/ld+json", "application/LD+JSON", "Application/Ld+Json",
    '"', "ld+json", ">", "<", "</script>", "</SCRIPT >", "</script", '{"headline": "A"}', "x", " ", "\u00e9", "\U0001f600",
    "<p>", "data-x=ld+json ",
]), max_size=24).map("".join)


@settings(max_examples=400, deadline=None)
@given(_SOURCE_PIECES)
def test_the_json_ld_scripts_are_the_pattern_s_matches_over_the_whole_page(html: str) -> None:
    # The matches tried only where "ld+json" is, in any case, are those of the pattern's scan of the whole page.
    reference = [m.span() for m in metadata._JSON_LD_TEXT.finditer(html)]
    assert [m.span() for m in metadata._json_ld_matches(html)] == reference
