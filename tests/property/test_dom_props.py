"""Property tests: any input parses or fails cleanly, and pattern keys mean what their XPath says."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st
from lxml import etree

from forest.errors import ParseError
from forest.html import parse_html
from patterns.dom import index_page
from patterns.text import text_blocks

TAGS = ["div", "p", "span", "a", "ul", "li", "section", "article", "h1", "em", "td"]
ATTRIBUTES = st.fixed_dictionaries(
    {},
    optional={
        "id": st.sampled_from(["main", "story", "nav", "x1"]),
        "class": st.sampled_from(["post", "post entry", "entry  hentry", "related", "a-b_c"]),
        "role": st.sampled_from(["main", "article"]),
    },
)
WORDS = st.text(alphabet=st.sampled_from("abcdefgh ,.'\"<&é東"), max_size=12)


@st.composite
def html_trees(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(TAGS))
    attributes = draw(ATTRIBUTES)
    attrs = "".join(f' {name}="{value}"' for name, value in attributes.items())
    children = draw(st.lists(html_trees(depth + 1), max_size=3)) if depth < 4 else []
    text = draw(WORDS).replace("<", "&lt;").replace("&", "&amp;")
    tail = draw(WORDS).replace("<", "&lt;").replace("&", "&amp;")
    return f"<{tag}{attrs}>{text}{''.join(children)}</{tag}>{tail}"


@given(st.binary(max_size=2000))
@settings(max_examples=200)
def test_any_bytes_parse_or_raise_parse_error(data: bytes) -> None:
    try:
        root = parse_html(data)
    except ParseError:
        return
    assert root.find("body") is not None


@given(st.text(max_size=2000))
@settings(max_examples=200)
def test_any_text_parses_or_raises_parse_error(text: str) -> None:
    try:
        parse_html(text)
    except ParseError:
        pass


@given(st.lists(html_trees(), min_size=1, max_size=4))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_every_pattern_key_selects_exactly_what_its_xpath_selects(fragments: list[str]) -> None:
    root = parse_html("<html><body>" + "".join(fragments) + "</body></html>")
    index = index_page(root.find("body"))
    for key, positions in index.keys.items():
        expected = [index.elements[i] for i in positions]
        assert root.xpath(key) == expected, key


@given(st.lists(html_trees(), min_size=1, max_size=4))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_subtree_ranges_nest_and_cover_the_body(fragments: list[str]) -> None:
    root = parse_html("<html><body>" + "".join(fragments) + "</body></html>")
    index = index_page(root.find("body"))
    assert index.end[0] == len(index.elements) - 1
    for i, up in enumerate(index.parent):
        if up >= 0:
            assert up < i <= index.end[i] <= index.end[up]
            assert index.elements[i].getparent() is index.elements[up]


@given(st.lists(html_trees(), min_size=1, max_size=4))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_text_blocks_keep_every_word_in_order(fragments: list[str]) -> None:
    root = parse_html("<html><body>" + "".join(fragments) + "</body></html>")
    body = root.find("body")
    words = etree.tostring(body, method="text", encoding="unicode", with_tail=False).split()
    blocks = text_blocks([body])
    joined = " ".join(block.text for block in blocks).split()
    # Blocks only ever split text at element boundaries, never inside a word run.
    assert "".join(joined) == "".join(words)
    assert all(0 <= block.link_chars <= len(block.text) for block in blocks)
