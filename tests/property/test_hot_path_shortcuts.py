"""The extraction hot path's shortcuts give the answers of the plain computations they replace."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from forest.limits import _LONG_TAG, _long_run
from forest.region import outermost


@settings(max_examples=300, deadline=None)
@given(length=st.integers(0, 4 * _LONG_TAG), cuts=st.lists(st.floats(0, 1), max_size=12))
def test_long_run_never_misses_a_run_the_exact_test_finds(length: int, cuts: list[float]) -> None:
    text = list("x" * length)
    for cut in cuts:
        if length:
            text[min(length - 1, int(cut * length))] = "<"
    page = "".join(text)
    if max(map(len, page.split("<"))) > _LONG_TAG:
        assert _long_run(page)


def test_long_run_spares_a_page_with_tags_throughout() -> None:
    assert not _long_run("<p>word</p>" * 20_000)


def _tree() -> etree._Element:
    return etree.fromstring("<r><d id='1'><d id='2'/></d><d id='3'/><e><d id='4'><d id='5'/></d></e></r>")


def test_outermost_keeps_siblings_whole() -> None:
    root = _tree()
    assert [n.get("id") for n in outermost(root.xpath("/r/d"))] == ["1", "3"]


def test_outermost_drops_matches_inside_other_matches() -> None:
    root = _tree()
    assert [n.get("id") for n in outermost(root.xpath("//d"))] == ["1", "3", "4"]
