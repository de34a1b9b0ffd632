"""A wrapper's XPaths, compiled once: each serves every page of its site."""

from __future__ import annotations

import functools
import re

from lxml import etree

__all__ = ["by_id", "compiled"]

# An XPath that starts at an element by its id: libxml2 registers HTML ids, so id('x') is a
# lookup where //div[@id='x'] tests every div of a freshly parsed page (0.9 against 17
# microseconds on an l3s_gn1 page).  It finds the first element with the id: the outermost,
# as a region is, when ids nest; two unrelated elements sharing an id is invalid HTML.
# Not for an id with a space (id() would read it as two), nor before a positional predicate
# (//div[@id='x'][2] counts among siblings; self::div[2] would find nothing).
_ID_STEP = re.compile(r"""^//([A-Za-z][\w-]*)\[@id=('[^'\s]+'|"[^"\s]+")\](?=/|\[[.@]|$)""")


def by_id(xpath: str) -> str:
    """``xpath`` with a leading ``//tag[@id='x']`` step written as ``id('x')/self::tag``."""
    return _ID_STEP.sub(lambda m: f"id({m.group(2)})/self::{m.group(1)}", xpath, count=1)


@functools.lru_cache(maxsize=1024)
def compiled(xpath: str) -> etree.XPath:
    """``xpath`` compiled, its leading id step read as a lookup (:func:`by_id`).

    :raises etree.XPathSyntaxError: for a malformed XPath (stored wrappers are checked at load:
        forest.wrapper_schema).
    """
    return etree.XPath(by_id(xpath))
