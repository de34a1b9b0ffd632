"""The parts FOREST cuts out of a chosen region (patterns.refine): the gain in I, summed over the sample."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from lxml import html

from keywords.model import Keywords
from patterns.dom import index_page
from patterns.ranking import ScoredPage, score_page
from patterns.refine import _informativeness, boilerplate_subpatterns
from patterns.scoring import informativeness

KEYWORDS = Keywords(("river", "flood", "levee"), (1.0, 1.0, 1.0), "feed")
STORY = "The river rose past the levee and the flood reached the town of {town} on {day}."
SHARE = '<div class="share"><a href="/s">Share this on every network you use today</a></div>'
AUTHOR = '<div class="author">Ann Lee, Courier</div>'


def _page(town: str, *, share: bool = True, code: str = "") -> tuple[ScoredPage, list[int]]:
    paragraphs = "".join(f"<p>{STORY.format(town=town, day=day)}</p>" for day in ("Monday", "Tuesday", "Friday"))
    source = (f"<html><body><div id='story'>{AUTHOR}{paragraphs}{code}{SHARE if share else ''}"
              "<p>Officials said the water would fall by the end of the week.</p></div></body></html>")  # fmt: skip
    index = index_page(html.fromstring(source).find("body"))
    page = score_page(index, KEYWORDS)
    return page, [index.elements.index(index.elements[0].find("div"))]


def test_a_part_without_keywords_on_every_page_is_cut() -> None:
    pages, regions = zip(*(_page(town) for town in ("Albany", "Utica", "Troy")))
    assert boilerplate_subpatterns(pages, regions) == ["//div[@class='share']", "//div[@class='author']"]


def test_code_is_never_cut_however_few_keywords_it_holds() -> None:
    code = "<pre class='sample'>gauge = read(station); if gauge > limit: alert(town)</pre>"
    pages, regions = zip(*(_page(town, code=code) for town in ("Albany", "Utica", "Troy")))
    assert boilerplate_subpatterns(pages, regions) == ["//div[@class='share']", "//div[@class='author']"]


def test_one_exclusion_at_most_when_asked() -> None:
    pages, regions = zip(*(_page(town) for town in ("Albany", "Utica", "Troy")))
    assert boilerplate_subpatterns(pages, regions, max_exclusions=1) == ["//div[@class='share']"]


def test_a_part_found_on_one_page_only_is_not_a_candidate() -> None:
    pages, regions = zip(_page("Albany"), _page("Utica", share=False), _page("Troy", share=False))
    assert "//div[@class='share']" not in boilerplate_subpatterns(pages, regions)


counts = st.integers(min_value=0, max_value=5000)


@given(st.lists(st.tuples(counts, counts), min_size=1, max_size=20), counts, counts)
def test_many_nodes_score_as_each_node_alone(nodes: list[tuple[int, int]], total_x: int, total_y: int) -> None:
    # Equal bit for bit: the greedy choice compares gains, and a tie goes to the first candidate.
    x, y = (np.asarray(column, dtype=np.float64) for column in zip(*nodes))
    expected = [informativeness(a, b, total_x, total_y) for a, b in nodes]
    assert _informativeness(x, y, total_x, total_y).tolist() == expected
