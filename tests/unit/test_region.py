"""forest.region: a wrapper's region on a page, its exclusions cut."""

from __future__ import annotations

from lxml import html as lxml_html

from forest import region
from forest.wrapper import Wrapper
from patterns.model import Pattern

ARTICLE = "<p>Dock workers returned to the cranes on Monday after a nine day strike over night shift pay.</p>"
SHARE = "<p>Share this story</p>"
WRAPPER = Wrapper("courier.test", (Pattern("//div[@id='post']", 1.0, 1, 3, terms=20),), exclusions=("//div[@class='share']",))


def _text(html: str) -> str:
    _, blocks = region.select(lxml_html.document_fromstring(html), WRAPPER, "//div[@id='post']")
    return region.to_text(blocks)


def test_an_exclusion_is_cut_however_its_markup_is_indented() -> None:
    # The indentation around the share box is no text: counted as text, it outweighed the article,
    # and the box was taken for a wrapper div around the article and kept.
    indent = "\n" + " " * 2000
    html = f'<html><body><div id="post">{ARTICLE}<div class="share">{indent}{SHARE}{indent}</div></div></body></html>'
    assert _text(html) == lxml_html.fromstring(ARTICLE).text_content()


def test_an_exclusion_holding_most_of_the_region_is_kept() -> None:
    # A wrapper div reused around the article on this page: not the site's boilerplate here.
    html = f'<html><body><div id="post"><div class="share">{ARTICLE}</div>{SHARE}</div></body></html>'
    assert "Dock workers" in _text(html)
