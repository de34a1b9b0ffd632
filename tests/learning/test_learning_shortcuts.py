"""Learning's shortcuts against what they stand for: each gives the answer of the plain computation it skips or keeps.

Learning reads the same things of its sample pages many times (an element's ancestors for every block
under it, a region's text for every choice that keeps its pattern); these tests hold each shortcut to
the plain reading on hand-made and generated pages.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from forest.html import parse_html
from forest.learning.boxes import _parts
from forest.learning.comments import _rejected_shares
from forest.learning.consensus import PageLabels, _cut_steps, _steps_below_anchor
from forest.learning.index import page_index
from forest.classifier.blocks import walk
from forest.learning._inline import inline_children
from forest.classifier.blocks import NOT_ARTICLE_ROLES
from forest.learning._name import in_landmarks
from forest.learning.induce import _LANDMARK_TAGS, _cuts_code, _holder, _in_landmark, _Landmarks, _RegionBlocks, _with_code
from keywords.model import Keywords
from patterns.ranking import ScoredPage, score_page
from patterns.refine import KEPT_TAGS, MIN_CORE_SHARE, _inside, core_step, is_single_step
from patterns.text import BLOCK_TAGS, text_blocks

TAGS = ["div", "p", "span", "a", "section", "nav", "footer", "figcaption", "pre", "code", "ul", "li", "table", "th"]
ATTRIBUTES = [
    "", " class='story'", " id='comments'", " class='Comment-List x'", " id='disqus_thread'", " role='navigation'",
    " role='contentinfo' class='box'", " class='highlight'", " class='box' id='reactions'", " class='a b'", " id='pre'",
]
WORDS = ["word", "code", "x = 1", " ", "one two three", "\n", "}"]
leaves = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)
fragments = st.recursive(
    leaves,
    lambda inner: st.builds(lambda tag, attributes, children: f"<{tag}{attributes}>{''.join(children)}</{tag}>",
                            st.sampled_from(TAGS), st.sampled_from(ATTRIBUTES), st.lists(inner, max_size=4)),
    max_leaves=25,
)
pages = st.lists(fragments, min_size=1, max_size=4).map(lambda parts: "<html><body>" + "".join(parts) + "</body></html>")
generated = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@generated
@given(pages)
def test_landmarks_kept_per_element_equal_the_walk_up_from_each(page: str) -> None:
    body = parse_html(page).find("body")
    landmarks = _Landmarks()
    elements = list(body.iter(etree.Element))
    # Out of document order too: an element asked after its descendants reads what they kept.
    for element in [*reversed(elements), *elements]:
        assert landmarks.inside(element) == _in_landmark(element)
    # In C (forest.learning._name.in_landmarks), as _labels reads them.
    assert in_landmarks(elements, _LANDMARK_TAGS, NOT_ARTICLE_ROLES) == [_in_landmark(element) for element in elements]


def test_namespaced_landmarks_and_hand_built_trees_answer_as_the_reference() -> None:
    # A namespaced nav is none (its tag is "{urn:x}nav"), a role in a namespace is no role; the root's parent is no element.
    root = etree.fromstring(b"<html xmlns:x='urn:x'><body><x:nav><p>a</p></x:nav><div x:role='navigation'><p>b</p></div>"
                            b"<div role='navigation'><!-- c --><p>c</p></div><footer><p>d</p></footer></body></html>")
    built = etree.Element("nav")
    etree.SubElement(etree.SubElement(built, "div"), "p")
    for top in (root, built):
        elements = list(top.iter(etree.Element))
        assert in_landmarks(elements, _LANDMARK_TAGS, NOT_ARTICLE_ROLES) == [_in_landmark(element) for element in elements]
    assert in_landmarks(list(root.iter(etree.Element)), _LANDMARK_TAGS, NOT_ARTICLE_ROLES).count(True) == 4  # the role div, the footer and their p


@generated
@given(pages, st.data())
def test_exclusions_are_tested_for_code_only_where_the_region_has_some(page: str, data: st.DataObject) -> None:
    body = parse_html(page).find("body")
    elements = list(body.iter(etree.Element))
    region = data.draw(st.lists(st.sampled_from(elements), max_size=3))
    for xpath in ("//pre", "//div[@class='highlight']", "//section", "//p/code", "//*[@id='comments']", "//div["):
        assert _cuts_code(xpath, _with_code([region])) == _cuts_code(xpath, [region])


def test_a_region_without_code_cuts_none() -> None:
    body = parse_html("<html><body><div><figure class='f'><pre>x = 1</pre></figure><p>words</p></div></body></html>").find("body")
    div = body[0]
    assert _with_code([[div, div[1]]]) == [[div]]
    assert _cuts_code("//figure[@class='f']", _with_code([[div]]))
    assert not _cuts_code("//figure[@class='f']", _with_code([[div[1]]]))


@generated
@given(pages)
def test_box_parts_hold_code_as_their_subtrees_do(page: str) -> None:
    index = page_index(parse_html(page).find("body"))
    scored = score_page(index, Keywords(terms=("word",), weights=(1.0,), source="tfidf"))
    for inside in (True, False):
        parts = _parts(scored, [0], inside=inside)
        for key, part in parts.items():
            assert not any(next(index.elements[i].iter(*KEPT_TAGS), None) is not None for i in part.elements), key
        # And every key the plain test lets through is there.
        for key, nodes in index.keys.items():
            if re.fullmatch(r"//[\w-]+\[@[a-z]+='[^']*'\]", key) and key not in parts:
                spans = [(1, index.end[0] + 1)] if inside else [(0, 1)]
                within = index.outermost(i for i in nodes if any(lo <= i < hi for lo, hi in spans))
                assert not within or index.elements[within[0]].tag in KEPT_TAGS or any(
                    next(index.elements[i].iter(*KEPT_TAGS), None) is not None for i in within), key


def test_region_blocks_are_the_regions_text_blocks_in_a_new_list_each_time() -> None:
    index = page_index(parse_html("<html><body><div><p>one two</p><a href='/'>menu</a></div><p>three</p></body></html>").find("body"))
    scored = [score_page(index, Keywords(terms=("one",), weights=(1.0,), source="tfidf"))]
    blocks = _RegionBlocks(scored)
    first = blocks.of(0, [1, 4])
    assert first == text_blocks([index.elements[1], index.elements[4]])
    first.clear()
    assert blocks.of(0, (1, 4)) == text_blocks([index.elements[1], index.elements[4]])


@generated
@given(pages)
def test_a_keys_code_is_read_from_the_key_as_from_its_elements(page: str) -> None:
    index = page_index(parse_html(page).find("body"))
    for key, nodes in index.keys.items():
        below = _steps_below_anchor(key)
        expected = None if below is None or index.elements[nodes[0]].tag in KEPT_TAGS else below
        assert _cut_steps(key) == expected, key


def _holder_by_itertext(owner: etree._Element, text: str) -> etree._Element:
    """induce._holder as written with itertext: the innermost inline element under ``owner`` holding the whole text."""
    wanted = " ".join(text.split())
    holder = owner
    while True:
        children: dict[str, list[etree._Element]] = {}
        for child in holder:
            if isinstance(child.tag, str) and child.tag not in BLOCK_TAGS:
                children.setdefault(" ".join("".join(child.itertext()).split()), []).append(child)
        same = children.get(wanted, ())
        if len(same) != 1:
            return holder
        holder = same[0]


odd = st.sampled_from(["<!-- c -->", "<?pi x?>", "&amp;", "&nbsp;", "<br>", "<time>9 May</time>", "<em>one two three</em>"])
mixed = st.lists(fragments | odd, min_size=1, max_size=5).map(lambda parts: "<html><body><div>" + "".join(parts) + "</div></body></html>")


@generated
@given(mixed)
def test_a_blocks_holder_is_found_as_itertext_finds_it(page: str) -> None:
    body = parse_html(page).find("body")
    for element in body.iter(etree.Element):
        # The native inline children (forest/learning/_inline.pyx) against their reference: lxml's children and itertext.
        assert inline_children(element, BLOCK_TAGS) == [("".join(child.itertext()), child) for child in element
                                                         if isinstance(child.tag, str) and child.tag not in BLOCK_TAGS]
    inline: dict[etree._Element, dict[str, list[etree._Element]]] = {}
    for block in walk(body).blocks:
        for owner in body.iter(*BLOCK_TAGS):
            assert _holder(owner, block.text, inline) is _holder_by_itertext(owner, block.text)


def _core_step_by_mask(pages: list[ScoredPage], regions: list[list[int]]) -> str | None:
    """patterns.refine.core_step as written with a mask of each region's inside, tested per element."""
    totals: dict[str, int] = {}
    for page, region in zip(pages, regions):
        if not sum(page.x[i] for i in region):
            return None
        inside = [False] * len(page.n)
        for node in region:
            for j in range(node + 1, page.index.end[node] + 1):
                inside[j] = True
        present = {}
        for key, nodes in page.index.keys.items():
            if is_single_step(key):
                found = page.index.outermost(i for i in nodes if inside[i])
                if found:
                    present[key] = sum(page.x[i] for i in found)
        for key in list(totals):
            if key not in present:
                del totals[key]
        if not totals and page is pages[0]:
            totals = dict(present)
        else:
            for key in totals:
                totals[key] += present[key]
    if not totals:
        return None
    all_x = sum(page.x[i] for page, region in zip(pages, regions) for i in region)
    key, x = max(totals.items(), key=lambda item: (item[1], -len(item[0])))
    return f".{key}" if x >= MIN_CORE_SHARE * all_x else None


