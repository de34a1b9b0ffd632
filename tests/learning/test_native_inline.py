"""Learning's native inline children (forest.learning._inline, read by forest.learning.induce._holder) against
their reference, the Python loop they replace: each child element whose tag is not block-level, in document
order, with its XPath ``string()``.  Over hand-made trees and a fixed sample of every shared dataset's pages
(``-m bench``: all of them); tests/learning/test_learning_shortcuts.py checks generated pages against itertext.
The same for the subtrees' text sizes (``text_sizes``, read by forest.fields._Body.short) and the short
elements' texts (``short_texts``, the same) against the loops over every element's children they replace,
and for the elements whose id or class may name a comment thread
(``comment_named_candidates``, read by forest.learning.comments.CommentNamed.of): a superset of those of the
XPath it replaces that the pattern finds, and the same once the pattern has checked them.
"""

from __future__ import annotations


import pytest
from lxml import etree

from dataset_pages import dataset_pages, roots
from forest.fields import _Body
from forest.html import parse_html
from forest.learning._inline import comment_named_candidates, inline_children, text_sizes
from forest.learning.comments import _COMMENTISH
from patterns.text import BLOCK_TAGS

_STRING = etree.XPath("string()")


def reference(owner: etree._Element) -> list[tuple[str, etree._Element]]:
    return [(str(_STRING(child)), child) for child in owner if isinstance(child.tag, str) and child.tag not in BLOCK_TAGS]


# The spaces a text's size leaves out.
_SPACES = str.maketrans("", "", " \n\t\r")


def reference_sizes(top: etree._Element) -> list[int]:
    """Each element's characters of text in ``top``'s subtree, spaces aside: its text, its child elements'
    sizes and its children's tails, children first (the loop forest.fields._Body.short ran)."""
    elements = list(top.iter(etree.Element))
    size: dict[etree._Element, int] = {}
    for element in reversed(elements):
        text = element.text
        n = len(text.translate(_SPACES)) if text else 0
        for child in element:
            tail = child.tail
            n += size.get(child, 0) + (len(tail.translate(_SPACES)) if tail else 0)
        size[element] = n
    return [size[element] for element in elements]


def reference_short(top: etree._Element, limit: float, raw: dict[etree._Element, str]) -> list[etree._Element]:
    """The loop forest.fields._Body.short ran: the texts of the elements of at most ``limit`` characters
    ``raw`` lacks, children's first, each from its children's; and the short elements with some text."""
    elements, sizes = list(top.iter(etree.Element)), reference_sizes(top)
    for element, size in zip(reversed(elements), reversed(sizes)):
        if size <= limit and element not in raw:
            raw[element] = "".join([element.text or "", *(raw.get(c, "") + (c.tail or "") for c in element)])
    return [element for element, size in zip(elements, sizes) if 0 < size <= limit]


def check_short(top: etree._Element) -> None:
    """_Body.short (its texts joined in C, forest.learning._inline.short_texts) as its reference, asked
    for two limits in turn as learning asks for a headline's and a byline's (the texts read kept between)."""
    for limits in ((0, 12), (40, 5), (1e9,)):
        body, raw = _Body(top), {}
        for limit in limits:
            got, want = body.short(limit), reference_short(top, limit, raw)
            assert len(got) == len(want) and all(a is b for a, b in zip(got, want))
            assert body._raw == raw


_NAMED = etree.XPath(".//*[@id or @class]")


def _comment_named(element: etree._Element) -> bool:
    return _COMMENTISH.search(f"{element.get('id', '')} {element.get('class', '')}") is not None


def check(root: etree._Element) -> int:
    checked = 0
    body = root.find("body")
    for top in (root, body) if body is not None else (root,):
        assert text_sizes(top) == reference_sizes(top)
        check_short(top)
        candidates, named = comment_named_candidates(top), _NAMED(top)
        assert set(candidates) <= set(named)
        assert [e for e in candidates if _comment_named(e)] == [e for e in named if _comment_named(e)]
    for element in root.iter():
        got, want = inline_children(element, BLOCK_TAGS), reference(element)
        assert [text for text, _ in got] == [text for text, _ in want]
        assert all(a is b for (_, a), (_, b) in zip(got, want, strict=True))
        checked += 1
    return checked


@pytest.mark.parametrize(
    "page",
    [
        "<html><body></body></html>",
        "<html><body><p>a <b>bold <i>and</i> italic</b> tail<!-- c --> after <?pi x?>end</p></body></html>",
        "<html><body><div><span>one</span><p>block</p><time>9 May</time>&amp;&nbsp;<em>東京 cafe\u0301</em></div></body></html>",
        "<html><body><div>" + "<span>deep " * 200 + "</span>" * 200 + "</div></body></html>",
    ],
    ids=["empty", "comments-and-pi", "blocks-and-entities", "deep"],
)
def test_the_native_inline_children_equal_the_reference(page: str) -> None:
    assert check(parse_html(page)) > 0


def test_comment_names_in_any_case_and_script_are_candidates() -> None:
    root = parse_html("<html><body><div id='main'><div class='Comments-List'><p id='c1' class='x'>a</p></div>"
                      "<section id='RESPONSE'></section><ul class='dıſcuſſion'></ul><span class='respo'></span>"
                      "<div data-x='comment' class='y'></div><b class='disqus'/><i id='' class='replies'></i></div></body></html>")
    got = comment_named_candidates(root.find("body"))
    assert [e.get("class") or e.get("id") for e in got] == ["Comments-List", "RESPONSE", "dıſcuſſion", "disqus", "replies"]
    assert all(_comment_named(e) for e in got)  # the long s of the third is an "s" to the pattern too


def test_namespaced_cdata_and_hand_built_trees_equal_the_reference() -> None:
    root = etree.fromstring(b"<body xmlns:x='urn:x'><div>a<![CDATA[ b ]]>c<x:span>d<![CDATA[e]]></x:span><p>f</p></div></body>",
                            etree.XMLParser(strip_cdata=False))
    check(root)
    built = etree.Element("div")
    etree.SubElement(built, "span").text = "made by hand"
    etree.SubElement(built, "b").tail = " and a tail "
    check(built)


def test_an_entity_reference_is_joined_as_libxml2_joins_it() -> None:
    root = etree.fromstring(b"<!DOCTYPE d [<!ENTITY e 'entity text'>]><d><s>a &e; b</s></d>",
                            etree.XMLParser(resolve_entities=False))
    assert inline_children(root, frozenset()) == [("a entity text b", root[0])]
    # An entity reference's text is no element's own: its tail is its parent's, as lxml iterates it.
    assert text_sizes(root) == reference_sizes(root) == [2, 2]
    check_short(root)  # the element holding it is joined by the reference's loop


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
