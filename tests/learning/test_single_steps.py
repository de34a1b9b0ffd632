"""A page index's one-step keys, listed once (patterns.refine.single_steps), against the filter of every key
they stand for: the same keys, elements and order, listed again when a key is added to the index.  The test
itself (patterns.refine.is_single_step, in C: patterns/_keys.pyx) against its reference, the Python
expression it replaced, on generated keys and every key of a fixed sample of the shared datasets' pages.  Ranking's
keys holding a candidate node (patterns._keys.keys_holding) against the filter it stands for, alike, and the keys'
outermost elements inside a region (patterns._keys.keys_within) against the loop of bisections it stands for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_pages import bodies, dataset_pages, skip_without_datasets
from forest.html import parse_html
from forest.learning.containers import _name_parents
from forest.learning.index import page_index
from keywords.model import Keywords
from patterns.ranking import score_page
from bisect import bisect_left

from patterns._keys import keys_holding, keys_within, single_step_keys
from patterns.dom import PageIndex
from patterns.ranking import candidate_nodes
from patterns.refine import is_single_step, single_steps


def reference(key: str) -> bool:
    """patterns.refine.is_single_step as it was written in Python."""
    return key.startswith("//") and key.endswith("]") and "/" not in key[2:].split("[", 1)[0] and "]/" not in key

PAGE = ("<html><body><div id='story' class='a b'><p class='x'>one</p><p>two</p><figure class='f'><img class='i'>"
        "</figure></div><aside role='complementary'><p class='x'>three</p></aside></body></html>")


def test_the_listed_steps_are_the_filtered_keys_in_order() -> None:
    index = page_index(parse_html(PAGE).find("body"))
    expected = [(key, nodes) for key, nodes in index.keys.items() if is_single_step(key)]
    assert single_steps(index) == expected
    assert single_steps(index) is single_steps(index)  # listed once
    assert len(expected) < len(index.keys)


def test_a_key_added_to_the_index_lists_them_again() -> None:
    index = page_index(parse_html(PAGE).find("body"))
    before = single_steps(index)
    index.keys["//q[@class='added']"] = [1]
    after = single_steps(index)
    assert after == [*before, ("//q[@class='added']", [1])]
    # As forest.learning.containers adds its parents' keys, which are no single step.
    page = score_page(index, Keywords(("one",), (1.0,), "tfidf"))
    assert _name_parents("//p[@class='x']", [page]) is not None
    assert single_steps(index) == [(key, nodes) for key, nodes in index.keys.items() if is_single_step(key)]


# Keys made of what decides the test ("/", "[", "]"), around a tag, an attribute and non-ASCII text.
keys = st.lists(st.sampled_from(["/", "//", "[", "]", "]/", "div", "@class='x'", "'", " ", "é", "東", "\U0001f600", ""]),
                max_size=8).map("".join) | st.text(max_size=12)


@settings(max_examples=500, deadline=None)
@given(keys)
def test_the_native_test_answers_as_the_reference(key: str) -> None:
    assert is_single_step(key) == reference(key)
    assert single_step_keys({key: [0], "//p": [1]}) == [(k, n) for k, n in {key: [0], "//p": [1]}.items() if reference(k)]


@pytest.mark.parametrize("key", ["//div[@class='x']", "//div", "//]", "//", "/", "", "//a/b[@id='c']", "//div[@class='a]/b']",
                                 "//div[@id='a']/p", "//p[x]/", "//é[@class='東']", "//div[@class='x' and @id='y']"])
def test_hand_made_keys_answer_as_the_reference(key: str) -> None:
    assert is_single_step(key) == reference(key)


@pytest.mark.datasets
def test_every_key_of_a_sample_of_the_datasets_answers_as_the_reference() -> None:
    skip_without_datasets()
    checked = 0
    for html in dataset_pages(every=False).values():
        for body in bodies(html):
            index = page_index(body)
            assert single_step_keys(index.keys) == [(k, n) for k, n in index.keys.items() if reference(k)]
            # Their elements' tag is the step's (patterns.refine.boilerplate_subpatterns reads it from the key).
            assert all(index.elements[i].tag == k[2:].split("[", 1)[0] for k, n in single_step_keys(index.keys) for i in n)
            some = tuple(sorted({t for terms in index.terms[::7] for t in terms}))[:20]  # some of the page's terms
            page = score_page(index, Keywords(some, (1.0,) * len(some), "tfidf"))
            wanted = candidate_nodes(page)
            assert keys_holding(index.keys, wanted, len(index.elements)) == holding(index.keys, wanted)
            # Inside the largest candidate's subtree, and among the candidates themselves (the region's cut, the boxes).
            region = index.outermost(sorted(wanted))
            for spans in ([(node + 1, index.end[node] + 1) for node in region], [(node, node + 1) for node in region]):
                assert keys_within(single_step_keys(index.keys), spans, index.end) == within(single_step_keys(index.keys), spans, index)
            checked += 1
    assert checked > 0


def holding(keys: dict[str, list[int]], wanted: set[int]) -> list[str]:
    """patterns._keys.keys_holding's reference: ranking's filter as it was written in Python."""
    return [key for key, nodes in keys.items() if not wanted.isdisjoint(nodes)]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=3), st.lists(st.integers(0, 9), max_size=4), max_size=8), st.sets(st.integers(0, 9)))
def test_the_keys_holding_a_node_are_the_reference_s(keys: dict[str, list[int]], wanted: set[int]) -> None:
    assert keys_holding(keys, wanted, 10) == holding(keys, wanted)


def test_a_position_outside_the_index_is_refused() -> None:
    with pytest.raises(ValueError):
        keys_holding({"//p": [0]}, {10}, 10)
    with pytest.raises(ValueError):
        keys_holding({"//p": [3, 10]}, {1}, 10)


def within(single: list[tuple[str, list[int]]], spans: list[tuple[int, int]], index: PageIndex) -> list[tuple[str, list[int]]]:
    """patterns._keys.keys_within's reference: the region's cut's and the boxes' loop as it was written in Python."""
    found = []
    for key, nodes in single:
        inside = [i for lo, hi in spans for i in nodes[bisect_left(nodes, lo) : bisect_left(nodes, hi)]]
        if inside:
            found.append((key, index.outermost(inside)))
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=31).map(lambda ends: [max(i, min(e, 30)) for i, e in enumerate(ends)]),
       st.lists(st.tuples(st.text(max_size=2), st.sets(st.integers(0, 30), max_size=6).map(sorted)), max_size=6),
       st.lists(st.tuples(st.integers(0, 32), st.integers(0, 32)), max_size=4))
def test_the_keys_within_spans_are_the_reference_s(end: list[int], single: list[tuple[str, list[int]]],
                                                   spans: list[tuple[int, int]]) -> None:
    # Subtree ends of any shape, spans in any order, overlapping or empty: the same answer as the loop.
    n = len(end)
    single = [(key, [i for i in nodes if i < n]) for key, nodes in single]
    index = PageIndex([None] * n, [-1] * n, end, [0] * n, [[] for _ in range(n)])  # type: ignore[list-item]
    assert keys_within(single, spans, end) == within(single, spans, index)
