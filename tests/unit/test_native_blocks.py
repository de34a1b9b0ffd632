"""The region text pass in C (patterns._blocks, read by patterns.text.text_blocks) against its reference, the
XSLT stylesheet's text read line by line (patterns.text._lines): equal blocks over hand-made and generated pages
and skip patterns, and over a fixed sample of every shared dataset's pages (``-m bench``: all of them).  Its
text lengths (patterns.text.text_lengths) against the text lxml writes.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html

from dataset_pages import dataset_pages, skip_without_datasets
from forest.errors import ParseError
from forest.html import parse_html
from patterns import _blocks
from patterns.text import BLOCK_TAGS, Block, _lines, _program, _stylesheet, _transformed, text_blocks, text_lengths

# Exclusions as learning writes them (forest.learning: consensus, boxes, comment sections), and the other forms the walk reads.
LEARNED = [
    "div[@class='share']",
    "div[@id='a']/div/p",
    "div[@class='x']/div",
    "footer",
    "div[contains(concat(@class, ' ', @id), 'omment')]",
    "ul[contains(concat(' ', normalize-space(@class), ' '), ' related ')]",
]
READ = [
    "*[@id='b']",
    "p[@class]",
    "span[not(@class)]",
    "div[@class='x' or @id='a']",
    "div[@class and @id]",
    "a[starts-with(@href, 'http')]",
    "p[normalize-space(@class)='lead note']",
    "div[string(@id)='a']",
    "p['lead'=@class]",
    "li[@class=\"c\"][@id]",
]
# Forms left to the stylesheet: a position, an axis, a node test, a number, a function it does not know, a variable-free
# but context-bound call.
UNREAD = ["p[1]", "div[last()]", "div//p", "p[ancestor::div]", "p[../@class='x']", "text()", "p[count(b)=1]",
          "p[string-length(@class)]", "p[lang('en')]", "id('a')", "p[@class!='x']", "p[concat(@class, 'x')]"]


def reference(node: etree._Element, skip: tuple[str, ...]) -> list[Block]:
    return _lines(_transformed(node, _stylesheet(skip)))


def check(node: etree._Element, skip: tuple[str, ...]) -> None:
    """The walk's blocks equal the stylesheet's where the walk reads the patterns, and text_blocks equals it always;
    the text's lengths are those of lxml's text."""
    text = etree.tostring(node, method="text", encoding="unicode", with_tail=False)
    assert text_lengths(node) == (len(text), len(" ".join(text.split())))
    native_lengths = _blocks.text_lengths(node)
    assert native_lengths is None or native_lengths == (len(text), len(" ".join(text.split())))
    program = _program(skip)
    expected = reference(node, skip)
    if program is not None:
        native = _blocks.blocks(node, BLOCK_TAGS, program, Block)
        if native is not None:
            assert native == expected
            assert all(type(b) is Block for b in native)
    assert text_blocks([node], skip) == expected


def test_learned_forms_are_read_in_c() -> None:
    for pattern in LEARNED + READ:
        assert _program((pattern,)) is not None, pattern
    for pattern in UNREAD:
        assert _program((pattern,)) is None, pattern
    assert _program(()) == ()


PAGE = """<html><body><div id="a" class="x">
  <p>First  <a href="/x">link text</a> words &amp; more</p>
  <div class="share"><p>Share this</p></div>tail after share
  <div><p class="lead">Deep <b>bold</b></p><span>loose</span></div>
  <div class="x"><div><a href="http://e">Related <p>block inside a link</p> after</a></div></div>
  <footer>Footer text</footer><ul class=" related  list"><li>r</li></ul><ul class="list\nrelated"><li>s</li></ul>
  <ul class="\trelated\xa0list"><li>t</li></ul>
  <p class="lead note" id="n">   spaced   </p><section id="comments"><p>A comment</p></section>
