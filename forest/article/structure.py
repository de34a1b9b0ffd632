"""The article's structure: the cleaned region as a list of leaf blocks that know what they are.

A leaf is one line of the article's text (the same boundaries as :func:`patterns.text.text_blocks`:
every block-level element starts and ends one), with what its ancestors make it: a heading of
some level, a list item at some depth, a quoted line, a code block, a table cell, a figure's
caption.  The same rules that clean the text (the site's template blocks, mostly-link blocks)
drop leaves here, so every renderer (markdown, html, text) shows exactly the text's lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import urljoin, urlsplit

from lxml import etree

from patterns.text import BLOCK_TAGS, Block

HEADINGS = {f"h{n}": n for n in range(1, 7)}
# Link schemes kept as links; anything else (javascript:, data:) keeps only its text.
SAFE_SCHEMES = frozenset({"", "http", "https", "mailto", "ftp"})
# A table is a table of data (a pipe table in markdown) when its cells hold only inline
# content and it has at least this many rows and columns; otherwise it lays the page out.
MIN_TABLE_ROWS = 2
MIN_TABLE_COLUMNS = 2
_TABLE_BLOCKS = BLOCK_TAGS - frozenset("br caption tbody td tfoot th thead tr".split())


@dataclass(frozen=True, slots=True)
class Span:
    """A run of a leaf's inline content: text, a link's text and target, inline code, or an image."""

    text: str
    href: str | None = None
    code: bool = False
    image: str | None = None  # the image's source; ``text`` is then its alt text


@dataclass(frozen=True, slots=True)
class Leaf:
    """One line of the article with its structure.

    ``text`` is the line as the text output prints it ('' for an image with no text);
    ``raw`` keeps a code block's whitespace.  ``item`` counts the list items seen at
    ``list_depth`` so renderers can number them and tell an item's first line from the
    lines that continue it (``item_start``).  Table cells carry their table, row and column.
    """

    text: str
    spans: tuple[Span, ...] = ()
    heading: int = 0
    list_depth: int = 0
    ordered: bool = False
    item_start: bool = False
    item: int = 0
    quote: int = 0
    code: bool = False
    raw: str = ""
    table: int = 0
    row: int = 0
    column: int = 0
    header: bool = False
    caption: bool = False
    figure: int = 0
    list_id: int = 0
    link_chars: int = 0

    @property
    def is_image(self) -> bool:
        return not self.text and any(s.image for s in self.spans)


@dataclass(frozen=True, slots=True)
class Document:
    """The article's leaves in page order."""

    leaves: tuple[Leaf, ...] = ()

    @property
    def text(self) -> str:
        """The article's text, one line per leaf: what the text output prints."""
        return "\n".join(leaf.text for leaf in self.leaves if leaf.text)

    def without_leading(self, title: str) -> Document:
        """The document without its first text leaf when that leaf is ``title`` (the headline, printed once)."""
        wanted = " ".join(title.split()).casefold()
        for i, leaf in enumerate(self.leaves):
            if leaf.text:
                if wanted and leaf.text.casefold() == wanted:
                    return Document(self.leaves[:i] + self.leaves[i + 1:])
                return self
        return self


def build(nodes: Sequence[etree._Element], template: frozenset[str] = frozenset(), *, base_url: str | None = None) -> Document:
    """The structure of a region (its exclusions already cut), cleaned as :func:`forest.region.clean` cleans its text."""
    walker = _Walker(base_url)
    for node in nodes:
        walker.walk(node)
        walker.flush()
    kept = [leaf for leaf in walker.leaves if _kept(leaf, template)]
    return Document(tuple(kept))


def _kept(leaf: Leaf, template: frozenset[str]) -> bool:
    if not leaf.text:
        return leaf.is_image
    block = Block(leaf.text, leaf.link_chars)
    return not block.is_navigation and leaf.text not in template


@dataclass(slots=True)
class _Context:
    """Where the walk is; never changed in place (each tag that changes it makes a new one), so a
    line keeps the context it started in."""

    heading: int = 0
    list_depth: int = 0
    ordered: bool = False
    quote: int = 0
    code: bool = False
    table: int = 0
    row: int = 0
    column: int = 0
    header: bool = False
    caption: bool = False
    figure: int = 0
    list_id: int = 0
    link: str | None = None
    inline_code: bool = False


@dataclass(slots=True)
class _Line:
    spans: list[Span] = field(default_factory=list)
    # The text between link edges, as patterns.text counts link characters.
    segments: list[tuple[str, bool]] = field(default_factory=list)
    item_start: bool = False


