"""Refine a chosen region: find the sub-patterns whose removal makes the region more informative."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# is_single_step, re-exported here: whether a key is one attributed step (``//div[@class='x']``):
# only then does ``.//div[@class='x']`` select the same elements inside a region as the key does on the
# page, which lets extraction search the region instead of the whole page.  Tested in C (patterns/_keys.pyx:
# asked of every key of every sample page, several times per learning); its reference, the Python
# expression, is in tests/learning/test_single_steps.py.
from patterns._keys import is_single_step as is_single_step
from patterns._keys import keys_within, single_step_keys
from patterns.dom import PageIndex
from patterns.ranking import ScoredPage
from patterns.scoring import informativeness, jeffreys_densities

# Removing a sub-pattern must raise the summed I of the sample regions by at least
# this share, so that noise-level gains do not carve up the article.
MIN_GAIN = 0.01
MAX_EXCLUSIONS = 6
# A part is only cut when its keyword density, over all sample pages, is at most this
# share of the rest of the region's.  I alone would cut anything below about a half,
# which on unseen pages removed real paragraphs.  (Re-measure: `forest eval --split dev --systems forest`.)
MAX_CUT_DENSITY = 0.1
# Elements never cut out of a region: preformatted text and code are written for the article
# (a code sample, a listing), and both signals are blind to them: they hold few of the page's
# keywords, and the classifier, which reads sentences, labels them boilerplate.  A part that
# holds them (a comment, a sidebar) is still cut.  (Re-measure: `forest eval --split dev --systems forest`.)
KEPT_TAGS = frozenset({"pre", "code"})


def boilerplate_subpatterns(
    pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]], *, max_exclusions: int = MAX_EXCLUSIONS
) -> list[str]:
    """Sub-patterns (single attributed steps) to cut out of the region, chosen greedily by the gain in I they bring.

    The region's informativeness I = J x U improves when a part whose keyword density
    is below about half of the rest's is removed: comment threads, "related" lists,
    share bars.  Every candidate is a pattern of the page index that matches inside
    the region; its gain is summed over all sample pages, so a part is only cut when
    it is boilerplate on the site as a whole, not on one page.
    """
    # Where each candidate sits inside each page's region never changes while parts
    # are cut; only the counts do.  Computed once: learning must stay well under 1 s.
    placed: dict[str, list[list[int]]] = {}
    for k, (page, region) in enumerate(zip(pages, regions)):
        spans = [(node + 1, page.index.end[node] + 1) for node in region]
        # Each key's outermost elements inside the region's nodes, found in C (patterns/_keys.pyx: bisection in
        # the key's list, in document order; its reference, the Python loop, is in tests/learning/test_single_steps.py).
        for key, within in keys_within(single_steps(page.index), spans, page.index.end):
            # The elements' tag is the step's (the index writes each key from its elements' tags): read
            # from the key, not through an element's proxy, for each of a page's thousands of keys.
            if key[2:].split("[", 1)[0] not in KEPT_TAGS:
                placed.setdefault(key, [[] for _ in pages])[k] = within
    candidates = sorted(key for key, per_page in placed.items() if sum(1 for f in per_page if f) >= min(2, len(pages)))
    if not candidates:
        return []
    parts = _Parts.of(pages, regions, [placed[key] for key in candidates])
    excluded = [np.zeros(len(page.n), dtype=bool) for page in pages]
    chosen: list[str] = []
    for _ in range(max_exclusions):
        best = parts.best_cut(pages, excluded)
        if best is None:
            break
        chosen.append(candidates[best])
        parts.drop(best)
        for page, nodes, mask in zip(pages, placed[candidates[best]], excluded):
            for i in nodes:
                mask[i : page.index.end[i] + 1] = True
    return chosen


@dataclass
class _Parts:
    """Every candidate's parts on every sample page, as flat arrays: the gains of all candidates
    are then a few array operations per step of the greedy choice instead of a loop in Python
    (their arithmetic is I's, step for step, so the choice is the same)."""

    regions: list[np.ndarray]  # each page's region nodes
    ends: list[np.ndarray]  # each page's subtree ends
    counts: list[tuple[np.ndarray, np.ndarray]]  # each page's own keywords and own terms per element
    pair: np.ndarray  # candidate * pages + page, for every part
    start: np.ndarray  # the part's first element, in the pages' concatenated prefix sums
    stop: np.ndarray  # one past its last
    present: np.ndarray  # (candidates, pages): the candidate has a part on the page
    live: np.ndarray  # candidates not chosen yet

    @classmethod
    def of(cls, pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]], placed: Sequence[Sequence[Sequence[int]]]) -> _Parts:
        ends = [np.asarray(page.index.end, dtype=np.int64) for page in pages]
        # Page k's prefix sums (n + 1 values) start at offset[k] in the concatenation.
        offset = [0, *itertools.accumulate(len(page.n) + 1 for page in pages)]
        pair, start, page_of = [], [], []
        for c, per_page in enumerate(placed):
            for k, nodes in enumerate(per_page):
                pair += [c * len(pages) + k] * len(nodes)
                start += [offset[k] + i for i in nodes]
                page_of += [k] * len(nodes)
        at, of = np.asarray(start, dtype=np.int64), np.asarray(page_of, dtype=np.int64)
        # Page k's element i is at offset[k] + i in the prefix sums, and at offset[k] - k + i among the ends.
        stop = np.concatenate(ends)[at - of] + np.asarray(offset, dtype=np.int64)[of] + 1
        present = np.zeros(len(placed) * len(pages), dtype=bool)
        present[pair] = True
        counts = [(np.asarray(page.own_x, dtype=np.int64), np.asarray(page.index.n_terms, dtype=np.int64)) for page in pages]
        return cls([np.asarray(region, dtype=np.int64) for region in regions], ends, counts, np.asarray(pair, dtype=np.int64),
                   at, stop, present.reshape(len(placed), len(pages)), np.ones(len(placed), dtype=bool))  # fmt: skip

    def drop(self, candidate: int) -> None:
        self.live[candidate] = False

    def best_cut(self, pages: Sequence[ScoredPage], excluded: Sequence[np.ndarray]) -> int | None:
        """The candidate whose cut raises the regions' summed I most (the first of equals), or
        None when none is sparse enough in keywords or gains MIN_GAIN."""
        prefix_x, prefix_n, base = [], [], []
        for mask, region, end, (own_x, own_n) in zip(excluded, self.regions, self.ends, self.counts):
            px = np.concatenate([[0], np.cumsum(np.where(mask, 0, own_x))])
            pn = np.concatenate([[0], np.cumsum(np.where(mask, 0, own_n))])
            prefix_x.append(px)
            prefix_n.append(pn)
            base.append((int((px[end[region] + 1] - px[region]).sum()), int((pn[end[region] + 1] - pn[region]).sum())))
        scores = [informativeness(x, n - x, p.total_x, p.total_y) for p, (x, n) in zip(pages, base)]
        base_score = sum(scores)
        if base_score <= 0:
            return None
        all_x, all_n = sum(x for x, _ in base), sum(n for _, n in base)
        n_pages = len(pages)
        shape = self.present.shape
        px, pn = np.concatenate(prefix_x), np.concatenate(prefix_n)
        # Counts are integers: their float64 sums are exact.
        cut_x = np.bincount(self.pair, weights=px[self.stop] - px[self.start], minlength=shape[0] * n_pages).reshape(shape)
        cut_n = np.bincount(self.pair, weights=pn[self.stop] - pn[self.start], minlength=shape[0] * n_pages).reshape(shape)
        total_x, total_n = cut_x.sum(axis=1), cut_n.sum(axis=1)
        rest_x, rest_n = all_x - total_x, all_n - total_n
        sparse = (rest_n > 0) & (total_x * rest_n <= MAX_CUT_DENSITY * rest_x * total_n)
        gain = np.zeros(shape[0])
        for k, (page, (x, n), score) in enumerate(zip(pages, base, scores)):
            value = _informativeness(x - cut_x[:, k], n - x - cut_n[:, k] + cut_x[:, k], page.total_x, page.total_y)
            gain = np.where(self.present[:, k], gain + value - score, gain)
        eligible = self.live & sparse & (gain > 0.0)
        if not eligible.any():
            return None
        best = int(np.flatnonzero(eligible & (gain == gain[eligible].max()))[0])
        return best if gain[best] >= MIN_GAIN * base_score else None


