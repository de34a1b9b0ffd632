"""FOREST's node scores: Jeffreys-corrected keyword density J, unexpectedness U, informativeness I = J x U."""

from __future__ import annotations

import math

import numpy as np


def jeffreys_density(x: float, y: float) -> float:
    """J(n): the keyword density of a node, pulled toward 1/2 for small nodes and
    lowered by one standard deviation so that large nodes are not trusted blindly.

    ``J = max(0, (x + 1/2 - sqrt((x + 1/2)(y + 1/2) / N)) / (N + 1))`` with ``N = x + y``;
    a node without terms has no density (0).

    :param x: keyword occurrences in the node.
    :param y: occurrences of other terms in the node.
    """
    n = x + y
    if n <= 0:
        return 0.0
    return max(0.0, (x + 0.5 - math.sqrt((x + 0.5) * (y + 0.5) / n)) / (n + 1))


def jeffreys_densities(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """:func:`jeffreys_density` of many nodes at once, operation for operation (0 where a node has no terms)."""
    n = x + y
    with np.errstate(divide="ignore", invalid="ignore"):
        density: np.ndarray = np.where(n > 0, np.maximum(0.0, (x + 0.5 - np.sqrt((x + 0.5) * (y + 0.5) / n)) / (n + 1)), 0.0)
    return density


def _xlog2(count: float, total: float) -> float:
    return count * math.log2(total) if count > 0 and total > 0 else 0.0


def unexpectedness(x: float, y: float, total_x: float, total_y: float) -> float:
    """U(n): bits saved by describing the node's terms with the page's keyword/other
    split instead of generating them blindly from the page's whole vocabulary.

    ``U = (x + y) log2(X + Y) - (x log2 X + y log2 Y)``, with ``0 log 0 = 0``.

    :param total_x: keyword occurrences in the whole page (X).
    :param total_y: other terms in the whole page (Y).
    """
    return _xlog2(x + y, total_x + total_y) - _xlog2(x, total_x) - _xlog2(y, total_y)


def informativeness(x: float, y: float, total_x: float, total_y: float) -> float:
    """I(n, d) = J(n) x U(n) for a node with ``x`` keywords and ``y`` other terms in page d."""
    return jeffreys_density(x, y) * unexpectedness(x, y, total_x, total_y)
