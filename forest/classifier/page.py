"""Page-level use of the classifier: the shipped default model, a page's content text, boilerplate inside a region."""

from __future__ import annotations

import functools
from pathlib import Path

from lxml import etree

from forest.classifier.io import load
from forest.classifier.predictor import BlockPredictor

# The article model: trained on the older datasets' pages (2007-2012 news, blogs and portals), whose gold
# leaves out what surrounds an article.  The modern model: trained on those and on today's pages of every
# type (wcxb_dev's allowed pages), whose gold keeps a forum's posts, a product's specifications, a
# listing's items.  forest.extraction.models says which reads a page.
DEFAULT_MODEL = Path(__file__).with_name("default_model.fcm")
MODERN_MODEL = Path(__file__).with_name("modern_model.fcm")


@functools.lru_cache(maxsize=4)
def _cached(path: str, mtime_ns: int) -> BlockPredictor:
    return load(path, estimator=False)[0]


def load_default(path: str | Path | None = None) -> BlockPredictor:
    """The classifier stored at ``path`` (default: the model shipped in the package), loaded once per
    process, for prediction (:func:`forest.classifier.io.load` gives the scikit-learn estimator).

    :raises ModelError: missing, corrupt or tampered model file.
    """
    target = Path(path) if path is not None else DEFAULT_MODEL
    try:
        mtime = target.stat().st_mtime_ns
    except OSError:
        mtime = -1  # let load() raise its clear error
    return _cached(str(target), mtime)


def classify_page(root: etree._Element, *, model: BlockPredictor | None = None, joint: bool = False) -> str:
    """The text of the content blocks of a parsed page (``forest.html.parse_html``), one block per line.

    :param joint: decode the blocks jointly, Web2Text's way, when the model has a pairwise model.
    """
    predictions = (model or load_default()).predict_blocks(root, joint=joint)
    return "\n".join(p.block.text for p in predictions if p.is_content)
