"""The site's cleanup, compiled from the classifier's labels on the sample pages.

The per-block classifier is right about most blocks of most pages and wrong about some
block of nearly every page.  Run once per sample page at learning, its labels are
summed per sub-structure of the region (an element named by its tag and a stable
attribute, such as ``div[@class='caption']``, or a tag that marks a side part, such as
``aside`` or ``figure``): a sub-structure whose text it labels boilerplate across the
sample becomes an exclusion, an XPath that extraction cuts without running the
classifier.  A part that one page's labels reject but the others keep stays, and a part
that holds the sample pages' keywords as densely as the rest of the region stays
whatever the classifier says: on product and reference pages it takes specifications
and code for boilerplate, and FOREST's own evidence outranks it there.  Lists of links
are the exception: a "related stories" list holds the article's keywords in its headlines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from forest.learning._name import key_rows, tag_marks
from forest.wrapper import CLASSIFIER_NOT_USED
from patterns.choose import Choice
from patterns.dom import PageIndex
from patterns.ranking import Ranked, ScoredPage, matches
from patterns.scoring import jeffreys_densities
from patterns.refine import KEPT_TAGS, is_single_step

# Tags that mark a side part wherever they appear; other tags need an attribute to be named.
SIDE_TAGS = frozenset("aside button dialog fieldset figcaption figure footer form menu nav select".split())
# A part is cut when the classifier labels at least this share of its text boilerplate,
# summed over the sample pages where it occurs ...  Lower cuts item pages' content.
# (Re-measure: `forest eval --split dev --systems forest`.)
MIN_BOILERPLATE_SHARE = 0.8
# ... on at least this many of them (one page's labels are a guess, not a consensus; the
# same command re-measures it) ...
MIN_PAGES = 2
# ... unless it holds the sample pages' keywords MIN_DENSITY_RATIO times as densely as the rest
# of the region (below) and is not mostly link text (LINK_LIST_SHARE, below): a
# "related stories" list repeats the article's keywords in its headlines, and is cut all the
# same.  (Re-measure: `forest eval --split dev --systems forest`.)
# A part is mostly link text when more than this share of its terms are: a few links under a
# label ("Filed under:", "Tags:") have a third of their terms or more in the label, more than a
# block may have and still count as navigation (patterns.text.MAX_LINK_SHARE, 0.7).  Much
# lower, real paragraphs with a few links count as lists.  (Re-measure: `forest eval --split dev
# --systems forest`.)
LINK_LIST_SHARE = 0.4
# Never more than this share of the sample regions' text is cut by consensus, each character
# counted once: it guards the article against a classifier that disagrees with J x U on most
# of it.  (Re-measure: `forest eval --split dev --systems forest`.)
MAX_CUT_SHARE = 0.5
# At most this many parts are cut by consensus, the largest first: it bounds the wrapper's size
# and extraction's XPath work.  A portal's region (a 2007 BBC page laid out in tables, a
# Yahoo story with its rails) holds more than a dozen such parts, and the smallest, left
# uncut, were a "related" box.  (Re-measure: `forest eval --split dev --systems forest`, and
# extraction's speed with `forest bench`.)
MAX_EXCLUSIONS = 20
# The classifier is not trusted on a site when the text it labels boilerplate inside the
# regions J x U chose is at least this share of their terms ...
MIN_DISPUTED_SHARE = 0.3
# ... and holds the sample pages' keywords at least this many times as densely as the
# text it keeps: it goes off on most product and reference sites and on few news sites.
# A part the classifier rejects is kept by the same test: its keywords this many times as
# dense as the rest of the region's.  Lower keeps news sites' cards and captions; higher cuts
# an item page's description.  (Re-measure: `forest eval --split dev --systems forest`.)
MIN_DENSITY_RATIO = 1.25
# The classifier is not trusted either when it labels boilerplate at least this share of the
# regions' terms, whatever their keywords: it then keeps almost nothing of what J x U found on
# every sample page, and has no say on what inside it to cut (item pages, mostly).
# (Re-measure: `forest eval --split dev --systems forest`.)
MAX_REJECTED_SHARE = 0.9
# Where the classifier is not trusted and labels boilerplate at least this share of the regions'
# terms (most of them: an item's page, not an article's), the text every sample region repeats is
# the item's labels (filters, "Condition:", a specification's names), kept as content, and not the
# template's.  Not on every site the classifier is not trusted on: a blog's repeated text is
# its template's.  (Re-measure: `forest eval --split dev --systems forest`.)
MIN_ITEM_SHARE = 0.5
# Another candidate region replaces the one J x U chose when its F1 against the text the
# classifier labels content, summed over the pages the pattern explains, is higher by this.
MIN_AGREEMENT_GAIN = 0.02
# Candidates cleaned and compared, best first by their raw agreement (each with its container):
# more, and a smaller gain, let a worse region win by chance.  (Re-measure: `forest eval
# --split dev --systems forest`.)
MAX_CLEANED = 5
# A candidate must hold at least this share of the chosen regions' keywords, summed over the
# pages (summed, not per page: one short page must not veto a candidate; the same command).
MIN_KEYWORD_SHARE = 0.3


@dataclass(frozen=True, slots=True)
class PageLabels:
    """One sample page's classifier labels: each block's text, the block-level element owning it, and its label."""

    texts: tuple[str, ...]
    elements: tuple[etree._Element, ...]
    content: tuple[bool, ...]
    # Per block, for cutting its parts: the innermost element that holds all its text (an inline
    # <time> or <span> of a dateline whose block belongs to the <header>), and whether it lies in
    # a caption, a footer or navigation (forest.classifier.blocks.not_article), where cold
    # extraction never keeps it.  Empty: the owners, and no landmark.
    holders: tuple[etree._Element, ...] = ()
    landmark: tuple[bool, ...] = ()

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(len(text) for text in self.texts)


def boilerplate_texts(regions_text: Sequence[frozenset[str]], labels: Sequence[PageLabels]) -> frozenset[str]:
    """Texts the classifier labels boilerplate inside the region of at least MIN_PAGES sample pages
    and content on fewer: the site's repeated boilerplate lines ("Posted by", "Comments (0)", a
    disclaimer), dropped at extraction by a set lookup.

    :param regions_text: each page's block texts inside its region.
    """
    rejected: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    for texts, page_labels in zip(regions_text, labels):
        for text, is_content in {t: c for t, c in zip(page_labels.texts, page_labels.content)}.items():
            if text in texts:
                (kept if is_content else rejected)[text] += 1
    return frozenset(text for text, count in rejected.items() if count >= MIN_PAGES and count > kept[text])


def consensus_exclusions(pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]], parts: SampleParts) -> list[str]:
    """Sub-structures of the regions that the classifier labels boilerplate across the sample, as XPath steps.

    :param parts: the pages' parts and labels (``SampleParts.of(pages, labels)``).
    """
    return _consensus(pages, regions, parts)[0]


# The columns of _PageParts.sums.
_BOILERPLATE, _CONTENT, _KEYWORDS, _TERMS, _LINK_TERMS, _LANDMARK, _MEDIA = range(7)
# Elements that show something other than text: a part that holds one is more than its text.
MEDIA_TAGS = frozenset("audio canvas embed iframe img object picture svg video".split())
_MEDIA_ORDER = tuple(sorted(MEDIA_TAGS))


@dataclass(frozen=True, slots=True)
class _PageParts:
    """One sample page's parts extraction could cut inside a region, as arrays built once per learning.

    Each row is one (key, element) pair of the page index, the rows grouped by key and each
    group in document order (``base``, a per-group offset, lets one running maximum restart
    at each group).
    """

    key: np.ndarray  # the key's id in SampleParts.names
    element: np.ndarray
    anchor: np.ndarray  # the element the key's anchored path starts from (itself for one step)
    base: np.ndarray
    end: np.ndarray  # per element: the last element of its subtree
    sums: np.ndarray  # per element + 1, prefix sums of boilerplate and content characters, keywords, terms (columns below)
    linked: np.ndarray  # per element: a link or inside one
    # The end and the boilerplate and content columns of ``sums`` as lists: the regions and cuts judged (agreeing_choice)
    # are a few elements each, thousands of times a site, where numpy's calls cost more than the sums.
    end_list: list[int]
    boilerplate_list: list[int]
    content_list: list[int]
    # Each region's _RegionParts, by its elements: choosing the region judges the same region of a page
    # again and again (candidates that select the same elements, the chosen one among its rivals).
    regions: dict[tuple[int, ...], _RegionParts] = field(default_factory=dict, repr=False, compare=False)

    @staticmethod
    def of(page: ScoredPage, labels: PageLabels, ids: dict[str, int]) -> _PageParts:
        """The page's parts, its keys numbered in ``ids`` (which gains the keys it has not seen)."""
        index = page.index
        parent, end = np.asarray(index.parent, dtype=np.int64), np.asarray(index.end, dtype=np.int64)
        # One pass over the page's keys (thousands): the cuttable ones, their ids, steps and elements
        # (in C: forest/learning/_name.pyx; its reference, the loop it stands for, is _key_rows).
        names, steps, sizes, elements = key_rows(index.keys, _CUT_STEPS, _cut_steps, ids)
        up = np.repeat(steps, sizes)
        anchor = elements.copy()
        for step in range(1, int(up.max(initial=0)) + 1):
            anchor[up >= step] = parent[anchor[up >= step]]
        base = np.repeat(np.arange(len(names), dtype=np.int64) * (len(end) + 2), sizes)
        boiler, content, landmark = _label_sums(page, labels)
        # Each element's tag read in C (forest/learning/_name.pyx; its reference is _tag_marks).
        media, linked = tag_marks(index.elements, index.parent, _MEDIA_ORDER)
        link_terms = np.where(linked, index.n_terms, 0)
        # Prefix sums in numpy, not over Python lists: the same integers, summed in the same order.
        sums = np.column_stack([boiler, content, _prefix(page.own_x), _prefix(index.n_terms), _prefix(link_terms), landmark,
                                _prefix(media)])
        sums = sums.astype(np.int64)
        return _PageParts(np.repeat(names, sizes), elements, anchor, base, end, sums, linked, end.tolist(),
                          sums[:, _BOILERPLATE].tolist(), sums[:, _CONTENT].tolist())

    def outermost(self, region: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The rows whose element lies strictly inside ``region``, anchor too, and inside no other such
        element of its key (``PageIndex.outermost`` per key): their keys and elements."""
        inside = np.zeros(len(self.end), dtype=bool)
        for node in region:
            inside[node + 1 : self.end[node] + 1] = True  # strictly inside: the region itself is never cut
        within = inside[self.element] & inside[self.anchor]
        reach = np.maximum.accumulate(np.where(within, self.base + self.end[self.element] + 1, 0))
        before = np.concatenate(([0], reach[:-1])) - self.base - 1  # the last end of an earlier row of the group
        rows = np.flatnonzero(within & (self.element > before))
        return self.key[rows], self.element[rows]

    def region(self, region: Sequence[int]) -> _RegionParts:
        """The parts of ``region`` that _consensus tallies, read once per region of the page."""
        at = tuple(region)
        found = self.regions.get(at)
        if found is None:
            found = self.regions[at] = _RegionParts.of(self, region)
        return found

    def labelled(self, elements: Iterable[int]) -> tuple[int, int]:
        """The characters labelled boilerplate and content in the subtrees of ``elements`` (disjoint):
        the two columns of ``totals(elements).sum(axis=0)``."""
        end, boilerplate, content = self.end_list, self.boilerplate_list, self.content_list
        rejected = kept = 0
        for i in elements:
            rejected += boilerplate[end[i] + 1] - boilerplate[i]
            kept += content[end[i] + 1] - content[i]
        return rejected, kept

    def totals(self, elements: np.ndarray) -> np.ndarray:
        """Each column of ``sums`` over each element's subtree."""
        totals: np.ndarray = self.sums[self.end[elements] + 1] - self.sums[elements]
        return totals


@dataclass(frozen=True, slots=True)
class _RegionParts:
    """What _consensus reads of one page's region: its columns' sums, its cuttable parts
    (``_PageParts.outermost``), the keys those are of (each once, ascending) and each such key's
    columns summed over its parts, a link's link terms aside.  Its arrays are read-only: a page's
    region is judged many times from the same object."""

    total: np.ndarray
    keys: np.ndarray
    elements: np.ndarray
    present: np.ndarray
    tallied: np.ndarray

    @staticmethod
    def of(parts: _PageParts, region: Sequence[int]) -> _RegionParts:
        total = parts.totals(np.asarray(region, dtype=np.int64)).sum(axis=0)
        keys, elements = parts.outermost(region)
        totals = parts.totals(elements)
        totals[parts.linked[elements], _LINK_TERMS] = 0  # a link is not a list of links
        # Every column's sums per key in one bincount, each (key, column) its own bin: the same floats,
        # added in the same order, as a bincount per column over all the sample's keys.
        present, key_at = np.unique(keys, return_inverse=True)
        n_columns = totals.shape[1]
        bins = (key_at.reshape(-1)[:, None] * n_columns + np.arange(n_columns)).ravel()
        tallied = np.bincount(bins, weights=totals.ravel(), minlength=len(present) * n_columns)
        tallied = tallied.reshape(len(present), n_columns).astype(np.int64)
        for array in (total, keys, elements, present, tallied):
            array.flags.writeable = False
        return _RegionParts(total, keys, elements, present, tallied)


@dataclass(frozen=True, slots=True)
class SampleParts:
    """The sample's cuttable keys (one id per key across the pages) and each page's parts, built once
    per learning from the pages and the classifier's labels on them: choosing the region
    (agreeing_choice) and cutting its parts (consensus_exclusions) read the same arrays."""

    names: list[str]
    pages: list[_PageParts]

    @staticmethod
    def of(pages: Sequence[ScoredPage], labels: Sequence[PageLabels]) -> SampleParts:
        ids: dict[str, int] = {}
        built = [_PageParts.of(page, page_labels, ids) for page, page_labels in zip(pages, labels)]
        return SampleParts(list(ids), built)

    def subset(self, members: Sequence[int]) -> SampleParts:
        return SampleParts(self.names, [self.pages[k] for k in members])


def _consensus(
    pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]], parts: SampleParts, *, link_lists: bool = True
) -> tuple[list[str], list[set[int]]]:
    """Sub-structures of the regions that the classifier labels boilerplate across the sample, as single-step XPaths.

    :param pages: the explained sample pages, scored with their keywords.
    :param regions: each page's region (element indices of its page index).
    :param parts: the pages' cuttable parts and label sums (SampleParts.of, with the classifier's labels
        on each page as parsed, before any cut).
    :param link_lists: cut the parts that are mostly link text whatever their keywords (_sparse).
    :return: the exclusions, and the elements they cut on each page.
    """
    if not pages:
        return [], []
    n_keys = len(parts.names)
    on_pages = np.zeros(n_keys, dtype=np.int64)
    tallied = np.zeros((n_keys, parts.pages[0].sums.shape[1]), dtype=np.int64)  # the columns of _PageParts.sums
    region_total = np.zeros(tallied.shape[1], dtype=np.int64)
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for page_parts, region in zip(parts.pages, regions):
        part = page_parts.region(region)
        region_total += part.total
        found.append((part.keys, part.elements))
        on_pages[part.present] += 1
        tallied[part.present] += part.tallied
    region_chars = int(region_total[_BOILERPLATE] + region_total[_CONTENT])
    cut = _Cut.of(parts.pages, found, n_keys)
    chosen: list[str] = []
    cut_chars = 0
    candidates = np.flatnonzero((on_pages >= min(MIN_PAGES, len(pages))) & _cuttable(tallied, region_total, link_lists=link_lists))
    # The parts with the most boilerplate first, and of parts with the same text the one that
    # shows no more than it (a figure's caption, not the figure and its image); a part inside
    # one already cut adds nothing.
    order = (-tallied[:, _BOILERPLATE], tallied[:, _MEDIA])
    for key in sorted(candidates.tolist(), key=lambda key: (order[0][key], order[1][key], parts.names[key])):
        if len(chosen) >= MAX_EXCLUSIONS:
            break
        fresh, inner = cut.fresh(key)
        size = cut.chars(fresh) - cut.chars(inner)
        if size <= 0 or cut_chars + size > MAX_CUT_SHARE * region_chars:
            continue
        chosen.append(parts.names[key])
        cut_chars += size
        cut.add(fresh, inner)
    return chosen, cut.covered()


