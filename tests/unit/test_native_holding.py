"""The native search for elements whose attributes hold a part (forest.classifier._walk.elements_holding)
against its reference, the XPath ``.//*[contains(@a, 'p') or ...]`` it replaced in forest.extraction.reviews:
the same elements in the same order, on hand-made and generated pages and a fixed sample of every shared
dataset's pages (``-m bench``: all of them)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html

from dataset_pages import check_dataset_bodies, generated_page
from forest.classifier._walk import elements_holding
from forest.extraction import reviews

ATTRIBUTES = reviews._ATTRIBUTES
PARTS = reviews._PARTS


def reference(root: etree._Element, attributes: tuple[str, ...] = ATTRIBUTES, parts: tuple[str, ...] = PARTS) -> list[etree._Element]:
    if not attributes or not parts:
        return []
    tests = " or ".join(f"contains(@{a}, '{p}')" for a in attributes for p in parts)
    return list(root.xpath(f".//*[{tests}]"))


def check(root: etree._Element) -> None:
    assert elements_holding(root, ATTRIBUTES, PARTS) == reference(root)
    body = root.find("body")
    if body is not None:
        assert elements_holding(body, ATTRIBUTES, PARTS) == reference(body)


PAGE = """<html><head><title>T</title></head><body class="review-page">
<div id="reviews"><p class="Review">a</p><span class="preview">b</span></div><!-- class="review" -->
<div class="stars" data-rating="5"><i id="RATING-1">c</i><i class="Rating rating">d</i></div>
<p class="">e</p><p id="">f</p><p class="operating-hours">g</p><p CLASS="REVIEW">h</p></body></html>"""


def test_a_page_holds_as_the_reference() -> None:
    root = lxml_html.document_fromstring(PAGE)
    check(root)
    body = root.find("body")
    assert body is not None
    found = elements_holding(body, ATTRIBUTES, PARTS)
    # The root is not its own descendant; an attribute not named is not read (data-rating).
    assert body not in found and all(e.get("data-rating") is None for e in found)
    assert [e.text for e in found if e.tag != "div"] == ["a", "b", "c", "d", "g", "h"]


def test_namespaced_attributes_are_not_the_plain_ones() -> None:
    root = etree.fromstring('<r xmlns:x="urn:x"><a x:class="review"/><b class="review"/><c id="rating"/></r>')
    check(root)
    assert [e.tag for e in elements_holding(root, ATTRIBUTES, PARTS)] == ["b", "c"]


def test_a_value_of_several_nodes_is_read_whole() -> None:
    # An XML attribute holding an entity reference: its value is more than one text node.
    parser = etree.XMLParser(resolve_entities=False)
    root = etree.fromstring('<!DOCTYPE r [<!ENTITY v "view">]><r><a class="re&v;"/><b class="x&v;"/><c class="rating"/></r>', parser)
    check(root)
    assert [e.tag for e in elements_holding(root, ATTRIBUTES, PARTS)] == ["a", "c"]


def test_no_attributes_or_parts_find_nothing() -> None:
    root = lxml_html.document_fromstring(PAGE)
    assert elements_holding(root, (), PARTS) == [] and elements_holding(root, ATTRIBUTES, ()) == []


def test_a_non_element_is_refused() -> None:
    with pytest.raises(TypeError):
        elements_holding("<p/>", ATTRIBUTES, PARTS)  # type: ignore[arg-type]


names = st.sampled_from(["div", "span", "p", "li", "section"])
values = st.lists(st.sampled_from(["review", "Review", "REVIEW", "preview", "rating", "Rating", "RATING", "operating",
                                   "reviews-list", "star", "eview", "ATIN", "ating", "é", "x y"]), max_size=3).map(" ".join)
attributes = st.one_of(
    st.just(""),
    st.tuples(st.sampled_from(["class", "id", "data-review", "Class"]), values).map(lambda t: f' {t[0]}="{t[1]}"'),
)
elements = st.recursive(
    st.sampled_from(["", "text", "<!-- c -->"]),
    lambda inner: st.tuples(names, attributes, attributes, st.lists(inner, max_size=4)).map(
        lambda t: f"<{t[0]}{t[1]}{t[2]}>{''.join(t[3])}</{t[0]}>"),
    max_leaves=20,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(elements, min_size=1, max_size=5))
def test_generated_pages_hold_as_the_reference(body: list[str]) -> None:
    root = generated_page(body)
    if root is not None:
        check(root)


@pytest.mark.datasets
@pytest.mark.parametrize("every", [False, pytest.param(True, marks=pytest.mark.bench)], ids=["sample", "every page"])
def test_dataset_pages_hold_as_the_reference(every: bool) -> None:
    check_dataset_bodies(check, every)