</div></body></html>"""


@pytest.mark.parametrize("skip", [(), tuple(LEARNED), tuple(READ), tuple(LEARNED + READ), ("div[@id='a']",), ("body/div",),
                                  ("div[@id='a']/div",), tuple(UNREAD[:3])])
def test_a_page_reads_as_the_reference(skip: tuple[str, ...]) -> None:
    root = lxml_html.document_fromstring(PAGE)
    body = root.find("body")
    assert body is not None
    for node in (body, *body.iter(etree.Element)):
        check(node, skip)


def test_an_exclusion_climbs_no_higher_than_the_transformed_element() -> None:
    # libxslt sees the transformed element as a document's root: a step above it matches nothing.
    root = lxml_html.document_fromstring("<html><body><div id='a'><div><p>kept</p></div></div></body></html>")
    outer = root.find(".//div[@id='a']")
    assert outer is not None
    inner = outer[0]
    assert [b.text for b in text_blocks([inner], ("div[@id='a']/div",))] == ["kept"]
    assert text_blocks([outer], ("div[@id='a']/div",)) == []
    assert text_blocks([inner], ("div[@id='a']/div/p",)) == reference(inner, ("div[@id='a']/div/p",)) == [Block("kept", 0)]
    check(inner, ("div[@id='a']/div",))
    check(outer, ("div[@id='a']/div",))


def xml(page: str) -> etree._Element:
    return etree.fromstring(page, etree.XMLParser(strip_cdata=False, resolve_entities=False))


@pytest.mark.parametrize(
    "page",
    [
        # Comments, processing instructions and CDATA: the stylesheet writes the CDATA's text and nothing of the others.
        "<div><p>a<!-- c -->b<?pi x?>c<![CDATA[d <e>]]></p><a>link<!-- c --></a>tail</div>",
        # An entity reference the parser kept: left to the stylesheet.
        "<!DOCTYPE div [<!ENTITY e 'entity text'>]><div><p>a &e; b</p></div>",
        # A namespaced element: left to the stylesheet.
        "<div xmlns:x='urn:x'><p>a</p><x:p>b</x:p></div>",
        # Text starting as an XML declaration, which lxml strips from a transform's text: left to the stylesheet.
        "<span>&lt;?xml version='1.0' encoding='ascii'?&gt; text<p>x</p></span>",
        "<div>\u00e9\u4e2d\U0001F600 <p>\xa0 \u2003x\u3000</p><a>\x85 \u2028x\u2029</a></div>",
        # The marks' own characters in a page's text are marks to the reader of the stylesheet's text too.
        "<div>one\ue000two <a>l\ue002ink</a> a\ue001b\ue000c <p>\ue001x</p>y\ue002 z\uefff\ue0ff</div>",
    ],
    ids=["comments", "entity", "namespace", "xml-declaration", "unicode", "marks"],
)
def test_other_nodes_read_as_the_reference(page: str) -> None:
    root = xml(page)
    for node in root.iter(etree.Element):
        check(node, tuple(LEARNED))


def test_other_nodes_are_left_to_the_stylesheet() -> None:
    assert _blocks.blocks(xml("<!DOCTYPE div [<!ENTITY e 'x'>]><div>&e;</div>"), BLOCK_TAGS, (), Block) is None
    assert _blocks.blocks(xml("<div xmlns:x='urn:x'><x:p>b</x:p></div>"), BLOCK_TAGS, (), Block) is None
    assert _blocks.blocks(xml("<span>&lt;?xml version='1.0'?&gt;</span>"), BLOCK_TAGS, (), Block) is None
    # A block's text starts with its mark, not with the declaration.
    assert _blocks.blocks(xml("<div>&lt;?xml version='1.0'?&gt;</div>"), BLOCK_TAGS, (), Block) == [Block("<?xml version='1.0'?>", 0)]
    assert _blocks.blocks(etree.Comment("c"), BLOCK_TAGS, (), Block) is None
    assert _blocks.text_lengths(xml("<!DOCTYPE div [<!ENTITY e 'x'>]><div>&e;</div>")) is None
    assert _blocks.text_lengths(etree.Comment("c")) is None


def test_a_pattern_xslt_cannot_match_is_refused() -> None:
    node = lxml_html.document_fromstring("<html><body><p>x</p></body></html>")
    with pytest.raises(ValueError):
        text_blocks([node], ("div[@class='x'",))
    with pytest.raises(ValueError):
        text_blocks([node], ("ancestor::div",))


def test_built_trees_read_as_the_reference() -> None:
    div = etree.Element("div", {"class": "x"})
    div.text = ""
    p = etree.SubElement(div, "p", {"class": ""})
    p.text, p.tail = "words", ""
    etree.SubElement(div, "a").tail = "a tail"
    # An attribute whose value the walk cannot read from one text node: read through lxml.
    for skip in ((), ("p[@class='']",), ("p[@class]",), ("div[@class='x']/p",)):
        check(div, skip)


# Generated markup: texts (some blank, some of link text), links, blocks and inline elements, with attributes
# the generated skip patterns name (or nearly: a class with spaces, an empty one, a prefix of another).
TAGS = ["div", "p", "span", "a", "b", "li", "ul", "section", "br", "td"]
WORDS = ["word", " ", "\n  ", "", "\xa0", "two words", "\u2003em", "&amp;", "\u4e2d", "\ue000", "\ue001", "\ue002", "\ue0ff"]
ATTRIBUTES = ["", " class='x'", " class='x y'", " class=' x  y '", " class=''", " id='a'", " id='comments'", " class='commentlist'",
              " class='x' id='a'", " href='http://e'", " class='xy'", " class='x\ny'", " class='\tx\r\n'", " class='x\xa0y'"]
texts = st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join)
fragments = st.recursive(
    texts | st.just("<!--c-->"),
    lambda inner: st.builds(lambda tag, attributes, children: f"<{tag}{attributes}>{''.join(children)}</{tag}>",
                            st.sampled_from(TAGS), st.sampled_from(ATTRIBUTES), st.lists(inner, max_size=4)),
    max_leaves=25,
)
NAMES = ["div", "p", "span", "a", "li", "ul", "*"]
PREDICATES = ["", "[@class='x']", "[@class='x y']", "[@id='a']", "[@class]", "[not(@id)]", "[@class='']",
              "[contains(concat(@class, ' ', @id), 'omment')]", "[contains(concat(' ', normalize-space(@class), ' '), ' x ')]",
              "[starts-with(@class, 'x')]", "[@class='x' and @id='a']", "[@id='a' or @class='xy']", "[1]", "[position()=2]"]
steps = st.builds(lambda name, predicate: name + predicate, st.sampled_from(NAMES), st.sampled_from(PREDICATES))
patterns = st.lists(steps, min_size=1, max_size=3).map("/".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(fragments, max_size=4), st.lists(patterns, max_size=4))
def test_generated_pages_read_as_the_reference(parts: list[str], skip: list[str]) -> None:
    root = lxml_html.document_fromstring(f"<html><body>{''.join(parts)}</body></html>")
    for node in root.iter(etree.Element):
        check(node, tuple(skip))


def _parsed(html: str) -> etree._Element | None:
    try:
        return parse_html(html)
    except ParseError:
        return None


def page_patterns(root: etree._Element) -> tuple[str, ...]:
    """Skip patterns for a page as learning writes them, from its own names: a class, an id, one under another."""
    # An element name with a prefix (fb:send) is no match pattern: libxslt knows no such namespace.
    named = [e for e in root.iter(etree.Element) if (e.get("class") or e.get("id")) and re.fullmatch(r"[a-z][a-z0-9-]*", e.tag)]
    named = named[::7][:12]
    found = [f"{e.tag}[@class='{e.get('class')}']" if e.get("class") else f"{e.tag}[@id='{e.get('id')}']"
             for e in named if "'" not in (e.get("class") or e.get("id") or "")]
    return tuple(found[:6]) + tuple(f"{step}/div" for step in found[6:9]) + tuple(LEARNED[4:])


def check_page(html: str, most: int | None = None) -> bool:
    root = _parsed(html)
    body = root.find("body") if root is not None else None
    if root is None or body is None:
        return False
    skip = page_patterns(root)
    elements = list(body.iter(etree.Element))
    for node in elements[:: max(1, len(elements) // most) if most else 1]:
        for each in ((), skip):
            check(node, each)
    return True


@pytest.mark.datasets
def test_a_sample_of_every_dataset_reads_as_the_reference() -> None:
    skip_without_datasets()
    checked = sum(check_page(html, most=40) for pages in dataset_pages(every=False).values() for html in pages)
    assert checked > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_reads_as_the_reference() -> None:
    skip_without_datasets()
    for pages in dataset_pages(every=True).values():
        for html in pages:
            check_page(html, most=200)