@generated
@given(st.lists(pages, min_size=1, max_size=3), st.data())
def test_a_regions_core_is_found_by_bisection_as_by_a_mask(htmls: list[str], data: st.DataObject) -> None:
    keywords = Keywords(terms=("word", "code", "one"), weights=(1.0, 0.5, 0.25), source="tfidf")
    scored = [score_page(page_index(parse_html(html).find("body")), keywords) for html in htmls]
    # Any nodes, nested or not, in any order: the spans are the union of their insides.
    regions = [data.draw(st.lists(st.integers(0, len(page.n) - 1), min_size=1, max_size=4)) for page in scored]
    for page, region in zip(scored, regions):
        covered = {i for lo, hi in _inside(page, region) for i in range(lo, hi)}
        assert covered == {j for node in region for j in range(node + 1, page.index.end[node] + 1)}
    assert core_step(scored, regions) == _core_step_by_mask(scored, regions)


def _rejected_shares_by_walk(containers: list[etree._Element], labels: PageLabels) -> dict[etree._Element, float]:
    """forest.learning.comments._rejected_shares as written with a walk up from every block."""
    rejected = dict.fromkeys(containers, 0)
    total = dict.fromkeys(containers, 0)
    for element, length, is_content in zip(labels.elements, labels.lengths, labels.content):
        holder = next((e for e in (element, *element.iterancestors()) if e in total), None)
        if holder is not None:
            total[holder] += length
            rejected[holder] += 0 if is_content else length
    return {element: rejected[element] / total[element] if total[element] else 0.0 for element in containers}


@generated
@given(pages, st.data())
def test_a_containers_rejected_share_is_read_as_by_a_walk_up_from_each_block(page: str, data: st.DataObject) -> None:
    elements = list(parse_html(page).iter(etree.Element))
    # Any containers, nested or not, and any blocks, in or out of them (their owners repeat: a page's do).
    containers = list(dict.fromkeys(data.draw(st.lists(st.sampled_from(elements), max_size=4))))
    owners = data.draw(st.lists(st.sampled_from(elements), max_size=12))
    lengths = data.draw(st.lists(st.integers(0, 50), min_size=len(owners), max_size=len(owners)))
    content = data.draw(st.lists(st.booleans(), min_size=len(owners), max_size=len(owners)))
    labels = PageLabels(tuple("x" * n for n in lengths), tuple(owners), tuple(content))
    assert _rejected_shares(containers, labels) == _rejected_shares_by_walk(containers, labels)
