"""An Article printed as people read it: text, markdown or html, with its title, byline and comments."""

from __future__ import annotations

from dataclasses import replace

from forest.article import clean_html, markdown
from forest.article.structure import Document, from_blocks
from forest.model import Article
from patterns.text import Block

FORMATS = ("text", "markdown", "html")


def with_structure(article: Article, document: Document) -> Article:
    """``article`` carrying its structure and its clean HTML (the same lines as its text)."""
    return replace(article, document=document, html=clean_html.render(document))


def document_of(article: Article) -> Document:
    """The article's structure, or its text as plain paragraphs when it was extracted without one."""
    if article.document is not None:
        return article.document
    return from_blocks(Block(line, 0) for line in article.text.split("\n") if line)


def printed_text(document: Document) -> str:
    """The document as the text output prints it: a line per leaf, and a code block's own lines."""
    return "\n".join(leaf.raw if leaf.code and leaf.raw else leaf.text for leaf in document.leaves if leaf.text)


# The article's own first lines that may hold its byline ("By Ruth Adeyemi 2024-04-16").
BYLINE_LINES = 3


def byline(article: Article) -> str:
    """``by AUTHOR, DATE``, ``by AUTHOR`` or ``DATE`` with what is known; '' when neither is, or when the
    article's own first lines already name the author (the page's byline is in its text: not printed twice)."""
    if not article.author:
        return article.date or ""
    opening = " ".join(" ".join(article.text.split("\n")[:BYLINE_LINES]).split()).casefold()
    if " ".join(article.author.split()).casefold() in opening:
        return ""
    return f"by {article.author}, {article.date}" if article.date else f"by {article.author}"


def render(article: Article, output_format: str, *, links: bool = False, images: bool = False) -> str:
    """The article as ``text``, ``markdown`` or ``html``: its title once (the headline is not repeated as the
    first line), the byline when known, the text, then the comments when they were extracted."""
    document = document_of(article)
    if output_format == "markdown":
        out = markdown.render(document, title=article.title or None, links=links, images=images, byline=byline(article) or None)
        if article.comments is not None and article.comments.leaves:
            out += "\n## Comments\n\n" + markdown.render(article.comments, links=links, images=images)
        return out
    if output_format == "html":
        out = article.html if article.document is not None else clean_html.render(document)
        if article.comments is not None and article.comments.leaves:
            out += '<section class="comments">\n' + clean_html.render(article.comments) + "</section>\n"
        return out
    if output_format != "text":
        raise ValueError(f"unknown format {output_format!r}; one of {', '.join(FORMATS)}")
    lines = [article.title] if article.title else []
    if byline(article):
        lines.append(byline(article))
    body = printed_text(document.without_leading(article.title) if article.title else document)
    if lines and body:
        lines.append("")
    if body:
        lines.append(body)
    if article.comments is not None and article.comments.leaves:
        lines.extend(["", "Comments:", article.comments.text])
    return "\n".join(lines) + "\n" if lines else ""
