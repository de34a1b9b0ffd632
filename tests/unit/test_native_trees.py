"""The trees' evaluation in C (forest.classifier._trees) against its reference, the lockstep walk in numpy.

``reference_proba`` below is how forest evaluated a compact tree ensemble before the walk was
native: every tree of every row one step at a time over a densified float matrix, the leaves
summed by ``ndarray.sum``.  The native walk must give the same probabilities bit for bit: on
random ensembles and inputs (hypothesis: dense and sparse, float32 and float64, duplicate sparse
entries, thresholds hit exactly, any number of trees), and with the shipped models' stages
on a fixed sample of every shared dataset's pages (``-m bench``: all of them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dataset_pages import bodies, dataset_pages, skip_without_datasets
from forest.classifier.compact import Compact, HashedRows

# --- The reference: the trees walked in lockstep with numpy ----------------------------------


def reference_proba(compact: Compact, dense: np.ndarray, hashed: sp.csr_matrix | None) -> np.ndarray:
    """P(positive) of each row of a "trees" Compact, as numpy computed it before the native walk."""
    a, settings_ = compact.arrays, compact.settings
    columns = a["hashed_columns"]
    width = dense.shape[1]
    single = dense.dtype == np.float32 and (hashed is None or hashed.dtype == np.float32)
    x = np.zeros((dense.shape[0], width + (len(columns) if hashed is not None else 0)), dtype=np.float32 if single else np.float64)
    x[:, :width] = dense
    if hashed is not None and len(columns):
        _densify(hashed, columns, x[:, width:])
    children = np.stack([a["right"], a["left"]], axis=1).astype(np.intp).ravel()
    threshold = np.asarray(a["threshold"], dtype=np.float64)
    if single:
        rounded = threshold.astype(np.float32)
        threshold = np.where(rounded.astype(np.float64) > threshold, np.nextafter(rounded, np.float32(-np.inf)), rounded)
    feature, roots = a["feature"].astype(np.intp), a["roots"].astype(np.intp)
    n, full = x.shape
    flat = np.ascontiguousarray(x).ravel()
    node = np.empty((n, len(roots)), dtype=np.intp)
    node[:] = roots
    offset = (np.arange(n, dtype=np.intp) * full)[:, None]
    for _ in range(int(settings_["max_depth"])):
        go_left = np.take(flat, feature[node] + offset) <= threshold[node]
        node = children[(node << 1) + go_left]
    values = a["value"][node]
    if settings_["aggregate"] == "mean":
        return np.asarray(values.mean(axis=1))
    logit = values.sum(axis=1) + float(settings_["baseline"])
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * logit)))


def _densify(hashed: sp.csr_matrix, columns: np.ndarray, out: np.ndarray) -> None:
    position = np.full(hashed.shape[1], -1, dtype=np.intp)
    position[columns] = np.arange(len(columns))
    rows = np.repeat(np.arange(hashed.shape[0]), np.diff(hashed.indptr))
    at = position[hashed.indices]
    kept = at >= 0
    block = np.zeros(out.shape, dtype=hashed.dtype)
    if hashed.has_canonical_format:
        block[rows[kept], at[kept]] = hashed.data[kept]
    else:
        np.add.at(block, (rows[kept], at[kept]), hashed.data[kept])
    out += block


def assert_bits(native: np.ndarray, reference: np.ndarray) -> None:
    assert native.dtype == reference.dtype == np.float64
    assert native.shape == reference.shape
    assert native.tobytes() == reference.tobytes()


# --- Random ensembles and inputs -------------------------------------------------------------

# Values the inputs take, and so the thresholds: repeated values hit thresholds exactly, and
# values between two float32s test the float32 walk's rounding of thresholds.
_GRID = np.array([-2.5, -1.0, -0.0, 0.0, 0.1, 0.5, 1.0, 1.0 + 2.0**-30, 3.0, 1e6], dtype=np.float64)


def random_ensemble(rng: np.random.Generator, n_trees: int, depth: int, width: int, n_hashed: int, n_hash: int, aggregate: str) -> Compact:
    """An ensemble as compile_trees lays one out (leaves point to themselves, feature 0, threshold inf)."""
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    roots: list[int] = []

    def grow(level: int) -> int:
        i = len(feature)
        feature.append(0)
        threshold.append(np.inf)
        left.append(i)
        right.append(i)
        value.append(0.0)
        if level >= depth or rng.random() < 0.25:
            # Leaf values span magnitudes (the order of summation shows in the last bits), some -0.0.
            value[i] = -0.0 if rng.random() < 0.1 else float(rng.normal() * 10.0 ** rng.integers(-6, 3))
            return i
        feature[i] = int(rng.integers(0, width + n_hashed))
        threshold[i] = float(rng.choice(_GRID)) + (float(rng.normal()) * 1e-9 if rng.random() < 0.3 else 0.0)
        left[i] = grow(level + 1)
        right[i] = grow(level + 1)
        return i

    for _ in range(n_trees):
        roots.append(grow(0))
    columns = rng.choice(n_hash, size=n_hashed, replace=False) if n_hashed else np.zeros(0, dtype=np.int64)
    arrays = {
        "feature": np.asarray(feature, dtype=np.int32),
        "threshold": np.asarray(threshold, dtype=np.float64),
        "left": np.asarray(left, dtype=np.int32),
        "right": np.asarray(right, dtype=np.int32),
        "value": np.asarray(value, dtype=np.float64),
        "roots": np.asarray(roots, dtype=np.int32),
        "hashed_columns": np.asarray(columns, dtype=np.int64),
    }
    settings_: dict[str, Any] = {"aggregate": aggregate, "max_depth": depth}
    if aggregate == "logit_sum":
        settings_["baseline"] = float(rng.normal())
    return Compact("trees", arrays, settings_)


def random_inputs(
    rng: np.random.Generator, n: int, width: int, n_hash: int, dense_dtype: Any, hashed_dtype: Any | None, canonical: bool
) -> tuple[np.ndarray, sp.csr_matrix | None]:
    dense = rng.choice(_GRID, size=(n, width)) + np.where(rng.random((n, width)) < 0.2, rng.normal(size=(n, width)), 0.0)
    dense = dense.astype(dense_dtype)
    if hashed_dtype is None:
        return dense, None
    per_row = rng.integers(0, 6, size=n)
    indptr = np.concatenate([[0], np.cumsum(per_row)])
    if canonical:
        indices = np.concatenate([np.sort(rng.choice(n_hash, size=k, replace=False)) for k in per_row]) if n else np.zeros(0)
        data = np.ones(len(indices))
    else:
        # Duplicate and unsorted entries, summed as np.add.at sums them.
        indices = rng.integers(0, n_hash, size=int(indptr[-1]))
        data = rng.choice([1.0, 0.5, -1.0, 0.1, 3.0], size=len(indices))
    return dense, sp.csr_matrix((data.astype(hashed_dtype), indices.astype(np.int32), indptr), shape=(n, n_hash))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 40),
    n_trees=st.sampled_from([1, 3, 7, 8, 9, 16, 100, 127, 128, 129, 300]),
    depth=st.integers(0, 6),
    width=st.integers(1, 12),
    n_hashed=st.integers(0, 6),
    aggregate=st.sampled_from(["logit_sum", "mean"]),
    dense_dtype=st.sampled_from([np.float32, np.float64]),
    hashed_dtype=st.sampled_from([None, np.float32, np.float64]),
    canonical=st.booleans(),
)
def test_random_ensembles_give_the_references_bits(
    seed: int, n: int, n_trees: int, depth: int, width: int, n_hashed: int, aggregate: str, dense_dtype: Any, hashed_dtype: Any, canonical: bool
) -> None:
    rng = np.random.default_rng(seed)
    n_hash = 16
    compact = random_ensemble(rng, n_trees, depth, width, n_hashed if hashed_dtype is not None else 0, n_hash, aggregate)
    dense, hashed = random_inputs(rng, n, width, n_hash, dense_dtype, hashed_dtype, canonical)
    assert_bits(compact.proba(dense, hashed), reference_proba(compact, dense, hashed))


def test_a_tree_deeper_than_max_depth_stops_where_the_lockstep_walk_stops() -> None:
    # max_depth bounds the steps: a file whose trees are deeper reads the inner node's value (0).
    rng = np.random.default_rng(3)
    compact = random_ensemble(rng, 20, 5, 4, 0, 16, "logit_sum")
    shallow = Compact("trees", compact.arrays, {**compact.settings, "max_depth": 2})
    dense = rng.choice(_GRID, size=(30, 4))
    assert_bits(shallow.proba(dense, None), reference_proba(shallow, dense, None))
    assert not np.array_equal(shallow.proba(dense, None), compact.proba(dense, None))


@pytest.mark.parametrize("hashed_dtype", [None, np.float32])
def test_rows_walked_in_blocks_give_each_rows_own_probability(hashed_dtype: Any) -> None:
    # The native walk takes rows a block at a time down each tree: over several blocks and a partial
    # last one, each row's probability is the reference's and the one it gets alone.
    rng = np.random.default_rng(11)
    compact = random_ensemble(rng, 40, 6, 9, 4 if hashed_dtype is not None else 0, 16, "mean")
    dense, hashed = random_inputs(rng, 3 * 16 + 5, 9, 16, np.float32, hashed_dtype, False)
    together = compact.proba(dense, hashed)
    assert_bits(together, reference_proba(compact, dense, hashed))
    alone = np.concatenate([compact.proba(dense[i : i + 1], hashed[i : i + 1] if hashed is not None else None) for i in range(len(dense))])
    assert_bits(together, alone)
    assert len(np.unique(together)) > 1  # rows that differ: a row read for another would show


def test_malformed_inputs_are_refused_not_read_out_of_bounds() -> None:
    rng = np.random.default_rng(5)
    compact = random_ensemble(rng, 5, 3, 4, 2, 16, "logit_sum")
    dense = np.zeros((2, 4), dtype=np.float32)
    bad_index = sp.csr_matrix((np.ones(1, np.float32), np.array([99], np.int32), np.array([0, 1, 1])), shape=(2, 16))
    with pytest.raises(ValueError, match="hashed column index out of range"):
        compact.proba(dense, bad_index)
    with pytest.raises(ValueError, match="2 dense rows but 3 hashed ones"):
        compact.proba(dense, sp.csr_matrix((3, 16), dtype=np.float32))
    with pytest.raises(ValueError, match="rows have 3 columns"):
        compact.proba(np.zeros((2, 1)), sp.csr_matrix((2, 16)))
    # leaf_sums checks the CSR itself: scipy lets a matrix's arrays be replaced unchecked.
    decreasing = sp.csr_matrix((np.ones(2, np.float32), np.array([1, 2], np.int32), np.array([0, 2, 2])), shape=(2, 16))
    decreasing.indptr = np.array([0, 2, 1], dtype=np.int32)
    with pytest.raises(ValueError, match="hashed rows are not a CSR matrix's"):
        compact.proba(dense, decreasing)
    negative = sp.csr_matrix((np.ones(2, np.float32), np.array([1, 2], np.int32), np.array([0, 2, 2])), shape=(2, 16))
    negative.indices = np.array([1, -3], dtype=np.int32)
    with pytest.raises(ValueError, match="hashed column index out of range"):
        compact.proba(dense, negative)
    broken = {**compact.arrays, "left": np.full_like(compact.arrays["left"], 10**6)}
    with pytest.raises(ValueError, match="tree left index out of range"):
        Compact("trees", broken, compact.settings).proba(dense, None)


# --- The shipped model on the shared datasets' pages ------------------------------------------

def _pages(every: bool) -> list[str]:
    return [html for pages in dataset_pages(every).values() for html in pages]


def _check_shipped_model(pages: list[str]) -> int:
    """The shipped models' stages (blocks, stacked context, and the article model's pairwise) on each page, native against the reference."""
    from forest.classifier.blocks import walk
    from forest.classifier.context import context_features
    from forest.classifier.features import page_features
    from forest.classifier.joint import edge_features
    from forest.classifier.page import MODERN_MODEL, load_default

    checked = 0
    for model in (load_default(), load_default(MODERN_MODEL)):
        for body in bodies(pages):
            tree = walk(body, proxies=False)
            if not tree.blocks:
                continue
            features, _ = page_features(tree, "blocks", n_hash=model.n_hash, modern="modern" in model.groups)
            dense, hashed = model._inputs(features, reset=False, exact=True)
            assert dense.dtype == np.float32 and hashed is not None and hashed.dtype == np.float32  # the float32, sparse road
            p = model.compact_.proba(dense, hashed)
            assert_bits(p, reference_proba(model.compact_, dense, hashed))
            # What prediction reads: the page's hashed rows as arrays, without the scipy matrix.
            _, rows = model._inputs(features, reset=False, exact=True, csr=False)
            assert isinstance(rows, HashedRows)
            assert_bits(model.compact_.proba(dense, rows), p)
            assert model.context_compact_ is not None
            context = context_features(p, features)
            assert_bits(model.context_compact_.proba(context, None), reference_proba(model.context_compact_, context, None))
            pairwise = getattr(model, "pairwise_compact_", None)  # the article model's alone
            if pairwise is not None:
                edges = edge_features(tree, features)
                assert_bits(pairwise.proba(edges, None), reference_proba(pairwise, edges, None))
            checked += 1
    return checked


@pytest.mark.datasets
def test_the_shipped_model_gives_the_references_bits_on_a_sample_of_every_dataset() -> None:
    skip_without_datasets()
    assert _check_shipped_model(_pages(every=False)) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_the_shipped_model_gives_the_references_bits_on_every_dataset_page() -> None:
    skip_without_datasets()
    assert _check_shipped_model(_pages(every=True)) > 0