class _Cut:
    """The elements the chosen exclusions cut, on all the sample pages at once: each page's
    elements numbered after the previous page's, so that one array operation answers for
    every page (a part is tried on every page for each of thousands of keys)."""

    def __init__(self, offsets: np.ndarray, end: np.ndarray, chars: np.ndarray, start: list[int], element: np.ndarray) -> None:
        self.offsets = offsets  # where each page's elements start
        self.end = end  # per element: the last element of its subtree
        # Per element: its subtree's labelled characters (either way), from their running sum (one entry ahead).
        self.sizes = chars[end + 1] - chars[:-1]
        self.element = element  # the regions' parts, sorted by key, each key's in order
        self.start = start  # per key: where its parts start in ``element`` (and one past the last key)
        self.under = np.zeros(len(end), dtype=bool)  # in or under a cut element
        self.roots = np.zeros(0, dtype=np.int64)  # the cut elements, sorted

    @staticmethod
    def of(pages: Sequence[_PageParts], found: Sequence[tuple[np.ndarray, np.ndarray]], n_keys: int) -> _Cut:
        sizes = [len(page.end) for page in pages]
        offsets = np.concatenate(([0], np.cumsum(sizes)))
        end = np.concatenate([page.end + offset for page, offset in zip(pages, offsets.tolist())])
        own = np.concatenate([np.diff(page.sums[:, _BOILERPLATE] + page.sums[:, _CONTENT]) for page in pages])
        keys = np.concatenate([keys for keys, _ in found])
        elements = np.concatenate([elements + offset for (_, elements), offset in zip(found, offsets.tolist())])
        order = np.argsort(keys, kind="stable")  # pages in order, each page's elements in document order
        start = np.searchsorted(keys[order], np.arange(n_keys + 1)).tolist()
        return _Cut(offsets, end, np.concatenate(([0], np.cumsum(own))), start, elements[order])

    def fresh(self, key: int) -> tuple[np.ndarray, np.ndarray]:
        """The part's elements not under a cut one, and the cut elements inside those (a sidebar's
        wrapper around parts already cut cuts only the text they left)."""
        elements = self.element[self.start[key] : self.start[key + 1]]
        fresh = elements[~self.under[elements]]
        if not len(self.roots) or not len(fresh):
            return fresh, self.roots[:0]
        # The fresh elements are disjoint subtrees in order: the only one that can hold a cut
        # element is the last that starts before it.
        before = np.searchsorted(fresh, self.roots) - 1
        holder = fresh[np.maximum(before, 0)]
        return fresh, self.roots[(before >= 0) & (self.roots <= self.end[holder])]

    def chars(self, elements: np.ndarray) -> int:
        """Characters of text, labelled either way, in the subtrees of ``elements`` (disjoint)."""
        # Most parts tried hold no cut element (an empty ``inner``): no numpy call for none.
        return int(self.sizes[elements].sum()) if len(elements) else 0

    def add(self, fresh: np.ndarray, inner: np.ndarray) -> None:
        added = fresh.tolist()
        for i in added:
            self.under[i : self.end[i] + 1] = True
        # numpy's union1d(setdiff1d(roots, inner), fresh) in Python sets: a few dozen elements, where
        # numpy's set operations sort and copy for each of the chosen parts.
        self.roots = np.array(sorted(set(self.roots.tolist()).difference(inner.tolist()).union(added)), dtype=np.int64)

    def covered(self) -> list[set[int]]:
        """The cut elements of each page, numbered in its page index."""
        page = np.searchsorted(self.offsets, self.roots, side="right") - 1
        covered: list[set[int]] = [set() for _ in range(len(self.offsets) - 1)]
        for k, i in zip(page.tolist(), (self.roots - self.offsets[page]).tolist()):
            covered[k].add(i)
        return covered


