"""Extract an article from one page with a site's Wrapper (or, failing that, from the page alone)."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from lxml import etree

from forest.classifier.model import BlockPrediction, TagClassifier
from forest.classifier.page import load_default
from forest.config import Settings
from forest.fields import extract_fields
from forest.html import drop_element, page_title, parse_html
from forest.limits import classifiable
from forest.model import Article
from forest.wrapper import Wrapper
from keywords.tfidf import tfidf_keywords
from patterns.dom import index_page
from patterns.ranking import candidate_nodes, region_score, score_page
from patterns.text import Block, text_blocks

# A match with fewer words than this share of the pattern's median region on the
# sample pages is taken for a wrong match (a teaser, an empty shell of another template).
MIN_REGION_SHARE = 0.1
# A match with more words than this multiple of the median is taken for drift: the
# pattern now selects a container of the whole page (a redesign, another template).
# Neutral on the site-level datasets between 5 and 8; 3 cost long articles.
MAX_REGION_RATIO = 5
# The classifier may prune at most this share of a wrapper region's text (see _prune).
# Swept 0.3/0.5/0.7 at k=5: 0.5 kept wceb2026's product pages and most of the gain on
# dragnet's comment threads.
MAX_PRUNED_SHARE = 0.5
# Fewer content words than this from the classifier alone is "found nothing".
MIN_CLASSIFIED_WORDS = 20


def extract(
    wrapper: Wrapper | None,
    data: bytes | str,
    *,
    url: str | None = None,
    settings: Settings | None = None,
    declared_charset: str | None = None,
    with_html: bool = True,
    classifier: TagClassifier | None = None,
) -> Article:
    """Extract the article of ``data``, a page of ``wrapper.site``.

    The wrapper's patterns are tried in order; the first whose region is plausible
    (its size within the learned statistics of the pattern) wins (``method="wrapper"``).
    With a ``classifier``, the blocks of that region it labels boilerplate are
    dropped, and when no pattern fits it extracts the page alone
    (``method="classifier"``).  Without one, when it finds nothing, or when it would
    reject most of a region FOREST finds on the page alone and the site's statistics
    find plausible, that region is the article (``method="page"``; FOREST with the
    page's frequent content words as keywords).  A note says why the wrapper was not used.

    :param with_html: also serialize the article region as HTML (``Article.html``);
        callers that only want the text skip that cost.
    :param classifier: the per-block classifier to blend in; by default the shipped
        model when ``settings.blend`` is on (see :func:`forest.classifier.load_default`).
    :raises ParseError: when ``data`` is not a readable HTML page.
    """
    settings = settings or Settings()
    root = parse_html(data, declared_charset=declared_charset, max_bytes=settings.max_page_bytes, source=url)
    # Title, author and date: the wrapper's learned field XPaths, else meta tags and JSON-LD (forest.fields).
    found = extract_fields(root, wrapper.fields if wrapper else {}, html=data)
    title = found["title"] or page_title(root)
    site = wrapper.site if wrapper else None
    if classifier is None and settings.blend:
        classifier = load_default()
    # Classified before any part is cut: the features look at the whole page.
    # A page too large for the classifier's features is extracted without it (forest.limits).
    predictions = classifier.predict_blocks(root) if classifier is not None and classifiable(root) else None
    if wrapper is not None:
        for rank, pattern in enumerate(wrapper.patterns):
            nodes, blocks = wrapper_region(root, wrapper, pattern.xpath)
            if not nodes:
                continue
            if predictions is not None and wrapper.prune:
                blocks = _prune(blocks, predictions) or blocks
            words = _words(blocks)
            if _plausible(words, pattern.terms):
                confidence = min(1.0, words / max(1, pattern.terms)) * (1.0 if rank == 0 else 0.8)
                html = _html(nodes) if with_html else ""
                article = Article(url, site, title, _text(blocks), html, pattern.xpath, "wrapper", round(confidence, 3))
                return replace(article, author=found["author"], date=found["date"])
    notes = ("no wrapper pattern matched this page within the site's learned region sizes",) if wrapper else ()
    # The single-page region costs a J x U pass: found only when it can change the outcome.
    region, blocks = _single_page(root, settings) if wrapper is not None or predictions is None else ([], [])
    if predictions is not None and not _region_outranks_classifier(blocks, predictions, wrapper):
        content = [p.block for p in predictions if p.is_content]
        if _words(content) >= MIN_CLASSIFIED_WORDS:
            article = Article(url, site, title, _text(content), "", None, "classifier", 0.5, notes=notes)
            return replace(article, author=found["author"], date=found["date"])
        if wrapper is None:
            region, blocks = _single_page(root, settings)
    if not region:
        return Article(url, site, title, "", "", None, "none", 0.0, author=found["author"], date=found["date"])
    html = _html(region) if with_html else ""
    article = Article(url, site, title, _text(blocks), html, None, "page", 0.3, notes=notes)
    return replace(article, author=found["author"], date=found["date"])


def _region_outranks_classifier(blocks: Sequence[Block], predictions: Sequence[BlockPrediction], wrapper: Wrapper | None) -> bool:
    """Whether FOREST's single-page region beats the classifier on a page no wrapper pattern fits.

    It does when the region's size is plausible for the site (its learned statistics
    say so; a site with no wrapper has none, and the classifier decides) and the
    classifier would still drop most of it: the same sign that the page is unlike the
    classifier's training pages as inside a wrapper's region (see _prune).  Product
    and reference pages fall here, with specifications and code the classifier takes
    for boilerplate.
    """
    return (
        wrapper is not None
        and bool(wrapper.patterns)
        and _plausible(_words(blocks), wrapper.patterns[0].terms)
        and _prune(blocks, predictions) is None
    )


def wrapper_region(root: etree._Element, wrapper: Wrapper, xpath: str) -> tuple[list[etree._Element], list[Block]]:
    """The region ``xpath`` (one of ``wrapper``'s patterns) selects on a parsed page, and its
    text blocks once the site's learned boilerplate is gone (see _cut and _clean).

    The exclusions are cut out of ``root`` itself.
    """
    body = root.find("body")
    # The paper's @dfs positions count the page as served: numbered at the first call, before any cut.
    if body is not None and body.get("dfs") is None and any("@dfs" in p.xpath for p in wrapper.patterns):
        _number_elements(body)
    nodes = _outermost(root.xpath(xpath))
    if not nodes:
        return [], []
    _cut(nodes, wrapper.exclusions)
    return nodes, _clean(text_blocks(nodes), wrapper.template_blocks)


def boilerplate_texts(predictions: Sequence[BlockPrediction]) -> frozenset[str]:
    """The texts of the blocks the classifier labels boilerplate.

    Matched by text, not position: the region's blocks are cut from a tree the
    classifier saw whole, and a text it rejects once it rejects everywhere on the page.
    """
    return frozenset(p.block.text for p in predictions if not p.is_content)


def _prune(blocks: Sequence[Block], predictions: Sequence[BlockPrediction]) -> list[Block] | None:
    """The region's blocks without those the classifier labels boilerplate, or None when
    that would drop more than MAX_PRUNED_SHARE of the region's text.

    Its own labels, not only its surest ones: inside a region the wrapper already
    chose, its mistakes cost less, and at k=5 its labels beat a 0.9 threshold on every
    site-level dataset (cleanportaleval 0.900 -> 0.907, dragnet 0.844 -> 0.855,
    wceb2026 0.576 -> 0.608).  When it would drop most of the region's text, the page is
    unlike what the classifier was trained on (a product page, a listing) and the
    region is to be trusted as it is.
    """
    dropped = boilerplate_texts(predictions)
    kept = [b for b in blocks if b.text not in dropped]
    if sum(len(b.text) for b in kept) < (1 - MAX_PRUNED_SHARE) * sum(len(b.text) for b in blocks):
        return None
    return kept


def _plausible(words: int, median_words: int) -> bool:
    """Whether a region of ``words`` words fits a pattern whose sample regions had a median of ``median_words``."""
    return words > 0 and MIN_REGION_SHARE * median_words <= words <= MAX_REGION_RATIO * max(median_words, 50)


def _html(nodes: Sequence[etree._Element]) -> str:
    return "".join(etree.tostring(n, encoding="unicode", method="html", with_tail=False) for n in nodes)


def _words(blocks: Sequence[Block]) -> int:
    return sum(b.text.count(" ") + 1 for b in blocks)  # block text is whitespace-normalized


def _text(blocks: Sequence[Block]) -> str:
    return "\n".join(b.text for b in blocks)


def _clean(blocks: Sequence[Block], template: frozenset[str]) -> list[Block]:
    """Drop the site's template blocks and blocks that are mostly link text (menus,
    "related" lists, tag clouds): an article's own sentences are not links."""
    return [
        b
        for b in blocks
        if not b.is_navigation and b.text not in template
    ]