class _Walker:
    """Walks a region as patterns.text's stylesheet does, recording each line's context."""

    def __init__(self, base_url: str | None) -> None:
        self.base_url = base_url
        self.leaves: list[Leaf] = []
        self.context = _Context()
        self.line = _Line()
        self.line_context = self.context
        self.tables = 0
        self.figures = 0
        self.lists = 0
        self.items: list[int] = []  # item counters per open list
        self.pending_item = False
        self.link_depth = 0

    # --- lines ---

    def add(self, text: str | None) -> None:
        if not text:
            return
        if not self.line.spans and not self.line.segments:
            self.line_context = self.context
        ctx = self.context
        self.line.spans.append(Span(text, href=ctx.link, code=ctx.inline_code))
        self._segment(text)

    def _segment(self, text: str) -> None:
        inside = self.link_depth > 0
        if self.line.segments and self.line.segments[-1][1] == inside:
            self.line.segments[-1] = (self.line.segments[-1][0] + text, inside)
        else:
            self.line.segments.append((text, inside))

    def edge(self) -> None:
        # A link edge splits the text into parts, as the stylesheet's marks do.
        self.line.segments.append(("", self.link_depth > 0))

    def image(self, element: etree._Element) -> None:
        src = self._url(element.get("src") or element.get("data-src") or "")
        if not src or self.context.link is not None and not self.context.caption:
            return  # an icon inside a link is the link's picture, not the article's
        if not self.line.spans and not self.line.segments:
            self.line_context = self.context
        self.line.spans.append(Span(" ".join((element.get("alt") or "").split()), image=src))

    def flush(self) -> None:
        line, ctx = self.line, self.line_context
        self.line = _Line()
        if not line.spans:
            return
        joined = "".join(s.text for s in line.spans if not s.image)
        text = " ".join(joined.split())
        link_chars = sum(len(t.strip()) for t, inside in line.segments if inside)
        item_start = False
        item = 0
        if ctx.list_depth and text:
            item_start = self.pending_item
            self.pending_item = False
            item = self.items[-1] if self.items else 0
        self.leaves.append(Leaf(
            text=text, spans=tuple(line.spans), heading=ctx.heading, list_depth=ctx.list_depth, ordered=ctx.ordered,
            item_start=item_start, item=item, quote=ctx.quote, code=ctx.code, raw=joined.strip("\n") if ctx.code else "",
            table=ctx.table, row=ctx.row, column=ctx.column, header=ctx.header, caption=ctx.caption,
            figure=ctx.figure, list_id=ctx.list_id, link_chars=min(link_chars, len(text)),
        ))

    # --- the walk ---

    def walk(self, element: etree._Element) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag == "img":
            self.image(element)
            self.add(element.tail)
            return
        saved = self.context
        block = tag in BLOCK_TAGS
        if block:
            self.flush()
        self.context = self._enter(element, tag, saved)
        if tag == "a":
            self.link_depth += 1
            self.edge()
        self.add(element.text)
        for child in element:
            self.walk(child)
        if tag == "a":
            self.link_depth -= 1
            self.edge()
        if block:
            self.flush()
        if tag in ("ul", "ol") and self.items:
            self.items.pop()
        self.context = saved
        self.add(element.tail)

    def _enter(self, element: etree._Element, tag: str, ctx: _Context) -> _Context:
        if tag in HEADINGS:
            return replace(ctx, heading=HEADINGS[tag])
        if tag in ("ul", "ol"):
            self.items.append(0)
            self.lists += 1
            return replace(ctx, list_depth=ctx.list_depth + 1, ordered=tag == "ol", list_id=self.lists)
        if tag == "li":
            if self.items:
                self.items[-1] += 1
            self.pending_item = True
            return ctx
        if tag == "blockquote":
            return replace(ctx, quote=ctx.quote + 1)
        if tag == "pre":
            return replace(ctx, code=True)
        if tag == "code" and not ctx.code:
            return replace(ctx, inline_code=True)
        if tag == "a":
            href = self._url(element.get("href") or "")
            return replace(ctx, link=href or None)
        if tag == "table":
            if _is_data_table(element):
                self.tables += 1
                return replace(ctx, table=self.tables, row=0)
            return replace(ctx, table=0)
        if tag in ("td", "th") and ctx.table:
            return replace(ctx, column=_column(element), row=_row(element), header=tag == "th")
        if tag == "figure":
            self.figures += 1
            return replace(ctx, figure=self.figures)
        if tag in ("figcaption", "caption"):
            return replace(ctx, caption=True)
        return ctx

    def _url(self, value: str) -> str:
        value = value.strip()
        if not value or urlsplit(value).scheme.lower() not in SAFE_SCHEMES:
            return ""
        return urljoin(self.base_url, value) if self.base_url else value