def classifier_agrees(
    pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]], labels: Sequence[PageLabels], *, ignore: Sequence[str] = ()
) -> tuple[bool, float, str]:
    """Whether the classifier's labels may shape this site's wrapper, the share of the regions'
    terms it labels boilerplate, and a note that says why not.

    The classifier was trained on news and blog pages.  On product, documentation and
    Q&A sites it takes specifications, code and answers for boilerplate, and those are
    where the sample pages' keywords are densest: it then contradicts FOREST's evidence
    for where the article is, and the wrapper is learned from J x U alone.  So it is when
    it rejects nearly all of the regions (MAX_REJECTED_SHARE), keeping an item's name or
    price: its labels then say nothing about which part of them to cut.

    :param ignore: XPaths (one step) of parts whose text does not count either way: the
        site's comment containers (forest.learning.comments).
    """
    kept_terms = kept_x = dropped_terms = dropped_x = 0
    for page, region, page_labels in zip(pages, regions, labels):
        inside = _inside_mask(page, region)
        position = page.index.positions()
        for xpath in ignore:
            for element in page.index.elements[0].xpath(f".{xpath}"):
                i = position.get(element)
                if i is not None:
                    inside[i : page.index.end[i] + 1] = [False] * (page.index.end[i] + 1 - i)
        for element, is_content in {e: c for e, c in zip(page_labels.elements, page_labels.content)}.items():
            i = position.get(element)
            if i is None or not inside[i]:
                continue
            if is_content:
                kept_terms += page.index.n_terms[i]
                kept_x += page.own_x[i]
            else:
                dropped_terms += page.index.n_terms[i]
                dropped_x += page.own_x[i]
    total = kept_terms + dropped_terms
    share = dropped_terms / total if total else 0.0
    if share >= MAX_REJECTED_SHARE:
        return False, share, (
            f"{CLASSIFIER_NOT_USED}: on the sample pages it labels boilerplate {share:.0%} "
            "of the regions' terms (pages unlike its training pages)"
        )
    if not dropped_terms or not dropped_x:
        return True, share, ""
    ratio = (dropped_x / dropped_terms) / (kept_x / kept_terms) if kept_x else float("inf")
    if share >= MIN_DISPUTED_SHARE and ratio >= MIN_DENSITY_RATIO:
        return False, share, (
            f"{CLASSIFIER_NOT_USED}: on the sample pages it labels boilerplate {share:.0%} of the "
            f"regions' terms, {ratio:.2f}x as dense in keywords as the rest (a product or reference site)"
        )
    return True, share, ""


