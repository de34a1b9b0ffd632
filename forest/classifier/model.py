"""TagClassifier: a scikit-learn estimator that labels text blocks (or tags) as content or boilerplate."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from sklearn.neural_network import MLPClassifier
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_consistent_length, check_is_fitted, column_or_1d, validate_data

from forest.classifier.compact import Compact, HashedRows, compile_linear, compile_mlp, compile_trees
from forest.classifier.context import context_features
from forest.classifier.features import GROUPS, N_HASH, UNITS, Features
from forest.classifier.predictor import MODELS, BlockPredictor
from forest.classifier.smoothing import transitions

# Tree models see only hashed token columns set on at least this many training rows (at most
# MAX_TREE_TOKENS of them): a rare token cannot make a useful split, and densifying all 2**10
# columns would triple the memory of training.
MIN_TOKEN_ROWS = 20
MAX_TREE_TOKENS = 256
# Folds of the out-of-fold first stage that trains the stacked second stage.
STACK_FOLDS = 3


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


class TagClassifier(ClassifierMixin, BaseEstimator, BlockPredictor):  # type: ignore[misc]  # scikit-learn ships no types
    """Content/boilerplate classifier of text blocks (or of all tags), after Utiu's thesis, chapter 3.

    Trained here with scikit-learn; it predicts as :class:`~forest.classifier.predictor.BlockPredictor`
    (``predict_blocks``), which is what a model file is read into when no training is needed.

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

    def _inputs(self, X: Any, *, reset: bool, exact: bool = False, csr: bool = True) -> tuple[np.ndarray, sp.csr_matrix | HashedRows | None]:
        """Dense and hashed columns of ``X``: a :class:`Features` (see BlockPredictor), or any numeric matrix (all dense)."""
        if isinstance(X, Features):
            return super()._inputs(X, reset=reset, exact=exact, csr=csr)
        return validate_data(self, X, reset=reset, dtype=np.float64), None

    def _check_fitted(self) -> None:
        check_is_fitted(self, "compact_")

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
            dense, rows = self._inputs(X, reset=True)
            hashed = rows.csr() if isinstance(rows, HashedRows) else rows  # a csr_matrix already (csr=True): narrows the type
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

    def predict(self, X: Any) -> np.ndarray:
        """The label of each row: ``classes_[1]`` where P(``classes_[1]``) >= ``threshold``."""
        p = self.predict_proba(X)[:, 1]
        return np.asarray(self.classes_[(p >= self.threshold).astype(np.int64)])


def _frequent_columns(hashed: sp.csr_matrix | None) -> np.ndarray:
    if hashed is None:
        return np.zeros(0, dtype=np.int64)
    counts = np.asarray((hashed > 0).sum(axis=0)).ravel()
    frequent = np.flatnonzero(counts >= MIN_TOKEN_ROWS)
    return np.sort(frequent[np.argsort(-counts[frequent], kind="stable")[:MAX_TREE_TOKENS]])