def _informativeness(x: np.ndarray, y: np.ndarray, total_x: int, total_y: int) -> np.ndarray:
    """:func:`patterns.scoring.informativeness` of many nodes of one page, operation for operation."""
    n = x + y
    density = jeffreys_densities(x, y)
    logs = [math.log2(t) if t > 0 else 0.0 for t in (total_x + total_y, total_x, total_y)]
    surprise = np.where(n > 0, n * logs[0], 0.0) - np.where(x > 0, x * logs[1], 0.0) - np.where(y > 0, y * logs[2], 0.0)
    return np.asarray(density * surprise)


def single_steps(index: PageIndex) -> list[tuple[str, list[int]]]:
    """The index's keys that are one attributed step (:func:`is_single_step`) with their elements, in the
    keys' order: a third of a page's keys, listed once per page for the passes that read only them (the
    region's cuts, its core, the template's boxes), each of which tested every key.  Listed again if a key
    was added since (forest.learning.containers names parents)."""
    single = index.single
    if single is None or single[0] != len(index.keys):
        single = index.single = (len(index.keys), single_step_keys(index.keys))
    return single[1]


def _inside(page: ScoredPage, region: Sequence[int]) -> list[tuple[int, int]]:
    """The elements strictly inside the region's nodes (a region is never cut out whole), as sorted,
    disjoint ranges ``[lo, hi)`` of the document order: a key's elements in them are found by bisection."""
    spans: list[tuple[int, int]] = []
    for lo, hi in sorted((node + 1, page.index.end[node] + 1) for node in region):
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], hi))
        elif lo < hi:
            spans.append((lo, hi))
    return spans


