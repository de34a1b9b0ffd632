"""Page-level use of the classifier: the shipped default model, a page's content text, boilerplate inside a region."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from pathlib import Path

from lxml import etree

from forest.classifier.io import load
from forest.classifier.model import BlockPrediction, TagClassifier

DEFAULT_MODEL = Path(__file__).with_name("default_model.fcm")
# P(boilerplate) at or above which a block inside a wrapper's region is dropped: only blocks the
# classifier is sure about, because the wrapper's region is already mostly right.
BOILERPLATE_THRESHOLD = 0.9


@functools.lru_cache(maxsize=4)
def _cached(path: str, mtime_ns: int) -> TagClassifier:
    return load(path)[0]


def load_default(path: str | Path | None = None) -> TagClassifier:
    """The classifier stored at ``path`` (default: the model shipped in the package), loaded once per process.

    :raises ModelError: missing, corrupt or tampered model file.
    """
    target = Path(path) if path is not None else DEFAULT_MODEL
    try:
        mtime = target.stat().st_mtime_ns
    except OSError:
        mtime = -1  # let load() raise its clear error
    return _cached(str(target), mtime)


def classify_page(root: etree._Element, *, model: TagClassifier | None = None) -> str:
    """The text of the content blocks of a parsed page (``forest.html.parse_html``), one block per line."""
    predictions = (model or load_default()).predict_blocks(root)
    return "\n".join(p.block.text for p in predictions if p.is_content)


def _inside(element: etree._Element, region: set[etree._Element]) -> bool:
    if element in region:
        return True
    return any(a in region for a in element.iterancestors())


def blocks_in_region(predictions: Sequence[BlockPrediction], region_nodes: Iterable[etree._Element]) -> list[BlockPrediction]:
    """The predictions whose block lies inside one of ``region_nodes`` (their element is a region node or below one)."""
    region = set(region_nodes)
    return [p for p in predictions if _inside(p.element, region)]


def boilerplate_blocks(
    root: etree._Element,
    region_nodes: Iterable[etree._Element],
    threshold: float = BOILERPLATE_THRESHOLD,
    *,
    model: TagClassifier | None = None,
    predictions: Sequence[BlockPrediction] | None = None,
) -> set[str]:
    """Texts of the blocks inside ``region_nodes`` whose P(boilerplate) is at least ``threshold``.

    The texts are whitespace-normalized exactly as :func:`patterns.text.text_blocks` gives
    them, so a caller keeps ``[b for b in text_blocks(region) if b.text not in dropped]``.
    Pass ``predictions`` (from ``predict_blocks(root)``) to reuse one classification.
    """
    if predictions is None:
        predictions = (model or load_default()).predict_blocks(root)
    return {p.block.text for p in blocks_in_region(predictions, region_nodes) if 1.0 - p.probability >= threshold}
