"""The boxes a site's template writes into its article region, decided per part from the sample's own evidence.

A template's box has a fixed label and changing items: a video playlist ("Caption", "4 stories
you can't miss", then this week's videos), an author bio, a newsletter box, "Related video:"
and its clip.  Its label is the template's text (a line the region of most sample pages
repeats, learned before this step), and so is dropped already; its items are new on every
page, and stay.  So a part of the region (an element named by its tag and a stable
attribute, once a page) that opens with the same template line on several sample pages, and
holds the sample's keywords no more densely than the rest of the region, is cut whole, items
and all.  A page's repeated items (its comments, its answers) are no box, nor is a part that
opens with a number (a vote count).

A region of several sibling nodes (``//div[@class='story']/div``: the headline's div, the
byline's, the playlist's, the body's) can have no part cut among its nodes, only inside them
(an exclusion searches inside the region): a node that is such a box is taken out of the
pattern itself.

The tests are the sample's own, with the thresholds of the site's other cleanup (MIN_PAGES and
MAX_CUT_SHARE of forest.learning.consensus) and none of their own.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from forest.learning.consensus import MAX_CUT_SHARE, MIN_PAGES
from patterns.ranking import ScoredPage
from patterns._keys import keys_within
from patterns.refine import KEPT_TAGS, single_steps
from patterns.scoring import jeffreys_density
from patterns.text import text_blocks


@dataclass(frozen=True, slots=True)
class _Part:
    """One key's elements in one sample page's region: inside its nodes, or among them."""

    page: ScoredPage
    elements: tuple[int, ...]
    keywords: int
    terms: int
    region_keywords: int  # the keywords and terms of the page's whole region
    region_terms: int

    def shape(self) -> frozenset[tuple[str, str | None]]:
        """The tags and classes of its first element's children: the same box has the same, whatever it says."""
        return frozenset((child.tag, child.get("class")) for child in self.page.index.elements[self.elements[0]]
                         if isinstance(child.tag, str))

    def denser_than_the_rest(self) -> bool:
        """Whether it holds the sample's keywords more densely than the rest of its page's region (J, as FOREST reads density)."""
        rest_x, rest_n = self.region_keywords - self.keywords, self.region_terms - self.terms
        return jeffreys_density(self.keywords, self.terms - self.keywords) > jeffreys_density(rest_x, rest_n - rest_x)

    def label(self, template: frozenset[str]) -> str | None:
        """The template line it opens with, if it is one element and opens with one that has a word: a
        box's label ("Caption", "Related video:"), never a vote count."""
        if len(self.elements) != 1:  # a box, not one of a page's repeated items (its comments, its answers)
            return None
        first = next((b for b in text_blocks([self.page.index.elements[self.elements[0]]]) if not b.is_navigation), None)
        if first is None or first.text not in template or not any(char.isalpha() for char in first.text):
            return None
        return first.text

    def varies(self, template: frozenset[str]) -> bool:
        """Whether some of its text is not the template's."""
        blocks = text_blocks(self.page.index.elements[i] for i in self.elements)
        return any(b.text not in template for b in blocks if not b.is_navigation)


def template_boxes(
    pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]], template: frozenset[str], exclusions: Sequence[str]
) -> list[str]:
    """Parts strictly inside the regions that are the template's boxes, as exclusions (one step each).

    :param regions: each explained sample page's region (element indices of its page index).
    :param template: the site's template texts (text blocks most sample regions repeat).
    :param exclusions: the exclusions learned already (not proposed again).
    """
    parts = [_parts(page, region, inside=True) for page, region in zip(pages, regions)]
    return [key for key in _boxes(parts, _totals(pages, regions), template) if key not in exclusions]


def template_nodes(pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]], template: frozenset[str]) -> list[str]:
    """Keys of the template's boxes among the nodes of a pattern whose regions are several sibling nodes,
    to take out of the pattern: boxes that open with their label on every sample page they occur on (a
    node left out of a pattern has no guard but extraction's :func:`forest.extraction.extractor._widened`;
    a mixed site's sidebar on one blog's pages is its main column on another's).  A region keeps at
    least one node on every page."""
    if not template or not any(len(region) > 1 for region in regions):
        return []
    parts = [_parts(page, region, inside=False) for page, region in zip(pages, regions)]
    kept: list[str] = []
    for key in _boxes(parts, _totals(pages, regions), template, everywhere=True):
        gone = {key, *kept}
        if all(len(region) > sum(len(page_parts[k].elements) for k in gone if k in page_parts)
               for region, page_parts in zip(regions, parts) if region):
            kept.append(key)
    return kept


