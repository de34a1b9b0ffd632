"""A pattern of paragraphs becomes their container when that adds only structure (forest.learning.containers)."""

from __future__ import annotations

import pytest

from forest.html import parse_html
from forest.learning.containers import _parent_xpath, paragraph_containers
from keywords.model import Keywords
from patterns.choose import Choice
from patterns.dom import index_page
from patterns.ranking import ScoredPage, evaluate, score_page

PARAGRAPH = "<p>harbour trawler quay fishermen tide crane cargo pier harbour quay tide story {i}</p>"


def _pages(extra: str) -> list[ScoredPage]:
    pages = []
    for i in range(3):
        body = "".join(PARAGRAPH.format(i=i) for _ in range(4))
        html = f"<html><body><div class='story'>{body}<h2>Heading {i}</h2><ul><li>item one</li></ul>{extra}</div></body></html>"
        index = index_page(parse_html(html).find("body"))
        pages.append(score_page(index, Keywords(("harbour", "quay"), (1.0, 1.0), "tfidf")))
    return pages


def _choose(pages: list[ScoredPage], xpath: str) -> str:
    choice = Choice((evaluate(pages, xpath),), (0, 0, 0))
    return paragraph_containers(choice, pages, "jxu").patterns[0].pattern.xpath


def test_paragraphs_become_their_container_with_headings_and_lists() -> None:
    assert _choose(_pages(""), "//div[@class='story']/p") == "//div[@class='story']"


def test_a_container_with_much_else_keeps_the_paragraphs() -> None:
    share_box = "<div>share this on every network you can name and subscribe to our newsletter today please now</div>"
    assert _choose(_pages(share_box * 3), "//div[@class='story']/p") == "//div[@class='story']/p"


@pytest.mark.parametrize(
    ("xpath", "parent"),
    [("//div[@class='a']/p", "//div[@class='a']"), ("//div[@id='x']/div/p", "//div[@id='x']/div"),
     ("//p", None), ("//div[.//p]", None), ("//div[@class='a']/div", None), ("//div[@class='a/b']/p[1]", "//div[@class='a/b']")],
    ids=["class", "path", "bare", "predicate", "not-p", "slash-in-literal"],
)
def test_parent_xpath(xpath: str, parent: str | None) -> None:
    assert _parent_xpath(xpath) == parent