def _inside_mask(page: ScoredPage, region: Sequence[int]) -> list[bool]:
    mask = [False] * len(page.index.elements)
    for node in region:
        for j in range(node, page.index.end[node] + 1):
            mask[j] = True
    return mask


def agreeing_choice(
    choice: Choice, ranked: Sequence[Ranked], pages: Sequence[ScoredPage], parts: SampleParts
) -> tuple[Choice, list[float]]:
    """``choice`` with each pattern replaced by the candidate that, cleaned, agrees best with the classifier.

    J x U finds where the keywords are dense and unexpected; that is often a container
    a level or two wider than the article (the story with its photo strip and comment
    thread), or a run of its paragraphs without the headings and lists between them.
    Among the candidates that explain every page a pattern explains (their regions hold,
    over those pages, at least MIN_KEYWORD_SHARE of the keywords its regions hold), the
    few whose regions hold the text the classifier labels content most exactly, and the
    containers of those that are runs of siblings, are cleaned as learning would clean
    them (consensus exclusions); the one that then agrees best (F1 over characters, summed
    over the pages: the site's consensus, not one page's labels) replaces the pattern when
    it does better by MIN_AGREEMENT_GAIN.  A candidate that does not explain the pages is
    never taken, however well it agrees.

    :param parts: the pages' parts and labels (``SampleParts.of(pages, labels)``).
    Returns the choice and, for each pattern, its cleaned agreement with the classifier.
    """
    best = [max((r.page_scores[k] for r in ranked), default=0.0) for k in range(len(pages))]
    by_xpath = {r.pattern.xpath: r for r in ranked}
    patterns = list(choice.patterns)
    agreements: list[float] = []
    for j, chosen in enumerate(choice.patterns):
        members = [k for k, a in enumerate(choice.assignment) if a == j]
        if not members:
            agreements.append(0.0)
            continue
        judge = _Judge([pages[k] for k in members], parts.subset(members))
        needed = MIN_KEYWORD_SHARE * judge.keywords(judge.regions(chosen))
        eligible: dict[str, list[list[int]]] = {}
        for candidate in ranked:
            if all(best[k] > 0 and candidate.page_scores[k] > 0 for k in members):
                regions = judge.regions(candidate)
                # The body is never the article's region (the guards), however well it agrees once cleaned.
                if judge.keywords(regions) >= needed and not any(0 in region for region in regions):
                    eligible[candidate.pattern.xpath] = regions
        raw = sorted(eligible, key=lambda xpath: -judge.agreement(eligible[xpath]))[:MAX_CLEANED]
        shortlist = dict.fromkeys(raw)
        for xpath in raw:
            container = _container(eligible[xpath], judge.pages, eligible)
            if container is not None:
                shortlist[container] = None
        current = judge.cleaned(judge.regions(chosen))
        scores: dict[str, float] = {}
        # Cleaning raises precision, never recall: 2R / (1 + R) bounds a candidate's cleaned
        # agreement, and a candidate whose bound cannot win is not cleaned (learning time).
        for xpath in sorted(shortlist, key=lambda xpath: -judge.recall(eligible[xpath])):
            bound = 2 * judge.recall(eligible[xpath]) / (1 + judge.recall(eligible[xpath]))
            if bound < max([current + MIN_AGREEMENT_GAIN, *scores.values()]):
                break
            scores[xpath] = judge.cleaned(eligible[xpath])
        top = max(scores, key=lambda xpath: (scores[xpath], by_xpath[xpath].pattern.score), default=None)
        if top is not None and top != chosen.pattern.xpath and scores[top] >= current + MIN_AGREEMENT_GAIN:
            patterns[j] = by_xpath[top]
            current = scores[top]
        agreements.append(current)
    return Choice(tuple(patterns), choice.assignment), agreements


