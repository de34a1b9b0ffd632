"""A classifier's kept block as forest.extraction's cleanups read it: for tests that label blocks by hand."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from patterns.text import Block


@dataclass(frozen=True)
class Prediction:
    """forest.classifier.predictor.BlockPrediction's fields that the cleanups read."""

    block: Block
    element: etree._Element
    probability: float = 1.0
    is_content: bool = True
