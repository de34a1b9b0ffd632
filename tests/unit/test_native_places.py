"""The native search for the elements forest.metadata's places read (forest.classifier._walk.marked_elements)
against its reference, lxml's ``iter(etree.Element)`` with ``get()`` and ``tag`` on every element: the same
elements in the same order, on hand-made and generated pages and a fixed sample of every shared dataset's
pages (``-m bench``: all of them); and the same places, element for element, as the loop it replaced.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html

from dataset_pages import dataset_pages, skip_without_datasets
from forest import metadata
from forest.classifier._walk import marked_elements
from forest.errors import ParseError
from forest.html import parse_html

ATTRIBUTES = ("itemprop", "rel")
TAGS = ("time", "abbr")


def reference_marked(root: etree._Element, attributes: tuple[str, ...] = ATTRIBUTES, tags: tuple[str, ...] = TAGS) -> list[etree._Element]:
    return [e for e in root.iter(etree.Element) if e.tag in tags or any(e.get(a) is not None for a in attributes)]


def reference_places(root: etree._Element) -> dict[str, etree._Element]:
    """forest.metadata._places as it was: every element of the page read in Python."""
    first: dict[str, etree._Element] = {}
    body = root.find("body")
    for element in root.iter(etree.Element):
        get = element.get
        itemprop, rel, tag = get("itemprop"), get("rel"), element.tag
        if itemprop is None and rel is None and tag != "time" and tag != "abbr":
            continue
        if itemprop in ("datePublished", "dateCreated", "author"):
            first.setdefault(itemprop, element)
        in_body = body is not None and any(a is body for a in element.iterancestors())
        if rel == "author" and in_body:
            first.setdefault("rel", element)
        if tag == "time":
            if get("pubdate") is not None:
                first.setdefault("pubdate", element)
            if "datetime" not in first and in_body and metadata.parse_date(get("datetime") or "") is not None:
                first["datetime"] = element
        if tag == "abbr" and get("title") and metadata._DATE_NAMED.search(get("class") or ""):
            first.setdefault("abbr", element)
    return first


def check(root: etree._Element, html: str | None = None) -> None:
    assert marked_elements(root, ATTRIBUTES, TAGS) == reference_marked(root)
    places, reference = metadata._places(root), reference_places(root)
    assert places.keys() == reference.keys()
    assert all(places[k] is reference[k] for k in places)
    # The places and the attributed date read from the elements both searches share (extract_fields'),
    # as each read them alone: the date's elements by the XPath, after the page's source is tested.
    statements = metadata.statement_elements(root)
    assert statements == reference_marked(root, metadata._STATEMENT_ATTRIBUTES, TAGS)
    shared = metadata._places(root, statements)
    assert shared.keys() == reference.keys() and all(shared[k] is reference[k] for k in shared)
    assert metadata.microdata_fields(root, statements) == metadata.microdata_fields(root)
    for source in (html, html.encode("utf-8") if html is not None else None):
        assert metadata.attributed_date(root, source, statements) == metadata.attributed_date(root, source)


PAGE = """<html><head><meta itemprop="datePublished" content="2020-01-02"><title>T</title></head><body>
<!-- a comment --><?pi x?><div rel="nofollow"><a rel="author" href="/a">Ana</a></div>
<time datetime="02-12-2025">bad</time><p>x<time pubdate datetime="2021-03-04">4 March</time>y</p>
<abbr class="published" title="2021-03-04">Mar 4</abbr><span itemprop="">empty</span>
<ul><li><span itemprop="author">Rui</span></li></ul><TIME>upper</TIME></body></html>"""


def test_a_page_marks_as_the_reference() -> None:
    root = lxml_html.document_fromstring(PAGE)
    check(root)
    found = marked_elements(root, ATTRIBUTES, TAGS)
    assert [e.tag for e in found][:3] == ["meta", "div", "a"]
    assert metadata._places(root)["rel"].text == "Ana"


def test_a_subtree_is_searched_from_its_root_alone() -> None:
    root = lxml_html.document_fromstring(PAGE)
    body = root.find("body")
    assert body is not None
    item = body.find(".//li")
    assert item is not None
    assert marked_elements(item, ATTRIBUTES, TAGS) == reference_marked(item)
    assert [e.get("itemprop") for e in marked_elements(item, ATTRIBUTES, TAGS)] == ["author"]
    # The root itself counts, as iter() gives it; its siblings do not.
    span = item[0]
    assert marked_elements(span, ATTRIBUTES, TAGS) == [span]


def test_namespaced_names_are_not_the_plain_ones() -> None:
    root = etree.fromstring('<r xmlns:x="urn:x"><x:time/><a x:rel="author"/><time/><b rel=""/></r>')
    assert marked_elements(root, ATTRIBUTES, TAGS) == reference_marked(root)
    assert [e.tag for e in marked_elements(root, ATTRIBUTES, TAGS)] == ["time", "b"]


def test_no_names_find_nothing() -> None:
    root = lxml_html.document_fromstring(PAGE)
    assert marked_elements(root, (), ()) == []


def test_a_non_element_is_refused() -> None:
    with pytest.raises(TypeError):
        marked_elements("<p/>", ATTRIBUTES, TAGS)  # type: ignore[arg-type]


names = st.sampled_from(["div", "time", "abbr", "a", "span", "p", "meta"])
attributes = st.sampled_from(['', ' rel="author"', ' rel="x"', ' itemprop="author"', ' itemprop=""', ' datetime="2020-01-02"',
                              ' class="published" title="2020-01-02"', ' pubdate', ' relx="1"', ' item="2"',
                              ' data-published="2020-01-02"', ' data-pubdate="x"', ' data-publish-date=""', ' DATA-PUBLISHED="2019-05-06"'])
elements = st.recursive(
    st.sampled_from(["", "text", "<!-- c -->"]),
    lambda inner: st.tuples(names, attributes, st.lists(inner, max_size=4)).map(lambda t: f"<{t[0]}{t[1]}>{''.join(t[2])}</{t[0]}>"),
    max_leaves=20,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(elements, min_size=1, max_size=5), st.lists(elements, max_size=2))
def test_generated_pages_mark_as_the_reference(body: list[str], head: list[str]) -> None:
    try:
        html = f"<html><head>{''.join(head)}</head><body>{''.join(body)}</body></html>"
        root = parse_html(html)
    except ParseError:
        return
    check(root, html)


def check_pages(pages: list[str]) -> int:
    checked = 0
    for html in pages:
        try:
            root = parse_html(html)
        except ParseError:
            continue
        check(root, html)
        checked += 1
    return checked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_marks_as_the_reference() -> None:
    skip_without_datasets()
    assert sum(check_pages(pages) for pages in dataset_pages(every=False).values()) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_marks_as_the_reference() -> None:
    skip_without_datasets()
    for pages in dataset_pages(every=True).values():
        check_pages(pages)
