"""Bounds on what one page, JSON document or URL may cost, checked before the expensive step runs."""

from __future__ import annotations

import json
import re
from typing import Any

from forest.errors import ParseError

# Start tags a page may have.  The largest page of the shared datasets has 14,396
# (`python -m eval.fuzz --census`, wceb2026); 100,000 leaves 7x headroom, and a page
# of that size parses, learns and extracts in a few seconds and well under 1 GB,
# where 1,000,000 sibling <p> took 145 s and 22 GB (issue 15, case 7).
MAX_START_TAGS = 100_000
# Attributes one element may carry.  libxml2 checks each new attribute against the
# element's others, so parsing is quadratic in them: 40,000 attributes take 1.6 s,
# 100,000 took 17 s (issue 15, case 8).  Real elements carry under 50.
MAX_ATTRIBUTES = 1_000
# A tag shorter than this cannot hold MAX_ATTRIBUTES attributes (each needs at least
# a space and a letter), so only longer ones are counted.
_LONG_TAG = 2 * MAX_ATTRIBUTES
# Nesting of a JSON document read from a page (JSON-LD) or a stored wrapper.  JSON-LD
# nests 3-6 deep and a wrapper 3; Python's json recursion would fail near 1,000 and
# any recursive walk of the result near the same depth.
MAX_JSON_DEPTH = 64
# Text blocks the per-block classifier is run on.  Its features take about 30 KB a
# block at their peak (20,000 sibling blocks: 670 MB peak RSS, 1.2 s), so a page with
# more blocks is extracted without it rather than with 1 GB or more of features.
MAX_CLASSIFIER_BLOCKS = 20_000

_START_TAG = re.compile(r"<[a-zA-Z]")
# A tag with no '<' or '>' inside over _LONG_TAG characters.  [^<>] keeps the scan
# linear: a run without '>' full of '<a' would otherwise be rescanned from every '<a'.
_LONG_START_TAG = re.compile(rf"<[a-zA-Z][^<>]{{{_LONG_TAG},}}")

# C0 controls other than tab, LF and CR, lone surrogates and the two non-characters
# U+FFFE and U+FFFF: XML 1.0 forbids them, and lxml refuses any text holding one.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by a space.

    lxml parses a form feed or a stray control character in HTML, but refuses the same
    character when forest writes text back into the tree (moving a tail), so they go first.
    A space, because HTML treats a form feed as whitespace and browsers show controls as nothing.
    """
    return _NOT_XML.sub(" ", text) if _NOT_XML.search(text) else text


def check_markup(text: str, *, source: str | None = None) -> None:
    """Refuse markup whose parse alone would cost far more than any real page's.

    :raises ParseError: over MAX_START_TAGS start tags, or an element with over MAX_ATTRIBUTES attributes.
    """
    # str.count is a fast upper bound; the regex only runs on pages that might be over.
    if text.count("<") > MAX_START_TAGS:
        tags = sum(1 for _ in _START_TAG.finditer(text))
        if tags > MAX_START_TAGS:
            raise ParseError(
                f"page has {tags:,} elements, over the {MAX_START_TAGS:,} forest reads (forest.limits.MAX_START_TAGS)",
                source=source,
            )
    for match in _LONG_START_TAG.finditer(text):
        attributes = len(match.group().split()) - 1
        if attributes > MAX_ATTRIBUTES:
            raise ParseError(
                f"an element has {attributes:,} attributes, over the {MAX_ATTRIBUTES:,} forest reads "
                "(forest.limits.MAX_ATTRIBUTES)",
                source=source,
            )


def json_depth(value: Any) -> int:
    """How deep ``value`` nests (a scalar is 0, ``[1]`` is 1), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def loads_json(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, strict: bool = True) -> Any:
    """``json.loads`` that refuses documents nested deeper than ``max_depth``.

    :param strict: as json.loads: False lets raw control characters into strings.

    :raises ValueError: for invalid JSON or nesting over ``max_depth`` (never RecursionError).
    """
    try:
        value = json.loads(text, strict=strict)
    except RecursionError as exc:
        raise ValueError(f"JSON nested deeper than Python can read (limit {max_depth})") from exc
    except TypeError as exc:
        raise ValueError(str(exc)) from exc
    depth = json_depth(value)
    if depth > max_depth:
        raise ValueError(f"JSON nested {depth} deep, over the limit of {max_depth}")
    return value


def classifiable(root: Any) -> bool:
    """Whether the per-block classifier may run on a parsed page: at most MAX_CLASSIFIER_BLOCKS elements.

    Elements bound blocks from above closely enough (a block needs an element to own it, and
    most own one or two), and counting them costs about 1 ms per 10,000.
    """
    for count, _ in enumerate(root.iter(), 1):
        if count > MAX_CLASSIFIER_BLOCKS:
            return False
    return True
