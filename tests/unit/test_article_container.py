"""Blocks outside the article's container need a surer probability (forest.classifier.container)."""

from __future__ import annotations

import numpy as np
import pytest

from forest.classifier import load_default
from forest.classifier.blocks import PageTree, walk
from forest.classifier.container import INSIDE_THRESHOLD, OUTSIDE_THRESHOLD, article_container, confine
from forest.html import parse_html

PARAGRAPH = "The river rose through the night and the town council met at dawn to plan the repairs {i}."
PAGE = (
    "<html><body>"
    "<div id='cookies'><p>We use cookies to improve your experience on our site and show you ads.</p></div>"
    "<header><h1>River floods the old town</h1><p class='byline'>By A. Writer, 3 May</p></header>"
    "<div class='body'>" + "".join(f"<p>{PARAGRAPH.format(i=i)}</p>" for i in range(3))
    + "<p>Repairs start on Monday.</p><p>Share this story</p></div>"
    "<h3>Comments</h3>"
    "<div class='credits'><p>Reporting by B. Writer and C. Writer, editing by D. Editor, in the old town.</p></div>"
    "</body></html>"
)
# P(content) of each block of PAGE: the article's last two lines below the threshold (the first above
# INSIDE_THRESHOLD), the rest above it, the credits line also above OUTSIDE_THRESHOLD.  (Not a <footer>:
# predict_blocks gives those probability 0 before the container is found.)
PROBABILITY = {"We use": 0.6, "River": 0.6, "By A.": 0.6, "The river": 0.9, "Repairs": 0.5, "Share": 0.3, "Comments": 0.6,
               "Reporting": 0.8}  # fmt: skip


def _page() -> tuple[PageTree, np.ndarray]:
    tree = walk(parse_html(PAGE).find("body"))
    p = [next(v for k, v in PROBABILITY.items() if b.text.startswith(k)) for b in tree.blocks]
    return tree, np.array(p)


def _kept(tree: PageTree, content: np.ndarray) -> list[str]:
    return [b.text.split(",")[0][:20] for b, keep in zip(tree.blocks, content) if keep]


def test_the_container_is_the_deepest_element_with_most_content_words() -> None:
    tree, p = _page()
    assert tree.elements[article_container(tree, p >= 0.55)].get("class") == "body"
    # The article's three paragraphs and the cookie notice alone: still the body's <div>.
    only = np.array([b.text.startswith(("We use", "The river")) for b in tree.blocks])
    assert tree.elements[article_container(tree, only)].get("class") == "body"
    # One block: its own element.  None: the body.
    single = np.array([b.text.startswith("We use") for b in tree.blocks])
    assert tree.elements[article_container(tree, single)].tag == "p"
    assert article_container(tree, np.zeros(len(p), dtype=bool)) == 0


def test_outside_the_container_only_sure_blocks_and_headings_before_it_stay() -> None:
    tree, p = _page()
    kept = _kept(tree, confine(tree, p, p >= 0.55))
    # The cookie notice, the byline and the heading after the article go; the headline above it stays,
    # and so does the credits line, which the classifier is sure of.  Inside, the line at 0.5 joins.
    assert kept == ["River floods the old", *["The river rose throu"] * 3, "Repairs start on Mon", "Reporting by B. Writ"]
    assert INSIDE_THRESHOLD < 0.55 < OUTSIDE_THRESHOLD


def test_confine_keeps_pages_with_nothing_or_everything_in_the_container() -> None:
    tree, p = _page()
    nothing = np.zeros(len(p), dtype=bool)
    assert not confine(tree, p, nothing).any()
    article = np.array([b.text.startswith("The river") for b in tree.blocks])
    assert confine(tree, p, article, inside=0.55).tolist() == article.tolist()
    # With the bars at the threshold's side everything the threshold kept stays, and nothing joins.
    assert confine(tree, p, p >= 0.55, outside=0.6, inside=0.55).tolist() == (p >= 0.55).tolist()


def test_predict_blocks_confines_the_thresholded_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    model = load_default()
    tree, p = _page()
    monkeypatch.setattr(model, "_positive", lambda features: p.copy())
    predictions = model.predict_blocks(parse_html(PAGE))
    assert [x.probability for x in predictions] == p.tolist()
    assert [x.is_content for x in predictions] == confine(tree, p, p >= model.threshold).tolist()
    assert not predictions[0].is_content  # the cookie notice, above the threshold
    # Site learning reads the threshold's labels: it finds the region from all its sample pages.
    unconfined = model.predict_blocks(parse_html(PAGE), confined=False)
    assert [x.is_content for x in unconfined] == (p >= model.threshold).tolist()
