"""CETR-KM (Weninger, Hsu and Han, WWW 2010): content extraction by clustering per-line tag ratios.

Reimplemented from the paper's description:

1. Remove comments, ``script``, ``style`` and ``noscript``; split the HTML source into lines and
   drop blank ones.
2. Tag ratio of line k: ``TR_k = x_k / max(1, y_k)``, with x the non-tag characters and y the
   tags that start on the line.
3. Smooth the ratios with a Gaussian kernel (sigma 1): ``T'``.
4. Absolute smoothed derivative: ``G_k = |mean(T'_{k+1} … T'_{k+alpha}) - T'_k|``, alpha 3.
5. k-means (k = 3) on the points ``(T'_k, G_k)`` with one centroid held at the origin, as in the
   paper; lines of that cluster are boilerplate, the lines of the other clusters are content.

Two choices the paper leaves open: characters are counted after entity decoding and without
whitespace (indentation is not text), and a source line longer than ``LONG_LINE`` characters
(minified HTML, rare in the paper's 2010 corpus) is first broken after closing block tags,
since a one-line page would otherwise be kept or dropped whole.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Sequence

import numpy as np

from forest.model import Page

# Remove whole elements whose content is never visible, and comments.
_INVISIBLE = re.compile(r"<!--.*?-->|<(script|style|noscript)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
# A tag (or doctype); [^>] also matches newlines, so a tag may span lines.
_TAG = re.compile(r"<[^>]*>")
# Where to break minified lines: after the end of a block or a line break.
_BLOCK_END = re.compile(
    r"(</(?:p|div|li|ul|ol|h[1-6]|table|tr|td|th|section|article|header|footer|nav|aside|form|blockquote|pre|dl|dd|dt)\s*>|<br\s*/?>)",
    re.IGNORECASE,
)
# A line this long is not formatted source but minified HTML; 2,000 characters is
# well above a typical source line (under 200) and below a typical minified page.
LONG_LINE = 2000
_MAX_ITERATIONS = 100


def source_lines(html: str) -> list[tuple[str, int]]:
    """The non-blank lines of the cleaned source as (text without tags, number of tags starting on it)."""
    cleaned = _INVISIBLE.sub("", html)
    raw = cleaned.split("\n")
    if any(len(line) > LONG_LINE for line in raw):
        cleaned = "\n".join(_BLOCK_END.sub("\\1\n", line) if len(line) > LONG_LINE else line for line in raw)
    texts: list[list[str]] = [[]]
    tags = [0]
    position = 0
    for match in _TAG.finditer(cleaned):
        _add_text(cleaned[position : match.start()], texts, tags)
        tags[-1] += 1
        for _ in range(match.group().count("\n")):
            texts.append([])
            tags.append(0)
        position = match.end()
    _add_text(cleaned[position:], texts, tags)
    lines = []
    for pieces, count in zip(texts, tags):
        text = html_lib.unescape("".join(pieces))
        if text.strip() or count:
            lines.append((text, count))
    return lines


def _add_text(text: str, texts: list[list[str]], tags: list[int]) -> None:
    first, *rest = text.split("\n")
    texts[-1].append(first)
    for piece in rest:
        texts.append([piece])
        tags.append(0)


def tag_ratios(lines: Sequence[tuple[str, int]]) -> np.ndarray:
    """``TR_k``: non-whitespace characters of the line over ``max(1, tags)``."""
    return np.array([len("".join(text.split())) / max(1, count) for text, count in lines], dtype=float)


def smooth(values: np.ndarray, sigma: float = 1.0) -> np.ndarray:
    """Gaussian smoothing; at the ends the kernel is renormalized over the lines that exist."""
    if sigma <= 0 or len(values) == 0:
        return values.astype(float)
    radius = int(np.ceil(3 * sigma))
    offsets = np.arange(-radius, radius + 1)
    kernel = np.exp(-(offsets**2) / (2 * sigma**2))
    # "full" and slice: mode="same" returns the kernel's length when the page has fewer lines.
    n = len(values)
    weighted = np.convolve(values, kernel, mode="full")[radius : radius + n]
    weights = np.convolve(np.ones(n), kernel, mode="full")[radius : radius + n]
    result: np.ndarray = weighted / weights
    return result


def derivative(smoothed: np.ndarray, alpha: int = 3) -> np.ndarray:
    """``G_k``: absolute difference between the mean of the next ``alpha`` values and ``T'_k`` (0 at the end)."""
    n = len(smoothed)
    result = np.zeros(n)
    cumulative = np.concatenate(([0.0], np.cumsum(smoothed)))
    for k in range(n - 1):
        end = min(n, k + 1 + alpha)
        following = (cumulative[end] - cumulative[k + 1]) / (end - k - 1)
        result[k] = abs(following - smoothed[k])
    return result


def content_mask(points: np.ndarray, k: int = 3) -> np.ndarray:
    """k-means with the first centroid fixed at the origin; True for points outside its cluster.

    The free centroids start at the points of median and largest norm, so the result
    is deterministic.
    """
    n = len(points)
    if n == 0:
        return np.zeros(0, dtype=bool)
    norms = np.linalg.norm(points, axis=1)
    order = np.argsort(norms, kind="stable")
    starts = [order[min(n - 1, int(round(q * (n - 1))))] for q in np.linspace(0.5, 1.0, k - 1)]
    centroids = np.vstack([np.zeros(points.shape[1]), points[starts]])
    labels = np.full(n, -1)
    for _ in range(_MAX_ITERATIONS):
        distances = np.linalg.norm(points[:, None, :] - centroids[None, :, :], axis=2)
        new_labels = distances.argmin(axis=1)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        for cluster in range(1, k):
            members = points[labels == cluster]
            if len(members):  # an emptied cluster keeps its centroid
                centroids[cluster] = members.mean(axis=0)
    mask: np.ndarray = labels != 0
    return mask


def cetr_text(html: str, *, sigma: float = 1.0, alpha: int = 3, k: int = 3) -> str:
    """The text of the lines CETR-KM keeps as content, one source line per output line."""
    lines = source_lines(html)
    if not lines:
        return ""
    ratios = smooth(tag_ratios(lines), sigma)
    points = np.column_stack([ratios, derivative(ratios, alpha)])
    keep = content_mask(points, k) if len(lines) >= k else np.ones(len(lines), dtype=bool)
    out = (" ".join(text.split()) for (text, _), kept in zip(lines, keep) if kept)
    return "\n".join(line for line in out if line)


class CETR:
    """CETR-KM as an evaluated system (page-level: it learns nothing from the site)."""

    name = "cetr"
    site_level = False

    def fit(self, pages: Sequence[Page]) -> None:
        """Nothing to learn."""

    def extract(self, page: Page) -> str:
        """The text CETR-KM keeps."""
        return cetr_text(page.html)
