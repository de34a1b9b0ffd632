"""A wrapper's XPaths, compiled once: each serves every page of its site."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from lxml import etree

__all__ = ["by_id", "compiled", "quick_form"]

# An XPath that starts at an element by its id: libxml2 registers HTML ids, so id('x') is a
# lookup where //div[@id='x'] tests every div of a freshly parsed page (0.9 against 17
# microseconds on an l3s_gn1 page).  It finds the first element with the id only: where that
# one does not fit (a skip link <a id="content"> before <div id="content">), compiled() scans.
# Not for an id with a space (id() would read it as two), nor before a positional predicate
# (//div[@id='x'][2] counts among siblings; self::div[2] would find nothing).
_ID_STEP = re.compile(r"""^//([A-Za-z][\w-]*)\[@id=('[^'\s]+'|"[^"\s]+")\](?=/|\[[.@]|$)""")


def by_id(xpath: str) -> str:
    """``xpath`` with a leading ``//tag[@id='x']`` step written as ``id('x')/self::tag``."""
    return _ID_STEP.sub(lambda m: f"id({m.group(2)})/self::{m.group(1)}", xpath, count=1)


# Predicates that test, never count: a leading //tag step with only these selects what
# /descendant::tag selects (a position would count among siblings in one, the whole page in the other).
_TESTS = ("@", ".", "contains(", "starts-with(", "not(")


def quick_form(xpath: str) -> str:
    """``xpath`` with its leading step in the quickest form that selects the same elements: an
    id lookup (:func:`by_id`), else one descendant step for a leading ``//tag``.

    libxml2 reads ``//tag`` as every node's children, ``/descendant::tag`` as one walk of the
    page: 0.14 against 0.11 ms on a freshly parsed dragnet page (the median over its wrapper
    pages whose pattern has no id).
    """
    if "@dfs" in xpath:
        # The paper's patterns name elements by position (forest.region.number_elements); with
        # an id shared by two elements, id() would read only the first.  Read as written.
        return xpath
    looked_up = by_id(xpath)
    if looked_up != xpath or not xpath.startswith("//"):
        return looked_up
    predicates = _leading_predicates(xpath)
    if predicates is None or not all(p.lstrip().startswith(_TESTS) for p in predicates):
        return xpath
    return "/descendant::" + xpath[2:]


def _leading_predicates(xpath: str) -> list[str] | None:
    """The predicates of ``xpath``'s leading ``//name`` step (None when the step is not one)."""
    i = 2
    while i < len(xpath) and (xpath[i].isalnum() or xpath[i] in "-_*:"):
        i += 1
    if i == 2:
        return None
    predicates = []
    while i < len(xpath) and xpath[i] == "[":
        depth, quote, start = 0, "", i + 1
        for j in range(i, len(xpath)):
            char = xpath[j]
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == "[":
                depth += 1
            elif char == "]":
                depth -= 1
                if depth == 0:
                    predicates.append(xpath[start:j])
                    i = j + 1
                    break
        else:
            return None  # unbalanced: left to XPath's own error
    return predicates if i == len(xpath) or xpath[i] in "/| " else None


@functools.lru_cache(maxsize=1024)
def compiled(xpath: str) -> Callable[[etree._Element], Any]:
    """``xpath`` compiled, its leading step in its quickest form (:func:`quick_form`); an id
    lookup that finds nothing is followed by the XPath as written.

    :raises etree.XPathSyntaxError: for a malformed XPath (stored wrappers are checked at load:
        forest.wrapper_schema).
    """
    form = quick_form(xpath)
    quick: Callable[[etree._Element], Any] = etree.XPath(form)
    if not form.startswith("id("):  # the same elements as written, always
        return quick
    written = etree.XPath(xpath)
    return lambda root: quick(root) or written(root)
