"""A wrapper's region on a parsed page: what learning measures and extraction returns.

Learning and extraction share this module so that a region means the same thing on
the sample pages as on a new page: the pattern's outermost matches, with the site's
exclusions cut out and its template and navigation blocks dropped.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from lxml import etree

from forest.classifier._walk import unseen_boxes
from forest.html import drop_element
from forest.wrapper import Wrapper
from forest.xpaths import compiled
from patterns.model import Pattern
from patterns.refine import is_single_step
from patterns.text import Block, prose_share, text_blocks, text_lengths

# A match with fewer words than this share of the pattern's median region on the
# sample pages is taken for a wrong match (a teaser, an empty shell of another template).
MIN_REGION_SHARE = 0.1
# A match with more words than this multiple of the median is taken for drift: the
# pattern now selects a container of the whole page (a redesign, another template).
# Neutral on the site-level datasets between 5 and 8; 3 cost long articles.
MAX_REGION_RATIO = 5
# What a run of an article's paragraphs holds between two of them besides paragraphs (_with_quotes).
BETWEEN_PARAGRAPHS = frozenset("blockquote ul ol dl pre table h2 h3 h4 h5 h6".split())
# The elements a region's parts are: the boxes a page puts into an article (a slideshow, an
# embedded post, a widget), each named by its tag and classes (part_names).
PART_TAGS = ("aside", "blockquote", "div", "dl", "figure", "form", "iframe", "ol", "section", "table", "ul")
# A class name with a digit numbers what varies from page to page: it names no box (part_names).
_DIGIT = re.compile(r"\d")


def select(
    root: etree._Element, wrapper: Wrapper, xpath: str, *, cut_tree: bool = False,
    matched: list[etree._Element] | None = None,
) -> tuple[list[etree._Element], list[Block]]:
    """The region ``xpath`` (one of ``wrapper``'s patterns) selects on a parsed page, and its
    text blocks once the site's learned boilerplate is gone (its exclusions, template and
    navigation blocks).

    The site's comment thread (``Wrapper.comments``) is always cut out of ``root``.

    :param cut_tree: cut the exclusions out of ``root`` itself, for callers that serialize
        the region afterwards; otherwise the text walk skips them.
    :param matched: ``outermost`` of ``xpath`` on ``root``, when the caller read it already (and
        the tree has not changed since): not read again.
    """
    body = root.find("body")
    # The paper's @dfs positions count the page as served: numbered at the first call, before any cut.
    if body is not None and body.get("dfs") is None and any("@dfs" in p.xpath for p in wrapper.patterns):
        number_elements(body)
        matched = None  # a pattern that names the positions selects otherwise now
    nodes = matched if matched is not None else outermost(compiled(xpath)(root))
    nodes = _with_quotes(nodes)
    if len(nodes) > 1 and is_single_step(wrapper.comments):
        nodes = _without_thread(nodes, wrapper.comments)
    if not nodes:
        return [], []
    return nodes, cleaned(nodes, wrapper, cut_tree=cut_tree)


def _with_quotes(nodes: list[etree._Element]) -> list[etree._Element]:
    """``nodes`` with, where they are paragraphs, the quotes, lists and subheads between two of them
    that share their parent (BETWEEN_PARAGRAPHS).

    A pattern that selects a site's paragraphs (``//div[@id='news-item']/div/p``) was learned from
    pages whose text is all paragraphs; a page that quotes a report in a ``<blockquote>`` between
    them would lose the quote.  Re-measure: `forest eval --split dev --systems forest`.
    """
    if len(nodes) < 2 or any(node.tag != "p" for node in nodes):
        return nodes
    found = [nodes[0]]
    for before, after in zip(nodes, nodes[1:]):
        if before.getparent() is after.getparent():
            between: list[etree._Element] = []
            for sibling in before.itersiblings():
                if sibling is after:
                    found.extend(between)
                    break
                if sibling.tag in BETWEEN_PARAGRAPHS:
                    between.append(sibling)
        found.append(after)
    return found


def cleaned(nodes: Sequence[etree._Element], wrapper: Wrapper, *, cut_tree: bool = False) -> list[Block]:
    """The text blocks of ``nodes`` once the site's learned boilerplate is gone: its comment
    thread, its exclusions (:func:`select` says how), its template and navigation blocks (the
    navigation only where the classifier agreed with J x U on the site: :func:`clean`)."""
    if wrapper.comments:
        cut_thread(nodes, wrapper.comments)
    if cut_tree or not wrapper.exclusions:
        cut(nodes, wrapper.exclusions)
        return clean(text_blocks(nodes), wrapper.template_blocks, links=not wrapper.classifier_agrees)
    try:
        blocks = text_blocks(nodes, skip=tuple(x.removeprefix("//") for x in wrapper.exclusions))
    except ValueError:  # an exclusion XSLT cannot match (a hand-edited wrapper): cut it from the tree
        cut(nodes, wrapper.exclusions)
        return clean(text_blocks(nodes), wrapper.template_blocks, links=not wrapper.classifier_agrees)
    if _took_most(nodes, blocks):
        # The exclusions took most of the region: a wrapper div reused around the article
        # on this page.  cut() leaves alone what holds half the region; so does this.
        cut(nodes, wrapper.exclusions)
        blocks = text_blocks(nodes)
    return clean(blocks, wrapper.template_blocks, links=not wrapper.classifier_agrees)


# A wrapper learned from fewer sample pages than this says so in its notes and its
# confidence: one or two pages cannot tell the template from the article.
MIN_SAMPLE_PAGES = 3
# An alternate pattern is a template learned from fewer pages than the main one.
ALTERNATE_CONFIDENCE = 0.8


def confidence(blocks: Sequence[Block], n_words: int, pattern: Pattern, wrapper: Wrapper, rank: int) -> float:
    """How much a page's region looks like the sample's (its size and its share of prose, against
    the pattern's medians) and like an article (its share of prose itself), discounted for an
    alternate and for a small sample.

    The share of prose counts twice on purpose: against the sample it says the page fits the
    template; by itself it says the region is an article's, and a region of short lines (a
    listing, a product's specifications) is where a wrapper's text most often differs from the
    gold.  Re-measure the ranking it gives: `forest eval --split dev --systems forest` prints the
    Spearman correlation of confidence with page F1."""
    size = min(1.0, n_words / max(1, pattern.terms))
    share = prose_share(blocks)
    prose = min(1.0, share / pattern.prose) if pattern.prose > 0 else 1.0
    sample = min(1.0, len(wrapper.sample) / MIN_SAMPLE_PAGES) if wrapper.sample else 1.0
    return round(size * prose * share * sample * (1.0 if rank == 0 else ALTERNATE_CONFIDENCE), 3)


def part_names(element: etree._Element) -> tuple[str, ...]:
    """A box's names, ``tag.class`` for each of its class names without a digit (none for an element
    without such a class): a site names the same box so on every page, and numbers what varies
    (``zn-has-18-containers``, ``post-1234``)."""
    names = element.get("class")
    return _names(element.tag, names) if names else ()


@functools.lru_cache(maxsize=1 << 12)
def _names(tag: str, names: str) -> tuple[str, ...]:
    # A page repeats its boxes' classes, and extraction reads every box of a region: each once.
    return tuple(f"{tag}.{name}" for name in names.split() if not _DIGIT.search(name))


def part_keys(nodes: Sequence[etree._Element]) -> set[str]:
    """The names of the boxes inside ``nodes`` (part_names): what learning keeps of the sample's regions."""
    keys: set[str] = set()
    for node in nodes:
        for element in node.iterdescendants(*PART_TAGS):
            keys.update(part_names(element))
    return keys