@dataclass(frozen=True, slots=True)
class _Judge:
    """Candidate regions against the classifier's labels, on the sample pages one pattern explains."""

    pages: Sequence[ScoredPage]
    parts: SampleParts
    # Each set of regions' cleaned agreement, by their elements: the chosen pattern's regions are judged
    # again among its rivals, and rivals that select the same elements are judged alike.
    judged: dict[tuple[tuple[int, ...], ...], float] = field(default_factory=dict, repr=False, compare=False)

    def regions(self, candidate: Ranked) -> list[list[int]]:
        return [page.index.outermost(matches(page.index, candidate.pattern.xpath)) for page in self.pages]

    def keywords(self, regions: Sequence[Sequence[int]]) -> int:
        return sum(page.x[i] for page, region in zip(self.pages, regions) for i in region)

    def recall(self, regions: Sequence[Sequence[int]]) -> float:
        """The share of the text labelled content that the regions hold."""
        kept = found = 0
        for page_parts, region in zip(self.parts.pages, regions):
            kept += page_parts.labelled(region)[1]
            found += page_parts.content_list[-1]
        return kept / found if found else 0.0

    def agreement(self, regions: Sequence[Sequence[int]], cut: Sequence[set[int]] = ()) -> float:
        """F1 over characters of the regions (less what ``cut`` removes) against the text labelled content."""
        kept = rejected = found = 0
        for k, (page_parts, region) in enumerate(zip(self.parts.pages, regions)):
            boilerplate, content = page_parts.labelled(region)
            if cut and cut[k]:
                cut_boilerplate, cut_content = page_parts.labelled(cut[k])
                boilerplate, content = boilerplate - cut_boilerplate, content - cut_content
            kept += content
            rejected += boilerplate
            found += page_parts.content_list[-1]
        if kept <= 0:
            return 0.0
        precision, recall = kept / (kept + rejected), kept / found
        return 2 * precision * recall / (precision + recall)

    def cleaned(self, regions: Sequence[Sequence[int]]) -> float:
        """The agreement once the regions are cleaned as learning would clean them, but for their link lists.

        Cutting a wider region's "related" lists makes it agree with the classifier as well as the
        article's own container does, and the wider one then brings its author box and review
        panels to every page.  (Re-measure: `forest eval --split dev --systems forest`.)
        """
        at = tuple(tuple(region) for region in regions)
        found = self.judged.get(at)
        if found is None:
            found = self.judged[at] = self.agreement(regions, _consensus(self.pages, regions, self.parts, link_lists=False)[1])
        return found


