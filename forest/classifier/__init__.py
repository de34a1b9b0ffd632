"""The learned content/boilerplate classifier of text blocks: fallback extractor and wrapper filter.

:class:`TagClassifier` (training, scikit-learn) is imported on first use: predicting with the
shipped model (:func:`load_default`, a :class:`BlockPredictor`) never imports scikit-learn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forest.classifier.io import dumps, load, loads, save
from forest.classifier.page import DEFAULT_MODEL, classify_page, load_default
from forest.classifier.predictor import BlockPrediction, BlockPredictor
from forest.errors import ModelError

if TYPE_CHECKING:
    from forest.classifier.model import TagClassifier

__all__ = [
    "DEFAULT_MODEL",
    "BlockPrediction",
    "BlockPredictor",
    "ModelError",
    "TagClassifier",
    "classify_page",
    "dumps",
    "load",
    "load_default",
    "loads",
    "save",
]


def __getattr__(name: str) -> Any:
    if name == "TagClassifier":
        from forest.classifier.model import TagClassifier

        return TagClassifier
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
