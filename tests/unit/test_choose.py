"""Choosing a site's main pattern and its alternates (hand-made scores)."""

from __future__ import annotations

import pytest

from patterns.choose import choose
from patterns.model import Pattern
from patterns.ranking import Ranked


def ranked(xpath: str, scores: list[float]) -> Ranked:
    return Ranked(Pattern(xpath, score=sum(scores), support=sum(s > 0 for s in scores), level=3.0), tuple(scores), tuple(10 for _ in scores))


@pytest.mark.parametrize("other_pages", [1, 2])
def test_a_template_is_an_alternate_only_on_two_sample_pages_or_more(other_pages: int) -> None:
    # One page's region is that page's guess, not another template of the site.
    main = ranked("//div[@class='story']", [1.0] * (5 - other_pages) + [0.0] * other_pages)
    other = ranked("//td[@class='content']", [0.0] * (5 - other_pages) + [1.0] * other_pages)
    choice = choose([main, other], 5)
    if other_pages == 1:
        assert choice.patterns == (main,) and choice.assignment == (0, 0, 0, 0, -1)
    else:
        assert choice.patterns == (main, other) and choice.assignment == (0, 0, 0, 1, 1)


def test_a_main_pattern_may_explain_one_page() -> None:
    only = ranked("//div[@class='story']", [1.0])
    assert choose([only], 1).patterns == (only,)
