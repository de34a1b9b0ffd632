"""Text blocks of a DOM region: the unit that template removal and output work on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from lxml import etree

# Elements that start a new line of text.  Everything else (a, span, em, ...) is
# inline and joins the text around it.
BLOCK_TAGS = frozenset(
    "address article aside blockquote body br caption center dd details dialog div dl dt fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main nav ol p pre section "
    "summary table tbody td tfoot th thead tr ul".split()
)


# Blocks whose text is more than this share link text are navigation, not prose.
# Swept over 0.5, 0.7, 0.9 on the site-level datasets: 0.7 was best or within 0.003.
MAX_LINK_SHARE = 0.7


@dataclass(frozen=True, slots=True)
class Block:
    """One line of text: the inline content between two block boundaries."""

    text: str
    link_chars: int  # characters of the text that sit inside <a> elements
    tag: str  # the block element it belongs to

    @property
    def is_navigation(self) -> bool:
        """Mostly link text: a menu, a "related" list, a tag cloud."""
        return self.link_chars > MAX_LINK_SHARE * len(self.text)


class _BlockWriter:
    """Accumulates inline text until a block boundary closes the current block."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.parts: list[str] = []
        self.link_chars = 0
        self.tags: list[str] = [""]

    def add(self, text: str, in_link: bool) -> None:
        self.parts.append(text)
        if in_link:
            self.link_chars += len(text.strip())

    def flush(self) -> None:
        text = " ".join("".join(self.parts).split())
        if text:
            self.blocks.append(Block(text, min(self.link_chars, len(text)), self.tags[-1]))
        self.parts.clear()
        self.link_chars = 0


def text_blocks(nodes: Iterable[etree._Element]) -> list[Block]:
    """The text of ``nodes`` as whitespace-normalized blocks, in document order."""
    writer = _BlockWriter()
    for node in nodes:
        # Iterative walk (pages can nest deeper than Python's recursion limit):
        # each element is visited when it opens and again when it closes.
        stack: list[tuple[bool, etree._Element, bool]] = [(True, node, False)]
        while stack:
            opening, element, in_link = stack.pop()
            tag = element.tag if isinstance(element.tag, str) else ""
            is_block = tag in BLOCK_TAGS
            if opening:
                if is_block:
                    writer.flush()
                    writer.tags.append(tag)
                inside = in_link or tag == "a"
                if element.text and tag:
                    writer.add(element.text, inside)
                stack.append((False, element, in_link))
                stack.extend((True, child, inside) for child in reversed(element))
            else:
                if is_block:
                    writer.flush()
                    writer.tags.pop()
                if element.tail and element is not node:
                    writer.add(element.tail, in_link)
        writer.flush()
    return writer.blocks
