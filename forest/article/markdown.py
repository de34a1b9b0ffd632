"""Render an article's structure as CommonMark: headings, lists, quotes, code, pipe tables; the text escaped."""

from __future__ import annotations

import re
from collections.abc import Sequence

from forest.article.structure import Document, Leaf, Span, groups, merged, table_rows

# Characters that start markup anywhere in a line (backslash-escaped, as CommonMark allows
# for any ASCII punctuation): emphasis, code, links, raw HTML and autolinks, escapes.
_INLINE = re.compile(r"([\\`*_\[\]<])")
_ENTITY = re.compile(r"&(?=#?\w+;)")
# What starts a block at the beginning of a line: a heading, a quote, a list item, a
# setext underline or thematic break, a fence.
_LINE_START = re.compile(r"^(#|>|[-+=~])")
_ORDERED_START = re.compile(r"^(\d{1,9})([.)])")
# Nested lists are indented by this much per level: past the widest marker ("99. ").
_INDENT = "    "


def escape(text: str, *, table: bool = False) -> str:
    """``text`` with the characters CommonMark would read as markup backslash-escaped."""
    text = _ENTITY.sub(r"\\&", _INLINE.sub(r"\\\1", text))
    return text.replace("|", r"\|") if table else text


def render(document: Document, *, title: str | None = None, links: bool = False, images: bool = False,
           byline: str | None = None) -> str:
    """The article as CommonMark.

    :param title: printed as the level-1 heading (and not again when it is the first line).
    :param links: keep links as ``[text](url)``; otherwise their text only.
    :param images: keep images as ``![alt](src)``; otherwise dropped.
    :param byline: a line under the title (author, date).
    """
    parts: list[str] = []
    if title:
        parts.append("# " + _line_start(escape(" ".join(title.split()))))
        document = document.without_leading(title)
    if byline:
        parts.append(_line_start(escape(byline)))
    previous: Leaf | None = None
    for group in groups(document.leaves):
        first = group[0]
        if first.table:
            block = _table(group, links=links, images=images)
        elif first.code:
            block = _code(group)
        elif len(group) > 1:  # a figure: its image, then its caption
            block = "\n\n".join(b for b in (_leaf(leaf, links=links, images=images) for leaf in group) if b)
        else:
            block = _leaf(first, links=links, images=images)
        if not block:
            continue
        quote = "> " * first.quote
        block = "\n".join((quote + line).rstrip() if line or quote else "" for line in block.split("\n"))
        tight = (previous is not None and previous.list_depth and first.list_depth and first.item_start
                 and first.quote == previous.quote
                 and not (first.list_depth == previous.list_depth and first.list_id != previous.list_id))
        if tight and parts:
            parts[-1] += "\n" + block
        else:
            if quote and previous is not None and previous.quote and parts:
                parts[-1] += "\n" + quote.rstrip() + "\n" + block  # one quote, not a new one per paragraph
            else:
                parts.append(block)
        previous = group[-1]
    return "\n\n".join(parts) + "\n" if parts else ""


def inline(spans: Sequence[Span], *, links: bool, images: bool, table: bool = False) -> str:
    """A leaf's inline content as CommonMark, its whitespace normalized."""
    out: list[str] = []
    for span in merged(spans):
        if span.image:
            if images:
                out.append(f" ![{escape(span.text, table=table)}]({_target(span.image)}) ")
            continue
        text = span.text
        if span.code:
            code = " ".join(text.split())
            if code:
                fence = "`" * (_longest_run(code, "`") + 1)
                pad = " " if code.startswith("`") or code.endswith("`") else ""
                out.append(_spaced(text, f"{fence}{pad}{code}{pad}{fence}"))
            continue
        if span.href and links and text.strip():
            label = escape(" ".join(text.split()), table=table)
            out.append(_spaced(text, f"[{label}]({_target(span.href)})"))
            continue
        out.append(escape(text, table=table))
    return " ".join("".join(out).split())


def _leaf(leaf: Leaf, *, links: bool, images: bool) -> str:
    content = _line_start(inline(leaf.spans, links=links, images=images))
    if not content:
        return ""
    if leaf.heading:
        return "#" * leaf.heading + " " + content
    if leaf.list_depth:
        indent = _INDENT * (leaf.list_depth - 1)
        if leaf.item_start:
            marker = f"{leaf.item or 1}. " if leaf.ordered else "- "
            return indent + marker + content
        return indent + _INDENT + content
    return content


def _code(group: Sequence[Leaf]) -> str:
    body = "\n".join(leaf.raw or leaf.text for leaf in group)
    fence = "`" * max(3, _longest_run(body, "`") + 1)
    return f"{fence}\n{body}\n{fence}"


def _table(group: Sequence[Leaf], *, links: bool, images: bool) -> str:
    rows = table_rows(group)
    if not rows:
        return ""
    cells = [[" ".join(inline(leaf.spans, links=links, images=images, table=True) for leaf in cell) for cell in row] for row in rows]
    width = max(len(row) for row in cells)
    lines = ["| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in cells]
    lines.insert(1, "|" + "|".join(" --- " for _ in range(width)) + "|")
    return "\n".join(lines)


def _line_start(text: str) -> str:
    if text.startswith("\\"):
        return text
    return _ORDERED_START.sub(r"\1\\\2", _LINE_START.sub(r"\\\1", text, count=1), count=1)


def _spaced(original: str, rendered: str) -> str:
    # Markup hugs its text; the spaces around the text stay outside it.
    before = " " if original[:1].isspace() else ""
    after = " " if original[-1:].isspace() else ""
    return before + rendered + after


def _target(url: str) -> str:
    if any(c in url for c in " ()<>"):
        return "<" + url.replace("<", "%3C").replace(">", "%3E") + ">"
    return url


def _longest_run(text: str, char: str) -> int:
    return max((len(run) for run in re.findall(f"{re.escape(char)}+", text)), default=0)
