"""A page index's one-step keys, listed once (patterns.refine.single_steps), against the filter of every key
they stand for: the same keys, elements and order, listed again when a key is added to the index."""

from __future__ import annotations

from forest.html import parse_html
from forest.learning.containers import _name_parents
from forest.learning.index import page_index
from keywords.model import Keywords
from patterns.ranking import score_page
from patterns.refine import is_single_step, single_steps

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