def _container(regions: Sequence[Sequence[int]], pages: Sequence[ScoredPage], eligible: dict[str, list[list[int]]]) -> str | None:
    """The eligible candidate whose region is, on every page, the one parent of a run of siblings ``regions`` is."""
    parents = []
    for page, region in zip(pages, regions):
        up = {page.index.parent[i] for i in region}
        if len(up) != 1:
            return None
        parents.append([up.pop()])
    return next((xpath for xpath, found in eligible.items() if found == parents), None)


def _steps_below_anchor(key: str) -> int | None:
    """For a key extraction can cut inside a region: 0 for one step (``//div[@class='x']``, a
    side tag such as ``//figure``), n for an attributed anchor and n plain tags below it
    (``//div[@class='x']/div/p``: 2); None for other keys."""
    if is_single_step(key) or key[2:] in SIDE_TAGS:
        return 0
    head, sep, path = key.rpartition("]/")
    if not sep or not key.startswith("//") or "[" in path or not all(part.isalnum() for part in path.split("/")):
        return None
    return path.count("/") + 1 if "/" not in head.split("[", 1)[0][2:] and "]/" not in head else None


# Each key's _cut_steps, kept across pages and sites (a template's keys recur on every page): a dict, as
# an lru_cache's bookkeeping cost more than the lookup; emptied when it holds CUT_STEPS_KEPT keys.
_CUT_STEPS: dict[str, int | None] = {}
# Bounds the memory of a long batch; a site's sample has a few thousand keys.
CUT_STEPS_KEPT = 1 << 16


