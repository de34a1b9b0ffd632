"""Fitted scikit-learn models as plain arrays, and the small numpy predictors that read them.

Predicting needs numpy alone: scikit-learn is imported only to compile a fitted model.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier

KINDS = ("linear", "mlp", "trees")
_ACTIVATIONS = ("identity", "logistic", "tanh", "relu")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # overflow-free logistic


def _activate(name: str, z: np.ndarray) -> np.ndarray:
    out: np.ndarray
    if name == "relu":
        out = np.maximum(z, 0.0)
        return out
    if name == "tanh":
        out = np.tanh(z)
        return out
    if name == "logistic":
        return _sigmoid(z)
    return z


@dataclass(frozen=True)
class Compact:
    """A binary classifier as named numpy arrays plus JSON-safe settings.

    Inputs are the dense feature columns and, optionally, the hashed token columns.
    ``linear`` and ``mlp`` standardize the dense columns with ``mean``/``scale`` and use
    every hashed column; ``trees`` use the raw dense columns and the hashed columns listed
    in ``hashed_columns``, densified.
    """

    kind: str
    arrays: dict[str, np.ndarray]
    settings: dict[str, Any] = field(default_factory=dict)

    def proba(self, dense: np.ndarray, hashed: sp.csr_matrix | None) -> np.ndarray:
        """P(positive class) of each row."""
        a = self.arrays
        if self.kind == "trees":
            columns = a["hashed_columns"]
            width = dense.shape[1]
            # float32 features (hashed ones are 0/1) walk the trees in float32: half the memory
            # to gather from, and exact, with each threshold rounded down to a float32.
            single = dense.dtype == np.float32 and (hashed is None or hashed.dtype == np.float32)
            # One matrix filled in place: the dense columns, then the model's hashed ones.
            x = np.zeros((dense.shape[0], width + (len(columns) if hashed is not None else 0)), dtype=np.float32 if single else np.float64)
            x[:, :width] = dense
            if hashed is not None and len(columns):
                _densify(hashed, columns, x[:, width:])
            return _trees(self._tree_table, self.settings, x)
        z = (dense.astype(np.float64) - a["mean"]) / a["scale"]
        nd = z.shape[1]
        if self.kind == "linear":
            coef = a["coef"]
            logit = z @ coef[:nd] + float(a["intercept"][0])
            if hashed is not None:
                logit = logit + hashed @ coef[nd:]
            return _sigmoid(logit)
        h = z
        for k in range(int(self.settings["layers"])):
            w, b = a[f"w{k}"], a[f"b{k}"]
            out = h @ w[:nd] if k == 0 else h @ w
            if k == 0 and hashed is not None:
                out = out + hashed @ w[nd:]
            h = out + b
            if k < int(self.settings["layers"]) - 1:
                h = _activate(str(self.settings["activation"]), h)
        return _sigmoid(h[:, 0])


    @functools.cached_property
    def _tree_table(self) -> dict[str, np.ndarray]:
        # The node arrays as _trees indexes them, converted once per model rather than per call.
        a = self.arrays
        # children[2i] is node i's right child, children[2i + 1] its left: one gather per step.
        children = np.stack([a["right"], a["left"]], axis=1).astype(np.intp).ravel()
        threshold = np.asarray(a["threshold"], dtype=np.float64)
        # For a float32 x, x <= t exactly when x <= the largest float32 not above t.
        single = threshold.astype(np.float32)
        single = np.where(single.astype(np.float64) > threshold, np.nextafter(single, np.float32(-np.inf)), single)
        return {"feature": a["feature"].astype(np.intp), "threshold": threshold, "threshold32": single,
                "children": children, "roots": a["roots"].astype(np.intp), "value": a["value"]}  # fmt: skip


def _densify(hashed: sp.csr_matrix, columns: np.ndarray, out: np.ndarray) -> None:
    """Add ``hashed[:, columns]`` into ``out``: what ``.toarray()`` of the column selection gives, without scipy's indexing."""
    position = np.full(hashed.shape[1], -1, dtype=np.intp)
    position[columns] = np.arange(len(columns))
    rows = np.repeat(np.arange(hashed.shape[0]), np.diff(hashed.indptr))
    at = position[hashed.indices]
    kept = at >= 0
    block = np.zeros(out.shape, dtype=hashed.dtype)
    if hashed.has_canonical_format:
        block[rows[kept], at[kept]] = hashed.data[kept]  # no duplicate entries to sum
    else:
        np.add.at(block, (rows[kept], at[kept]), hashed.data[kept])
    out += block


