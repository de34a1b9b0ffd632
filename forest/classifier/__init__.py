"""The learned content/boilerplate classifier of text blocks: fallback extractor and wrapper filter.

:class:`TagClassifier` (training, scikit-learn) is imported on first use: predicting with the
shipped model (:func:`load_default`, a :class:`BlockPredictor`) never imports scikit-learn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forest.classifier.io import dumps, load, loads, save
from forest.classifier.page import DEFAULT_MODEL, MODERN_MODEL, classify_page, load_default
from forest.classifier.predictor import BlockPrediction, BlockPredictor
from forest.errors import ModelError

if TYPE_CHECKING:
    from forest.classifier.model import TagClassifier

__all__ = [
    "DEFAULT_MODEL",
    "MODERN_MODEL",
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
        try:
            from forest.classifier.model import TagClassifier
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.split(".")[0] in ("sklearn", "scipy"):
                raise ModuleNotFoundError(
                    "training the classifier needs scikit-learn: pip install 'forest-extract[train]'", name=exc.name
                ) from exc
            raise
        return TagClassifier
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
