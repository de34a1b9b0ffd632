"""eval.classifier.align: gold text aligned to a page's tokens, blocks and tags."""

from __future__ import annotations

import numpy as np
import pytest
from lxml import html as lxml_html

from eval.classifier.align import align, block_labels, tag_labels, tokens
from forest.classifier.blocks import walk

PAGE = """<html><body>
<div id="nav"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
<div class="story">
  <h1>Storm hits the coast</h1>
  <p>The storm reached the coast on <b>Monday</b> night, said officials.</p>
  <p>Share this story</p>
  <p>Thousands of homes lost power as the wind rose.</p>
</div>
<div class="footer">Copyright 2024 News Corp. All rights reserved.</div>
</body></html>"""
GOLD = """Storm hits the coast
The storm reached the coast on Monday night, said officials.
Thousands of homes lost power as the wind rose."""


def body(page: str = PAGE) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(page).find("body")


def test_tokens_are_lower_cased_word_runs() -> None:
    assert tokens("The U.S. storm_2, 'hits'!") == ["the", "u", "s", "storm_2", "hits"]


def test_align_marks_the_gold_run_inside_boilerplate() -> None:
    page = "home news the storm reached the coast share the storm copyright".split()
    gold = "the storm reached the coast".split()
    assert align(page, gold).tolist() == [False, False, True, True, True, True, True, False, False, False, False]


def test_align_without_unique_anchors_falls_back_to_common_blocks() -> None:
    # Every token repeats, so no anchor is unique: difflib's longest blocks decide.
    page = "a b a b x a b a b".split()
    gold = "a b x a b".split()
    matched = align(page, gold)
    assert matched.sum() == 5 and matched[4]


def test_align_keeps_order() -> None:
    # "coast" appears before "storm" in the page but after it in the gold: only one can align.
    matched = align("coast storm".split(), "storm coast".split())
    assert matched.sum() == 1


def test_block_labels_of_a_hand_made_page() -> None:
    tree = walk(body())
    texts = [b.text for b in tree.blocks]
    labels = dict(zip(texts, block_labels(texts, GOLD).tolist()))
    assert labels == {
        "Home News Sport": False,
        "Storm hits the coast": True,
        "The storm reached the coast on Monday night, said officials.": True,
        "Share this story": False,
        "Thousands of homes lost power as the wind rose.": True,
        "Copyright 2024 News Corp. All rights reserved.": False,
    }


@pytest.mark.parametrize(
    ("gold", "expected"),
    [("alpha beta", True), ("alpha", True), ("zeta", False), ("", False)],
    ids=["all", "half", "none", "empty-gold"],
)
def test_block_is_content_when_half_its_tokens_align(gold: str, expected: bool) -> None:
    assert block_labels(["alpha beta"], gold).tolist() == [expected]


def test_block_without_tokens_is_boilerplate() -> None:
    assert block_labels(["|", "word"], "word").tolist() == [False, True]


def test_tag_labels_follow_the_majority_of_tokens() -> None:
    tree = walk(body(), keep_pieces=True)
    labels = tag_labels(tree, block_labels([b.text for b in tree.blocks], GOLD))
    by_element = {(e.get("id") or e.get("class") or e.tag): bool(v) for e, v in zip(tree.elements, labels)}
    assert by_element["nav"] is False
    assert by_element["story"] is True
    assert by_element["footer"] is False
    assert by_element["b"] is True  # inline "Monday" inside a content paragraph
    assert by_element["body"] is True  # 23 of its 36 tokens are content
    # The "Share this story" paragraph is the only <p> that is boilerplate.
    paragraphs = [bool(v) for e, v in zip(tree.elements, labels) if e.tag == "p"]
    assert paragraphs == [True, False, True]


def test_tag_labels_need_pieces() -> None:
    tree = walk(body())
    assert not tag_labels(tree, np.ones(len(tree.blocks), dtype=bool)).any()
