"""Render an article's structure as clean HTML: the text's blocks and nothing else.

Built from the structure, not copied from the page: no element or attribute the page had
survives unless this module writes it (headings, paragraphs, lists, quotes, code, tables,
figures, links and images with their targets), so no script, style, event handler, form or
frame can, and every line of the HTML is a line of the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from forest.article.structure import Document, Leaf, Span, groups, merged, table_rows


def render(document: Document) -> str:
    """The article's blocks as an HTML fragment."""
    out: list[str] = []
    lists: list[str] = []  # the open list tags, innermost last
    items: list[bool] = []  # whether each open list has an open <li>
    list_ids: list[int] = []  # which list of the page each open list is
    quote = 0
    for group in groups(document.leaves):
        first = group[0]
        depth = first.list_depth if not first.table else 0
        if first.quote != quote:
            _close_lists(out, lists, items, 0)
        _close_lists(out, lists, items, depth)
        if depth and len(lists) == depth and first.list_id != list_ids[depth - 1]:
            _close_lists(out, lists, items, depth - 1)  # another list at the same depth
        del list_ids[len(lists):]
        while first.quote > quote:
            out.append("<blockquote>")
            quote += 1
        while first.quote < quote:
            out.append("</blockquote>")
            quote -= 1
        if depth and first.item_start and len(lists) == depth and items[-1]:
            out.append("</li>")
            items[-1] = False
        while depth > len(lists):
            tag = "ol" if first.ordered else "ul"
            out.append(f"<{tag}>")
            lists.append(tag)
            items.append(False)
            list_ids.append(first.list_id)
        if depth and (first.item_start or not items[-1]):
            out.append("<li>")
            items[-1] = True
        out.append(_block(group))
    _close_lists(out, lists, items, 0)
    out.extend("</blockquote>" for _ in range(quote))
    return "\n".join(line for line in out if line) + "\n" if out else ""


def _close_lists(out: list[str], lists: list[str], items: list[bool], keep: int) -> None:
    while len(lists) > keep:
        if items.pop():
            out.append("</li>")
        out.append(f"</{lists.pop()}>")


def _block(group: Sequence[Leaf]) -> str:
    first = group[0]
    if first.table:
        rows = table_rows(group)
        lines = ["<table>"]
        for row in rows:
            cells = []
            for cell in row:
                tag = "th" if cell and cell[0].header else "td"
                cells.append(f"<{tag}>{'<br>'.join(inline(leaf.spans) for leaf in cell)}</{tag}>")
            lines.append("<tr>" + "".join(cells) + "</tr>")
        lines.append("</table>")
        return "\n".join(lines)
    if first.code:
        return "<pre><code>" + escape("\n".join(leaf.raw or leaf.text for leaf in group)) + "</code></pre>"
    if first.figure:
        return "<figure>" + "".join(
            f"<figcaption>{inline(leaf.spans)}</figcaption>" if leaf.text else inline(leaf.spans) for leaf in group
        ) + "</figure>"
    content = inline(first.spans)
    if first.heading:
        return f"<h{first.heading}>{content}</h{first.heading}>"
    if first.caption:
        return f"<figcaption>{content}</figcaption>"
    return f"<p>{content}</p>"


def inline(spans: Sequence[Span]) -> str:
    """A leaf's inline content as HTML: text, links, inline code and images, whitespace normalized."""
    out: list[str] = []
    for span in merged(spans):
        if span.image:
            out.append(f'<img src="{escape(span.image)}" alt="{escape(span.text)}">')
            continue
        text = escape(" ".join(span.text.split()))
        if not text:
            out.append(" " if span.text else "")
            continue
        before = " " if span.text[:1].isspace() else ""
        after = " " if span.text[-1:].isspace() else ""
        if span.code:
            text = f"<code>{text}</code>"
        if span.href:
            text = f'<a href="{escape(span.href)}">{text}</a>'
        out.append(before + text + after)
    return " ".join("".join(out).split())
