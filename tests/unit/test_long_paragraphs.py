"""A long paragraph of prose between the article's content blocks, inside its container, is content at any
probability (forest.classifier.container.long_paragraphs, and predict_blocks' labels)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from forest.classifier import load_default
from forest.classifier.blocks import walk
from forest.classifier.container import PROSE_WORDS, long_paragraphs
from forest.classifier.predictor import BlockPrediction, BlockPredictor
from forest.html import parse_html


def words(n: int, word: str) -> str:
    return " ".join([word] * n)


LONG = PROSE_WORDS + 5
PAGE = (
    "<html><head><title>Best dishwashers</title></head><body>"
    f"<div class='promo'><p>{words(LONG, 'offer')}</p></div>"  # outside the container
    "<div class='body'><h1>The best dishwashers</h1>"
    # The model's content: an opening and a closing paragraph, so <div class='body'> is the deepest
    # element holding most of its words, the container.
    f"<p>{words(40, 'intro')}</p>"
    f"<p>{words(LONG, 'review')}</p>"  # a long paragraph the model doubts, between them: vouched for
    f"<p>{words(PROSE_WORDS - 5, 'short')}</p>"  # too short to vouch for
    f"<div>{words(LONG, 'div')}</div>"  # not a <p>
    f"<p><a href='/shop'>{words(LONG, 'teaser')}</a></p>"  # mostly links
    f"<figure><figcaption><p>{words(LONG, 'caption')}</p></figcaption></figure>"  # a landmark: the reader's view leaves it out
    f"<p>{words(40, 'outro')}</p>"
    f"<p>{words(LONG, 'bio')}</p>"  # after the article's last content block: a bio, a pitch
    "</div></body></html>"
)


def first_words(predictions: list[BlockPrediction]) -> list[str]:
    return [p.block.text.split()[0] for p in predictions if p.is_content]


def test_only_long_paragraphs_between_the_content_inside_the_container() -> None:
    tree = walk(parse_html(PAGE).find("body"))
    texts = [b.text.split()[0] for b in tree.blocks]
    content = np.array([t in ("intro", "outro") for t in texts])
    found = long_paragraphs(tree, content)
    assert [t for t, f in zip(texts, found) if f] == ["intro", "review", "caption", "outro"]
    # With the body as the container (no content) nothing is vouched for.
    assert not long_paragraphs(tree, np.zeros(len(texts), dtype=bool)).any()


@pytest.fixture
def model() -> BlockPredictor:
    return copy.copy(load_default())


def test_predict_blocks_keeps_them_whatever_the_model_says(model: BlockPredictor, monkeypatch: pytest.MonkeyPatch) -> None:
    root = parse_html(PAGE)
    texts = [b.text.split()[0] for b in walk(root.find("body")).blocks]
    # The model sure of the opening and the closing alone.
    monkeypatch.setattr(model, "_positive", lambda features: np.array([0.99 if t in ("intro", "outro") else 0.01 for t in texts]))
    assert first_words(model.predict_blocks(root)) == ["intro", "review", "outro"]
    # Learning reads the model's labels as they are.
    assert first_words(model.predict_blocks(root, confined=False, landmarks=False)) == ["intro", "outro"]