def _trees(a: dict[str, np.ndarray], settings: dict[str, Any], x: np.ndarray) -> np.ndarray:
    feature, children = a["feature"], a["children"]
    threshold = a["threshold32"] if x.dtype == np.float32 else a["threshold"]
    n, width = x.shape
    flat = np.ascontiguousarray(x).ravel()
    offset = (np.arange(n, dtype=np.intp) * width)[:, None]
    shape = (n, len(a["roots"]))
    node = np.empty(shape, dtype=np.intp)
    node[:] = a["roots"]
    # Buffers reused at every step; indices are valid by construction, so take() need not check
    # them ("clip"), which also lets it write straight into ``out``.
    index, step = np.empty(shape, dtype=np.intp), np.empty(shape, dtype=np.intp)
    value, limit, go_left = np.empty(shape, dtype=x.dtype), np.empty(shape, dtype=x.dtype), np.empty(shape, dtype=bool)
    # Leaves point to themselves, so every tree can take max_depth steps in lockstep.
    for _ in range(int(settings["max_depth"])):
        np.take(feature, node, out=index, mode="clip")
        index += offset
        np.take(flat, index, out=value, mode="clip")
        np.take(threshold, node, out=limit, mode="clip")
        np.less_equal(value, limit, out=go_left)
        node <<= 1
        node += go_left
        np.take(children, node, out=step, mode="clip")
        node, step = step, node
    values = a["value"][node]
    if settings["aggregate"] == "mean":
        return np.asarray(values.mean(axis=1))
    return np.asarray(_sigmoid(values.sum(axis=1) + float(settings["baseline"])))


def compile_linear(model: LogisticRegression, mean: np.ndarray, scale: np.ndarray) -> Compact:
    """A fitted binary logistic regression over standardized dense columns (+ raw hashed ones)."""
    arrays = {"mean": mean, "scale": scale, "coef": model.coef_[0].astype(np.float64),
              "intercept": np.asarray(model.intercept_, dtype=np.float64)}  # fmt: skip
    return Compact("linear", arrays)


def compile_mlp(model: MLPClassifier, mean: np.ndarray, scale: np.ndarray) -> Compact:
    """A fitted binary MLP (logistic output unit)."""
    if model.activation not in _ACTIVATIONS or model.out_activation_ != "logistic":
        raise ValueError(f"cannot export an MLP with {model.activation}/{model.out_activation_} units")
    arrays: dict[str, np.ndarray] = {"mean": mean, "scale": scale}
    for k, (w, b) in enumerate(zip(model.coefs_, model.intercepts_)):
        arrays[f"w{k}"], arrays[f"b{k}"] = np.asarray(w, np.float64), np.asarray(b, np.float64)
    return Compact("mlp", arrays, {"layers": len(model.coefs_), "activation": model.activation})


def compile_trees(model: HistGradientBoostingClassifier | RandomForestClassifier, hashed_columns: np.ndarray) -> Compact:
    """A fitted binary histogram gradient boosting or random forest, as one array per node field."""
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier

    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    if isinstance(model, HistGradientBoostingClassifier):
        # scikit-learn keeps the boosted trees in private predictors; the tests compare our
        # predictions with predict_proba, so a change of that layout cannot go unnoticed.
        for (predictor,) in model._predictors:
            n = predictor.nodes
            leaf = n["is_leaf"].astype(bool)
            if n["is_categorical"].any():
                raise ValueError("categorical splits are not supported")
            parts.append((leaf, n["feature_idx"], n["num_threshold"], n["left"], n["right"], n["value"]))
        settings: dict[str, Any] = {"aggregate": "logit_sum", "baseline": float(np.ravel(model._baseline_prediction)[0])}
        depth = max(int(p.nodes["depth"].max()) for (p,) in model._predictors)
    elif isinstance(model, RandomForestClassifier):
        for estimator in model.estimators_:
            t = estimator.tree_
            leaf = t.children_left < 0
            counts = t.value[:, 0, :]
            share = counts[:, 1] / np.maximum(counts.sum(axis=1), 1e-300)
            parts.append((leaf, t.feature, t.threshold, t.children_left, t.children_right, share))
        settings = {"aggregate": "mean"}
        depth = max(int(e.tree_.max_depth) for e in model.estimators_)
    else:
        raise TypeError(f"cannot export {type(model).__name__}")
    feature, threshold, left, right, value, roots = [], [], [], [], [], []
    offset = 0
    for leaf, feat, thr, lo, hi, val in parts:
        m = len(leaf)
        own = np.arange(offset, offset + m)
        feature.append(np.where(leaf, 0, feat).astype(np.int32))
        threshold.append(np.where(leaf, np.inf, thr).astype(np.float64))
        left.append(np.where(leaf, own, np.asarray(lo) + offset).astype(np.int32))
        right.append(np.where(leaf, own, np.asarray(hi) + offset).astype(np.int32))
        value.append(np.where(leaf, val, 0.0).astype(np.float64))
        roots.append(offset)
        offset += m
    arrays: dict[str, np.ndarray] = {
        "feature": np.concatenate(feature),
        "threshold": np.concatenate(threshold),
        "left": np.concatenate(left),
        "right": np.concatenate(right),
        "value": np.concatenate(value),
        "roots": np.asarray(roots, dtype=np.int32),
        "hashed_columns": np.asarray(hashed_columns, dtype=np.int64),
    }
    return Compact("trees", arrays, {**settings, "max_depth": depth})
