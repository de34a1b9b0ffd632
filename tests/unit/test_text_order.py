"""A region's text pass leaves the page's document order as it found it (patterns/_order.pyx)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html

from patterns._order import forget_order
from patterns.text import text_blocks

PAGE = "<html><body>" + "".join(f"<div id='d{i}'><p>a{i}</p><p>b{i}</p></div>" for i in range(4)) + "</body></html>"
# A union XPath sorts its nodes into document order: the step libxslt's numbering misled.
UNION = "//div[@id='d2']/p | //div[@id='d0']/p | //div[@id='d3']/p"
# A skip pattern the walk in C (patterns._blocks) leaves to the stylesheet (a position): the text is libxslt's.
XSLT = ("p[99]",)


def test_xpath_keeps_document_order_after_the_text_of_two_regions() -> None:
    root = html.document_fromstring(PAGE)
    divs = root.xpath("//div")
    # Each transformed subtree was numbered from 1 by libxslt: d2's first paragraph and d0's
    # first then compared as equals, and the union came back as a0 a2 b0 b2 a3 b3.
    assert [b.text for b in text_blocks([divs[2]], XSLT)] == ["a2", "b2"]
    assert [b.text for b in text_blocks([divs[0]], XSLT)] == ["a0", "b0"]
    assert [p.text for p in root.xpath(UNION)] == ["a0", "b0", "a2", "b2", "a3", "b3"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=6), st.permutations(range(6)))
def test_any_sequence_of_regions_keeps_the_order(regions: list[int], order: list[int]) -> None:
    root = html.document_fromstring(
        "<html><body>" + "".join(f"<section id='s{i}'><p>x{i}<b>y{i}</b></p><div><p>z{i}</p></div></section>" for i in range(6)) + "</body></html>"
    )
    sections = root.xpath("//section")
    for i in regions:
        text_blocks([sections[i]], XSLT)
    query = " | ".join(f"//section[@id='s{i}']//p" for i in order)
    assert [p.text for p in root.xpath(query)] == [f"{c}{i}" for i in range(6) for c in "xz"]


def test_forget_order_stays_inside_its_subtree() -> None:
    root = html.document_fromstring(PAGE)
    body = root.find("body")
    forget_order(body)  # nothing numbered: a no-op
    forget_order(body[1][0])  # a leaf with a text child
    assert [p.text for p in root.xpath(UNION)] == ["a0", "b0", "a2", "b2", "a3", "b3"]
