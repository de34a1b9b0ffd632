"""Fitted scikit-learn models as plain arrays, and the small predictors that read them.

Predicting needs numpy alone (and, for trees, the walk in C of forest.classifier._trees):
scikit-learn is imported only to compile a fitted model.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from forest.classifier._trees import leaf_sums

if TYPE_CHECKING:
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier

KINDS = ("linear", "mlp", "trees")
# Where a page's rows of hashed tokens fit int32 indices, scipy keeps them so (as the CSR of HashedRows.csr).
_INT32_MAX = int(np.iinfo(np.int32).max)
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


@dataclass(frozen=True, slots=True)
class HashedRows:
    """Rows of hashed token columns as CSR arrays, without the scipy matrix.

    What the tree walk reads (``data``, ``indices``, ``indptr``, ``shape``, ``dtype``, as a
    ``csr_matrix`` has them): building the scipy object cost a predicted page more than the walk
    over its rows, so prediction reads these, and :meth:`csr` makes the matrix for the rest.
    """

    data: np.ndarray  # float32 ones
    indices: np.ndarray  # int32 columns, ascending in each row
    indptr: np.ndarray  # int64
    shape: tuple[int, int]

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    def csr(self) -> sp.csr_matrix:
        """The rows as a ``csr_matrix``."""
        indptr = self.indptr
        if len(self.indices) <= _INT32_MAX:
            # scipy keeps int32 indices where they fit, as here; given an int64 indptr beside the int32
            # columns, it checked and cast both (a third of the matrix's construction on a page).
            indptr = indptr.astype(np.int32)
        return sp.csr_matrix((self.data, self.indices, indptr), shape=self.shape)


@dataclass(frozen=True)
class Compact:
    """A binary classifier as named numpy arrays plus JSON-safe settings.

    Inputs are the dense feature columns and, optionally, the hashed token columns.
    ``linear`` and ``mlp`` standardize the dense columns with ``mean``/``scale`` and use
    every hashed column; ``trees`` use the raw dense columns and the hashed columns listed
    in ``hashed_columns``, read from the sparse rows where a tree splits on them.
    """

    kind: str
    arrays: dict[str, np.ndarray]
    settings: dict[str, Any] = field(default_factory=dict)

    def proba(self, dense: np.ndarray, hashed: sp.csr_matrix | HashedRows | None) -> np.ndarray:
        """P(positive class) of each row."""
        a = self.arrays
        if self.kind == "trees":
            return _tree_proba(self._tree_table, self.settings, dense, hashed)
        if isinstance(hashed, HashedRows):
            hashed = hashed.csr()
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
        # The node arrays as leaf_sums reads them, converted once per model rather than per call.
        a = self.arrays
        # children[2i] is node i's right child, children[2i + 1] its left: one read per step.
        children = np.stack([a["right"], a["left"]], axis=1).astype(np.int32).ravel()
        threshold = np.asarray(a["threshold"], dtype=np.float64)
        # For a float32 x, x <= t exactly when x <= the largest float32 not above t.
        single = threshold.astype(np.float32)
        single = np.where(single.astype(np.float64) > threshold, np.nextafter(single, np.float32(-np.inf)), single)
        feature = np.ascontiguousarray(a["feature"], dtype=np.int32)
        nodes = len(feature)
        # leaf_sums trusts its indices: a model whose nodes point outside its arrays fails here.
        for name, index in (("roots", a["roots"]), ("left", a["left"]), ("right", a["right"])):
            if len(index) and (int(index.min()) < 0 or int(index.max()) >= nodes):
                raise ValueError(f"tree {name} index out of range")
        if nodes and int(feature.min()) < 0:
            raise ValueError("tree feature index out of range")
        return {"feature": feature, "packed32": _packed(NODE32, feature, single, children),
                "packed64": _packed(NODE64, feature, threshold, children),
                "roots": np.ascontiguousarray(a["roots"], dtype=np.intp), "value": np.ascontiguousarray(a["value"], dtype=np.float64),
                "columns": np.ascontiguousarray(a["hashed_columns"], dtype=np.intp),
                "reads": np.asarray(int(feature.max()) + 1 if nodes else 0),
                # The inputs of a call without hashed rows (leaf_sums reads no entry of them).
                "empty": np.zeros(0, dtype=np.intp), "empty32": np.zeros(0, dtype=np.float32),
                "empty64": np.zeros(0, dtype=np.float64)}  # fmt: skip


def _positions(a: dict[str, np.ndarray], width: int) -> np.ndarray:
    """The hashed column of each of ``width`` CSR columns (-1: not one the model reads), made once
    per model and width: every page's rows have the same (the model's n_hash)."""
    key = f"position{width}"
    position = a.get(key)
    if position is None:
        columns = a["columns"]
        if len(columns) and int(columns.max()) >= width:
            raise ValueError("hashed column index out of range")
        position = np.full(width, -1, dtype=np.intp)
        position[columns] = np.arange(len(columns))
        position.setflags(write=False)
        if len(a) < 64:  # a few widths at most (a model's n_hash); others are made per call
            a[key] = position
    return position


# A node as leaf_sums reads it, one record per node (_trees.pyx's Node32 and Node64, C's layout):
# a step of the walk then reads one cache line, not one in each of three arrays.
NODE32 = np.dtype([("feature", np.int32), ("threshold", np.float32), ("child", np.int32, (2,))], align=True)
NODE64 = np.dtype([("feature", np.int32), ("pad", np.int32), ("threshold", np.float64), ("child", np.int32, (2,))], align=True)


def _packed(kind: np.dtype, feature: np.ndarray, threshold: np.ndarray, children: np.ndarray) -> np.ndarray:
    # The nodes as records of ``kind``, as bytes (children: right, left of each node, as leaf_sums reads them).
    nodes = np.zeros(len(feature), dtype=kind)
    nodes["feature"] = feature
    nodes["threshold"] = threshold
    nodes["child"] = children.reshape(-1, 2)
    return nodes.view(np.uint8)


def _tree_proba(a: dict[str, np.ndarray], settings: dict[str, Any], dense: np.ndarray,
                hashed: sp.csr_matrix | HashedRows | None) -> np.ndarray:  # fmt: skip
    """P(positive) of each row from the trees, walked in C (forest.classifier._trees).

    A row is its dense columns, then the model's hashed columns picked from ``hashed`` (zeros
    without it).  float32 features (hashed ones are 0/1) walk the trees in float32: exact, with
    each threshold rounded down to a float32, and what a float32 matrix would be compared in.
    """
    single = dense.dtype == np.float32 and (hashed is None or hashed.dtype == np.float32)
    kind = np.float32 if single else np.float64
    rows = np.ascontiguousarray(dense, dtype=kind)
    n, width = rows.shape
    columns = a["columns"]
    if hashed is None:
        # No hashed entries (leaf_sums reads an empty indptr so): the rows' hashed columns are zeros.
        n_hashed = 0
        data, indices, indptr, position = a["empty32" if single else "empty64"], a["empty"], a["empty"], a["empty"]
    else:
        if hashed.shape[0] != n:
            raise ValueError(f"{n} dense rows but {hashed.shape[0]} hashed ones")
        n_hashed = len(columns)
        # Other dtypes than float32 are read as float64 (exact for integer counts).
        data = np.ascontiguousarray(hashed.data, dtype=np.float32 if hashed.dtype == np.float32 else np.float64)
        indices = np.ascontiguousarray(hashed.indices, dtype=np.intp)
        indptr = np.ascontiguousarray(hashed.indptr, dtype=np.intp)
        if len(indptr) != n + 1:  # leaf_sums checks the rest of the CSR (scipy checks none of it on construction)
            raise ValueError("hashed rows are not a CSR matrix's")
        position = _positions(a, int(hashed.shape[1]))
    if int(a["reads"]) > width + n_hashed:
        raise ValueError(f"the trees read column {int(a['reads']) - 1}, but rows have {width + n_hashed} columns")
    sums = leaf_sums(rows, data, indices, indptr, position, n_hashed, a["packed32"] if single else a["packed64"],
                     a["value"], a["roots"], int(settings["max_depth"]))  # fmt: skip
    if settings["aggregate"] == "mean":
        mean: np.ndarray = sums / len(a["roots"])
        return mean
    return _sigmoid(sums + float(settings["baseline"]))


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
