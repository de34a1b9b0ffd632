"""What a fitted classifier needs to label a page's blocks, without scikit-learn.

Extraction and learning only predict, from the compact arrays (forest.classifier.compact);
scikit-learn is for training (forest.classifier.model.TagClassifier, which inherits these
methods).  Importing it costs about a second, every process, so the shipped model is read
into a :class:`BlockPredictor` and a run that never trains never imports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from lxml import etree

from forest.classifier._walk import predictions
from forest.classifier.blocks import unshown, walk
from forest.classifier.compact import Compact, HashedRows
from forest.classifier.container import confine_with_paragraphs
from forest.classifier.context import context_features
from forest.classifier.features import GROUPS, N_HASH, Features, og_type, page_features
from forest.classifier.joint import decode, edge_features
from forest.classifier.smoothing import viterbi
from patterns.text import Block

__all__ = ["MODELS", "BlockPrediction", "BlockPredictor", "shift_threshold"]

MODELS = ("logreg", "forest", "gbt", "mlp")
# P(content) threshold on a page whose og:type says it is something other than an article (a shop's
# product, a forum thread, a service's or a documentation page: "website", "product", ...), when the
# model's own is higher.  The model learned its threshold on article pages, whose gold is the article
# alone; on these pages the content is many short blocks (specifications, posts, a service's
# sections) that it scores lower than an article's prose, so at the article threshold it keeps too
# little.  A page that declares an article, or nothing (most older news pages), keeps the model's.
# Lower, wcxb_dev's pages gain more, but pages of the site-level datasets' dev sites begin to lose
# precision.  Chosen on wcxb_dev's pages and the site-level datasets' dev sites (re-measure:
# python -m eval.classifier.modern --no-cv, and forest eval --split dev).
OTHER_PAGE_THRESHOLD = 0.2


@dataclass(frozen=True, slots=True)
class BlockPrediction:
    """One text block of a page with its classification.

    ``index`` is the block's position in :func:`patterns.text.text_blocks` of the body;
    ``element`` the innermost block-level element holding its text.
    """

    index: int
    block: Block
    element: etree._Element
    probability: float  # P(content) before smoothing; 0 for blocks the browser does not render
    is_content: bool  # after the threshold and the article container (or Viterbi smoothing, if enabled)


class BlockPredictor:
    """A fitted content/boilerplate classifier of text blocks, for prediction only.

    Built by :func:`forest.classifier.io.loads` (``estimator=False``) from a model file; its
    attributes are :class:`~forest.classifier.model.TagClassifier`'s of the same names.
    """

    groups: tuple[str, ...]
    unit: str
    n_hash: int
    threshold: float
    smoothing: float
    classes_: np.ndarray
    n_features_in_: int
    transitions_: np.ndarray
    compact_: Compact
    context_compact_: Compact | None
    # Web2Text's pairwise model and its weight (forest.classifier.joint), when one is attached.
    pairwise_compact_: Compact | None
    joint_weight_: float

    def __init__(self, *, groups: tuple[str, ...] = GROUPS, unit: str = "blocks", n_hash: int = N_HASH,
                 threshold: float = 0.5, smoothing: float = 0.0) -> None:  # fmt: skip
        self.groups = groups
        self.unit = unit
        self.n_hash = n_hash
        self.threshold = threshold
        self.smoothing = smoothing

    def _check_fitted(self) -> None:
        if not hasattr(self, "compact_"):
            raise ValueError(f"this {type(self).__name__} is not fitted yet")

    def _inputs(self, X: Any, *, reset: bool, exact: bool = False, csr: bool = True) -> tuple[np.ndarray, sp.csr_matrix | HashedRows | None]:
        """Dense and hashed columns of a :class:`Features`.

        :param exact: keep the float32 columns as they are (the compact models read them
            exactly so, and tree walks run faster on them), rather than as float64.
        :param csr: the hashed columns as a ``csr_matrix``; else as ``X`` holds them (a page's
            HashedRows, which the compact models read without the scipy object).
        """
        if not isinstance(X, Features):
            raise TypeError(f"{type(self).__name__} predicts from Features, not {type(X).__name__}")
        dense, hashed = X.select(self.groups, csr=csr)
        if not np.isfinite(dense).all():
            raise ValueError("features contain NaN or infinity")
        width = dense.shape[1] + (hashed.shape[1] if hashed is not None else 0)
        if reset:
            self.n_features_in_ = width
        elif width != self.n_features_in_:
            raise ValueError(f"X has {width} features, but {type(self).__name__} expects {self.n_features_in_}")
        return (dense if exact else dense.astype(np.float64)), hashed

    def _positive(self, X: Any) -> np.ndarray:
        # P(classes_[1]) of each row, for callers that checked the fit.
        dense, hashed = self._inputs(X, reset=False, exact=True, csr=False)
        p = self.compact_.proba(dense, hashed)
        if self.context_compact_ is not None:
            p = self.context_compact_.proba(context_features(p, X), None)
        return p

    def smooth(self, probability: np.ndarray) -> np.ndarray:
        """Content flags of one page's rows, in page order: Viterbi if ``smoothing`` > 0, else the threshold."""
        self._check_fitted()
        return self._smooth(probability)

    def _smooth(self, probability: np.ndarray, threshold: float | None = None) -> np.ndarray:
        threshold = self.threshold if threshold is None else threshold
        if self.smoothing > 0:
            # Shift the probabilities so that, unsmoothed, the threshold is the decision boundary.
            shifted = shift_threshold(probability, threshold)
            return viterbi(shifted, self.transitions_, self.smoothing)
        return np.asarray(probability) >= threshold

    def page_threshold(self, root: etree._Element) -> float:
        """The P(content) threshold for the page ``root`` (``forest.html.parse_html``'s tree): the
        model's own, or at most OTHER_PAGE_THRESHOLD where the page's og:type names something
        other than an article."""
        head = root.find("head") if root.tag == "html" else None
        declared = og_type(head) if head is not None else ""
        return min(self.threshold, OTHER_PAGE_THRESHOLD) if declared and declared != "article" else self.threshold

    @property
    def has_joint(self) -> bool:
        """Whether a pairwise model is attached, so ``predict_blocks(root, joint=True)`` decodes jointly."""
        return getattr(self, "pairwise_compact_", None) is not None

    def predict_blocks(
        self, root: etree._Element, *, joint: bool = False, confined: bool = True, landmarks: bool = True, typed: bool = True
    ) -> list[BlockPrediction]:
        """Classify every text block of a parsed page (``forest.html.parse_html``), in page order.

        :param joint: label the blocks jointly, Web2Text's way (the classifier's probabilities as
            unary potentials, the attached pairwise model's, Viterbi); without a pairwise model,
            the threshold as usual.
        :param confined: after the threshold, hold the blocks outside the article's container to
            a surer probability, and keep the long paragraphs between its content blocks
            (``forest.classifier.container``); not with Viterbi or joint decoding.
        :param landmarks: give probability 0 to figure captions, footers and navigation
            (:func:`forest.classifier.blocks.not_article`).  Learning leaves them to the model: there a
            caption the labels took for boilerplate on every sample page would cut the whole figure,
            image included, from the article's HTML and Markdown.
        :param typed: let the page's og:type pick the threshold (:meth:`page_threshold`).  Learning
            reads the labels at the model's own, as evidence about the site's template.
        :raises ValueError: the classifier was trained on tags, not blocks.
        """
        self._check_fitted()
        if self.unit != "blocks":
            raise ValueError("predict_blocks needs a classifier trained with unit='blocks'")
        body = root.find("body") if root.tag == "html" else root
        if body is None:
            return []
        # Elements made on access (a proxy per block owner): nothing changes the tree before this returns.
        tree = walk(body, proxies=False)
        if not tree.blocks:
            return []
        # A model trained before the "modern" group (its groups lack it) reads neither the group
        # nor the tokens without hashed class names: computing them would only cost time.
        features, _ = page_features(tree, "blocks", n_hash=self.n_hash, modern="modern" in self.groups)
        p = self._positive(features)
        # What the browser does not show is never the article (schema.org copies of the headline,
        # templates for popups); the training pages have too few such blocks to learn it.  Nor are a
        # figure's caption, a footer or navigation, which few training pages mark as such.
        hidden = unshown(tree, landmarks=landmarks)[tree.owner]
        p[hidden] = 0.0
        threshold = self.page_threshold(root) if typed else self.threshold
        pairwise = getattr(self, "pairwise_compact_", None) if joint else None
        if pairwise is not None:
            same = pairwise.proba(edge_features(tree, features), None)
            content = decode(shift_threshold(p, threshold), same, self.joint_weight_)
        else:
            content = self._smooth(p, threshold)
            if confined and self.smoothing <= 0:
                # Blocks outside the element that holds most of the article need a surer probability, and
                # a long paragraph the browser shows inside it needs none (forest.classifier.container).
                # Not after Viterbi or joint decoding, which have their own say on context.
                # (confine | long_paragraphs & ~hidden, with the container found once.)
                content = confine_with_paragraphs(tree, p, content, hidden)
        # Plain Python numbers from tolist(); made in C (each owner's element once).
        return predictions(BlockPrediction, tree.blocks, tree.elements, tree.owner.tolist(), p.tolist(),
                           np.asarray(content, dtype=bool).tolist())  # fmt: skip


def shift_threshold(p: np.ndarray, threshold: float) -> np.ndarray:
    """P(content) mapped so that ``threshold`` falls at 0.5: what smoothing and joint decoding take as potentials."""
    # A monotone map of [0, 1] onto itself taking ``threshold`` to 0.5 (odds scaled).
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    t = min(max(threshold, 1e-6), 1 - 1e-6)
    odds = p / (1 - p) * (1 - t) / t
    shifted: np.ndarray = odds / (1 + odds)
    return shifted
