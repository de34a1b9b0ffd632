"""A small site whose article is one element, for the span a wrapper parses (forest.extraction.span)."""

from __future__ import annotations

from functools import cache

from forest.config import Settings
from forest.learning.induce import Inducer
from forest.model import Page
from forest.wrapper import Wrapper
from test_induce import ARTICLES, FOOTER, NAV

STORY = '<div class="story-body">'


def page(title: str, paragraphs: list[str], *, footer_at: int | None = None, related_at: int | None = None) -> str:
    """An article page: menu, headline, the story as one element, a related list, then the footer;
    ``footer_at``, ``related_at``: that part sits inside the story, before that paragraph, instead."""
    links = "".join(f'<li><a href="/s/{j}">{headline}</a></li>' for j, (headline, _) in enumerate(ARTICLES))
    related = f'<div class="related"><h3>Related</h3><ul>{links}</ul></div>'
    parts = [f"{p}<br><br>" for p in paragraphs]
    for part, at in sorted(((FOOTER, footer_at), (related, related_at)), key=lambda pair: -1 if pair[1] is None else -pair[1]):
        if at is not None:
            parts.insert(at, part)
    return (
        f"<html><head><title>{title} | Courier</title></head><body>{NAV}<div id=\"page\"><h1>{title}</h1>"
        f'{STORY}{"".join(parts)}</div>{related if related_at is None else ""}'
        f'{FOOTER if footer_at is None else ""}</div></body></html>'
    )


def story(i: int, **options: int) -> str:
    title, paragraphs = ARTICLES[i]
    return page(title, paragraphs, **options)


@cache
def learned() -> Wrapper:
    pages = [Page(story(i), url=f"http://courier.test/{i}") for i in range(5)]
    return Inducer(Settings(classifier=False)).fit(pages, site="courier.test").wrapper_
