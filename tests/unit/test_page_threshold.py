"""The page's declared type picks the classifier's threshold: a page whose og:type names something other than an
article is read at OTHER_PAGE_THRESHOLD; an article, or a page that declares nothing, at the model's own."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from forest.classifier.page import load_default
from forest.classifier.predictor import OTHER_PAGE_THRESHOLD, BlockPredictor
from forest.html import parse_html


def page(head: str) -> str:
    # Neither the paragraph (20 words) nor the list (18) holds most of the words: the article's container is <main>,
    # which holds every block.
    items = "".join(f"<li>Frame size {size}, two year warranty</li>" for size in ("S", "M", "L"))
    return (f"<html><head><title>Trail bike</title>{head}</head><body><main><h1>Trail bike 29</h1>"
            f"<p>A light trail bike for long days in the hills, with a frame that climbs well and descends with "
            f"confidence.</p><ul>{items}</ul></main></body></html>")  # fmt: skip


@pytest.fixture
def model() -> BlockPredictor:
    return copy.copy(load_default())


@pytest.mark.parametrize(
    ("head", "other"),
    [
        ('<meta property="og:type" content="product">', True),
        ('<meta name="og:type" content=" Website ">', True),  # the name attribute, any case and spacing
        ('<meta property="og:type" content="article">', False),
        ('<meta property="og:title" content="Trail bike">', False),  # declares no type
        ("", False),
    ],
)
def test_the_declared_type_picks_the_threshold(model: BlockPredictor, head: str, other: bool) -> None:
    assert model.threshold > OTHER_PAGE_THRESHOLD
    expected = OTHER_PAGE_THRESHOLD if other else model.threshold
    assert model.page_threshold(parse_html(page(head))) == expected


def test_a_model_threshold_below_it_stays(model: BlockPredictor) -> None:
    model.threshold = OTHER_PAGE_THRESHOLD / 2
    assert model.page_threshold(parse_html(page('<meta property="og:type" content="product">'))) == model.threshold


@pytest.mark.parametrize("typed", [True, False])
def test_predict_blocks_labels_at_the_page_threshold(model: BlockPredictor, monkeypatch: pytest.MonkeyPatch, typed: bool) -> None:
    # Every block at a probability between the two thresholds: kept on a product's page, not on an article's,
    # and at the model's own threshold on both when the caller asks for it (learning does).
    between = (OTHER_PAGE_THRESHOLD + model.threshold) / 2
    monkeypatch.setattr(model, "_positive", lambda features: np.full(features.dense.shape[0], between))
    product = model.predict_blocks(parse_html(page('<meta property="og:type" content="product">')), typed=typed)
    article = model.predict_blocks(parse_html(page('<meta property="og:type" content="article">')), typed=typed)
    assert len(product) == len(article) == 5
    assert [p.is_content for p in product] == [typed] * 5
    assert not any(p.is_content for p in article)