def unseen_parts(nodes: Sequence[etree._Element], seen: frozenset[str]) -> list[etree._Element]:
    """The outermost boxes inside ``nodes`` that hold text and none of whose names a sample region
    had (``Wrapper.parts``): what learning never saw in the site's articles (a slideshow, an
    embedded post, a widget of one page), so its patterns say nothing of it.

    Found in C (forest.classifier._walk.unseen_boxes; its reference is the walk over
    ``iterdescendants(*PART_TAGS)`` in tests/unit/test_native_unseen_boxes.py): every extraction with a
    wrapper reads its region's boxes, and a proxy for each cost a page-wide region a tenth of its parse.
    """
    return [box for node in nodes for box in unseen_boxes(node, PART_TAGS, seen, _names)]


def plausible(n_words: int, median_words: int) -> bool:
    """Whether a region of ``n_words`` words fits a pattern whose sample regions had a median of ``median_words``."""
    return n_words > 0 and MIN_REGION_SHARE * median_words <= n_words and not oversized(n_words, median_words)


def oversized(n_words: int, median_words: int) -> bool:
    """Whether a region of ``n_words`` words is past the drift bound of a pattern whose sample
    regions had a median of ``median_words``: a container of another template's whole page."""
    return n_words > MAX_REGION_RATIO * max(median_words, 50)


