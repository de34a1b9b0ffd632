"""A scored view of one page's DOM: elements in depth-first order with their terms and pattern keys."""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from collections.abc import Iterable, Iterator

from lxml import etree

from keywords.tokenize import tokenize

# Attributes that name a node's role in the template.  Everything else (style,
# href, data-* ids, event handlers) varies per page or says nothing about layout.
IDENTIFYING_ATTRIBUTES = ("id", "class", "itemprop", "role")
# A tag usable as an XPath name test.  lxml's HTML parser keeps tags such as 'a"b' or
# 'p:q' from broken markup; an XPath naming them does not compile or names an undefined
# namespace prefix, so such elements get no keys (issue 15: a fuzzed page failed learning).
_XPATH_NAME = re.compile(r"[^\W\d][\w.\-]*\Z")
# Characters XML 1.0 does not allow, which lxml refuses in an XPath's string: an attribute of a page may
# hold them (a class with a form feed), and a step quoting it would end learning in a ValueError.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# How far up a node without attributes looks for an ancestor that has some; the
# prototype's `//div[@id='story']/p` descriptions came from this distance or less.
ANCHOR_DISTANCE = 3


@dataclass(slots=True)
class PageIndex:
    """Everything pattern ranking needs to know about one page, computed once.

    Element ``i`` is the i-th element of ``body`` in document (depth-first) order;
    its subtree is the index range ``[i, end[i]]``.
    """

    elements: list[etree._Element]
    parent: list[int]
    end: list[int]
    depth: list[int]
    terms: list[list[str]]  # each element's own terms: its text and its children's tails
    keys: dict[str, list[int]] = field(default_factory=dict)  # pattern XPath -> matching elements
    n_terms: list[int] = field(default_factory=list)  # len(terms[i]), counted once: every scorer reads it
    # The keys that are one attributed step, with their elements, listed once (patterns.refine.single_steps),
    # and the number of keys they were listed from.
    single: tuple[int, list[tuple[str, list[int]]]] | None = field(default=None, repr=False, compare=False)
    # Each element's position in ``elements``, made when first asked for (:meth:`positions`).
    _positions: dict[etree._Element, int] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.n_terms:
            self.n_terms = [len(t) for t in self.terms]

    def positions(self) -> dict[etree._Element, int]:
        """Each element's position in ``elements``, made once: learning's label sums and its check of
        the classifier's labels each looked up a page's labelled elements in a dict of thousands."""
        if self._positions is None:
            self._positions = {element: i for i, element in enumerate(self.elements)}
        return self._positions

    def subtree_sums(self, own: list[int]) -> list[int]:
        """Per-element totals of ``own`` over each element's whole subtree."""
        sums = list(own)
        parent = self.parent
        for i in range(len(sums) - 1, 0, -1):
            sums[parent[i]] += sums[i]
        return sums

    def page_terms(self) -> list[str]:
        """All the page's terms in document order: what keyword selection reads (keywords.tfidf.tfidf_terms)."""
        return [t for terms in self.terms for t in terms]

    def keyword_counts(self, keywords: frozenset[str]) -> list[int]:
        """Occurrences of ``keywords`` among each element's own terms."""
        return [sum(1 for t in terms if t in keywords) if terms else 0 for terms in self.terms]

    def outermost(self, matches: Iterable[int]) -> list[int]:
        """The matches (given in document order) that are not inside another match."""
        kept: list[int] = []
        last_end = -1
        for i in matches:
            if i > last_end:
                kept.append(i)
                last_end = self.end[i]
        return kept


def index_page(body: etree._Element, *, with_keys: bool = True, paths: bool = False) -> PageIndex:
    """Walk ``body`` once: depth-first order, parents, subtree ranges, own terms, pattern keys.

    :param paths: describe nodes by their root-to-node tag path (the ABSPATHS ablation)
        instead of by tag, identifying attributes and anchored paths.
    """
    elements: list[etree._Element] = list(body.iter(etree.Element))  # depth-first, in C
    position = {element: i for i, element in enumerate(elements)}
    parent = [-1, *(position[element.getparent()] for element in elements[1:])]
    depth = [2]  # body sits under html (level 1)
    for up in parent[1:]:
        depth.append(depth[up] + 1)
    terms: list[list[str]] = [[] for _ in elements]
    for i, element in enumerate(elements):
        text, tail = element.text, element.tail
        # Most texts between tags are the markup's indentation: no terms.
        if text and not text.isspace():
            terms[i].extend(tokenize(text))
        if i and tail and not tail.isspace():
            terms[parent[i]].extend(tokenize(tail))
    end = list(range(len(elements)))
    for i in range(len(elements) - 1, 0, -1):
        if end[i] > end[parent[i]]:
            end[parent[i]] = end[i]
    page = PageIndex(elements, parent, end, depth, terms)
    if with_keys:
        keys: dict[str, list[int]] = {}
        if paths:
            for i, key in _path_keys(page):
                keys.setdefault(key, []).append(i)
        else:
            keys = _structural_keys(page)
        page.keys = keys
    return page


