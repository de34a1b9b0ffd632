"""The learned content/boilerplate classifier of text blocks: fallback extractor and wrapper filter."""

from __future__ import annotations

from forest.classifier.io import dumps, load, loads, save
from forest.errors import ModelError
from forest.classifier.model import BlockPrediction, TagClassifier
from forest.classifier.page import (
    BOILERPLATE_THRESHOLD,
    DEFAULT_MODEL,
    blocks_in_region,
    boilerplate_blocks,
    classify_page,
    load_default,
)

__all__ = [
    "BOILERPLATE_THRESHOLD",
    "DEFAULT_MODEL",
    "BlockPrediction",
    "ModelError",
    "TagClassifier",
    "blocks_in_region",
    "boilerplate_blocks",
    "classify_page",
    "dumps",
    "load",
    "load_default",
    "loads",
    "save",
]
