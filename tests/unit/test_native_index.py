"""Learning's native page index (forest.learning._name, forest.learning.index.page_index) against its
reference, patterns.dom.index_page over lxml's elements: equal on every element, parent, subtree end,
depth, term list and key (in the keys' order too: learning reads them in that order), over hand-made
and generated pages and a fixed sample of every shared dataset's pages (``-m bench``: all of them).
The rows the region's cut reads of those keys (forest.learning._name.key_rows) equal their reference's too,
and so do the marks it reads of the elements' tags (forest.learning._name.tag_marks: media, links).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from dataset_pages import bodies, dataset_pages, skip_without_datasets
from forest.html import parse_html
from forest.learning import consensus
from forest.learning._name import key_rows, tag_marks
from forest.learning.index import page_index
from patterns.dom import PageIndex, index_page


def same(got: PageIndex, want: PageIndex) -> None:
    assert len(got.elements) == len(want.elements)
    assert all(a is b for a, b in zip(got.elements, want.elements))
    assert (got.parent, got.end, got.depth) == (want.parent, want.end, want.depth)
    assert got.terms == want.terms
    assert got.n_terms == want.n_terms
    assert list(got.keys.items()) == list(want.keys.items())


def same_rows(index: PageIndex) -> None:
    """The region cut's rows of the page's keys (forest.learning.consensus._PageParts) as its reference reads them,
    with ids numbered after those of keys seen already (another sample page's)."""
    ids, native_ids = {"//p": 0, "//nav": 1}, {"//p": 0, "//nav": 1}
    want = consensus._key_rows(index.keys, ids)
    got = key_rows(index.keys, consensus._CUT_STEPS, consensus._cut_steps, native_ids)
    assert native_ids == ids and list(native_ids) == list(ids)
    assert all(a.dtype == b.dtype and a.tolist() == b.tolist() for a, b in zip(got, want))


def same_marks(index: PageIndex) -> None:
    """The elements' media and link marks (forest.learning.consensus._PageParts) as its reference reads them."""
    want = consensus._tag_marks(index)
    got = tag_marks(index.elements, index.parent, consensus._MEDIA_ORDER)
    assert all(a.dtype == b.dtype and a.tolist() == b.tolist() for a, b in zip(got, want))


def check(body: etree._Element) -> None:
    same(page_index(body), index_page(body))
    same_rows(page_index(body))
    same_marks(page_index(body))
    same(page_index(body, with_keys=False), index_page(body, with_keys=False))
    same(page_index(body, paths=True), index_page(body, paths=True))


def body_of(page: str) -> etree._Element:
    body = parse_html(page).find("body")
    assert body is not None
    return body


@pytest.mark.parametrize(
    "page",
    [
        "<html><body></body></html>",
        "<html><body>text only, 42 words</body></html>",
        "<html><body><div id='story' class='a  b a'>one<p>two <b>three</b> four</p>five<!-- c -->six</div>seven</body></html>",
        # Values no XPath literal can quote, over-long values, blank values, and tags XPath cannot name.
        "<html><body><div class=\"it's &quot;q&quot;\" id=\" \"><p class='" + "x" * 130 + "'>a</p></div>"
        "<p:q role='main'>b<span itemprop=name>c</span></p:q><a\"b>d</a\"b></body></html>",
        # Anchored paths three levels down, through an element without attributes.
        "<html><body><div id='a'><section><div><p>deep</p></div></section></div><div role='x'><ul><li>i</li></ul></div></body></html>",
        # Unspaced scripts, numbers, combining accents, and whitespace beyond ASCII.
        "<html><body><p>東京 2024 cafe\u0301 \xa0</p><p>\u3000</p><span>\x1c</span></body></html>",
        "<html><body>" + "<div class='d'>" * 120 + "deep" + "</div>" * 120 + "</body></html>",
    ],
    ids=["empty", "text-only", "tails", "unquotable", "anchored", "unicode", "deep"],
)
def test_the_native_index_equals_the_reference(page: str) -> None:
    check(body_of(page))


def test_an_index_from_any_element_equals_the_reference() -> None:
    body = body_of("<html><body><div id='d'>x<div class='c'>in <b>a</b></div>tail</div><p id=p>p<i>i</i>t</p></body></html>")
    for element in body.iter(etree.Element):
        check(element)


def test_namespaced_and_hand_built_trees_equal_the_reference() -> None:
    # A namespaced a or img is no link nor media (its tag is "{urn:x}a"): inside one, an img is media, and not linked.
    root = etree.fromstring(b"<body xmlns:x='urn:x'><div x:class='n' class='c'>a<![CDATA[ b ]]>c</div><x:div id='i'>d</x:div>"
                            b"<?pi data?>f<x:a><img/><x:img/></x:a></body>", etree.XMLParser(strip_cdata=False))
    check(root)
    built = etree.Element("body")
    etree.SubElement(built, "p", {"class": "made"}).text = "made by hand"
    etree.SubElement(built, "div").tail = " and a tail "
    etree.SubElement(etree.SubElement(etree.SubElement(built, "a"), "span"), "video")
    check(built)


def test_more_tags_than_the_tag_cache_holds_equal_the_reference() -> None:
    # index_body keeps a page's tags by the address of libxml2's name in 256 slots: 700 names collide in
    # them and replace each other, and the same names come again, some with identifying attributes.
    names = [f"t{i}" for i in range(700)]
    parts = "".join(f"<{n}><{m} class='c'>x</{m}></{n}>" for n, m in zip(names, reversed(names)))
    check(body_of(f"<html><body>{parts}{parts}<p:q><a href='/'>y</a></p:q></body></html>"))


TAGS = ["div", "p", "span", "a", "b", "li", "ul", "td", "section", "x-card", "nav", "picture", "svg"]
WORDS = ["word", "x", "é", "中文", "42", " ", "\n", "\xa0", "\u3000", "&amp;", "a.b", "it's", "Word_2", "3D", "ABC", "a1b", "1,000", "&#233;"]
ATTRIBUTES = [
    "", " class='story main'", " class='story  story'", " id='x'", " role='navigation'", " itemprop='headline'",
    " class='' id=''", " href='/' itemprop='url' role='link' id='l'", " class=\"a'b c\"", " data-x='1'",
]
texts = st.lists(st.sampled_from(WORDS), max_size=6).map("".join)
leaves = texts | st.sampled_from(["<!-- c -->", "<br>", "<img src=x>"])
fragments = st.recursive(
    leaves,
    lambda inner: st.builds(lambda tag, attributes, children: f"<{tag}{attributes}>{''.join(children)}</{tag}>",
                            st.sampled_from(TAGS), st.sampled_from(ATTRIBUTES), st.lists(inner, max_size=4)),
    max_leaves=30,
)
pages = st.lists(fragments, max_size=5).map(lambda parts: "<html><body>" + "".join(parts) + "</body></html>")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages)
def test_generated_pages_index_as_the_reference(page: str) -> None:
    check(body_of(page))


@pytest.mark.datasets
def test_a_sample_of_every_dataset_indexes_as_the_reference() -> None:
    skip_without_datasets()
    checked = 0
    for html in dataset_pages(every=False).values():
        for body in bodies(html):
            check(body)
            checked += 1
    assert checked > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_indexes_as_the_reference() -> None:
    skip_without_datasets()
    for html in dataset_pages(every=True).values():
        for body in bodies(html):
            check(body)
