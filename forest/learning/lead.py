"""Learn where a site prints an article's standfirst: the sentence or two under the headline, above the body.

A site's main pattern is the element that holds the article's body
(``//div[@id='story-body-text']``); many news sites print the standfirst (a dek, a teaser) outside
it, between the headline and the body, and a reader counts it as the article's. It is learned as a
field (``Wrapper.fields["lead"]``): an XPath that selects, on two sample pages or more, one element
before the region's first node that reads as prose, whose text differs from page to page (a
promotion or a section's blurb repeats), and that either the block classifier labels content (a
byline, a dateline or breadcrumbs it labels boilerplate) or that holds the sample's keywords as
densely as the region does (:func:`dense_prose`: a standfirst sums its article up, where the
classifier may take it for a promotion). Without the classifier's labels (learning did without them
on a site unlike its training pages), none is learned. Extraction puts its text under the headline
(forest.extraction.extractor).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

import numpy as np
from lxml import etree

from forest.bylines import BYLINE, written_dates
from forest.fields import element_keys
from forest.region import outermost
from forest.xpaths import compiled
from patterns.ranking import ScoredPage
from patterns.scoring import jeffreys_densities

# A standfirst's size in words: a headline or a byline is shorter, a paragraph of the body longer.
# Re-measure: `forest eval --split dev --systems forest` (big9's sites print one, dragnet's blogs none).
MIN_LEAD_WORDS = 8
MAX_LEAD_WORDS = 80
# The sample pages (of those the main pattern matches) the learned XPath must find one on: two, not
# most of them.  A site prints a standfirst on its articles and none on its blog posts, and a
# sample of five with two articles learned none (latimes.com in 2013); one page's is a guess.
# Re-measure: `forest eval --split dev --systems forest`.
MIN_LEAD_PAGES = 2
# A standfirst is prose: at most this share of its characters is link text (a ticker's are all links).
MAX_LINK_SHARE = 0.3
# How far up from the region's first node the standfirst may sit: the article's header and body
# share a container within a few levels (forest.fields' keys anchor as far).
SCOPE_LEVELS = 4
# Where a standfirst never is: a figure's caption, navigation, a form, a page's aside or footer.
_NOT_LEAD = frozenset({"figure", "figcaption", "nav", "form", "aside", "footer", "button", "select", "label",
                       "script", "style", "noscript", "a", "li", "ul", "ol", "table", "h1"})


def learn_lead(pages: Sequence[tuple[etree._Element, str]], main: str, content: Collection[etree._Element]) -> str | None:
    """The XPath of the site's standfirst, or None.

    :param pages: each sample page's tree and its ``<title>`` (the headline's text is no standfirst).
    :param main: the wrapper's main pattern.
    :param content: the elements whose text blocks the classifier labels content on the sample pages,
        and those :func:`dense_prose` finds.
    """
    if not content:
        return None
    # Per page the main pattern matches: its tree and its candidates with their texts.
    found: list[tuple[etree._Element, dict[etree._Element, str]]] = []
    votes: Counter[str] = Counter()
    for root, title in pages:
        nodes = outermost(compiled(main)(root))
        if not nodes:
            continue
        leads = {element: text for element, text in _candidates(nodes[0], title).items() if element in content}
        found.append((root, leads))
        # In document order and each element's keys' order, once each: ties among keys are then broken the
        # same way in every process (a set's order follows string hashing, which Python randomizes).
        votes.update(list(dict.fromkeys(key for element in leads for key in element_keys(element))))
    for key, count in votes.most_common():
        if count < MIN_LEAD_PAGES:
            return None
        texts = _selected(key, found)
        # Found alike on enough pages, and no template's text: each page's own.
        if len(texts) >= MIN_LEAD_PAGES and len(set(texts)) == len(texts):
            return key
    return None


def dense_prose(pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]]) -> set[etree._Element]:
    """The elements before each sample page's region that hold the page's keywords as densely as its
    region does (J, FOREST's density of a subtree), most of their text their own, and that read as no
    byline or dateline: a standfirst sums its article up in the article's words (Ars Technica's
    teaser, which the classifier takes for a promotion), and a byline and a dateline are dense too
    (a page's author and day are words of its own), so their words leave them out.

    :param pages: the sample pages, scored with their keywords.
    :param regions: each page's region (element indices of its page index), empty where the pattern did not fit.
    """
    found: set[etree._Element] = set()
    for page, region in zip(pages, regions):
        if not region:
            continue
        before = min(region)  # document order: a standfirst sits above the region
        x = np.asarray(page.x[:before], dtype=np.float64)
        n = np.asarray(page.n[:before], dtype=np.float64)
        own = np.asarray(page.index.n_terms[:before], dtype=np.float64)
        region_x = float(sum(page.x[i] for i in region))
        region_n = float(sum(page.n[i] for i in region))
        density = jeffreys_densities(np.asarray([region_x]), np.asarray([region_n - region_x]))[0]
        dense = (jeffreys_densities(x, n - x) >= density) & (2 * own > n)
        for i in np.flatnonzero(dense).tolist():
            element = page.index.elements[i]
            text = " ".join("".join(element.itertext()).split())
            if not BYLINE.match(text) and not written_dates(text):
                found.add(element)
    return found


def _selected(key: str, found: Sequence[tuple[etree._Element, dict[etree._Element, str]]]) -> list[str]:
    """The texts ``key`` selects as a standfirst: on each page, its one element, where that is a candidate."""
    texts = []
    for root, candidates in found:
        try:
            selected = compiled(key)(root)
        except etree.XPathError:
            return []
        if isinstance(selected, list) and len(selected) == 1 and selected[0] in candidates:
            texts.append(candidates[selected[0]])
    return texts


def _candidates(first: etree._Element, title: str) -> dict[etree._Element, str]:
    """The elements before ``first`` (the region's first node), inside its container a few levels up,
    that may be a standfirst, with their texts."""
    scope = first
    for _ in range(SCOPE_LEVELS):
        parent = scope.getparent()
        if parent is None or parent.tag in ("body", "html"):
            break
        scope = parent
    ancestors = set(first.iterancestors())
    folded_title = " ".join(title.split()).casefold()
    out: dict[etree._Element, str] = {}
    for element in scope.iter():
        if element is first:
            break  # document order: what follows the region's start is no standfirst
        if not isinstance(element.tag, str) or element in ancestors or element.tag in _NOT_LEAD:
            continue
        if any(a.tag in _NOT_LEAD for a in element.iterancestors()):
            continue
        text = " ".join("".join(element.itertext()).split())
        words = len(text.split())
        if not MIN_LEAD_WORDS <= words <= MAX_LEAD_WORDS or text.casefold() in folded_title:
            continue
        if element.find(".//h1") is not None:
            continue  # the article's header, headline and all
        links = sum(len(" ".join("".join(a.itertext()).split())) for a in element.iter("a"))
        if links > MAX_LINK_SHARE * len(text):
            continue
        # The element that holds the text itself, not a wrapper around it.
        if any(len(" ".join("".join(child.itertext()).split())) >= 0.9 * len(text) for child in element):
            continue
        out[element] = text
    return out
