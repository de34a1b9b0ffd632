"""Text blocks of a DOM region: the unit that template removal and output work on."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from collections.abc import Iterable, Sequence

from lxml import etree

from patterns import _blocks
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
    # Block.words and Block.is_prose inlined, each block's words counted once: extraction with a
    # wrapper weighs every region it returns.
    total = prose = 0
    for block in blocks:
        text = block.text
        words = text.count(" ") + 1
        total += words
        if words >= PROSE_WORDS and not block.link_chars > MAX_LINK_SHARE * len(text):
            prose += words
    return prose / total if total else 0.0


# Block boundaries and link edges, marked in the text the stylesheet writes: characters of
# Unicode's private use area, which no page's text uses in earnest.
_BREAK, _LINK_OPEN, _LINK_CLOSE = "\ue000", "\ue001", "\ue002"
_MARKS = re.compile("([\ue001\ue002])")


_XSL = "http://www.w3.org/1999/XSL/Transform"


@functools.lru_cache(maxsize=256)
def _stylesheet(skip: tuple[str, ...] = ()) -> etree.XSLT:
    """The walk that writes a region's text with block and link marks, skipping the ``skip`` patterns.

    libxslt walks the region, and cuts a wrapper's exclusions in the same pass (an empty
    template per exclusion, above every other).  It is the reference of the walk in C
    (patterns._blocks), which writes the text wherever it reads the patterns (learned ones
    always): the stylesheet made a document and a result tree per region node and cost a fifth
    of extraction with a stored wrapper.  Compiled once per set of exclusions, and always: its
    compilation is what checks the patterns.

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
    transform = _stylesheet(skip)  # compiled even where the walk in C reads the text: it checks the patterns
    program = _program(skip)
    for node in nodes:
        # The walk in C (patterns._blocks) where it reads the node and the skip patterns as the
        # stylesheet does; else the stylesheet, its reference.
        found = _blocks.blocks(node, BLOCK_TAGS, program, Block) if program is not None else None
        blocks.extend(found if found is not None else _lines(_transformed(node, transform)))
    return blocks


def text_lengths(node: etree._Element) -> tuple[int, int]:
    """The length of ``node``'s text (without its tail) as ``etree.tostring(node, method="text")``
    writes it, and of that text whitespace-normalized (``" ".join(text.split())``): counted in C
    (patterns._blocks) without making the text."""
    lengths = _blocks.text_lengths(node)
    if lengths is None:  # an entity's text among it: lxml's reading
        text: str = etree.tostring(node, method="text", encoding="unicode", with_tail=False)
        return len(text), len(" ".join(text.split()))
    return lengths


def _transformed(node: etree._Element, transform: etree.XSLT) -> str:
    """The stylesheet's text of ``node``, with its block and link marks."""
    try:
        return str(transform(node))
    finally:
        # libxslt leaves its own numbering of this subtree's elements, which XPath would then
        # sort the page's nodes by: a later union of learning's or a field's XPath came back
        # out of document order.
        forget_order(node)


def _lines(written: str) -> list[Block]:
    """The blocks of one node's text as the stylesheet writes it, its marks read."""
    blocks: list[Block] = []
    depth = 0  # <a> elements open here: a link may span block boundaries
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


# What the walk in C (patterns._blocks) reads of a skip pattern: steps of element names and
# predicates on the element's own attributes.  Any other pattern (a position, an axis, a number,
# another function) is left to the stylesheet.
_TOKEN = re.compile(r"""\s*(?:('[^']*'|"[^"]*")|([A-Za-z_][\w.\-]*)|(\S))""")
_FUNCTIONS = frozenset({"contains", "starts-with", "not", "concat", "normalize-space", "string"})


class _Unsupported(Exception):
    """A skip pattern the walk in C does not read."""


@functools.lru_cache(maxsize=256)
def _program(skip: tuple[str, ...]) -> tuple[object, ...] | None:
    """``skip`` compiled for patterns._blocks.marked_text (each pattern's steps, last first), or
    None when one of them is not of the form it reads."""
    try:
        return tuple(_Pattern(pattern).compiled() for pattern in skip)
    except _Unsupported:
        return None


