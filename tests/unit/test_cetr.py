"""CETR-KM keeps the article block of a hand-made page and drops most navigation; the building blocks."""

from __future__ import annotations

import numpy as np
import pytest

from eval.cetr import CETR, cetr_text, derivative, smooth, source_lines, tag_ratios
from eval.metrics import score
from forest.model import Page

SENTENCE = "The council approved the new harbour budget after a long debate about repairs. "
ARTICLE = [SENTENCE * 3 + f"Paragraph {i} adds detail." for i in range(6)]
NAV = [f"Section {i}" for i in range(12)]


def _page(minified: bool = False) -> str:
    nav = "\n".join(f'<li><a href="/s{i}">{label}</a></li>' for i, label in enumerate(NAV))
    body = "\n".join(f"<p>{text}</p>" for text in ARTICLE)
    page = f"""<html><head><title>Budget</title>
<script>var tracker = "<p>not text</p>";</script><style>p {{ color: red }}</style></head>
<body>
<!-- a comment that is not text -->
<div id="nav"><ul>
{nav}
</ul></div>
<div id="story">
{body}
</div>
<div id="footer"><a href="/about">About</a> | <a href="/contact">Contact</a>
<span>Copyright</span> &amp; <a href="/terms">Terms</a>
</div>
</body></html>"""
    return page.replace("\n", "") if minified else page


@pytest.mark.parametrize("minified", [False, True], ids=["formatted", "minified"])
def test_cetr_keeps_the_article_and_drops_most_navigation(minified: bool) -> None:
    text = CETR().extract(Page(html=_page(minified)))
    assert score(text, "\n".join(ARTICLE)).r == pytest.approx(1.0)
    kept_nav = [label for label in NAV if label in text.splitlines()]
    assert len(kept_nav) <= 2
    assert "not text" not in text and "comment" not in text and "color" not in text
    assert "Terms" not in text


def test_source_lines_count_tags_per_line_and_unescape_text() -> None:
    lines = source_lines('<p class="a\nb">x &amp; y</p>\n\n<br>plain')
    # The tag spanning two lines counts on the line it starts; blank lines are dropped.
    assert lines == [("", 1), ("x & y", 1), ("plain", 1)]


def test_tag_ratio_is_characters_over_tags_with_at_least_one_tag() -> None:
    assert tag_ratios([("ab cd", 2), ("abc", 0)]).tolist() == [2.0, 3.0]


def test_smoothing_keeps_a_constant_and_spreads_a_spike() -> None:
    assert smooth(np.full(5, 4.0)) == pytest.approx(np.full(5, 4.0))
    spiked = smooth(np.array([0, 0, 0, 10.0, 0, 0, 0]))
    assert spiked[3] < 10 and spiked[2] > 0 and spiked.sum() == pytest.approx(10.0, rel=0.05)


def test_derivative_compares_each_value_with_the_mean_of_the_next_alpha() -> None:
    assert derivative(np.array([1.0, 4.0, 4.0, 4.0, 4.0]), alpha=3).tolist() == [3.0, 0.0, 0.0, 0.0, 0.0]


def test_empty_and_tiny_pages() -> None:
    assert cetr_text("") == ""
    assert cetr_text("<html><body><p>Only line</p></body></html>") == "Only line"