def to_html(nodes: Sequence[etree._Element]) -> str:
    return "".join(etree.tostring(n, encoding="unicode", method="html", with_tail=False) for n in nodes)


def words(blocks: Sequence[Block]) -> int:
    return sum(b.words for b in blocks)


def to_text(blocks: Sequence[Block]) -> str:
    return "\n".join(b.text for b in blocks)


def clean(blocks: Sequence[Block], template: frozenset[str], *, links: bool = False) -> list[Block]:
    """Drop the site's template blocks and blocks that are mostly link text (menus,
    "related" lists, tag clouds): an article's own sentences are not links.

    :param links: keep the link blocks: on a site where learning found the classifier contradicting
        J x U (``Wrapper.classifier_agrees``: a shop's, a catalogue's, a reference site's), a region's
        links are its items (a listing's product cards, a product's variants), which its gold keeps as it
        keeps the specifications.  Re-measure: `forest eval --split dev --systems forest` (wceb2026).
    """
    if links:
        return [b for b in blocks if b.text not in template]
    return [b for b in blocks if not b.is_navigation and b.text not in template]


def _took_most(region: Sequence[etree._Element], kept: Sequence[Block]) -> bool:
    """Whether the blocks left hold less than half of the region's text."""
    twice = 2 * sum(len(b.text) for b in kept)
    lengths = [text_lengths(node) for node in region]
    return twice < sum(raw for raw, _ in lengths) and twice < sum(normalized for _, normalized in lengths)


def _text_length(element: etree._Element) -> int:
    """Characters of text with whitespace runs counted as one space, as blocks count them: a page's
    indentation is not text, and counted raw it outweighed the text it surrounds."""
    return text_lengths(element)[1]


def raw_text(element: etree._Element) -> str:
    """The text of ``element``'s subtree, without its tail, as libxml2 writes it (in C: far quicker than joining itertext())."""
    text: str = etree.tostring(element, method="text", encoding="unicode", with_tail=False)
    return text


def _without_thread(nodes: list[etree._Element], thread: str) -> list[etree._Element]:
    """The region's nodes less the site's comments among them: a broad pattern
    (``//td[@class='content']/div``) selects the article and each comment beside it."""
    own = compiled(f"self::{thread[2:]}")
    return [node for node in nodes if not own(node)]


def cut(region: Sequence[etree._Element], exclusions: Sequence[str]) -> None:
    """Remove the learned boilerplate parts inside ``region``.

    Exclusions are single steps (patterns.refine), so one relative XPath per region
    node finds them all without scanning the rest of the page.  An exclusion that
    would take away most of the region's text is not boilerplate on this page (a
    wrapper div reused around the article) and is left alone.
    """
    if not exclusions or not region:
        return
    inside = " | ".join(f".{xpath}" for xpath in exclusions)
    found = [element for node in region for element in compiled(inside)(node)]
    if found:
        total = sum(_text_length(node) for node in region)
        for element in found:
            if element.getparent() is not None and _text_length(element) < total / 2:
                drop_element(element)


def cut_thread(region: Sequence[etree._Element], xpath: str) -> None:
    """Remove the site's comment thread (``Wrapper.comments``) from inside ``region``, whatever its length.

    Unlike an exclusion, a thread may hold more text than the article it follows (a post with
    three hundred comments), so it is not left alone when it outweighs the rest; learning
    checked that it is never around the article, and a region it empties fails the size check.
    """
    inside = compiled(f".{xpath}")
    for element in [element for node in region for element in inside(node)]:
        if element.getparent() is not None:
            drop_element(element)


def outermost(nodes: object) -> list[etree._Element]:
    """The elements among an XPath result that are not inside another of them, in document order."""
    if not isinstance(nodes, list):
        return []
    elements = [n for n in nodes if isinstance(n, etree._Element)]
    if len(elements) < 2:
        return elements
    chosen = set(elements)
    return [n for n in elements if not any(a in chosen for a in n.iterancestors())]


def number_elements(body: etree._Element | None) -> None:
    """The paper's @dfs positions, in the same depth-first order as patterns.dom.index_page."""
    if body is not None:
        for i, element in enumerate(body.iter(etree.Element)):
            element.set("dfs", str(i))