def without_nodes(xpath: str, keys: Sequence[str]) -> str:
    """``xpath`` selecting none of the elements of ``keys`` (single steps: ``//div[@class='x']``)."""
    return xpath + "".join(f"[not(self::{key[2:]})]" for key in keys)


def _totals(pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]]) -> tuple[int, int]:
    """The regions' keywords and terms, summed over the pages."""
    return (sum(page.x[i] for page, region in zip(pages, regions) for i in region),
            sum(page.n[i] for page, region in zip(pages, regions) for i in region))


def _boxes(parts: Sequence[dict[str, _Part]], totals: tuple[int, int], template: frozenset[str], *, everywhere: bool = False) -> list[str]:
    """The keys whose parts are the template's boxes: found on at least MIN_PAGES pages, no denser in keywords
    than the rest of the regions, holding no more than MAX_CUT_SHARE of their terms and, on every page, fewer
    of its keywords than the rest (a blog's main column opens with the blog's name, and holds the post: the
    cheap tests, first), one element a page that opens with the same template line (its label) on at least
    MIN_PAGES pages and at least half of those it occurs on, and holding text of its own somewhere."""
    if not template:
        return []
    region_x, region_n = totals
    chosen = []
    # Several keys name the same element of a page (its class, its id): its label is read once.
    opened_by: dict[tuple[int, tuple[int, ...]], str | None] = {}

    def label_of(part: _Part) -> str | None:
        known = (id(part.page), part.elements)
        if known not in opened_by:
            opened_by[known] = part.label(template)
        return opened_by[known]

    for key in sorted({key for page_parts in parts for key in page_parts}):
        found = [page_parts[key] for page_parts in parts if key in page_parts]
        x, n = sum(p.keywords for p in found), sum(p.terms for p in found)
        rest_x, rest_n = region_x - x, region_n - n
        if len(found) < MIN_PAGES or rest_n <= 0 or n > MAX_CUT_SHARE * region_n or x * rest_n > rest_x * n:
            continue
        if any(2 * p.keywords >= p.region_keywords > 0 for p in found):  # where the article is, on a page
            continue
        labels = [label_of(p) for p in found]
        label, opened = max(Counter(label for label in labels if label is not None).items(), key=lambda item: item[1],
                            default=(None, 0))
        if opened < MIN_PAGES or 2 * opened < len(found) or (everywhere and opened < len(found)) \
                or not any(p.varies(template) for p in found):
            continue
        # Where it does not open with its label, it is the same box still only if it is built as it is where it
        # does, and is as sparse as one (another author's bio): a mixed site's main column is a labelled
        # sidebar on another blog's pages.
        shapes = {p.shape() for p, own in zip(found, labels) if own == label}
        if all(p.shape() in shapes and not p.denser_than_the_rest() for p, own in zip(found, labels) if own != label):
            chosen.append(key)
    return chosen


def _parts(page: ScoredPage, region: Sequence[int], *, inside: bool) -> dict[str, _Part]:
    """Per attributed key (one exact step), its outermost elements inside the region's nodes (``inside``)
    or among them, with their keywords and terms; parts that hold code are never boxes."""
    index = page.index
    # The region's nodes' subtrees (``inside``) or the nodes themselves, as ranges of the document order.
    spans = [(node + 1, index.end[node] + 1) if inside else (node, node + 1) for node in region]
    region_x, region_n = sum(page.x[i] for i in region), sum(page.n[i] for i in region)
    # The page's <pre> and <code> elements, in document order (their tag keys): a part holds code when
    # one lies in its subtree, a range of the document order (bisect, not a walk of every part).
    listings = sorted(i for tag in KEPT_TAGS for i in index.keys.get(f"//{tag}", ()))

    def holds_code(i: int) -> bool:
        at = bisect_left(listings, i)
        return at < len(listings) and listings[at] <= index.end[i]

    found: dict[str, _Part] = {}
    # Each key's outermost elements in the spans, found in C (patterns/_keys.pyx; its reference, the
    # Python loop of bisections, is in tests/learning/test_single_steps.py).
    for key, within in keys_within(single_steps(index), spans, index.end):
        if "[@" not in key or "contains(" in key:  # one step with an exact attribute value (//div[@class='author-bio'])
            continue
        if index.elements[within[0]].tag in KEPT_TAGS or any(map(holds_code, within)):
            continue
        found[key] = _Part(page, tuple(within), sum(page.x[i] for i in within), sum(page.n[i] for i in within), region_x, region_n)
    return found
