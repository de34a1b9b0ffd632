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

    @property
    def is_navigation(self) -> bool:
        """Mostly link text: a menu, a "related" list, a tag cloud."""
        return self.link_chars > MAX_LINK_SHARE * len(self.text)


def text_blocks(nodes: Iterable[etree._Element]) -> list[Block]:
    """The text of ``nodes`` as whitespace-normalized blocks, in document order."""
    blocks: list[Block] = []
    block_tags = BLOCK_TAGS
    for node in nodes:
        parts: list[str] = []
        link_chars = 0
        links = 0  # <a> elements open around the current position
        # iterwalk is lxml's C-level walk and never recurses.  This loop is the hottest
        # code of extraction: hence the locals and the flush written out twice.
        for event, element in etree.iterwalk(node, events=("start", "end")):
            tag = element.tag
            if event == "start":
                if tag in block_tags:
                    if parts:
                        line = " ".join("".join(parts).split())
                        if line:
                            blocks.append(Block(line, min(link_chars, len(line))))
                        parts = []
                        link_chars = 0
                elif tag == "a":
                    links += 1
                text = element.text
                if text:
                    parts.append(text)
                    if links:
                        link_chars += len(text.strip())
                continue
            if tag in block_tags:
                if parts:
                    line = " ".join("".join(parts).split())
                    if line:
                        blocks.append(Block(line, min(link_chars, len(line))))
                    parts = []
                    link_chars = 0
            elif tag == "a":
                links -= 1
            tail = element.tail
            if tail and element is not node:
                parts.append(tail)
                if links:
                    link_chars += len(tail.strip())
        if parts:
            line = " ".join("".join(parts).split())
            if line:
                blocks.append(Block(line, min(link_chars, len(line))))
    return blocks
