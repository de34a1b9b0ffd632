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

from forest.classifier._trees import heap_sums, leaf_sums

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


def _gathered(a: dict[str, np.ndarray], width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What leaf_sums reads of rows ``width`` dense columns wide: the dense columns the nodes split
    on, the hashed ones (in the gathered row, after them), and the nodes (packed32, packed64) with
    their features numbered in that row.

    The shipped model's trees read a few hundred of a row's 1,700 columns: a gathered row takes
    a quarter of the cache, and the walk ran a fifth faster.  Made once per model and width (every
    page a model reads has the same); a leaf's feature (0) is kept among them, as the walk reads it too.
    """
    keys = (f"dense{width}", f"hashed{width}", f"packed32:{width}", f"packed64:{width}")
    if keys[0] not in a:
        feature = a["feature"]
        used = np.unique(feature)
        number = np.zeros(max(int(a["reads"]), 1), dtype=np.int32)
        number[used] = np.arange(len(used), dtype=np.int32)
        renumbered = number[feature]
        made = (np.ascontiguousarray(used[used < width], dtype=np.intp), np.ascontiguousarray(used[used >= width] - width, dtype=np.intp),
                _repacked(a["packed32"], NODE32, renumbered), _repacked(a["packed64"], NODE64, renumbered))  # fmt: skip
        if len(a) >= 64:  # a few widths at most (a model's rows have one); others are made per call
            return made
        a.update(zip(keys, made))
    return a[keys[0]], a[keys[1]], a[keys[2]], a[keys[3]]


def _repacked(packed: np.ndarray, kind: np.dtype, feature: np.ndarray) -> np.ndarray:
    # ``packed``'s nodes (records of ``kind``, as bytes) splitting on the columns ``feature`` instead.
    nodes = packed.view(kind).copy()
    nodes["feature"] = feature
    as_bytes: np.ndarray = nodes.view(np.uint8)
    return as_bytes


def _slots(a: dict[str, np.ndarray], hashed: np.ndarray, width: int, csr_width: int) -> np.ndarray:
    """The gathered hashed column of each of ``csr_width`` CSR columns (-1: one the trees never
    read; ``hashed``: the model's hashed columns they read, as _gathered lists them), for rows
    ``width`` dense columns wide; made once per model and widths."""
    key = f"slot{width}:{csr_width}"
    slot = a.get(key)
    if slot is None:
        position = _positions(a, csr_width)
        # A trailing -1 that the CSR columns the model does not read (position -1) pick.
        number = np.full(len(a["columns"]) + 1, -1, dtype=np.intp)
        number[hashed] = np.arange(len(hashed))
        slot = np.ascontiguousarray(number[position], dtype=np.intp)
        slot.setflags(write=False)
        if len(a) < 64:
            a[key] = slot
    return slot


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


# A heap's node as heap_sums reads it (_trees.pyx's Heap32 and Heap64): a threshold and a feature, no children.
HEAP32 = np.dtype([("threshold", np.float32), ("feature", np.int32)], align=True)
HEAP64 = np.dtype([("threshold", np.float64), ("feature", np.int32), ("pad", np.int32)], align=True)
# Trees at most this deep are walked as heaps (heap_sums): the shipped models' are 6 and 8 deep, and a
# tree's heap has 2**depth values (a random forest grown without a bound is walked node by node).
HEAP_DEPTH = 10


def _heaps(a: dict[str, np.ndarray], width: int, single: bool, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """The trees as heaps of their lockstep walk ``depth`` steps deep, their features numbered as
    _gathered numbers them for rows ``width`` wide, as heap_sums reads them (records, as bytes), and
    their bottom levels' values.

    Heap p of a tree holds the node the walk is at after the steps that lead to p (its left steps
    to 2p + 1, its right ones to 2p + 2): a leaf fills its place's subtree, as the walk stays on it,
    and a node past ``depth`` is never reached.  A step then reads no child, only a threshold and a
    feature: the walk ran a fifth faster.  Made once per model, width and float width.
    """
    key = f"heap{'32' if single else '64'}:{width}"
    if key in a:
        return a[key], a[f"{key}:value"]
    _, _, packed32, packed64 = _gathered(a, width)
    nodes = packed32.view(NODE32) if single else packed64.view(NODE64)
    roots = np.asarray(a["roots"], dtype=np.intp)
    inner = (1 << depth) - 1
    place = np.empty((len(roots), 2 * inner + 1), dtype=np.intp)
    place[:, 0] = roots
    for p in range(inner):
        node = place[:, p]
        place[:, 2 * p + 1] = nodes["child"][node, 1]  # the left child: child[x <= threshold]
        place[:, 2 * p + 2] = nodes["child"][node, 0]
    heap = np.zeros((len(roots), inner), dtype=HEAP32 if single else HEAP64)
    heap["threshold"] = nodes["threshold"][place[:, :inner]]
    heap["feature"] = nodes["feature"][place[:, :inner]]
    made = heap.reshape(-1).view(np.uint8), np.ascontiguousarray(a["value"][place[:, inner:]], dtype=np.float64).reshape(-1)
    if len(a) < 64:
        a[key], a[f"{key}:value"] = made
    return made


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
        data, indices, indptr = a["empty32" if single else "empty64"], a["empty"], a["empty"]
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
    if int(a["reads"]) > width + n_hashed:
        raise ValueError(f"the trees read column {int(a['reads']) - 1}, but rows have {width + n_hashed} columns")
    gathered, hashed_read, packed32, packed64 = _gathered(a, width)
    # Without hashed rows no tree reads a hashed column (checked above): none is gathered.
    slot = _slots(a, hashed_read, width, int(hashed.shape[1])) if hashed is not None else a["empty"]
    n_slots = len(hashed_read) if hashed is not None else 0
    depth = int(settings["max_depth"])
    if depth <= HEAP_DEPTH:
        heap, value = _heaps(a, width, single, depth)
        sums = heap_sums(rows, data, indices, indptr, slot, n_slots, gathered, heap, value, len(a["roots"]), depth)
    else:
        sums = leaf_sums(rows, data, indices, indptr, slot, n_slots, gathered, packed32 if single else packed64, a["value"], a["roots"], depth)
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
