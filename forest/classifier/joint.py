"""Web2Text's joint labelling of a page's blocks: unary and pairwise potentials, decoded together by Viterbi.

Web2Text (Vogels, Ganea and Eickhoff, 2018; ``../shared/papers/web2text-ru.txt``, section 3.5)
labels the sequence of text blocks ``b_0 .. b_n`` with the labelling that maximizes

    sum_i log p_i(l_i) + lambda * sum_i log p_{i,i+1}(l_i, l_{i+1})

where ``p_i`` is the unary potential (the probability that block i is content or boilerplate)
and ``p_{i,i+1}`` the pairwise potential of two neighbouring blocks' labels; the paper uses
``lambda = 0.1``.  Here the unary potentials are the block classifier's probabilities and the
pairwise potential comes from a model of whether two neighbours share a label:
``p(a, b) = s`` when ``a == b`` and ``1 - s`` otherwise (halving both, so the four sum to one,
adds the same constant to every labelling and changes nothing).

:func:`edge_features` are the pairwise model's inputs, after the paper's edge features: how far
apart the two blocks are in the tree (levels up to their common ancestor, one-hot at 0-4 and
over 4, as the paper's 2, 3, 4, > 4), whether a block-level boundary separates them, both
blocks' own node and text features, and the node features of their common ancestor.
"""

from __future__ import annotations

import numpy as np

from forest.classifier.blocks import PageTree
from forest.classifier.features import N_ANCESTORS, Features, group_columns
from forest.classifier.smoothing import best_path

# The paper's interpolation between the unary and the pairwise terms (section 3.5: "we use λ = 0.1").
PAPER_WEIGHT = 0.1
# Potentials are clipped away from 0 and 1: log(0) never occurs, and one confident model
# can still be overruled by the other.
_EPS = 1e-6
# Tree distances with a column of their own; longer ones share the last.
_DISTANCES = 5
_NODE = group_columns()["node"]
_ANCESTORS = group_columns()["ancestors"]
_TEXT = group_columns()["text"]
_NODE_WIDTH = _NODE[1] - _NODE[0]
_OWN = np.concatenate([np.arange(*_NODE), np.arange(*_TEXT)])
EDGE_COLUMNS = (
    [f"distance={d}" for d in range(_DISTANCES)]
    + [f"distance>{_DISTANCES - 1}", "up_left", "up_right", "same_owner", "common_depth"]
    + [f"left.{k}" for k in range(len(_OWN))]
    + [f"right.{k}" for k in range(len(_OWN))]
    + [f"common.{k}" for k in range(_NODE_WIDTH)]
)
N_EDGE = len(EDGE_COLUMNS)


def edge_features(tree: PageTree, features: Features) -> np.ndarray:
    """One row per pair of consecutive blocks ``(i, i + 1)`` of a page: shape ``(n_blocks - 1, N_EDGE)``.

    :param features: the page's block rows (``page_features(tree, "blocks")``), in block order.
    """
    n = len(tree.blocks)
    if n < 2:
        return np.zeros((0, N_EDGE))
    owner = tree.owner.tolist()
    parent = tree.parent.tolist()
    depth = tree.depth.tolist()
    up_left = np.zeros(n - 1, dtype=np.int64)
    up_right = np.zeros(n - 1, dtype=np.int64)
    common_depth = np.zeros(n - 1, dtype=np.int64)
    for i in range(n - 1):
        a, b = owner[i], owner[i + 1]
        ua = ub = 0
        while depth[a] > depth[b]:
            a, ua = parent[a], ua + 1
        while depth[b] > depth[a]:
            b, ub = parent[b], ub + 1
        while a != b:
            a, b, ua, ub = parent[a], parent[b], ua + 1, ub + 1
        up_left[i], up_right[i], common_depth[i] = ua, ub, depth[a]
    distance = up_left + up_right
    onehot = np.zeros((n - 1, _DISTANCES + 1))
    onehot[np.arange(n - 1), np.minimum(distance, _DISTANCES)] = 1.0
    dense = features.dense
    # The common ancestor is the left block's element (0 steps up) or one of its 5 recorded
    # ancestors; farther up, the 5th stands for it (the rows record no more).
    steps = np.minimum(up_left, N_ANCESTORS)
    node = dense[:, _NODE[0] : _NODE[1]]
    ancestors = dense[:, _ANCESTORS[0] : _ANCESTORS[1]].reshape(len(dense), N_ANCESTORS, _NODE_WIDTH)
    left = np.arange(n - 1)
    common = np.where((steps == 0)[:, None], node[left], ancestors[left, np.maximum(steps - 1, 0)])
    return np.hstack(
        [
            onehot,
            np.column_stack([up_left, up_right, distance == 0, common_depth]).astype(np.float64),
            dense[:-1][:, _OWN],
            dense[1:][:, _OWN],
            common,
        ]
    )


def pair_labels(labels: np.ndarray) -> np.ndarray:
    """1 where block i and block i + 1 share a label: the pairwise model's target."""
    y = np.asarray(labels)
    same: np.ndarray = (y[:-1] == y[1:]).astype(np.int64)
    return same


def decode(content: np.ndarray, same: np.ndarray, weight: float = PAPER_WEIGHT) -> np.ndarray:
    """The labelling that maximizes ``sum log p_i(l_i) + weight * sum log p_{i,i+1}(l_i, l_{i+1})``.

    :param content: P(content) of each block, in page order (the unary potentials).
    :param same: P(block i and i + 1 share a label), one per neighbouring pair (the pairwise ones).
    :param weight: lambda, the pairwise term's weight (0: each block by its own probability).
    :returns: a boolean array, True for content.
    :raises ValueError: ``same`` does not have one value per neighbouring pair.
    """
    p = np.clip(np.asarray(content, dtype=np.float64), _EPS, 1 - _EPS)
    n = len(p)
    if n == 0:
        return np.zeros(0, dtype=bool)
    s = np.clip(np.asarray(same, dtype=np.float64), _EPS, 1 - _EPS)
    if len(s) != n - 1:
        raise ValueError(f"{n} blocks need {n - 1} pairwise potentials, got {len(s)}")
    # Two states: plain floats are ten times faster than numpy calls per block.
    log_b, log_c = np.log1p(-p).tolist(), np.log(p).tolist()
    keep, switch = (weight * np.log(s)).tolist(), (weight * np.log1p(-s)).tolist()
    return best_path(log_b, log_c, zip(keep, switch, switch, keep))
