"""A record's confidence, by hand: a wrapper record's from its region, a classifier record's from its probabilities."""

from __future__ import annotations

from lxml import etree

from forest.classifier.predictor import BlockPrediction
from forest.extraction.extractor import kept_probability
from forest.region import ALTERNATE_CONFIDENCE, confidence
from forest.wrapper import Wrapper
from patterns.model import Pattern
from patterns.text import Block

PROSE = Block("one two three four five six seven eight nine ten eleven twelve", 0)  # 12 words, prose
SHORT = Block("Share this", 0)  # 2 words, not prose
MENU = Block("Home News Sport", 15)  # 3 words, all link text


def _predicted(block: Block, probability: float) -> BlockPrediction:
    return BlockPrediction(0, block, etree.Element("p"), probability, True)


def test_kept_probability_is_the_word_weighted_mean_of_the_kept_blocks() -> None:
    # (12 * 0.9 + 2 * 0.55) / 14 = 11.9 / 14 = 0.85
    assert kept_probability([_predicted(PROSE, 0.9), _predicted(SHORT, 0.55)]) == 0.85
    assert kept_probability([_predicted(PROSE, 0.97)]) == 0.97
    assert kept_probability([]) == 0.0


def test_a_classifier_unsure_of_what_it_kept_is_less_confident() -> None:
    sure = kept_probability([_predicted(PROSE, 0.95), _predicted(SHORT, 0.9)])
    unsure = kept_probability([_predicted(PROSE, 0.95), _predicted(SHORT, 0.5), _predicted(PROSE, 0.52)])
    assert unsure < sure


def test_wrapper_confidence_by_hand() -> None:
    wrapper = Wrapper(site="example.test", patterns=(), sample=("a", "b", "c"))
    pattern = Pattern("//article", 1.0, 3, 3.0, terms=20, prose=0.8)
    blocks = [PROSE, SHORT, MENU]  # 17 words, 12 of them prose: share 12/17
    share = 12 / 17
    # size 17/20, prose against the sample min(1, share / 0.8), prose itself share, a full sample
    expected = (17 / 20) * (share / 0.8) * share
    assert confidence(blocks, 17, pattern, wrapper, 0) == round(expected, 3)
    assert confidence(blocks, 17, pattern, wrapper, 1) == round(expected * ALTERNATE_CONFIDENCE, 3)


def test_a_region_of_short_lines_is_less_confident_than_an_article() -> None:
    wrapper = Wrapper(site="example.test", patterns=(), sample=("a", "b", "c"))
    pattern = Pattern("//article", 1.0, 3, 3.0, terms=20, prose=0.5)
    article = confidence([PROSE, PROSE], 24, pattern, wrapper, 0)
    listing = confidence([PROSE, SHORT, SHORT, SHORT, SHORT, SHORT, SHORT], 24, pattern, wrapper, 0)
    assert article == 1.0
    assert listing < article


def test_a_small_sample_discounts_the_confidence() -> None:
    pattern = Pattern("//article", 1.0, 1, 3.0, terms=12, prose=1.0)
    one = Wrapper(site="example.test", patterns=(), sample=("a",))
    assert confidence([PROSE], 12, pattern, one, 0) == round(1 / 3, 3)