def _is_data_table(table: etree._Element) -> bool:
    """A table of data: rows of cells holding inline content only, at least 2 x 2."""
    rows = [tr for tr in table.iter("tr") if _owner(tr, "table") is table]
    if len(rows) < MIN_TABLE_ROWS:
        return False
    if max(len([c for c in tr if c.tag in ("td", "th")]) for tr in rows) < MIN_TABLE_COLUMNS:
        return False
    for cell in (c for tr in rows for c in tr if c.tag in ("td", "th")):
        if any(isinstance(d.tag, str) and d.tag in _TABLE_BLOCKS for d in cell.iterdescendants()):
            return False
    return True


def _owner(element: etree._Element, tag: str) -> etree._Element | None:
    return next(element.iterancestors(tag), None)


def _row(cell: etree._Element) -> int:
    tr = cell.getparent()
    table = _owner(cell, "table")
    if tr is None or table is None:
        return 0
    rows = [r for r in table.iter("tr") if _owner(r, "table") is table]
    return rows.index(tr) + 1 if tr in rows else 0


def _column(cell: etree._Element) -> int:
    parent = cell.getparent()
    cells = [c for c in parent if c.tag in ("td", "th")] if parent is not None else [cell]
    return cells.index(cell) + 1


def table_rows(leaves: Iterable[Leaf]) -> list[list[list[Leaf]]]:
    """One table's leaves as rows of cells, each cell the leaves it holds (none for an empty cell)."""
    cells = list(leaves)
    if not cells:
        return []
    width = max(c.column for c in cells)
    rows: dict[int, list[list[Leaf]]] = {}
    for cell in cells:
        row = rows.setdefault(cell.row, [[] for _ in range(width)])
        if 1 <= cell.column <= width:
            row[cell.column - 1].append(cell)
    return [rows[r] for r in sorted(rows)]


def groups(leaves: Sequence[Leaf]) -> list[list[Leaf]]:
    """The leaves in the runs renderers print as one block: a table's cells, a code block's lines, a figure's
    image and caption; else one leaf each."""
    out: list[list[Leaf]] = []
    for leaf in leaves:
        last = out[-1][-1] if out else None
        if last is not None and (
            (leaf.table and leaf.table == last.table) or (leaf.code and last.code and leaf.quote == last.quote and not leaf.table)
            or (leaf.figure and leaf.figure == last.figure and not leaf.table and not leaf.code)
        ):
            out[-1].append(leaf)
        else:
            out.append([leaf])
    return out


def merged(spans: Sequence[Span]) -> list[Span]:
    """Adjacent runs of the same kind and target joined: a link's text split by inline tags is one link."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and not span.image and not last.image and (span.href, span.code) == (last.href, last.code):
            out[-1] = Span(last.text + span.text, href=span.href, code=span.code)
        else:
            out.append(span)
    return out


def from_blocks(blocks: Iterable[Block]) -> Document:
    """A document of plain paragraphs, for text found without its elements."""
    return Document(tuple(Leaf(b.text, (Span(b.text),), link_chars=b.link_chars) for b in blocks))


def from_owned(blocks: Iterable[tuple[Block, etree._Element]]) -> Document:
    """The document of blocks chosen one by one (the classifier's), each with the block-level element
    owning its text: a heading keeps its level, and a code block its lines, as one leaf per ``<pre>``."""
    leaves: list[Leaf] = []
    code: etree._Element | None = None
    for block, element in blocks:
        pre = next((e for e in element.iterancestors("pre")), None) if element.tag != "pre" else element
        if pre is not None and pre is code:  # the rest of a code block already printed whole
            leaves[-1] = replace(leaves[-1], text=f"{leaves[-1].text} {block.text}")
            continue
        code = pre
        raw = "".join(pre.itertext()).strip("\n") if pre is not None else ""
        heading = HEADINGS.get(element.tag, 0) if isinstance(element.tag, str) else 0
        leaves.append(Leaf(block.text, (Span(block.text),), heading=heading, code=pre is not None, raw=raw,
                           link_chars=block.link_chars))
    return Document(tuple(leaves))
