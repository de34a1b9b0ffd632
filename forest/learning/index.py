"""Learning's page index of a sample page, built in one native pass (forest/learning/_name.pyx)."""

from __future__ import annotations

from lxml import etree

from forest.learning._name import index_body
from patterns.dom import PageIndex, index_page

__all__ = ["page_index"]


def page_index(body: etree._Element, *, with_keys: bool = True, paths: bool = False) -> PageIndex:
    """:func:`patterns.dom.index_page` of ``body``, equal field for field and key for key (its reference):
    the walk and the structural keys run in C instead of one Python attribute read per element.

    :param paths: the ABSPATHS ablation's keys (root-to-node tag paths): built by the reference.
    """
    if paths:
        return index_page(body, with_keys=with_keys, paths=True)
    elements, parent, end, depth, terms, keys = index_body(body, with_keys)
    return PageIndex(elements, parent, end, depth, terms, keys)
