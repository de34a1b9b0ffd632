"""Extract an article from one page with a site's Wrapper (or, failing that, from the page alone)."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from lxml import etree

from forest.classifier.model import BlockPrediction, TagClassifier
from forest.classifier.page import load_default
from forest.config import Settings
from forest.fields import extract_fields
from forest import region
from forest.html import page_title, parse_html
from forest.model import Article
from forest.wrapper import Wrapper
from keywords.tfidf import tfidf_keywords
from patterns.dom import index_page
from patterns.ranking import candidate_nodes, region_score, score_page
from patterns.text import Block, text_blocks

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
    predictions = classifier.predict_blocks(root) if classifier is not None else None
    if wrapper is not None:
        for rank, pattern in enumerate(wrapper.patterns):
            nodes, blocks = region.select(root, wrapper, pattern.xpath)
            if not nodes:
                continue
            if predictions is not None and wrapper.prune:
                blocks = _prune(blocks, predictions) or blocks
            words = region.words(blocks)
            if region.plausible(words, pattern.terms):
                confidence = min(1.0, words / max(1, pattern.terms)) * (1.0 if rank == 0 else 0.8)
                html = region.to_html(nodes) if with_html else ""
                article = Article(url, site, title, region.to_text(blocks), html, pattern.xpath, "wrapper", round(confidence, 3))
                return replace(article, author=found["author"], date=found["date"])
    notes = ("no wrapper pattern matched this page within the site's learned region sizes",) if wrapper else ()
    # The single-page region costs a J x U pass: found only when it can change the outcome.
    found_region, blocks = _single_page(root, settings) if wrapper is not None or predictions is None else ([], [])
    if predictions is not None and not _region_outranks_classifier(blocks, predictions, wrapper):
        content = [p.block for p in predictions if p.is_content]
        if region.words(content) >= MIN_CLASSIFIED_WORDS:
            article = Article(url, site, title, region.to_text(content), "", None, "classifier", 0.5, notes=notes)
            return replace(article, author=found["author"], date=found["date"])
        if wrapper is None:
            found_region, blocks = _single_page(root, settings)
    if not found_region:
        return Article(url, site, title, "", "", None, "none", 0.0, author=found["author"], date=found["date"])
    html = region.to_html(found_region) if with_html else ""
    article = Article(url, site, title, region.to_text(blocks), html, None, "page", 0.3, notes=notes)
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
        and region.plausible(region.words(blocks), wrapper.patterns[0].terms)
        and _prune(blocks, predictions) is None
    )


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


def _single_page(root: etree._Element, settings: Settings) -> tuple[list[etree._Element], list[Block]]:
    """FOREST's region of the page alone and its text blocks, navigation blocks dropped."""
    nodes = _best_single_page_region(root, settings)
    return nodes, region.clean(text_blocks(nodes), frozenset()) if nodes else []


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
