"""Text blocks of a DOM region: the unit that template removal and output work on."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from collections.abc import Iterable, Sequence

from lxml import etree

from patterns._order import forget_order

# Elements that start a new line of text.  Everything else (a, span, em, ...) is
# inline and joins the text around it.
BLOCK_TAGS = frozenset(
    "address article aside blockquote body br caption center dd details dialog div dl dt fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main nav ol p pre section "
    "summary table tbody td tfoot th thead tr ul".split()
)


# A block of at least this many words that is not navigation reads as a sentence: menus,
# date lists and dropdowns (an `//option` region) have none.
PROSE_WORDS = 10
# Blocks whose text is more than this share link text are navigation, not prose.
# (Re-measure: `forest eval --split dev --systems forest`.)
MAX_LINK_SHARE = 0.7


@dataclass(frozen=True, slots=True)
class Block:
    """One line of text: the inline content between two block boundaries."""

    text: str
    link_chars: int  # characters of the text that sit inside <a> elements

    @property
    def is_navigation(self) -> bool:
        """Mostly link text: a menu, a "related" list, a tag cloud."""
        return self.link_chars > MAX_LINK_SHARE * len(self.text)

    @property
    def words(self) -> int:
        return self.text.count(" ") + 1  # the text is whitespace-normalized

    @property
    def is_prose(self) -> bool:
        """Sentence-like: long enough and mostly not links."""
        return not self.is_navigation and self.words >= PROSE_WORDS


def prose_share(blocks: Sequence[Block]) -> float:
    """The share of the blocks' words that sit in sentence-like blocks (0 for no text)."""
    total = sum(b.words for b in blocks)
    return sum(b.words for b in blocks if b.is_prose) / total if total else 0.0


# Block boundaries and link edges, marked in the text the stylesheet writes: characters of
# Unicode's private use area, which no page's text uses in earnest.
_BREAK, _LINK_OPEN, _LINK_CLOSE = "\ue000", "\ue001", "\ue002"
_MARKS = re.compile("([\ue001\ue002])")


_XSL = "http://www.w3.org/1999/XSL/Transform"


@functools.lru_cache(maxsize=256)
def _stylesheet(skip: tuple[str, ...] = ()) -> etree.XSLT:
    """The walk that writes a region's text with block and link marks, skipping the ``skip`` patterns.

    libxslt walks the region in C, and cuts a wrapper's exclusions in the same pass (an
    empty template per exclusion, above every other): extraction's hottest step.  Compiled
    once per set of exclusions.

    :raises ValueError: when a skip pattern is not an XSLT match pattern.
    """
    sheet = etree.Element(f"{{{_XSL}}}stylesheet", version="1.0", nsmap={"xsl": _XSL})
    etree.SubElement(sheet, f"{{{_XSL}}}output", method="text", encoding="utf-8")
    for name, open_mark, close_mark in (("|".join(sorted(BLOCK_TAGS)), _BREAK, _BREAK), ("a", _LINK_OPEN, _LINK_CLOSE)):
        template = etree.SubElement(sheet, f"{{{_XSL}}}template", match=name)
        template.text = open_mark
        etree.SubElement(template, f"{{{_XSL}}}apply-templates").tail = close_mark
    for pattern in skip:
        etree.SubElement(sheet, f"{{{_XSL}}}template", match=pattern, priority="10")
    try:
        return etree.XSLT(sheet)
    except etree.XSLTParseError as exc:
        raise ValueError(f"not an XSLT match pattern among {skip!r}: {exc}") from exc


def text_blocks(nodes: Iterable[etree._Element], skip: tuple[str, ...] = ()) -> list[Block]:
    """The text of ``nodes`` as whitespace-normalized blocks, in document order.

    A block ends wherever a block-level element starts or ends; the text inside ``<a>``
    elements counts as its link text.

    :param skip: XSLT match patterns (``div[@class='share']``, ``div[@id='x']/div/p``) of
        elements whose text is left out, as if cut from the tree.
    :raises ValueError: when a skip pattern is not a match pattern.
    """
    blocks: list[Block] = []
    transform = _stylesheet(skip)
    for node in nodes:
        depth = 0  # <a> elements open here: a link may span block boundaries
        try:
            written = str(transform(node))
        finally:
            # libxslt leaves its own numbering of this subtree's elements, which XPath would then
            # sort the page's nodes by: a later union of learning's or a field's XPath came back
            # out of document order.
            forget_order(node)
        for line in written.split(_BREAK):
            if not line or line.isspace():  # between two block boundaries: most lines (no mark is a space)
                continue
            if depth or _LINK_OPEN in line or _LINK_CLOSE in line:
                link_chars = 0
                parts = _MARKS.split(line)
                for i, part in enumerate(parts):
                    if i % 2:
                        depth = depth + 1 if part == _LINK_OPEN else max(0, depth - 1)
                    elif depth:
                        link_chars += len(part.strip())
                line = "".join(parts[::2])
            else:
                link_chars = 0
            text = " ".join(line.split())
            if text:
                blocks.append(Block(text, min(link_chars, len(text))))
    return blocks
