"""TagClassifier: a scikit-learn estimator that labels text blocks (or tags) as content or boilerplate."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from lxml import etree
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from sklearn.neural_network import MLPClassifier
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_consistent_length, check_is_fitted, column_or_1d, validate_data

from forest.classifier.blocks import invisible, not_article, walk
from forest.classifier.compact import Compact, compile_linear, compile_mlp, compile_trees
from forest.classifier.container import confine
from forest.classifier.context import context_features
from forest.classifier.features import GROUPS, N_HASH, UNITS, Features, page_features
from forest.classifier.joint import decode, edge_features
from forest.classifier.smoothing import transitions, viterbi
from patterns.text import Block

MODELS = ("logreg", "forest", "gbt", "mlp")
# Tree models see only hashed token columns set on at least this many training rows (at most
# MAX_TREE_TOKENS of them): a rare token cannot make a useful split, and densifying all 2**10
# columns would triple the memory of training.
MIN_TOKEN_ROWS = 20
MAX_TREE_TOKENS = 256
# Folds of the out-of-fold first stage that trains the stacked second stage.
STACK_FOLDS = 3


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


def _defaults(model: str, class_weight: str | None, random_state: int | None) -> Any:
    if model == "logreg":
        return LogisticRegression(C=1.0, max_iter=3000, class_weight=class_weight)
    if model == "forest":
        weight = "balanced_subsample" if class_weight == "balanced" else class_weight
        return RandomForestClassifier(n_estimators=100, min_samples_leaf=3, class_weight=weight, n_jobs=1,
                                      random_state=random_state)  # fmt: skip
    if model == "gbt":
        return HistGradientBoostingClassifier(max_iter=200, max_depth=8, l2_regularization=1.0, class_weight=class_weight,
                                              early_stopping=False, random_state=random_state)  # fmt: skip
    return MLPClassifier(hidden_layer_sizes=(64,), alpha=1e-3, max_iter=300, early_stopping=True, random_state=random_state)


class TagClassifier(ClassifierMixin, BaseEstimator):
    """Content/boilerplate classifier of text blocks (or of all tags), after Utiu's thesis, chapter 3.

    Parameters
    ----------
    model : {"logreg", "forest", "gbt", "mlp"}
        Logistic regression, random forest, histogram gradient boosting or a one-layer MLP.
    groups : tuple of str
        Feature groups used (see ``forest.classifier.features.GROUPS``).
    unit : {"blocks", "tags"}
        What a row of ``X`` describes; ``predict_blocks`` needs ``"blocks"``.
    n_hash : int
        Columns of the hashed class/id tokens.
    class_weight : "balanced" or None
        Reweight the classes to compensate the imbalance.
    threshold : float
        P(content) at or above which a row is content.
    smoothing : float
        Weight of the learned transitions in Viterbi smoothing over a page's blocks (0: off).
    stacking : bool
        Add a second stage that sees the first stage's out-of-fold probabilities of the
        block's neighbours and containers (``forest.classifier.context``); blocks only.
    max_rows : int or None
        Fit each first-stage model on at most this many random rows (None: all).
    params : mapping, optional
        Overrides of the scikit-learn estimator's parameters.
    random_state : int or None

    Attributes
    ----------
    classes_ : ndarray of the two labels
    n_features_in_ : int
    estimator_ : the fitted scikit-learn model (absent when loaded from a file)
    compact_ : Compact, the arrays every prediction uses
    context_compact_ : Compact or None, the second stage when ``stacking``
    transitions_ : ndarray (2, 2), log transition probabilities between consecutive rows' labels
    pairwise_compact_ : Compact, optional
        Web2Text's pairwise model (``forest.classifier.joint``): P(two neighbouring blocks share
        a label) from their edge features; attached after fitting (``eval.classifier.joint``).
    joint_weight_ : float, optional
        Web2Text's lambda, the weight of the pairwise term in joint decoding.
    """

    # Attached by eval.classifier.joint after fitting, never by fit: absent on most models.
    pairwise_compact_: Compact | None
    joint_weight_: float

    def __init__(
        self,
        model: str = "gbt",
        *,
        groups: tuple[str, ...] = GROUPS,
        unit: str = "blocks",
        n_hash: int = N_HASH,
        class_weight: str | None = "balanced",
        threshold: float = 0.5,
        smoothing: float = 0.0,
        stacking: bool = False,
        max_rows: int | None = None,
        params: Mapping[str, Any] | None = None,
        random_state: int | None = 0,
    ) -> None:
        self.model = model
        self.groups = groups
        self.unit = unit
        self.n_hash = n_hash
        self.class_weight = class_weight
        self.threshold = threshold
        self.smoothing = smoothing
        self.stacking = stacking
        self.max_rows = max_rows
        self.params = params
        self.random_state = random_state

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _inputs(self, X: Any, *, reset: bool, exact: bool = False) -> tuple[np.ndarray, sp.csr_matrix | None]:
        """Dense and hashed columns of ``X``: a :class:`Features`, or any numeric matrix (all dense).

        :param exact: keep a :class:`Features`' float32 columns as they are (the compact models
            read them exactly so, and tree walks run faster on them), rather than as float64.
        """
        if isinstance(X, Features):
            dense, hashed = X.select(self.groups)
            if not np.isfinite(dense).all():
                raise ValueError("features contain NaN or infinity")
            width = dense.shape[1] + (hashed.shape[1] if hashed is not None else 0)
            if reset:
                self.n_features_in_ = width
            elif width != self.n_features_in_:
                raise ValueError(f"X has {width} features, but {type(self).__name__} expects {self.n_features_in_}")
            return (dense if exact else dense.astype(np.float64)), hashed
        return validate_data(self, X, reset=reset, dtype=np.float64), None

    def fit(self, X: Any, y: Any, groups: Sequence[Any] | np.ndarray | None = None) -> TagClassifier:
        """Fit on feature rows ``X`` (a :class:`Features` or a numeric matrix) and labels ``y``.

        :param groups: a group label per row (the site) for the out-of-fold first stage of
            stacking, so a site never helps predict itself; by default the page.
        :raises ValueError: unknown model/unit, ``y`` not binary, or stacking without block features.
        """
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, got {self.model!r}")
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, got {self.unit!r}")
        if self.stacking and not (isinstance(X, Features) and X.spans is not None and self.unit == "blocks"):
            raise ValueError("stacking needs block Features (with page numbers and spans)")
        if isinstance(X, Features):
            dense, hashed = self._inputs(X, reset=True)
            if y is None:
                raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
            y = column_or_1d(y, warn=True)
            check_consistent_length(dense, y)
        else:
            dense, y = validate_data(self, X, y, dtype=np.float64)
            hashed = None
        check_classification_targets(y)
        if len(np.unique(y)) != 2:
            raise ValueError(f"Only binary classification is supported; y has {len(np.unique(y))} classes")
        self.classes_, codes = np.unique(y, return_inverse=True)
        page = X.page if isinstance(X, Features) and X.page is not None else np.zeros(len(codes), dtype=np.int64)
        self.transitions_ = transitions(np.split(codes, np.flatnonzero(page[1:] != page[:-1]) + 1))
        self.context_compact_: Compact | None = None
        if self.stacking:
            assert isinstance(X, Features)
            first = np.zeros(len(codes))
            groups = page if groups is None else np.asarray(groups)
            n_folds = min(STACK_FOLDS, len(np.unique(groups)))
            if n_folds < 2:
                raise ValueError("stacking needs rows of at least two groups (pages or sites)")
            folds = GroupKFold(n_splits=n_folds).split(dense, codes, groups=groups)
            for k, (train, held_out) in enumerate(folds):
                compact, _ = self._fit_stage(dense, hashed, codes, train, seed=k + 1)
                first[held_out] = compact.proba(dense[held_out], hashed[held_out] if hashed is not None else None)
            stage2 = HistGradientBoostingClassifier(max_iter=100, max_depth=6, class_weight=self.class_weight,
                                                    early_stopping=False, random_state=self.random_state)  # fmt: skip
            stage2.fit(context_features(first, X), codes)
            self.context_compact_ = compile_trees(stage2, np.zeros(0, dtype=np.int64))
        self.compact_, self.estimator_ = self._fit_stage(dense, hashed, codes, np.arange(len(codes)), seed=0)
        return self

    def _fit_stage(
        self, dense: np.ndarray, hashed: sp.csr_matrix | None, codes: np.ndarray, rows: np.ndarray, *, seed: int
    ) -> tuple[Compact, Any]:
        """One first-stage model fitted on (at most ``max_rows`` of) ``rows``."""
        if self.max_rows is not None and len(rows) > self.max_rows:
            rng = np.random.default_rng(None if self.random_state is None else self.random_state + seed)
            rows = np.sort(rng.choice(rows, size=self.max_rows, replace=False))
        dense, codes = dense[rows], codes[rows]
        hashed = hashed[rows] if hashed is not None else None
        estimator = _defaults(self.model, self.class_weight, self.random_state)
        if self.params:
            estimator.set_params(**dict(self.params))
        if self.model in ("logreg", "mlp"):
            mean = dense.mean(axis=0)
            scale = dense.std(axis=0)
            scale[scale == 0] = 1.0
            z = (dense - mean) / scale
            inputs = sp.hstack([sp.csr_matrix(z), hashed], format="csr") if hashed is not None else z
            if self.model == "mlp" and self.class_weight:
                # MLPClassifier has no class_weight: the same balance through sample weights.
                estimator.fit(inputs, codes, sample_weight=compute_sample_weight(self.class_weight, codes))
            else:
                estimator.fit(inputs, codes)
            compile_model = compile_linear if self.model == "logreg" else compile_mlp
            return compile_model(estimator, mean, scale), estimator
        columns = _frequent_columns(hashed)
        inputs = np.hstack([dense, hashed[:, columns].toarray()]) if hashed is not None and len(columns) else dense
        estimator.fit(inputs, codes)
        return compile_trees(estimator, columns), estimator

    def predict_proba(self, X: Any) -> np.ndarray:
        """Probabilities of ``classes_`` for each row, shape (n, 2)."""
        check_is_fitted(self, "compact_")
        p = self._positive(X)
        return np.column_stack([1.0 - p, p])

    def _positive(self, X: Any) -> np.ndarray:
        # P(classes_[1]) of each row, for callers that checked the fit (sklearn's check costs ~30 us).
        dense, hashed = self._inputs(X, reset=False, exact=True)
        p = self.compact_.proba(dense, hashed)
        if self.context_compact_ is not None:
            p = self.context_compact_.proba(context_features(p, X), None)
        return p

    def predict(self, X: Any) -> np.ndarray:
        """The label of each row: ``classes_[1]`` where P(``classes_[1]``) >= ``threshold``."""
        p = self.predict_proba(X)[:, 1]
        return np.asarray(self.classes_[(p >= self.threshold).astype(np.int64)])

    def smooth(self, probability: np.ndarray) -> np.ndarray:
        """Content flags of one page's rows, in page order: Viterbi if ``smoothing`` > 0, else the threshold."""
        check_is_fitted(self, "compact_")
        return self._smooth(probability)

    def _smooth(self, probability: np.ndarray) -> np.ndarray:
        if self.smoothing > 0:
            # Shift the probabilities so that, unsmoothed, the threshold is the decision boundary.
            shifted = shift_threshold(probability, self.threshold)
            return viterbi(shifted, self.transitions_, self.smoothing)
        return np.asarray(probability) >= self.threshold

    @property
    def has_joint(self) -> bool:
        """Whether a pairwise model is attached, so ``predict_blocks(root, joint=True)`` decodes jointly."""
        return getattr(self, "pairwise_compact_", None) is not None

    def predict_blocks(
        self, root: etree._Element, *, joint: bool = False, confined: bool = True, landmarks: bool = True
    ) -> list[BlockPrediction]:
        """Classify every text block of a parsed page (``forest.html.parse_html``), in page order.

        :param joint: label the blocks jointly, Web2Text's way (the classifier's probabilities as
            unary potentials, the attached pairwise model's, Viterbi); without a pairwise model,
            the threshold as usual.
        :param confined: after the threshold, hold the blocks outside the article's container to
            a surer probability (``forest.classifier.container``); not with Viterbi or joint decoding.
        :param landmarks: give probability 0 to figure captions, footers and navigation
            (:func:`forest.classifier.blocks.not_article`).  Learning leaves them to the model: there a
            caption the labels took for boilerplate on every sample page would cut the whole figure,
            image included, from the article's HTML and Markdown.
        :raises ValueError: the classifier was trained on tags, not blocks.
        """
        check_is_fitted(self, "compact_")
        if self.unit != "blocks":
            raise ValueError("predict_blocks needs a classifier trained with unit='blocks'")
        body = root.find("body") if root.tag == "html" else root
        if body is None:
            return []
        tree = walk(body)
        if not tree.blocks:
            return []
        features, _ = page_features(tree, "blocks", n_hash=self.n_hash)
        p = self._positive(features)
        # What the browser does not show is never the article (schema.org copies of the headline,
        # templates for popups); the training pages have too few such blocks to learn it.  Nor are a
        # figure's caption, a footer or navigation, which few training pages mark as such.
        hidden = invisible(tree)
        if landmarks:
            hidden |= not_article(tree)
        p[hidden[tree.owner]] = 0.0
        pairwise = getattr(self, "pairwise_compact_", None) if joint else None
        if pairwise is not None:
            same = pairwise.proba(edge_features(tree, features), None)
            content = decode(shift_threshold(p, self.threshold), same, self.joint_weight_)
        else:
            content = self._smooth(p)
            if confined and self.smoothing <= 0:
                # Blocks outside the element that holds most of the article need a surer probability
                # (forest.classifier.container).  Not after Viterbi or joint decoding, which have their own say on context.
                content = confine(tree, p, content)
        elements = tree.elements
        # Plain Python numbers from tolist(): indexing numpy arrays item by item costs more.
        rows = zip(tree.blocks, tree.owner.tolist(), p.tolist(), np.asarray(content, dtype=bool).tolist())
        return [BlockPrediction(j, block, elements[o], pj, cj) for j, (block, o, pj, cj) in enumerate(rows)]


def shift_threshold(p: np.ndarray, threshold: float) -> np.ndarray:
    """P(content) mapped so that ``threshold`` falls at 0.5: what smoothing and joint decoding take as potentials."""
    # A monotone map of [0, 1] onto itself taking ``threshold`` to 0.5 (odds scaled).
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    t = min(max(threshold, 1e-6), 1 - 1e-6)
    odds = p / (1 - p) * (1 - t) / t
    return odds / (1 + odds)


def _frequent_columns(hashed: sp.csr_matrix | None) -> np.ndarray:
    if hashed is None:
        return np.zeros(0, dtype=np.int64)
    counts = np.asarray((hashed > 0).sum(axis=0)).ravel()
    frequent = np.flatnonzero(counts >= MIN_TOKEN_ROWS)
    return np.sort(frequent[np.argsort(-counts[frequent], kind="stable")[:MAX_TREE_TOKENS]])