def xpath_literal(value: str) -> str | None:
    """``value`` quoted for XPath 1.0, or None when it holds both kinds of quote or a character XML does not allow."""
    if _NOT_XML.search(value):
        return None
    if "'" not in value:
        return f"'{value}'"
    if '"' not in value:
        return f'"{value}"'
    return None


def element_steps(element: etree._Element) -> tuple[str, ...]:
    """XPath steps that select ``element`` by its tag and each identifying attribute."""
    return _element_steps(element)[0]


def element_anchors(element: etree._Element) -> tuple[str, ...]:
    """The steps of :func:`element_steps` an anchored path may start from: the exact attribute values, no token test."""
    return _element_steps(element)[1]


def _element_steps(element: etree._Element) -> tuple[tuple[str, ...], tuple[str, ...]]:
    tag = element.tag
    if not isinstance(tag, str) or not element.attrib:
        return (), ()
    return _steps(tag, *map(element.get, IDENTIFYING_ATTRIBUTES))


# A page's elements share a few dozen (tag, attributes) combinations: their steps are
# written once (learning indexes every element of every sample page).
@functools.lru_cache(maxsize=1 << 14)
def _steps(tag: str, *values: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The steps of an element with ``tag`` and IDENTIFYING_ATTRIBUTES ``values``, and those of
    them an anchored path may start from (exact values: no token test)."""
    if not _XPATH_NAME.match(tag):
        return (), ()
    steps: list[str] = []
    anchors: list[str] = []
    for name, value in zip(IDENTIFYING_ATTRIBUTES, values):
        if not value or not value.strip() or len(value) > 120:
            continue
        literal = xpath_literal(value)
        if literal is None:
            continue
        anchors.append(f"{tag}[@{name}={literal}]")
        steps.append(anchors[-1])
        if name == "class":
            # Every token, even of a one-token class: the token step must select every
            # element that carries the token, or the page index and XPath disagree.
            steps.extend(
                f"{tag}[contains(concat(' ', normalize-space(@class), ' '), ' {token} ')]"
                for token in dict.fromkeys(value.split())
                if "'" not in token
            )
    return tuple(steps), tuple(anchors)


@functools.lru_cache(maxsize=1 << 14)
def _own_keys(tag: str, *values: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An element's own keys (its tag, its steps) and its anchor steps, as :func:`_steps`."""
    steps, anchors = _steps(tag, *values)
    return (f"//{tag}", *(f"//{step}" for step in steps)), anchors


def _structural_keys(index: PageIndex) -> dict[str, list[int]]:
    """Each element's keys (key -> elements, in document order): its tag, a step per identifying
    attribute, and anchored paths from attributed ancestors close by."""
    elements, parent = index.elements, index.parent
    # Some 3,000 keys a page, learning's hottest loop: a defaultdict makes no list for a key it has.
    keys: defaultdict[str, list[int]] = defaultdict(list)
    names: list[str | None] = []  # each element's tag, None where XPath cannot name it
    anchor_steps: list[tuple[str, ...]] = []
    nameable: dict[str, bool] = {}  # a page has a few dozen tags: each is matched once
    for i, element in enumerate(elements):
        tag = element.tag
        usable = nameable.get(tag)
        if usable is None:
            usable = nameable[tag] = _XPATH_NAME.match(tag) is not None
        if not usable:
            names.append(None)
            anchor_steps.append(())
            continue
        names.append(tag)
        own, anchors = _own_keys(tag, *map(element.get, IDENTIFYING_ATTRIBUTES)) if element.attrib else _own_keys(tag)
        anchor_steps.append(anchors)
        for key in own:
            keys[key].append(i)
        # Anchored paths: //div[@id='story']/div/p for every attributed ancestor close by.
        path = tag
        up = parent[i]
        for _ in range(ANCHOR_DISTANCE):
            if up < 0:
                break
            for step in anchor_steps[up]:
                keys[f"//{step}/{path}"].append(i)
            above = names[up]
            if above is None:
                break
            path = f"{above}/{path}"
            up = parent[up]
    return dict(keys)


def _path_keys(index: PageIndex) -> Iterator[tuple[int, str]]:
    paths: list[str] = []
    for i, element in enumerate(index.elements):
        up = index.parent[i]
        path = f"{paths[up]}/{element.tag}" if up >= 0 else f"/html/{element.tag}"
        # Below a tag XPath cannot name, no path is usable ('' marks it for the descendants).
        if (up >= 0 and not paths[up]) or not _XPATH_NAME.match(element.tag):
            path = ""
        paths.append(path)
        if path:
            yield i, path