def _text_length(element: etree._Element) -> int:
    return len(etree.tostring(element, method="text", encoding="unicode", with_tail=False))


def _cut(region: Sequence[etree._Element], exclusions: Sequence[str]) -> None:
    """Remove the learned boilerplate parts inside ``region``.

    Exclusions are single steps (patterns.refine), so one relative XPath per region
    node finds them all without scanning the rest of the page.  An exclusion that
    would take away most of the region's text is not boilerplate on this page (a
    wrapper div reused around the article) and is left alone.
    """
    if not exclusions or not region:
        return
    inside = " | ".join(f".{xpath}" for xpath in exclusions)
    found = [element for node in region for element in node.xpath(inside)]
    if found:
        total = sum(_text_length(node) for node in region)
        for element in found:
            if element.getparent() is not None and _text_length(element) < total / 2:
                drop_element(element)


def _outermost(nodes: object) -> list[etree._Element]:
    if not isinstance(nodes, list):
        return []
    elements = [n for n in nodes if isinstance(n, etree._Element)]
    if len(elements) < 2:
        return elements
    chosen = set(elements)
    return [n for n in elements if not any(a in chosen for a in n.iterancestors())]


def _number_elements(body: etree._Element | None) -> None:
    # The paper's @dfs positions, in the same depth-first order as patterns.dom.index_page.
    if body is not None:
        for i, element in enumerate(body.iter(etree.Element)):
            element.set("dfs", str(i))


def _single_page(root: etree._Element, settings: Settings) -> tuple[list[etree._Element], list[Block]]:
    """FOREST's region of the page alone and its text blocks, navigation blocks dropped."""
    region = _best_single_page_region(root, settings)
    return region, _clean(text_blocks(region), frozenset()) if region else []


def _best_single_page_region(root: etree._Element, settings: Settings) -> list[etree._Element]:
    """FOREST on one page: the node with the highest J x U for the page's most frequent
    content words (tf-idf over a one-page sample degrades to term frequency).

    The page's title and description are not used as keywords here: their few terms
    sit densely in the headline, and J x U then picks the headline alone.
    """
    body = root.find("body")
    if body is None:
        return []
    index = index_page(body, with_keys=False)
    text = " ".join(t for terms in index.terms for t in terms)
    page = score_page(index, tfidf_keywords([text], k=settings.n_keywords)[0])
    candidates = candidate_nodes(page)
    if not candidates:
        return []
    best = max(candidates, key=lambda i: (region_score(page, [i]), -i))
    return [index.elements[best]]
