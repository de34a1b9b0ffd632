"""The learned content/boilerplate classifier of text blocks: fallback extractor and wrapper filter."""

from __future__ import annotations

from forest.classifier.io import dumps, load, loads, save
from forest.errors import ModelError
from forest.classifier.model import BlockPrediction, TagClassifier
from forest.classifier.page import DEFAULT_MODEL, classify_page, load_default

__all__ = [
    "DEFAULT_MODEL",
    "BlockPrediction",
    "ModelError",
    "TagClassifier",
    "classify_page",
    "dumps",
    "load",
    "load_default",
    "loads",
    "save",
]
