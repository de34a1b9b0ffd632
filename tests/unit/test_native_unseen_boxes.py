"""The native walk for a region's unseen boxes (forest.classifier._walk.unseen_boxes, behind
forest.region.unseen_parts) against its reference, the Python walk it replaced: the same boxes in the
same order, on hand-made and generated pages and a fixed sample of every shared dataset's pages
(``-m bench``: all of them), for boxes seen and unseen."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html

from dataset_pages import check_dataset_bodies, generated_page
from forest import region


def reference(nodes: Sequence[etree._Element], seen: frozenset[str]) -> list[etree._Element]:
    found: list[etree._Element] = []
    within: set[etree._Element] = set()
    for node in nodes:
        for element in node.iterdescendants(*region.PART_TAGS):
            names = region.part_names(element)
            if not names or element in within or any(name in seen for name in names):
                continue
            if any(text.strip() for text in element.itertext()):
                found.append(element)
                within.update(element.iterdescendants())
    return found


def every_other_name(root: etree._Element) -> frozenset[str]:
    """Half the page's box names, as a sample's regions would have shown some and not others."""
    names = sorted(region.part_keys([root]))
    return frozenset(names[::2])


def check(root: etree._Element) -> None:
    nodes = [root]
    for seen in (frozenset(), every_other_name(root), region.part_keys(nodes)):
        assert region.unseen_parts(nodes, frozenset(seen)) == reference(nodes, frozenset(seen))
    children = [child for child in root if isinstance(child.tag, str)]
    assert region.unseen_parts(children, frozenset()) == reference(children, frozenset())


PAGE = """<html><head><title>T</title></head><body>
<div class="story"><p>Text</p>
  <div class="slideshow gallery"><div class="slide"><p>Caption one</p></div><figure class="credit"><p>x</p></figure></div>
  <div class="ad-12345"><p>numbered only</p></div>
  <div class="empty">  \u00a0 <span>\u2003</span><!-- a comment --></div>
  <aside class="note"><p>\u00a0Seen?</p></aside>
  <section><div class="inner"><p>inside a box with no class</p></div></section>
  <table class="data"><tr><td>cell</td></tr></table><span class="not-a-box">span</span>
  <DIV CLASS="Shout"><p>upper</p></DIV><div class=" "><p>blank class</p></div>
</div></body></html>"""


def test_a_page_walks_as_the_reference() -> None:
    root = lxml_html.document_fromstring(PAGE)
    check(root)
    story = root.find(".//div[@class='story']")
    assert story is not None
    boxes = region.unseen_parts([story], frozenset({"div.slideshow", "div.inner"}))
    # The slideshow is seen by one of its names: its slide is a box of its own. A box of numbered or blank
    # classes has no name; one of spaces alone shows nothing; a span is no box.
    assert [b.get("class") for b in boxes] == ["slide", "credit", "note", "data", "Shout"]
    # Nothing seen: the slideshow is the outermost box around its slide and credit.
    assert [b.get("class") for b in region.unseen_parts([story], frozenset())] == ["slideshow gallery", "note", "inner", "data", "Shout"]


def test_the_root_is_not_its_own_box() -> None:
    root = lxml_html.document_fromstring(PAGE)
    box = root.find(".//aside")
    assert box is not None
    assert region.unseen_parts([box], frozenset()) == [] == reference([box], frozenset())


def test_namespaced_boxes_and_classes_are_not_the_plain_ones() -> None:
    root = etree.fromstring('<r xmlns:x="urn:x"><x:div class="a">t</x:div><div x:class="b">t</div><div class="c">t</div></r>')
    check(root)
    assert [b.get("class") for b in region.unseen_parts([root], frozenset())] == ["c"]


names = st.sampled_from(["div", "section", "p", "span", "figure", "ul", "li", "table", "aside"])
classes = st.lists(st.sampled_from(["a", "b", "box", "x-1", "2", "Ä", "a b", ""]), max_size=2).map(" ".join)
attributes = st.one_of(st.just(""), classes.map(lambda c: f' class="{c}"'), st.just(' id="i"'))
texts = st.sampled_from(["", "text", " ", "\u00a0", "\u2003\n", "<!-- c -->", "<br>"])
elements = st.recursive(
    texts,
    lambda inner: st.tuples(names, attributes, st.lists(inner, max_size=4)).map(lambda t: f"<{t[0]}{t[1]}>{''.join(t[2])}</{t[0]}>"),
    max_leaves=20,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(elements, min_size=1, max_size=5))
def test_generated_pages_walk_as_the_reference(body: list[str]) -> None:
    root = generated_page(body)
    if root is not None:
        check(root)


@pytest.mark.datasets
@pytest.mark.parametrize("every", [False, pytest.param(True, marks=pytest.mark.bench)], ids=["sample", "every page"])
def test_dataset_pages_walk_as_the_reference(every: bool) -> None:
    check_dataset_bodies(check, every)