class _Pattern:
    """A recursive descent over one skip pattern's tokens (see patterns._blocks for what it makes)."""

    def __init__(self, pattern: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        at = 0
        while at < len(pattern):
            match = _TOKEN.match(pattern, at)
            if match is None:  # only spaces are left
                break
            literal, name, other = match.groups()
            self.tokens.append(("literal", literal[1:-1]) if literal else ("name", name) if name else ("char", other))
            at = match.end()
        self.at = 0

    def _peek(self, kind: str, value: str | None = None) -> bool:
        if self.at >= len(self.tokens):
            return False
        token = self.tokens[self.at]
        return token[0] == kind and (value is None or token[1] == value)

    def _take(self, kind: str, value: str | None = None) -> str:
        if not self._peek(kind, value):
            raise _Unsupported
        self.at += 1
        return self.tokens[self.at - 1][1]

    def compiled(self) -> tuple[object, ...]:
        steps = [self._step()]
        while self._peek("char", "/"):
            self.at += 1
            steps.append(self._step())
        if self.at != len(self.tokens):
            raise _Unsupported
        return tuple(reversed(steps))

    def _step(self) -> tuple[object, ...]:
        if self._peek("char", "*"):
            self.at += 1
            name = None
        else:
            name = self._take("name").encode("utf-8")
            if self._peek("char", "("):  # a node test (text(), node()) or id(), key()
                raise _Unsupported
        predicates = []
        while self._peek("char", "["):
            self.at += 1
            predicates.append(self._boolean(self._or()))
            self._take("char", "]")
        return (name, tuple(predicates))

    # Values are (type, compiled): a "nodes" value is an attribute's name (@name), a "string" a
    # string opcode's tuple, a "boolean" a predicate opcode's tuple.

    def _or(self) -> tuple[str, object]:
        left = self._and()
        while self._peek("name", "or"):
            self.at += 1
            left = ("boolean", (_blocks.OR, self._boolean(left), self._boolean(self._and())))
        return left

    def _and(self) -> tuple[str, object]:
        left = self._equality()
        while self._peek("name", "and"):
            self.at += 1
            left = ("boolean", (_blocks.AND, self._boolean(left), self._boolean(self._equality())))
        return left

    def _equality(self) -> tuple[str, object]:
        left = self._primary()
        if not self._peek("char", "="):
            return left
        self.at += 1
        right = self._primary()
        if left[0] == "nodes" and right[0] == "string" and right[1][0] == _blocks.LITERAL:  # type: ignore[index]
            return ("boolean", (_blocks.EQUALS, left[1], right[1][1]))  # type: ignore[index]
        if right[0] == "nodes" and left[0] == "string" and left[1][0] == _blocks.LITERAL:  # type: ignore[index]
            return ("boolean", (_blocks.EQUALS, right[1], left[1][1]))  # type: ignore[index]
        if left[0] == right[0] == "string":
            return ("boolean", (_blocks.SAME, left[1], right[1]))
        raise _Unsupported

    def _primary(self) -> tuple[str, object]:
        if self._peek("literal"):
            return ("string", (_blocks.LITERAL, self._take("literal").encode("utf-8")))
        if self._peek("char", "@"):
            self.at += 1
            return ("nodes", self._take("name").encode("utf-8"))
        if self._peek("char", "("):
            self.at += 1
            inner = self._or()
            self._take("char", ")")
            return inner
        function = self._take("name")
        if function not in _FUNCTIONS:
            raise _Unsupported
        self._take("char", "(")
        arguments = [self._or()] if not self._peek("char", ")") else []
        while self._peek("char", ","):
            self.at += 1
            arguments.append(self._or())
        self._take("char", ")")
        if function in ("contains", "starts-with") and len(arguments) == 2:
            opcode = _blocks.CONTAINS if function == "contains" else _blocks.STARTS
            return ("boolean", (opcode, self._string(arguments[0]), self._string(arguments[1])))
        if function == "not" and len(arguments) == 1:
            return ("boolean", (_blocks.NOT, self._boolean(arguments[0])))
        if function == "concat" and len(arguments) >= 2:
            return ("string", (_blocks.CONCAT, tuple(self._string(a) for a in arguments)))
        if function == "normalize-space" and len(arguments) == 1:
            return ("string", (_blocks.NORMALIZED, self._string(arguments[0])))
        if function == "string" and len(arguments) == 1:
            return ("string", self._string(arguments[0]))
        raise _Unsupported

    @staticmethod
    def _string(value: tuple[str, object]) -> object:
        if value[0] == "string":
            return value[1]
        if value[0] == "nodes":
            return (_blocks.ATTRIBUTE, value[1])
        raise _Unsupported  # a boolean as a string ('true', 'false'): not in a learned pattern

    @staticmethod
    def _boolean(value: tuple[str, object]) -> object:
        if value[0] == "boolean":
            return value[1]
        if value[0] == "nodes":
            return (_blocks.HAS, value[1])
        raise _Unsupported  # a string as a boolean (not empty): not in a learned pattern