# A core must hold at least this share of the region's keywords on the sample pages.
MIN_CORE_SHARE = 0.3


def core_step(pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]]) -> str | None:
    """The attributed element that holds most of the region's keywords on every sample page.

    A pattern such as ``//div[@id='content']`` can match on pages of another template
    of the same site, where it selects something else entirely.  Requiring the region
    to contain its learned core (``//div[@id='content'][.//div[@class='entry']]``)
    makes such a match fail, so that an alternate pattern, or the single-page
    fallback, handles the page instead of extracting the wrong region.
    """
    totals: dict[str, int] = {}
    for page, region in zip(pages, regions):
        region_x = sum(page.x[i] for i in region)
        if not region_x:
            return None
        spans = _inside(page, region)
        present: dict[str, int] = {}
        # A key must be present on every page: past the first, only the keys still in the running are
        # looked at (a few, where the first page has a third of its thousands of keys).
        if page is pages[0]:
            steps = single_steps(page.index)
        elif not totals:
            continue
        else:
            steps = [(key, nodes) for key in totals if (nodes := page.index.keys.get(key)) is not None]
        # Each key's outermost elements inside, in C (patterns/_keys.pyx; the spans are sorted and disjoint).
        for key, found in keys_within(steps, spans, page.index.end):
            present[key] = sum(page.x[i] for i in found)
        for key in list(totals):
            if key not in present:
                del totals[key]
        if not totals and page is pages[0]:
            totals = dict(present)
        else:
            for key in totals:
                totals[key] += present[key]
    if not totals:
        return None
    all_x = sum(page.x[i] for page, region in zip(pages, regions) for i in region)
    key, x = max(totals.items(), key=lambda item: (item[1], -len(item[0])))
    return f".{key}" if x >= MIN_CORE_SHARE * all_x else None