def _key_rows(keys: dict[str, list[int]], ids: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """forest.learning._name.key_rows's reference: for each key :func:`_cut_steps` gives steps for, in the
    keys' order, its id in ``ids`` (added when new), its steps and its number of elements; and their elements."""
    named: list[int] = []
    steps: list[int] = []
    counts: list[int] = []
    found: list[int] = []
    for key, nodes in keys.items():
        below = _cut_steps(key)
        if below is not None:
            named.append(ids.setdefault(key, len(ids)))
            steps.append(below)
            counts.append(len(nodes))
            found.extend(nodes)
    return (np.asarray(named, dtype=np.int64), np.asarray(steps, dtype=np.int64), np.asarray(counts, dtype=np.int64),
            np.asarray(found, dtype=np.int64))


def _cut_steps(key: str) -> int | None:
    """:func:`_steps_below_anchor`, None also for a key of code (KEPT_TAGS), never cut: the tag of its
    elements is the key's last step's (read from the key, not from an element, for thousands of keys)."""
    try:
        return _CUT_STEPS[key]
    except KeyError:
        pass
    below = _steps_below_anchor(key)
    if below is not None:
        tag = key[2:].split("[", 1)[0] if below == 0 else key.rsplit("/", 1)[1]
        below = None if tag in KEPT_TAGS else below
    if len(_CUT_STEPS) >= CUT_STEPS_KEPT:
        _CUT_STEPS.clear()
    _CUT_STEPS[key] = below
    return below


def _cuttable(tallied: np.ndarray, region_total: np.ndarray, *, link_lists: bool = True) -> np.ndarray:
    """Per key (a row of ``tallied``, its sums over the sample's regions): whether the part may be cut,
    whatever is cut already.

    The classifier labels at least MIN_BOILERPLATE_SHARE of its text boilerplate; it holds the
    keywords at most MIN_DENSITY_RATIO times as densely as the rest of the region (FOREST's
    evidence), or (``link_lists``) is mostly link text (a list of related stories holds the
    article's keywords in its headlines, and that is no evidence it is the article); and its text
    alone is within MAX_CUT_SHARE of the region's.
    """
    boilerplate, content, keywords, terms, link_terms, landmark, _ = tallied.T
    chars = boilerplate + content
    share = np.divide(boilerplate, chars, out=np.zeros(len(chars)), where=chars > 0)
    rest_terms = region_total[_TERMS] - terms
    rest_keywords = region_total[_KEYWORDS] - keywords
    # Densities as FOREST reads them (J: Jeffreys' estimate less one standard deviation): a
    # dateline's five words, two of them the story's month and year, are no evidence of density.
    sparse = (terms == 0) | (jeffreys_densities(keywords, terms - keywords)
                                   <= MIN_DENSITY_RATIO * jeffreys_densities(rest_keywords, rest_terms - rest_keywords))
    if link_lists:
        sparse |= link_terms > LINK_LIST_SHARE * terms
    # A caption, a footer or navigation is what the page's own markup says is not the article:
    # its keywords are no evidence it is (a caption names the story's people and places).
    sparse |= landmark >= MIN_BOILERPLATE_SHARE * chars
    region_chars = region_total[_BOILERPLATE] + region_total[_CONTENT]
    cuttable: np.ndarray = (share >= MIN_BOILERPLATE_SHARE) & (rest_terms > 0) & sparse & (chars <= MAX_CUT_SHARE * region_chars)
    return cuttable


def _tag_marks(index: PageIndex) -> tuple[np.ndarray, np.ndarray]:
    """forest.learning._name.tag_marks's reference: per element of the page index, whether it shows media
    (MEDIA_TAGS), as 0 or 1, and whether it is a link or inside one."""
    parent = index.parent
    linked: list[bool] = []
    for i, element in enumerate(index.elements):  # parents come first (document order)
        linked.append(element.tag == "a" or (i > 0 and linked[parent[i]]))
    media = np.fromiter((element.tag in MEDIA_TAGS for element in index.elements), dtype=np.int64, count=len(index.elements))
    return media, np.asarray(linked, dtype=bool)


def _label_sums(page: ScoredPage, labels: PageLabels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Prefix sums over the page index of the characters labelled boilerplate and content, and of
    those in a landmark (PageLabels.landmark), each counted at the element holding its text.

    A landmark's text counts as boilerplate: cold extraction drops it whatever the model says.
    """
    position = page.index.positions()
    n = len(page.index.elements)
    boiler, content, landmark = [0] * n, [0] * n, [0] * n
    holders = labels.holders or labels.elements
    marked = labels.landmark or (False,) * len(labels.texts)
    for element, length, is_content, in_landmark in zip(holders, labels.lengths, labels.content, marked):
        i = position.get(element)
        if i is None:
            continue
        if in_landmark:
            landmark[i] += length
            boiler[i] += length
        else:
            (content if is_content else boiler)[i] += length
    return _prefix(boiler), _prefix(content), _prefix(landmark)


def _prefix(values: Sequence[int] | np.ndarray) -> np.ndarray:
    """0 and the running sums of ``values``, as int64."""
    return np.concatenate((np.zeros(1, dtype=np.int64), np.cumsum(np.asarray(values, dtype=np.int64), dtype=np.int64)))
