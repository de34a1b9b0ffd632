"""The native scan of the body's texts that forest.titles.headline_of reads (forest.classifier._walk.body_texts)
against its reference, the XPath ``//body//text()[string-length(normalize-space(.)) >= $shortest]``: the same
texts in the same order for every bound, on hand-made and generated pages and a fixed sample of every shared
dataset's pages (``-m bench``: all of them); and the same headline as headline_of over the XPath.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html

from dataset_pages import dataset_pages, skip_without_datasets
from forest import titles
from forest._texts import BodyTexts
from forest.classifier._walk import body_texts
from forest.errors import ParseError
from forest.html import page_title, parse_html

_REFERENCE = etree.XPath("//body//text()[string-length(normalize-space(.)) >= $shortest]")


def reference_texts(root: etree._Element, shortest: int) -> list[str]:
    return [str(node) for node in _REFERENCE(root, shortest=shortest)]


def reference_headline(root: etree._Element, title: str) -> str:
    """forest.titles.headline_of as it was, over the XPath."""
    cuts = list(titles._CUTS.finditer(title))
    if not cuts:
        return title
    parts = {title[: m.start()].strip() for m in cuts} | {title[m.end():].strip() for m in cuts}
    parts = {p for p in parts if sum(c.isalnum() for c in p) >= 3}
    if not parts:
        return title
    best = ""
    for text in reference_texts(root, min(len(p) for p in parts)):
        text = " ".join(text.split())
        if text == title:
            return title
        if text in parts and len(text) > len(best):
            best = text
    return best or title


def solid_ascii(text: str) -> int:
    """The ASCII characters of ``text`` that str.split() does not split on: body_texts' ``longest`` counts them."""
    return sum(c.isascii() and not c.isspace() for c in text)


def check(root: etree._Element, bounds: tuple[int, ...] = (-1, 0, 1, 3, 12, 40), longest: tuple[int, ...] = (0, 2, 10, 60)) -> None:
    for shortest in bounds:
        texts = reference_texts(root, shortest)
        assert body_texts(root, shortest) == texts, shortest
        for bound in longest:
            assert body_texts(root, shortest, bound) == [t for t in texts if solid_ascii(t) <= bound], (shortest, bound)


PAGE = """<html><head><title>Boy killed by dog - World - Camden Advertiser</title></head><body>
<p>  Boy \t killed\r\n by   dog </p><div>caf\u00e9 \u00a0 na\u00efve\u3000x</div><!-- Boy killed by dog -->
<ul><li>World</li><li></li></ul><script>ignored()</script><p>\U0001F600\U0001F600 \u2003 </p></body></html>"""


def test_a_page_reads_as_the_reference() -> None:
    root = lxml_html.document_fromstring(PAGE)
    check(root)
    # XPath's whitespace is four characters: a no-break space, an ideographic space and an em space are characters.
    assert "caf\u00e9 \u00a0 na\u00efve\u3000x" in body_texts(root, 14)
    assert titles.headline_of(root, "Boy killed by dog - World - Camden Advertiser") == "Boy killed by dog"


def test_any_element_of_the_document_reads_the_whole_document() -> None:
    root = lxml_html.document_fromstring(PAGE)
    item = root.find(".//li")
    assert item is not None
    assert body_texts(item, 1) == reference_texts(item, 1) == body_texts(root, 1)


def test_texts_outside_a_body_are_not_read() -> None:
    root = etree.fromstring("<r>out<body>in<b>bold</b>tail<body>deep</body></body>after<x:body xmlns:x='urn:x'>ns</x:body>"
                            "<body/><body><![CDATA[cdata text]]></body></r>")
    check(root)
    assert body_texts(root, 0) == ["in", "bold", "tail", "deep", "cdata text"]


def test_a_document_without_a_body_reads_nothing() -> None:
    root = etree.fromstring("<r><p>text</p></r>")
    assert body_texts(root, 0) == [] == reference_texts(root, 0)


def test_a_non_element_is_refused() -> None:
    with pytest.raises(TypeError):
        body_texts("<p/>", 0)  # type: ignore[arg-type]


CHARACTERS = list("ab \t\n\r\xa0\u3000\u2003\u00e9\u0130.-|\x0b\x1c\x85") + ["\U0001F600"]
any_text = st.lists(st.sampled_from(CHARACTERS), max_size=12).map("".join)
names = st.sampled_from(["div", "p", "span", "body", "b"])
elements = st.recursive(
    any_text.map(lambda t: t.replace("<", "").replace("&", "")),
    lambda inner: st.tuples(names, st.lists(inner, max_size=4)).map(lambda t: f"<{t[0]}>{''.join(t[1])}</{t[0]}>"),
    max_leaves=16,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(elements, min_size=1, max_size=4), st.integers(-1, 8))
def test_generated_pages_read_as_the_reference(body: list[str], shortest: int) -> None:
    try:
        root = parse_html(f"<html><head><title>t</title></head><body>{''.join(body)}</body></html>")
    except ParseError:
        return
    check(root, (shortest,))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["Boy  killed", "Boy killed", "by dog", "\u00a0caf\u00e9 x", "World", "ab\tc", "\U0001F600 abc", "x"]),
                min_size=1, max_size=6),
       st.lists(st.sampled_from(["Boy killed", "by dog", "caf\u00e9 x", "World", "ab c", "\U0001F600 abc", "Site"]), min_size=1, max_size=4),
       st.sampled_from([" - ", " | ", " \u2013 "]))
def test_the_headline_read_from_texts_read_already_is_the_reference(body: list[str], parts: list[str], separator: str) -> None:
    # forest.bylines.PageTexts hands headline_of the texts the printed fields' search read: sifted by their lengths.
    try:
        root = parse_html("<html><body>" + "".join(f"<p>{text}</p>" for text in body) + "</body></html>")
    except ParseError:
        return
    title = separator.join(parts)
    assert titles.headline_of(root, title, BodyTexts(root)) == reference_headline(root, title)


@given(st.lists(st.sampled_from(CHARACTERS) | st.characters(), max_size=30).map("".join))
def test_a_text_over_the_bound_is_longer_than_it_once_split_and_joined(text: str) -> None:
    # What lets headline_of ask body_texts for no text over its title's length.
    assert len(" ".join(text.split())) >= solid_ascii(text)


def check_pages(pages: list[str]) -> int:
    checked = 0
    for html in pages:
        try:
            root = parse_html(html)
        except ParseError:
            continue
        check(root, (0, 5, 20))
        title = page_title(root)
        reference = reference_headline(root, title)
        assert titles.headline_of(root, title) == reference
        assert titles.headline_of(root, title, BodyTexts(root)) == reference
        checked += 1
    return checked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_reads_as_the_reference() -> None:
    skip_without_datasets()
    assert sum(check_pages(pages) for pages in dataset_pages(every=False).values()) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_reads_as_the_reference() -> None:
    skip_without_datasets()
    for pages in dataset_pages(every=True).values():
        check_pages(pages)
