"""Rank structural patterns across a site's sample pages.

Two rankings are implemented:

``rank`` (forest's default)
    Every candidate pattern (the descriptions of every significant leaf and of its
    ancestors, see :mod:`patterns.dom`) is evaluated on *every* sample page: the
    pattern's region on a page is the union of its outermost matches, and the
    region's informativeness I = J x U is computed from the region's own keyword
    and term counts.  R is the sum of I over the sample pages.  Because I rewards
    both keyword density (J) and keyword mass (U), the winning region is the
    smallest one that still holds most of the article, and a pattern that matches
    boilerplate too (every ``a``, every ``td``) is paid for its dilution.

``rank_paper`` (the literal reading of the paper)
    Each candidate node is described by its tag and identifying attributes, the
    descriptions are merged across pages with their ``dfs`` positions kept as a
    disjunction, and ``R = sum_k I(sp, d_k) x level(sp) x nbOcc(sp)``.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace
from collections.abc import Iterable, Sequence

from keywords.model import Keywords
from patterns._keys import keys_holding
from patterns.dom import IDENTIFYING_ATTRIBUTES, PageIndex, xpath_literal
from patterns.model import Pattern
from patterns.scoring import informativeness


@dataclass(slots=True)
class ScoredPage:
    """A page index with the per-subtree keyword statistics of one keyword set."""

    index: PageIndex
    x: list[int]  # keyword occurrences in each element's subtree
    n: list[int]  # terms in each element's subtree
    w: list[float]  # summed keyword weights in each element's subtree (FOREST_Cov)
    own_x: list[int]

    @property
    def total_x(self) -> int:
        return self.x[0]

    @property
    def total_y(self) -> int:
        return self.n[0] - self.x[0]


def score_page(index: PageIndex, keywords: Keywords, *, ignore: frozenset[int] = frozenset()) -> ScoredPage:
    """Count ``keywords`` in every subtree of ``index``.

    :param ignore: elements whose own terms are not counted as keywords (their terms
        still count as terms).
    """
    weights = dict(zip(keywords.terms, keywords.weights))
    # Each element's keyword count and weight in one pass over its terms (they were two: a
    # page's terms are most of what scoring reads).  The weights are added in the terms'
    # order, the non-keywords' 0.0 left out: the same float sums.
    own_x = [0] * len(index.terms)
    own_w = [0.0] * len(index.terms)
    get = weights.get
    for i, terms in enumerate(index.terms):
        if terms and i not in ignore:
            found = [v for v in map(get, terms) if v is not None]
            if found:
                own_x[i] = len(found)
                own_w[i] = sum(found)
    w = list(own_w)
    for i in range(len(w) - 1, 0, -1):
        w[index.parent[i]] += w[i]
    return ScoredPage(index, index.subtree_sums(own_x), index.subtree_sums(index.n_terms), w, own_x)


def region_score(page: ScoredPage, nodes: Sequence[int], scoring: str = "jxu") -> float:
    """The score of the region made of ``nodes`` (outermost, non-nesting) on ``page``.

    ``jxu`` is FOREST's I = J x U.  ``cov`` is FOREST_Cov: the share of the page's
    tf-idf keyword weight that the region holds, times the region's keyword density.
    """
    x = sum(page.x[i] for i in nodes)
    n = sum(page.n[i] for i in nodes)
    if scoring == "jxu":
        return informativeness(x, n - x, page.total_x, page.total_y)
    if scoring == "cov":
        total_w = page.w[0]
        return (sum(page.w[i] for i in nodes) / total_w) * (x / n) if total_w and n else 0.0
    raise ValueError(f"unknown scoring {scoring!r}; use 'jxu' or 'cov'")


def candidate_nodes(page: ScoredPage, mode: str = "ancestors") -> set[int]:
    """Significant leaves (elements whose own text holds a keyword), plus their ancestors
    unless ``mode`` is ``"leaves"`` or ``"paths"`` (the ABSELEMS and ABSPATHS ablations)."""
    leaves = {i for i, x in enumerate(page.own_x) if x}
    if mode in ("leaves", "paths"):
        return leaves
    if mode != "ancestors":
        raise ValueError(f"unknown candidates {mode!r}; use 'ancestors', 'leaves' or 'paths'")
    nodes = set(leaves)
    parent = page.index.parent
    for leaf in leaves:
        up = parent[leaf]
        while up >= 0 and up not in nodes:
            nodes.add(up)
            up = parent[up]
    return nodes


@dataclass(frozen=True, slots=True)
class Ranked:
    """A pattern with what ranking learned about it on each sample page."""

    pattern: Pattern
    page_scores: tuple[float, ...]  # the pattern's region score on each sample page
    page_terms: tuple[int, ...]  # terms in the pattern's region on each sample page


def evaluate(pages: Sequence[ScoredPage], xpath: str, scoring: str = "jxu") -> Ranked:
    """Score one pattern on every sample page (its region: the outermost matches)."""
    return _evaluated(pages, xpath, [page.index.outermost(matches(page.index, xpath)) for page in pages], scoring)


def _evaluated(pages: Sequence[ScoredPage], xpath: str, regions: Sequence[Sequence[int]], scoring: str,
               read: Sequence[dict[tuple[int, ...], tuple[float, int, list[int]]]] = ()) -> Ranked:
    """:func:`evaluate`, each page's region (its outermost matches) given.

    :param read: per page, each region's score, terms and levels by its nodes, filled as they are
        read: most of a page's keys select a region another key selects too (an element's id, its
        class and each class token), and each region is scored once.
    """
    scores: list[float] = []
    terms: list[int] = []
    levels: list[int] = []
    for k, (page, nodes) in enumerate(zip(pages, regions)):
        memo = read[k] if k < len(read) else None
        at = tuple(nodes)
        found = memo.get(at) if memo is not None else None
        if found is None:
            found = (region_score(page, nodes, scoring) if nodes else 0.0, sum(page.n[i] for i in nodes),
                     [page.index.depth[i] for i in nodes])
            if memo is not None:
                memo[at] = found
        scores.append(found[0])
        terms.append(found[1])
        levels.extend(found[2])
    support = sum(1 for t in terms if t)
    pattern = Pattern(
        xpath=xpath,
        score=sum(scores),
        support=support,
        level=statistics.fmean(levels) if levels else 0.0,
        terms=int(statistics.median([t for t in terms if t])) if support else 0,
    )
    return Ranked(pattern, tuple(scores), tuple(terms))


def rank(
    pages: Sequence[ScoredPage],
    *,
    scoring: str = "jxu",
    candidates: str = "ancestors",
) -> list[Ranked]:
    """All candidate patterns of ``pages``, best first, by R = sum over pages of region score."""
    keys: set[str] = set()
    for page in pages:
        wanted = candidate_nodes(page, candidates)
        # The keys holding a candidate node, in C (patterns/_keys.pyx): thousands of keys a page.
        keys.update(keys_holding(page.index.keys, wanted, len(page.index.elements)))
    # With three pages or more, a description found on one page only is a per-page
    # accident (an id with the article number): not worth scoring everywhere.
    needed = 2 if len(pages) >= 3 else 1
    ranked: list[Ranked] = []
    read: list[dict[tuple[int, ...], tuple[float, int, list[int]]]] = [{} for _ in pages]
    for key in keys:
        if sum(1 for page in pages if key in page.index.keys) < needed:
            continue
        regions = _regions(pages, key)
        if regions is not None:
            ranked.append(_evaluated(pages, key, regions, scoring, read))
    # Each sample page casts one vote: scores are shares of the page's best region,
    # so a long page does not outvote four short ones.
    best = [max((r.page_scores[k] for r in ranked), default=0.0) or 1.0 for k in range(len(pages))]
    ranked = [
        Ranked(replace(r.pattern, score=vote_score(r, range(len(pages)), best)), r.page_scores, r.page_terms)
        for r in ranked
    ]
    # Ties (the same region on every page) go to the pattern with fewer matches per
    # page, then to the shorter description: both generalize better to unseen pages.
    ranked.sort(
        key=lambda r: (-round(r.pattern.score, 9), _matches(pages, r.pattern.xpath), len(r.pattern.xpath), r.pattern.xpath)
    )
    return ranked


def vote_score(ranked: Ranked, pages: Iterable[int], best: Sequence[float]) -> float:
    """R over ``pages``: each page's share of its best region score, times the square
    root of the pattern's level.

    The paper multiplies by the level (depth) so that a deeper, tighter node beats the
    containers around it, which I = J x U alone rates about as high.  The square root
    keeps that preference without letting deep, generic patterns (every ``p``) win:
    on the site-level datasets level^0.5 beat level^1 and level^2 (swept at k=5).
    """
    return sum(ranked.page_scores[k] / best[k] for k in pages if best[k] > 0) * math.sqrt(ranked.pattern.level)


def _regions(pages: Sequence[ScoredPage], key: str) -> list[list[int]] | None:
    """Each page's region under the pattern ``key`` (its outermost matches), or None where the
    matches on some page are not one node or a run of siblings.

    Such a "region" is every span of the page, or the article plus every comment
    that shares a utility class (``clearfix``): J x U can rate the union highly, but
    it is no region and generalizes to no unseen page; it was the prototype's worst
    failure.  (Re-measure: `forest eval --split dev --systems forest`.)  The regions are
    found once, for this test and for the pattern's score.
    """
    regions = []
    for page in pages:
        nodes = page.index.outermost(page.index.keys.get(key, ()))
        if len(nodes) > 1 and len({page.index.parent[i] for i in nodes}) > 1:
            return None
        regions.append(nodes)
    return regions


def _matches(pages: Sequence[ScoredPage], xpath: str) -> int:
    return sum(len(matches(page.index, xpath)) for page in pages)


def matches(index: PageIndex, xpath: str) -> list[int]:
    """The elements of ``index`` that the pattern ``xpath`` selects, in document order."""
    return index.keys.get(xpath, [])


def rank_paper(pages: Sequence[ScoredPage], *, scoring: str = "jxu", candidates: str = "ancestors") -> list[Pattern]:
    """The paper's ranking, read literally: R(sp) = sum_k I(sp, d_k) x level(sp) x nbOcc(sp).

    A node is described by its tag and identifying attributes; the descriptions of
    all sample pages are merged, keeping the nodes' depth-first positions as a
    disjunction unless the description alone selects one node on every page.
    """
    merged: dict[str, dict[int, list[tuple[int, float]]]] = {}
    for k, page in enumerate(pages):
        index = page.index
        for i in candidate_nodes(page, candidates):
            score = region_score(page, [i], scoring)
            merged.setdefault(_plain_step(index.elements[i]), {}).setdefault(k, []).append((i, score))
    patterns: list[Pattern] = []
    for step, per_page in merged.items():
        unique = all(
            len(pages[k].index.keys.get(f"//{step}", ())) == 1 for k in per_page
        ) if "[" in step else False
        positions = sorted({i for found in per_page.values() for i, _ in found})
        xpath = f"//{step}" if unique else f"//{step}[{' or '.join(f'@dfs={i}' for i in positions)}]"
        levels = [pages[k].index.depth[i] for k, found in per_page.items() for i, _ in found]
        level = statistics.fmean(levels)
        total = sum(score for found in per_page.values() for _, score in found)
        n_occ = len(per_page)
        terms = [sum(pages[k].n[i] for i, _ in found) for k, found in per_page.items()]
        patterns.append(Pattern(xpath, total * level * n_occ, n_occ, level, int(statistics.median(terms))))
    patterns.sort(key=lambda p: (-p.score, p.xpath))
    return patterns


def _plain_step(element: object) -> str:
    tag = element.tag  # type: ignore[attr-defined]
    tests = []
    for name in IDENTIFYING_ATTRIBUTES:
        value = element.get(name)  # type: ignore[attr-defined]
        literal = xpath_literal(value) if value else None
        if literal:
            tests.append(f"@{name}={literal}")
    return f"{tag}[{' and '.join(tests)}]" if tests else tag
