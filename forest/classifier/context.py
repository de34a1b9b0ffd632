"""Second-stage (stacked) features of a block: the first stage's probabilities around it and in its containers.

A block alone often looks like prose (a teaser, a caption, a hidden schema.org copy of the
headline); what gives it away is its neighbourhood: whether the blocks next to it, and the
elements around it, hold the page's likely article.  Stacking a second model on these
features (Wolpert's stacked generalization, trained on out-of-fold first-stage outputs) is a
learned form of the smoothing that Web2Text does with pairwise potentials.
"""

from __future__ import annotations

import numpy as np

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
_CHARS = group_columns()["text"][0] + TEXT_COLUMNS.index("chars")
_LINK_DENSITY = group_columns()["text"][0] + TEXT_COLUMNS.index("link_density")


def context_features(probability: np.ndarray, features: Features) -> np.ndarray:
    """Second-stage features of every block row of ``features`` given its first-stage P(content):
    the CONTEXT_COLUMNS, then the row's node and text feature groups.

    :raises ValueError: ``features`` lacks the page numbers and block spans of blocks rows.
    """
    if features.page is None or features.spans is None:
        raise ValueError("context features need block rows (Features.page and Features.spans)")
    out = np.zeros((len(features), N_CONTEXT))
    page = features.page
    cuts = np.flatnonzero(page[1:] != page[:-1]) + 1
    starts = np.concatenate(([0], cuts))
    ends = np.concatenate((cuts, [len(page)]))
    chars = np.expm1(features.dense[:, _CHARS].astype(np.float64))
    link = features.dense[:, _LINK_DENSITY].astype(np.float64)
    width = len(CONTEXT_COLUMNS)
    for a, b in zip(starts.tolist(), ends.tolist()):
        p = np.asarray(probability[a:b], dtype=np.float64)
        out[a:b, :width] = _page(p, chars[a:b], link[a:b], features.spans[a:b])
    out[:, width:] = features.dense[:, _OWN]
    return out


def _page(p: np.ndarray, chars: np.ndarray, link: np.ndarray, spans: np.ndarray) -> np.ndarray:
    n = len(p)
    clipped = np.clip(p, 1e-4, 1 - 1e-4)
    columns = [np.log(clipped / (1 - clipped))]
    index = np.arange(n)
    running = np.concatenate(([0.0], np.cumsum(p)))
    for k in WINDOWS:
        lo, hi = np.maximum(index - k, 0), np.minimum(index + k + 1, n)
        columns.append((running[hi] - running[lo]) / (hi - lo))
    columns.append(np.concatenate(([0.0], p[:-1])))
    columns.append(np.concatenate((p[1:], [0.0])))
    # Containers: the blocks of the row's element and of each of its 5 ancestors form a span.
    weighted = np.concatenate(([0.0], np.cumsum(p * chars)))
    total_chars = np.concatenate(([0.0], np.cumsum(chars)))
    content = max(weighted[-1], 1e-9)
    first = np.clip(spans[:, :, 0], 0, n)
    last = np.clip(spans[:, :, 1] + 1, first, n)
    inside = weighted[last] - weighted[first]
    size = total_chars[last] - total_chars[first]
    for k in range(spans.shape[1]):
        columns += [inside[:, k] / np.maximum(size[:, k], 1.0), inside[:, k] / content, np.log1p(size[:, k])]
    columns.append(np.full(n, weighted[-1] / max(total_chars[-1], 1.0)))
    columns.append(np.full(n, float((p >= 0.5).mean()) if n else 0.0))
    columns += [np.log1p(chars), link]
    return np.column_stack(columns)
