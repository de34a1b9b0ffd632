"""The extraction hot path's shortcuts give the answers of the plain computations they replace."""

from __future__ import annotations

from lxml import etree

from forest.region import outermost


def _tree() -> etree._Element:
    return etree.fromstring("<r><d id='1'><d id='2'/></d><d id='3'/><e><d id='4'><d id='5'/></d></e></r>")


def test_outermost_keeps_siblings_whole() -> None:
    root = _tree()
    assert [n.get("id") for n in outermost(root.xpath("/r/d"))] == ["1", "3"]


def test_outermost_drops_matches_inside_other_matches() -> None:
    root = _tree()
    assert [n.get("id") for n in outermost(root.xpath("//d"))] == ["1", "3", "4"]
