"""Second-stage (stacked) features of a block: the first stage's probabilities around it and in its containers.

A block alone often looks like prose (a teaser, a caption, a hidden schema.org copy of the
headline); what gives it away is its neighbourhood: whether the blocks next to it, and the
elements around it, hold the page's likely article.  Stacking a second model on these
features (Wolpert's stacked generalization, trained on out-of-fold first-stage outputs) is a
learned form of the smoothing that Web2Text does with pairwise potentials.
"""

from __future__ import annotations

import numpy as np

from forest.classifier._features import context_columns
from forest.classifier.features import Features, group_columns
from forest.classifier.text import TEXT_COLUMNS

# Neighbour windows (blocks on each side) over which the first-stage probability is averaged.
WINDOWS = (1, 2, 5, 10)
CONTEXT_COLUMNS = (
    ["logit"]
    + [f"window{k}" for k in WINDOWS]
    + ["prev", "next"]
    + [f"level{k}.{c}" for k in range(6) for c in ("mean", "share", "chars")]
    + ["page_mean", "page_share_content", "chars", "link_density"]
)
# The second stage also sees the block's own text and node features, so it can weigh the
# neighbourhood against what the block itself looks like (+0.01 page F1 on l3s_gn1 and
# scrapinghub over the neighbourhood alone, with a logistic first stage).
_OWN = np.concatenate([np.arange(*group_columns()["node"]), np.arange(*group_columns()["text"])])
N_CONTEXT = len(CONTEXT_COLUMNS) + len(_OWN)
# _OWN as the two column ranges it is: copied as slices, not gathered column by column.
_OWN_RANGES = (group_columns()["node"], group_columns()["text"])
_CHARS = group_columns()["text"][0] + TEXT_COLUMNS.index("chars")
_LINK_DENSITY = group_columns()["text"][0] + TEXT_COLUMNS.index("link_density")


def context_features(probability: np.ndarray, features: Features) -> np.ndarray:
    """Second-stage features of every block row of ``features`` given its first-stage P(content):
    the CONTEXT_COLUMNS, then the row's node and text feature groups.

    :raises ValueError: ``features`` lacks the page numbers and block spans of blocks rows.
    """
    if features.page is None or features.spans is None:
        raise ValueError("context features need block rows (Features.page and Features.spans)")
    n = len(features)
    out = np.empty((n, N_CONTEXT))
    page = features.page
    if n and page[0] == page[-1]:
        # One page (what prediction passes): its rows are consecutive, so no cut to look for.
        starts, ends = [0], [n]
    else:
        cuts = np.flatnonzero(page[1:] != page[:-1]) + 1
        starts = [0, *cuts.tolist()]
        ends = [*cuts.tolist(), n]
    chars = np.expm1(features.dense[:, _CHARS].astype(np.float64))
    link = features.dense[:, _LINK_DENSITY].astype(np.float64)
    width = len(CONTEXT_COLUMNS)
    for a, b in zip(starts, ends):
        p = np.asarray(probability[a:b], dtype=np.float64)
        out[a:b, :width] = _page(p, chars[a:b], link[a:b], features.spans[a:b])
    at = width
    for lo, hi in _OWN_RANGES:
        out[:, at : at + hi - lo] = features.dense[:, lo:hi]
        at += hi - lo
    return out


def _page(p: np.ndarray, chars: np.ndarray, link: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """The CONTEXT_COLUMNS of one page's blocks: in C (forest.classifier._features.context_columns),
    but the logarithms, which numpy takes for their bits.  Its reference is ``reference_page`` in
    tests/unit/test_native_context.py (the same columns in numpy), which it equals to the bit."""
    out, odds, size = context_columns(
        np.ascontiguousarray(p, dtype=np.float64), np.ascontiguousarray(chars, dtype=np.float64),
        np.ascontiguousarray(link, dtype=np.float64), np.ascontiguousarray(spans, dtype=np.int32), len(CONTEXT_COLUMNS), WINDOWS,
    )
    out[:, 0] = np.log(odds)
    levels = 1 + len(WINDOWS) + 2
    out[:, levels + 2 : levels + 3 * size.shape[1] : 3] = np.log1p(size)
    out[:, -2] = np.log1p(chars)
    return out
