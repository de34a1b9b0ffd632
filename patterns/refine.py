"""Refine a chosen region: find the sub-patterns whose removal makes the region more informative."""

from __future__ import annotations

import functools
from bisect import bisect_left
from itertools import accumulate
from collections.abc import Sequence

from patterns.ranking import ScoredPage
from patterns.scoring import informativeness

# Removing a sub-pattern must raise the summed I of the sample regions by at least
# this share, so that noise-level gains do not carve up the article.
MIN_GAIN = 0.01
MAX_EXCLUSIONS = 6
# A part is only cut when its keyword density, over all sample pages, is at most this
# share of the rest of the region's.  I alone would cut anything below about a half,
# which on unseen pages removed real paragraphs; swept 0.1/0.25/0.5: 0.1 was best.
MAX_CUT_DENSITY = 0.1


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
    excluded: list[list[bool]] = [[False] * len(p.n) for p in pages]
    chosen: list[str] = []
    # Where each candidate sits inside each page's region never changes while parts
    # are cut; only the counts do.  Computed once: learning must stay well under 1 s.
    placed: dict[str, list[list[int]]] = {}
    for k, (page, region) in enumerate(zip(pages, regions)):
        spans = [(node + 1, page.index.end[node] + 1) for node in region]
        for key, nodes in page.index.keys.items():
            if is_single_step(key):
                # Key lists are in document order: bisect finds the part inside each region node.
                within = [i for lo, hi in spans for i in nodes[bisect_left(nodes, lo) : bisect_left(nodes, hi)]]
                if within:
                    placed.setdefault(key, [[] for _ in pages])[k] = page.index.outermost(within)
    candidates = sorted(key for key, per_page in placed.items() if sum(1 for f in per_page if f) >= min(2, len(pages)))
    for _ in range(max_exclusions):
        sums = [_prefix_sums(page, mask) for page, mask in zip(pages, excluded)]
        base = [_region_total(page, region, s) for page, region, s in zip(pages, regions, sums)]
        scores = [informativeness(x, n - x, p.total_x, p.total_y) for p, (x, n) in zip(pages, base)]
        base_score = sum(scores)
        if base_score <= 0:
            break
        all_x, all_n = sum(x for x, _ in base), sum(n for _, n in base)
        best_gain, best_key = 0.0, None
        for key in candidates:
            gain = 0.0
            total_cut_x = total_cut_n = 0
            for page, nodes, (prefix_x, prefix_n), (x, n), score in zip(pages, placed[key], sums, base, scores):
                if not nodes:
                    continue
                end = page.index.end
                cut_x = sum(prefix_x[end[i] + 1] - prefix_x[i] for i in nodes)
                cut_n = sum(prefix_n[end[i] + 1] - prefix_n[i] for i in nodes)
                total_cut_x += cut_x
                total_cut_n += cut_n
                gain += informativeness(x - cut_x, n - x - cut_n + cut_x, page.total_x, page.total_y)
                gain -= score
            rest_x = all_x - total_cut_x
            rest_n = all_n - total_cut_n
            sparse = rest_n > 0 and total_cut_x * rest_n <= MAX_CUT_DENSITY * rest_x * total_cut_n
            if gain > best_gain and sparse:
                best_gain, best_key = gain, key
        if best_key is None or best_gain < MIN_GAIN * base_score:
            break
        chosen.append(best_key)
        candidates.remove(best_key)
        for page, nodes, mask in zip(pages, placed[best_key], excluded):
            for i in nodes:
                for j in range(i, page.index.end[i] + 1):
                    mask[j] = True
    return chosen


@functools.lru_cache(maxsize=1 << 16)  # asked of every key of every sample page, several times per learning
def is_single_step(key: str) -> bool:
    """Whether ``key`` is one attributed step (``//div[@class='x']``): only then does
    ``.//div[@class='x']`` select the same elements inside a region as the key does on
    the page, which lets extraction search the region instead of the whole page."""
    return key.startswith("//") and key.endswith("]") and "/" not in key[2:].split("[", 1)[0] and "]/" not in key


def _inside(page: ScoredPage, region: Sequence[int]) -> list[bool]:
    """Elements strictly inside the region's nodes (a region is never cut out whole)."""
    mask = [False] * len(page.n)
    for node in region:
        for j in range(node + 1, page.index.end[node] + 1):
            mask[j] = True
    return mask


def _prefix_sums(page: ScoredPage, excluded: Sequence[bool]) -> tuple[list[int], list[int]]:
    own_n = page.index.n_terms
    xs = [0 if e else x for x, e in zip(page.own_x, excluded)]
    ns = [0 if e else n for n, e in zip(own_n, excluded)]
    return [0, *accumulate(xs)], [0, *accumulate(ns)]


def _region_total(page: ScoredPage, region: Sequence[int], sums: tuple[list[int], list[int]]) -> tuple[int, int]:
    x = sum(sums[0][page.index.end[i] + 1] - sums[0][i] for i in region)
    n = sum(sums[1][page.index.end[i] + 1] - sums[1][i] for i in region)
    return x, n


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
        inside = _inside(page, region)
        present: dict[str, int] = {}
        for key, nodes in page.index.keys.items():
            if not is_single_step(key):
                continue
            found = page.index.outermost(i for i in nodes if inside[i])
            if found:
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
