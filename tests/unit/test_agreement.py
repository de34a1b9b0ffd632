"""Whether the classifier may prune a site's regions: counts, ratios and the decision."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from forest.learning.agreement import Agreement, measure
from forest.config import Settings
from forest.learning.induce import Inducer
from forest.model import Page
from patterns.text import Block

sys.path.insert(0, str(Path(__file__).parent))
from test_extraction import StubClassifier  # noqa: E402
from test_induce import ARTICLES, story_page  # noqa: E402

ARTICLE = Block("Harbour cranes resume work today", 0)  # 5 terms, 2 keywords
SPECS = Block("Crane harbour crane load", 0)  # 4 terms, 3 keywords
COMMENT = Block("Great post thanks", 0)  # 3 terms, no keyword
KEYWORDS = frozenset({"harbour", "cranes", "crane"})


def test_counts_split_by_the_classifier_label() -> None:
    agreement = measure([([ARTICLE, SPECS], frozenset({SPECS.text}), KEYWORDS)])
    assert agreement == Agreement(kept_terms=5, kept_keywords=2, dropped_terms=4, dropped_keywords=3)
    assert agreement.dropped_share == pytest.approx(4 / 9)
    assert agreement.density_ratio == pytest.approx((3 / 4) / (2 / 5))  # 1.875


def test_dropping_the_keyword_dense_text_turns_pruning_off() -> None:
    assert not measure([([ARTICLE, SPECS], frozenset({SPECS.text}), KEYWORDS)]).prune


def test_dropping_comments_keeps_pruning_on() -> None:
    agreement = measure([([ARTICLE, COMMENT], frozenset({COMMENT.text}), KEYWORDS)])
    assert agreement.dropped_share == pytest.approx(3 / 8) and agreement.density_ratio == 0
    assert agreement.prune


def test_a_small_disputed_share_keeps_pruning_on() -> None:
    # Dense in keywords (a caption, a headline) but a tenth of the region: not a contradiction.
    article = Block(" ".join(["harbour"] + ["word"] * 35), 0)
    agreement = measure([([article, SPECS], frozenset({SPECS.text}), KEYWORDS)])
    assert agreement.dropped_share == pytest.approx(0.1) and agreement.density_ratio > 20
    assert agreement.prune


def test_pages_add_up_and_empty_counts_are_safe() -> None:
    pages = [([ARTICLE], frozenset(), KEYWORDS), ([SPECS], frozenset({SPECS.text}), KEYWORDS)]
    assert measure(pages) == Agreement(5, 2, 4, 3)
    assert Agreement().prune and Agreement().density_ratio == 0 and Agreement().dropped_share == 0
    assert math.isinf(Agreement(dropped_terms=4, dropped_keywords=1).density_ratio)


def _learn(classifier: StubClassifier) -> Inducer:
    pages = [Page(story_page(i), url=f"http://courier.test/{i}") for i in range(5)]
    return Inducer(Settings(), classifier=classifier).fit(pages, site="courier.test")


def test_learning_keeps_pruning_for_a_classifier_that_drops_text_poor_in_keywords() -> None:
    # Each page's last sentence: a third of the region, few of the page's tf-idf keywords.
    inducer = _learn(StubClassifier(*(story[2] for _, story in ARTICLES[:5])))
    assert inducer.wrapper_.prune
    assert not any(note.startswith("the classifier") for note in inducer.wrapper_.notes)


def test_learning_turns_pruning_off_for_a_classifier_that_drops_the_story() -> None:
    # Each page's first two sentences hold its tf-idf keywords; the classifier rejects them.
    inducer = _learn(StubClassifier(*(sentence for _, story in ARTICLES[:5] for sentence in story[:2])))
    assert not inducer.wrapper_.prune
    assert any(note.startswith("the classifier does not prune") for note in inducer.wrapper_.notes)
    assert "does not prune" in inducer.report_.notes[-1]
