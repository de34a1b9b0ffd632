"""Which of the shipped classifier models reads a page forest extracts cold.

The article model learned from the older datasets' news, blog and portal pages, whose gold keeps
an article and leaves out what surrounds it. The modern model learned from those and from today's
pages of every type (wcxb_dev's allowed pages), whose gold keeps a forum's posts, a service
page's every section, a listing's items. One decision rule did not serve both. Trained on every
page, the model kept a news article's key points, captions and teaser lists, so scrapinghub's
articles fell from 0.962 to 0.945. The article model alone kept too little of a product's or a
forum's page.

So the page picks the model. A page built for today's screens (it declares a viewport) that does
not call itself an article (``og:type``, a JSON-LD news or blog article type) is read by the modern
model. Every other page is read by the article model: an article, and any page older than the
viewport. Re-measure with ``python -m eval.classifier.modern`` (wcxb_dev per page type,
cross-validated by site) and ``python -m eval.classifier.modern --dataset scrapinghub``.

Learning reads its sample pages' labels with the article model (forest.learning.induce). Labels
from the modern model made the learned wrappers of wceb2026's dev sites worse (``forest eval
--split dev``). So where learning found the classifier contradicting J x U on a site
(``Wrapper.classifier_agrees``), that verdict is the article model's: a page of the site that no
pattern fits and that calls for the modern model is still read by it.
"""

from __future__ import annotations

from lxml import etree

from forest.classifier.features import og_type
from forest.classifier.page import MODERN_MODEL, load_default
from forest.classifier.predictor import BlockPredictor
from forest.metadata import json_ld_declares_article

__all__ = ["declares_viewport", "modern_non_article", "page_classifier", "shipped_model"]


def modern_non_article(root: etree._Element, html: str | bytes) -> bool:
    """Whether the page ``root`` (``forest.html.parse_html``'s tree of ``html``) is a page of today's
    web that does not declare itself an article: its head has a viewport ``<meta>`` and its
    ``og:type`` is not ``article``, nor does its JSON-LD (read from ``html``: parsing drops scripts)
    name a news or blog article type."""
    head = _head(root)
    if head is None or not _declares_viewport(head):
        return False
    return og_type(head) != "article" and not json_ld_declares_article(html)


def declares_viewport(root: etree._Element) -> bool:
    """Whether the page ``root`` (``forest.html.parse_html``'s tree) sizes itself for phones: a viewport
    ``<meta>`` in its head, without which a phone's browser lays the page out at a desktop's width."""
    head = _head(root)
    return head is not None and _declares_viewport(head)


def _head(root: etree._Element) -> etree._Element | None:
    return root.find("head") if root.tag == "html" else None


def _declares_viewport(head: etree._Element) -> bool:
    return any(_is_viewport(meta) for meta in head.iter("meta"))


def page_classifier(root: etree._Element, html: str | bytes) -> BlockPredictor:
    """The shipped model that reads the page ``root`` (:func:`modern_non_article` says which), loaded once per process.

    :raises ModelError: the model file is missing, corrupt or tampered with.
    """
    return shipped_model(modern=modern_non_article(root, html))


def shipped_model(*, modern: bool) -> BlockPredictor:
    """The shipped modern model, or the article model, loaded once per process.

    :raises ModelError: the model file is missing, corrupt or tampered with.
    """
    return load_default(MODERN_MODEL) if modern else load_default()


def _is_viewport(meta: etree._Element) -> bool:
    name = meta.get("name")
    return name is not None and name.strip().lower() == "viewport"
