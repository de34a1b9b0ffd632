"""The second stage's context columns in C (forest.classifier._features.context_columns) against
their reference, the columns in numpy.

``reference_page`` below is how forest.classifier.context computed one page's CONTEXT_COLUMNS
before they were native: running sums, windows and the spans of the blocks' containers, in numpy.
The native columns must equal it to the bit (the shipped model's second stage reads them): on
random probabilities, characters and spans (hypothesis: probabilities at 0, 1, the threshold and
the clip's edges, empty and out-of-range spans), and on the shipped model's first stage
over a fixed sample of every shared dataset's pages (``-m bench``: all of them).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_pages import bodies, body_of, dataset_pages, skip_without_datasets
from forest.classifier import context
from forest.classifier._features import context_columns
from forest.classifier.blocks import walk
from forest.classifier.context import WINDOWS, context_features
from forest.classifier.features import Features, page_features
from forest.classifier.page import load_default

# --- The reference: the columns in numpy ----------------------------------------------------------


def reference_page(p: np.ndarray, chars: np.ndarray, link: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """forest.classifier.context._page as it was before it was native."""
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


def assert_bits(native: np.ndarray, reference: np.ndarray) -> None:
    assert native.dtype == reference.dtype == np.float64
    assert native.shape == reference.shape
    assert native.tobytes() == reference.tobytes()


# --- Random pages -------------------------------------------------------------------------------

# Probabilities at the edges: 0 (hidden blocks), 1, the threshold, the clip's bounds and past them (a page has
# one block at least: context_features reads pages with rows).
_P = [0.0, 1.0, 0.5, 0.55, 1e-4, 1 - 1e-4, 1e-5, 1 - 1e-5, 0.3, 0.7, 0.123456789]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_random_pages_give_the_references_bits(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    p = np.where(rng.random(n) < 0.5, rng.choice(_P, size=n), rng.random(n))
    chars = np.expm1(rng.choice([0.0, 0.5, 1.0, 3.0, 7.5], size=n) + rng.random(n) * (rng.random(n) < 0.5))
    link = rng.random(n)
    # Spans: inside the page, empty (first past last), and past either end.
    first = rng.integers(-2, n + 3, size=(n, 6))
    spans = np.stack([first, first + rng.integers(-2, 8, size=(n, 6))], axis=2).astype(np.int32)
    assert_bits(context._page(p, chars, link, spans), reference_page(p, chars, link, spans))


def test_stacked_pages_are_each_read_alone() -> None:
    # Training reads many pages' rows at once: each page's context is its own, as prediction reads it.
    model = load_default()
    parts, probabilities = [], []
    for page in ("<p>one two three four five six seven</p><div><a href='/'>menu</a></div><p>more text here.</p>",
                 "<ul><li>a</li><li>b</li></ul><article><p>" + "words " * 40 + "</p></article>"):  # fmt: skip
        features, _ = page_features(walk(body_of(f"<html><body>{page}</body></html>")), "blocks", n_hash=model.n_hash)
        parts.append(features)
        probabilities.append(np.linspace(0.1, 0.9, len(features)))
    stacked = context_features(np.concatenate(probabilities), Features.stack(parts))
    alone = np.vstack([context_features(p, f) for p, f in zip(probabilities, parts)])
    assert len(parts[0]) > 1 and len(parts[1]) > 1
    assert_bits(stacked, alone)
    width = len(context.CONTEXT_COLUMNS)
    assert_bits(stacked[:, width:], Features.stack(parts).dense[:, context._OWN].astype(np.float64))


def test_bad_arguments_are_refused_not_read_out_of_bounds() -> None:
    one = np.ones(1)
    spans = np.zeros((1, 6, 2), dtype=np.int32)
    width = len(context.CONTEXT_COLUMNS)
    with pytest.raises(ValueError):
        context_columns(one, np.ones(2), one, spans, width, WINDOWS)
    with pytest.raises(ValueError):
        context_columns(one, one, one, np.zeros((2, 6, 2), dtype=np.int32), width, WINDOWS)
    with pytest.raises(ValueError):
        context_columns(one, one, one, spans, width + 1, WINDOWS)


# --- The shared datasets' pages -----------------------------------------------------------------


def _check_pages(every: bool) -> int:
    model = load_default()
    checked = 0
    for pages in dataset_pages(every).values():
        for body in bodies(pages):
            tree = walk(body, proxies=False)
            if not tree.blocks:
                continue
            features, _ = page_features(tree, "blocks", n_hash=model.n_hash, modern="modern" in model.groups)
            dense, hashed = model._inputs(features, reset=False, exact=True)
            p = model.compact_.proba(dense, hashed)
            native = context_features(p, features)
            chars = np.expm1(features.dense[:, context._CHARS].astype(np.float64))
            link = features.dense[:, context._LINK_DENSITY].astype(np.float64)
            assert features.spans is not None
            width = len(context.CONTEXT_COLUMNS)
            assert_bits(native[:, :width], reference_page(p, chars, link, features.spans))
            # The row's own node and text columns, copied as two ranges: the reference gathers them.
            assert_bits(native[:, width:], features.dense[:, context._OWN].astype(np.float64))
            checked += 1
    return checked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_gives_the_references_bits() -> None:
    skip_without_datasets()
    assert _check_pages(every=False) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_gives_the_references_bits() -> None:
    skip_without_datasets()
    assert _check_pages(every=True) > 0
