"""The field search's candidates read from the page index (forest.fields._Selection) against their reference,
the candidate's XPath evaluated over the page: the same first two elements wherever the index answers, on
generated and hand-made pages (a head stating what the body does, class values split by spaces XPath does
not collapse) and on a fixed sample of every shared dataset's pages (``-m bench``: all of them).  A key of another
page's element that no indexed element holds selects nothing (where its path's tags are all ones the index names)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from dataset_pages import dataset_pages, roots
from forest.fields import _Body, _named_keys, element_keys, _Selection, learn_fields
from forest.html import parse_html
from forest.learning._inline import unnamed_classes
from forest.learning.index import page_index
from keywords.model import Metadata

TAGS = ["div", "p", "span", "a", "section", "h2", "time", "meta"]
ATTRIBUTES = [
    "", " class='story'", " class='a b'", " class='a\u00a0b'", " class='b\x0ca'", " class=' a\tb '", " id='x'",
    " itemprop='datePublished'", " role='main' class='a'", " class=\"it's\"", " class='a' id='y'",
    f" class='a {'x' * 120}'", " class=\"a it's &quot;q&quot;\"",  # classes patterns.dom names by no step
]
WORDS = ["Title words", "Ana Lima", "16 April 2024", " ", "\n"]
leaves = st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join)
fragments = st.recursive(
    leaves,
    lambda inner: st.builds(lambda tag, attributes, children: f"<{tag}{attributes}>{''.join(children)}</{tag}>",
                            st.sampled_from(TAGS), st.sampled_from(ATTRIBUTES), st.lists(inner, max_size=3)),
    max_leaves=20,
)
HEADS = ["", "<head><title>T</title></head>", "<head><meta itemprop='datePublished' content='2024'><link class='a'></head>",
         "<head><meta class='a b' name='x'><span class='story'>moved</span></head>"]
pages = st.builds(lambda head, parts: f"<html>{head}<body class='a'>{''.join(parts)}</body></html>",
                  st.sampled_from(HEADS), st.lists(fragments, min_size=1, max_size=4))


def check(root: etree._Element, limit: int = 0, others: tuple[etree._Element, ...] = ()) -> tuple[int, int]:
    """Every key of every body element of ``root`` and of ``others`` (other pages; the first ``limit`` elements
    of each; 0: all), by the index and by XPath over ``root``: how many the index answered, and how many keys were asked."""
    body = root.find("body")
    selection = _Selection(root, page_index(body))
    answered = asked = 0
    for page in (root, *others):
        found_body = page.find("body")
        elements = list(found_body.iter(etree.Element)) if found_body is not None else []
        for element in elements[:limit] if limit else elements:
            for key, named in _named_keys(element):
                answered += _checked(root, selection, key, named)
                asked += 1
    return answered, asked


def _checked(root: etree._Element, selection: _Selection, key: str, named: bool) -> int:
    """1 where the index answers for ``key`` (then as the XPath does), else 0."""
    found = selection.first(key, named)
    if found is None:
        return 0
    try:
        compiled = etree.XPath(key)
    except (etree.XPathError, ValueError):  # _best_key compiles first and skips such a key (a control character)
        return 1
    result = compiled(root)
    assert isinstance(result, list)
    assert found == [e for e in result if isinstance(e, etree._Element)][:2], key
    return 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages, pages)
def test_generated_pages_select_what_the_xpath_selects(page: str, other: str) -> None:
    check(parse_html(page), others=(parse_html(other),))


def test_a_head_element_comes_first_and_a_no_break_space_is_no_xpath_space() -> None:
    root = parse_html("<html><head><meta itemprop='author' content='Ana'></head><body>"
                      "<p class='a\u00a0b'>one</p><p class='b a'>two</p><meta itemprop='author' content='Bo'>"
                      "<div id='x'><span>three</span></div></body></html>")
    body = root.find("body")
    selection = _Selection(root, page_index(body))
    head_meta, body_meta = root.find("head/meta"), body.find("meta")
    assert selection.first("//meta[@itemprop='author']") == [head_meta, body_meta]
    token = "//p[contains(concat(' ', normalize-space(@class), ' '), ' a ')]"
    assert selection.first(token) == [body[1]]  # the first <p>'s "a" is not one of XPath's tokens
    assert selection.first("//div[@id='x']/span") == [body.find("div/span")]
    assert selection.first("//html") is None  # the root is in no index: the XPath decides
    assert selection.first("//nothing[@id='here']") is None
    # Named by tags the index names, a key no indexed element holds selects nothing: XPath need not look.
    assert selection.first("//nothing[@id='here']", named=True) == []
    assert selection.first("//div[@id='x']/p", named=True) == [] == etree.XPath("//div[@id='x']/p")(root)
    assert selection.first("//html", named=True) is None  # the root's own keys are in no index still
    # A class patterns.dom names by no step (over 120 characters) has no token key: its tokens are the XPath's.
    long = parse_html(f"<html><body><p class='a {'x' * 120}'>one</p><p class='a'>two</p></body></html>")
    assert _Selection(long, page_index(long.find("body"))).first(token) is None
    assert check(root)[0] > 0


def test_a_root_with_more_than_its_head_and_body_is_left_to_the_xpath() -> None:
    root = parse_html("<html><head><title>T</title></head><body><p class='a'>one</p></body></html>")
    etree.SubElement(root, "p", {"class": "a"})  # after the body: no index holds it
    assert _Selection(root, page_index(root.find("body"))).first("//p[@class='a']") is None


def test_a_document_with_elements_beside_its_root_is_left_to_the_xpath() -> None:
    # Markup after </html> is parsed into another element beside the root, which XPath's // reads.
    root = parse_html("<html><head><title>T</title></head><body><p class='a'>one</p></body></html><p class='a'>two</p>")
    found = etree.XPath("//p[@class='a']")(root)
    assert isinstance(found, list) and len(found) == 2 and found[0] is root.find("body/p")
    assert _Selection(root, page_index(root.find("body"))).first("//p[@class='a']") is None


def test_learned_fields_are_the_same_with_the_indexes() -> None:
    html = ("<html><head><title>{t} | Daily</title></head><body><aside><a class='t'>{o}</a></aside><article>"
            "<h2 class='headline x'>{t}</h2><p class='byline\u00a0x'>By <span class='who'>{a}</span></p></article></body></html>")
    values = [("Council votes on the new bridge", "Ana Lima", "Harbour cranes return"),
              ("Harbour cranes return", "Bo Chen", "Council votes on the new bridge"),
              ("Library opens on Sundays", "Cleo Park", "Harbour cranes return")]
    samples = [(parse_html(html.format(t=t, a=a, o=o)), Metadata(title=t, author=a)) for t, a, o in values]
    indexes = [page_index(root.find("body")) for root, _ in samples]
    assert learn_fields(samples, indexes) == learn_fields(samples) == {
        "title": "//h2[@class='headline x']", "author": "//span[@class='who']"}


# What forest.learning._inline.unnamed_classes stands for: the elements whose class patterns.dom names by no step.
UNNAMED = etree.XPath("""descendant-or-self::*[string-length(@class) > 120 or (contains(@class, "'") and contains(@class, '"'))]""")


def _check_pages(pages: list[str], limit: int) -> int:
    answered = 0
    last: tuple[etree._Element, ...] = ()
    for root in roots(pages):
        assert set(UNNAMED(root)) <= set(unnamed_classes(root))  # type: ignore[arg-type]
        answered += check(root, limit, others=last)[0]  # the keys of the page before too (another site's, mostly)
        last = (root,)
    return answered


def test_a_path_through_a_tag_the_index_cannot_name_is_left_to_the_xpath() -> None:
    root = parse_html("<html><body><div id='a'><o:p><span>one</span></o:p></div></body></html>")
    span = root.find(".//span")
    keys = dict(_named_keys(span))
    assert keys["//span"] and not keys["//div[@id='a']/o:p/span"]
    other = parse_html("<html><body><div id='b'><span>two</span></div></body></html>")
    selection = _Selection(other, page_index(other.find("body")))
    assert selection.first("//div[@id='a']/o:p/span", keys["//div[@id='a']/o:p/span"]) is None
    assert list(element_keys(span)) == list(keys)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages)
def test_the_native_unnamed_classes_hold_the_xpaths(page: str) -> None:
    root = parse_html(page)
    found = unnamed_classes(root)
    assert set(UNNAMED(root)) <= set(found)  # type: ignore[arg-type]
    assert found == [e for e in root.iter(etree.Element) if e in set(found)]  # document order


@pytest.mark.datasets
def test_a_sample_of_every_dataset_selects_what_the_xpath_selects() -> None:
    pages = [page for found in dataset_pages(every=False, sample=3).values() for page in found]
    assert _check_pages(pages, limit=150) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_selects_what_the_xpath_selects() -> None:
    for pages in dataset_pages(every=True).values():
        _check_pages(pages, limit=0)


def test_a_candidate_no_xpath_can_hold_is_skipped() -> None:
    # A class with a control character names its element by a key lxml refuses to compile (a ValueError,
    # not an XPath error): that candidate is skipped, and learning goes on with the others.
    html = "<html><body><div id='story'><h1 class='t\x0cx'>Council votes on the new bridge</h1></div></body></html>"
    samples = [(parse_html(html), Metadata(title="Council votes on the new bridge")) for _ in range(3)]
    indexes = [page_index(root.find("body")) for root, _ in samples]
    assert learn_fields(samples) == learn_fields(samples, indexes) == {"title": "//div[@id='story']"}


def test_a_body_reads_its_elements_from_its_own_index_only() -> None:
    # The field search's _Body takes the index's list of the body's elements (the same, in document order)
    # instead of listing them again; another element's index (the head's) is not the body's.
    root = parse_html("<html><head><title>T</title></head><body><div id='a'><p>one</p></div><p>two</p></body></html>")
    body = root.find("body")
    index = page_index(body)
    assert index.elements == list(body.iter(etree.Element))
    assert _Body.of(root, index=index).elements is index.elements
    head_index = page_index(root.find("head"))
    assert _Body.of(root, index=head_index).elements == _Body.of(root).elements == index.elements
    assert _Body.of(root, index=head_index).elements is not head_index.elements
